import { describe, expect, it } from 'vitest';
import {
  commentSegment,
  empty,
  exifSegment,
  jfifSegment,
  jpegBare,
  jpegExif,
  jpegJfif,
  jpegNoDensity,
  jpegOfSize,
  jpegWith,
  pdf,
  pixelsPerMetre,
  png,
} from '../../../tests/support/fixtures';
import { DOCUMENT_MAX_BYTES, IMAGE_MAX_BYTES } from '../constants';
import {
  BUSINESS_CARD_PURPOSE,
  BUSINESS_CARD_RULE,
  checkFile as checkByRule,
  checkFileReference as checkReferenceByRule,
  detectType,
  purposeRule,
  readDpi,
  safeFileName,
  uploadRules,
  withoutEmptyFiles,
} from './files';
import { PROJECT_UPLOADS } from '../../../tests/support/project-uploads';

const MIB = 1024 * 1024;
const keys = (problems: { key: string }[]) => problems.map((p) => p.key);

// The purposes as the project declares them (forms.yaml `uploads:`): the spec's V3 rules are checked
// on what the portal runs, not on a copy of them.
const PROJECT = PROJECT_UPLOADS;
const ruleOf = (purpose: string) => {
  const rule = purposeRule(PROJECT, purpose);
  if (!rule) throw new Error(`forms.yaml declares no purpose "${purpose}"`);
  return rule;
};
const checkFile = (purpose: string, file: { name: string; bytes: Uint8Array }) => checkByRule(ruleOf(purpose), file);
const checkFileReference = (purpose: string, ref: Parameters<typeof checkReferenceByRule>[1]) => checkReferenceByRule(ruleOf(purpose), ref);

describe('V3 file purposes are data (forms.yaml uploads:)', () => {
  it('uploadRules turns megabytes into bytes and keeps a least dpi only where one is declared', () => {
    expect(uploadRules({ poster: { types: ['pdf', 'png'], maxMegabytes: 1.5 }, photo: { types: ['jpeg'], maxMegabytes: 2, minDpi: 150 } })).toEqual({
      poster: { types: ['pdf', 'png'], maxBytes: 1.5 * MIB },
      photo: { types: ['jpeg'], maxBytes: 2 * MIB, minDpi: 150 },
    });
    expect(uploadRules(undefined)).toEqual({});
  });

  it("a purpose is the set's or the portal's own business card; anything else has no rule", () => {
    expect(purposeRule({}, BUSINESS_CARD_PURPOSE)).toBe(BUSINESS_CARD_RULE);
    expect(purposeRule(PROJECT, 'logo')).toBe(PROJECT.logo);
    expect(purposeRule(PROJECT, 'avatar')).toBeUndefined();
    expect(purposeRule(PROJECT, 'toString')).toBeUndefined();
    expect(purposeRule(PROJECT, 42)).toBeUndefined();
  });
});

describe('V2 detectType: by content, not by name', () => {
  it('V2 recognises JPEG, PNG, PDF, GIF and WebP by their magic bytes', () => {
    expect(detectType(jpegJfif(300))).toBe('jpeg');
    expect(detectType(jpegBare())).toBe('jpeg');
    expect(detectType(png())).toBe('png');
    expect(detectType(pdf())).toBe('pdf');
    expect(detectType(new TextEncoder().encode('GIF89a\x01\x00\x01\x00'))).toBe('gif');
    expect(detectType(new TextEncoder().encode('RIFF\x24\x00\x00\x00WEBPVP8 '))).toBe('webp');
  });

  it('V2 answers null for anything else, short or empty input included', () => {
    expect(detectType(empty())).toBeNull();
    expect(detectType(Uint8Array.of(0xff, 0xd8))).toBeNull();
    expect(detectType(new TextEncoder().encode('hello, world'))).toBeNull();
    expect(detectType(new TextEncoder().encode('RIFF\x24\x00\x00\x00WAVEfmt '))).toBeNull();
  });

  it('V2 a JPEG padded past 2 MB is still a JPEG', () => {
    const big = jpegOfSize(IMAGE_MAX_BYTES + 1);
    expect(big.length).toBe(IMAGE_MAX_BYTES + 1);
    expect(detectType(big)).toBe('jpeg');
    expect(readDpi(big)).toBe(300);
  });
});

describe('V3 readDpi', () => {
  it('V3 reads the JFIF density in dots per inch', () => {
    expect(readDpi(jpegJfif(300))).toBe(300);
    expect(readDpi(jpegJfif(72))).toBe(72);
  });

  it('V3 converts a JFIF density in dots per cm to dpi, rounded', () => {
    expect(readDpi(jpegJfif(118, 2))).toBe(300); // 299.72
    expect(readDpi(jpegJfif(28, 2))).toBe(71); // 71.12
  });

  it('V3 JFIF units 0 (aspect ratio only) and a JPEG without APP segments record no density', () => {
    expect(readDpi(jpegNoDensity())).toBeNull();
    expect(readDpi(jpegWith(jfifSegment(0, 300)))).toBeNull();
    expect(readDpi(jpegBare())).toBeNull();
  });

  it('V3 reads EXIF XResolution in both byte orders, with the TIFF default unit (inch) when it is missing', () => {
    expect(readDpi(jpegExif({ x: 300 }))).toBe(300);
    expect(readDpi(jpegExif({ x: 300, littleEndian: true }))).toBe(300);
    expect(readDpi(jpegExif({ x: 350, denominator: 10, littleEndian: true }))).toBe(350);
    expect(readDpi(jpegExif({ x: 300, omitUnit: true }))).toBe(300);
  });

  it('V3 converts EXIF centimetres; EXIF unit 1 (none) records no density', () => {
    expect(readDpi(jpegExif({ x: 118, unit: 3 }))).toBe(300);
    expect(readDpi(jpegExif({ x: 300, unit: 1 }))).toBeNull();
  });

  it('V3 takes the smaller of the horizontal and vertical resolution', () => {
    expect(readDpi(jpegWith(jfifSegment(1, 300, 150)))).toBe(150);
    expect(readDpi(jpegExif({ x: 600, y: 240 }))).toBe(240);
  });

  it('V3 EXIF wins over JFIF when both record a density; JFIF counts when EXIF records none', () => {
    expect(readDpi(jpegWith(jfifSegment(1, 72), exifSegment({ x: 300 })))).toBe(300);
    expect(readDpi(jpegWith(jfifSegment(1, 300), exifSegment({ x: 300, unit: 1 })))).toBe(300);
    expect(readDpi(jpegWith(jfifSegment(0, 1), exifSegment({ x: 72, littleEndian: true })))).toBe(72);
  });

  it('V3 walks past comment segments to the density', () => {
    expect(readDpi(jpegWith(commentSegment(100), exifSegment({ x: 300 })))).toBe(300);
  });

  it('V3 reads a PNG pHYs chunk (pixels per metre) as dpi; none, or unit 0, records no density', () => {
    expect(readDpi(png({ pixelsPerMetre: pixelsPerMetre(300) }))).toBe(300);
    expect(readDpi(png({ pixelsPerMetre: 2835 }))).toBe(72);
    expect(readDpi(png({ pixelsPerMetre: 11811, unit: 0 }))).toBeNull();
    expect(readDpi(png())).toBeNull();
  });

  it('V3 PDFs and unknown bytes record no density; broken headers never throw', () => {
    expect(readDpi(pdf())).toBeNull();
    expect(readDpi(empty())).toBeNull();
    const truncated = jpegExif({ x: 300 }).subarray(0, 30);
    expect(readDpi(truncated)).toBeNull();
    const lying = jpegExif({ x: 300 });
    lying[lying.indexOf(0x4d) + 7] = 0xff; // IFD0 offset far past the end
    expect(() => readDpi(lying)).not.toThrow();
    expect(readDpi(lying)).toBeNull();
  });
});

describe('V2 safeFileName', () => {
  it('V2 accepts letters of any script, digits, space, dot, dash, underscore and parentheses', () => {
    for (const name of ['Logo 2027 (final)_v2.jpg', '展位设计.pdf', 'ブース図面-1.pdf', 'Thiết kế gian hàng.jpeg', 'brochure.PDF', 'a']) {
      expect({ name, safe: safeFileName(name) }).toEqual({ name, safe: true });
    }
  });

  it('V2 rejects path separators, "..", special and control characters, hidden and overlong names', () => {
    for (const name of [
      '../logo.jpg',
      'logo/../x.jpg',
      'dir/logo.jpg',
      'C:\\fakepath\\logo.jpg',
      'logo..jpg',
      '<script>.jpg',
      'logo<>.jpg',
      'logo;rm.jpg',
      "o'brien.jpg",
      'logo\u0000.jpg',
      'logo\n.jpg',
      'logo\u202e.gpj',
      '.htaccess',
      ' logo.jpg',
      'logo.jpg ',
      'logo.',
      '',
      `${'a'.repeat(117)}.jpg`,
    ]) {
      expect({ name, safe: safeFileName(name) }).toEqual({ name, safe: false });
    }
    expect(safeFileName(`${'a'.repeat(116)}.jpg`)).toBe(true);
    expect(safeFileName(`${'展'.repeat(116)}.pdf`)).toBe(true);
  });
});

describe('V2/V3 checkFile', () => {
  const logo = (bytes: Uint8Array, name = 'logo.jpg') => checkFile('logo', { name, bytes });

  it('V3 a 300 dpi JPEG is a good logo and product image', () => {
    expect(logo(jpegJfif(300))).toEqual([]);
    expect(checkFile('productImage', { name: 'Logo 2027 (final)_v2.jpg', bytes: jpegJfif(600) })).toEqual([]);
  });

  it('V3 a 72 dpi JPEG is rejected for the logo with the dpi message', () => {
    expect(logo(jpegJfif(72))).toEqual([{ key: 'validation.file.dpi', params: { limit: 300, dpi: 72 } }]);
  });

  it('V3 a JPEG without density is rejected with noDpi', () => {
    expect(logo(jpegNoDensity())).toEqual([{ key: 'validation.file.noDpi', params: { limit: 300 } }]);
    expect(keys(logo(jpegBare()))).toEqual(['validation.file.noDpi']);
  });

  it('V3 a JPEG with only EXIF at 300 dpi is accepted', () => {
    expect(logo(jpegExif({ x: 300 }))).toEqual([]);
    expect(logo(jpegExif({ x: 300, littleEndian: true }))).toEqual([]);
  });

  it('V3 a density in dots per cm is converted (118 dots/cm ≈ 300 dpi passes, 100 dots/cm ≈ 254 dpi fails)', () => {
    expect(logo(jpegJfif(118, 2))).toEqual([]);
    expect(logo(jpegJfif(100, 2))).toEqual([{ key: 'validation.file.dpi', params: { limit: 300, dpi: 254 } }]);
  });

  it('V2 a PNG named .jpg is rejected for the logo: the type is read from the content', () => {
    const bytes = png({ pixelsPerMetre: pixelsPerMetre(300) });
    expect(detectType(bytes)).toBe('png');
    expect(logo(bytes, 'logo.jpg')).toEqual([{ key: 'validation.file.type', params: { types: 'JPEG' } }]);
  });

  it('V2 an empty file is rejected with "Cannot upload empty file!" first, and nothing else about its content', () => {
    expect(logo(empty())).toEqual([{ key: 'validation.file.empty' }]);
    expect(checkFile('boothDesign', { name: 'x.pdf', bytes: empty() })).toEqual([{ key: 'validation.file.empty' }]);
    expect(keys(logo(empty(), 'a/b.jpg'))).toEqual(['validation.file.empty', 'validation.file.name']);
  });

  it('V3 a JPEG over 2 MB is rejected for the logo with the limit in MB; 2 MB exactly passes', () => {
    expect(logo(jpegOfSize(IMAGE_MAX_BYTES + 1))).toEqual([{ key: 'validation.file.tooLarge', params: { limit: 2 } }]);
    expect(logo(jpegOfSize(IMAGE_MAX_BYTES))).toEqual([]);
  });

  it('V3 a PDF is accepted for the booth design and the brochure, not for the logo or a passport photo', () => {
    expect(checkFile('boothDesign', { name: '展位设计.pdf', bytes: pdf() })).toEqual([]);
    expect(checkFile('brochure', { name: 'brochure.pdf', bytes: pdf() })).toEqual([]);
    expect(logo(pdf(), 'logo.pdf')).toEqual([{ key: 'validation.file.type', params: { types: 'JPEG' } }]);
    expect(checkFile('passportPhoto', { name: 'p.pdf', bytes: pdf() })).toEqual([{ key: 'validation.file.type', params: { types: 'JPEG, PNG' } }]);
  });

  it('V3 the booth design takes a JPEG of any resolution up to 10 MB; a PNG is not accepted', () => {
    expect(checkFile('boothDesign', { name: 'booth.jpg', bytes: jpegJfif(72) })).toEqual([]);
    expect(checkFile('boothDesign', { name: 'booth.jpg', bytes: jpegOfSize(5 * MIB) })).toEqual([]);
    expect(checkFile('boothDesign', { name: 'booth.jpg', bytes: jpegOfSize(DOCUMENT_MAX_BYTES + 1) })).toEqual([{ key: 'validation.file.tooLarge', params: { limit: 10 } }]);
    expect(checkFile('boothDesign', { name: 'booth.png', bytes: png() })).toEqual([{ key: 'validation.file.type', params: { types: 'JPEG, PDF' } }]);
  });

  it('V3 passport photo and business card take JPEG or PNG without a resolution rule', () => {
    expect(checkFile('passportPhoto', { name: 'passport.png', bytes: png() })).toEqual([]);
    expect(checkFile('businessCard', { name: 'card.jpg', bytes: jpegNoDensity() })).toEqual([]);
  });

  it('V2 names with "/", "..", "<>" are rejected; "Logo 2027 (final)_v2.jpg" and "展位设计.pdf" are accepted', () => {
    for (const name of ['dir/logo.jpg', '../logo.jpg', 'logo..jpg', '<logo>.jpg']) {
      expect({ name, problems: logo(jpegJfif(300), name) }).toEqual({ name, problems: [{ key: 'validation.file.name' }] });
    }
    expect(logo(jpegJfif(300), 'Logo 2027 (final)_v2.jpg')).toEqual([]);
    expect(checkFile('boothDesign', { name: '展位设计.pdf', bytes: pdf() })).toEqual([]);
  });

  it('V2 reports every problem in a fixed order: name, type, size', () => {
    const bigPng = new Uint8Array(IMAGE_MAX_BYTES + 10);
    bigPng.set(png());
    expect(keys(logo(bigPng, '<x>.jpg'))).toEqual(['validation.file.name', 'validation.file.type', 'validation.file.tooLarge']);
  });
});

describe("V2/V3 checkFileReference (the keyword on a form's file reference)", () => {
  const ref = { id: 'abc', name: 'logo.jpg', size: 1234, type: 'jpeg', dpi: 300 };

  it('V3 accepts a reference that meets the purpose', () => {
    expect(checkFileReference('logo', ref)).toEqual([]);
    expect(checkFileReference('boothDesign', { ...ref, name: '展位设计.pdf', type: 'pdf', dpi: null })).toEqual([]);
  });

  it('V2/V3 uses the size, type and dpi the reference records', () => {
    expect(checkFileReference('logo', { ...ref, size: 0 })).toEqual([{ key: 'validation.file.empty' }]);
    expect(checkFileReference('logo', { ...ref, type: 'png' })).toEqual([{ key: 'validation.file.type', params: { types: 'JPEG' } }]);
    expect(checkFileReference('logo', { ...ref, size: IMAGE_MAX_BYTES + 1 })).toEqual([{ key: 'validation.file.tooLarge', params: { limit: 2 } }]);
    expect(checkFileReference('logo', { ...ref, dpi: null })).toEqual([{ key: 'validation.file.noDpi', params: { limit: 300 } }]);
    expect(checkFileReference('logo', { ...ref, dpi: 72 })).toEqual([{ key: 'validation.file.dpi', params: { limit: 300, dpi: 72 } }]);
    expect(checkFileReference('logo', { ...ref, name: '../etc/passwd' })).toEqual([{ key: 'validation.file.name' }]);
  });
});

describe('V2 F9 withoutEmptyFiles', () => {
  const schema = {
    type: 'object',
    properties: {
      design: { type: 'object', file: 'boothDesign' },
      note: { type: 'object' },
      people: { type: 'array', items: { type: 'object', properties: { passport: { type: 'object', file: 'passportPhoto' }, name: { type: 'string' } } } },
    },
  };
  it('drops the {} of file fields nobody filled, at any depth, and keeps every other value', () => {
    const reference = { id: 'abc', name: 'stand.pdf', size: 10, type: 'pdf' };
    expect(withoutEmptyFiles(schema, { design: {}, note: {}, people: [{ passport: {}, name: 'Tan' }, { passport: reference }] })).toEqual({
      note: {},
      people: [{ name: 'Tan' }, { passport: reference }],
    });
    expect(withoutEmptyFiles(schema, { design: reference })).toEqual({ design: reference });
  });
});
