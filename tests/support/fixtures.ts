// Real files for the upload tests, made in memory without image libraries: a small real JPEG and
// PNG (encoded by Chromium's canvas, then stripped of their metadata) whose density headers are
// rewritten here, and a minimal but complete PDF. Plain Uint8Array, so the same fixtures serve
// the engine's unit tests (jsdom) and the server tests (node).

const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const u16be = (value: number) => Uint8Array.of((value >> 8) & 0xff, value & 0xff);
const u32be = (value: number) => Uint8Array.of((value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff);
const u16 = (value: number, little: boolean) => (little ? u16be(value).reverse() : u16be(value));
const u32 = (value: number, little: boolean) => (little ? u32be(value).reverse() : u32be(value));

// ---- JPEG ------------------------------------------------------------------------------------

/**
 * An 8x8 baseline JPEG (green with a yellow square) from Chromium's encoder, with its APP0 (JFIF)
 * and APP2 (ICC) segments removed: SOI, two DQT, SOF0, four DHT, SOS, scan data, EOI.
 */
const BASE_JPEG = fromBase64(
  '/9j/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAAIAAgDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAT/xAAbEAEAAAcAAAAAAAAAAAAAAAAAFCQxUWSBkf/EABUBAQEAAAAAAAAAAAAAAAAAAAMF/8QAGxEAAgIDAQAAAAAAAAAAAAAAAhEBIQASMfD/2gAMAwEAAhEDEQA/AKJWByN35QAYjq7byIZ7KohQq93P/9k=',
);

/** A JPEG marker segment: FF marker, length (including itself), payload. */
function segment(marker: number, payload: Uint8Array): Uint8Array {
  if (payload.length > 0xffff - 2) throw new Error('segment payload too long');
  return concat(Uint8Array.of(0xff, marker), u16be(payload.length + 2), payload);
}

/** JFIF APP0. units: 0 = aspect ratio only (no density), 1 = dots per inch, 2 = dots per cm. */
export function jfifSegment(units: 0 | 1 | 2, x: number, y = x): Uint8Array {
  return segment(0xe0, concat(ascii('JFIF\0'), Uint8Array.of(1, 1, units), u16be(x), u16be(y), Uint8Array.of(0, 0)));
}

export interface ExifDensity {
  /** XResolution (and YResolution unless y is given), as a rational over `denominator`. */
  x: number;
  y?: number;
  denominator?: number;
  /** ResolutionUnit: 1 = none, 2 = inch (default), 3 = cm. */
  unit?: 1 | 2 | 3;
  /** Leave ResolutionUnit out of IFD0 (readers then assume inches, as TIFF says). */
  omitUnit?: boolean;
  /** II (Intel) byte order; MM (Motorola) otherwise. */
  littleEndian?: boolean;
}

/** EXIF APP1 whose TIFF IFD0 holds XResolution, YResolution and ResolutionUnit. */
export function exifSegment({ x, y = x, denominator = 1, unit = 2, omitUnit = false, littleEndian = false }: ExifDensity): Uint8Array {
  const le = littleEndian;
  const entries = omitUnit ? 2 : 3;
  const ifdOffset = 8;
  const dataOffset = ifdOffset + 2 + entries * 12 + 4;
  const entry = (tag: number, type: number, value: Uint8Array) => concat(u16(tag, le), u16(type, le), u32(1, le), value);
  const rationalAt = (offset: number) => u32(offset, le);
  const short = (value: number) => concat(u16(value, le), Uint8Array.of(0, 0));
  const tiff = concat(
    le ? ascii('II') : ascii('MM'),
    u16(42, le),
    u32(ifdOffset, le),
    u16(entries, le),
    entry(0x011a, 5, rationalAt(dataOffset)),
    entry(0x011b, 5, rationalAt(dataOffset + 8)),
    omitUnit ? new Uint8Array(0) : entry(0x0128, 3, short(unit)),
    u32(0, le), // no next IFD
    u32(x * denominator, le),
    u32(denominator, le),
    u32(y * denominator, le),
    u32(denominator, le),
  );
  return segment(0xe1, concat(ascii('Exif\0\0'), tiff));
}

/** A comment segment, for padding a JPEG to a size while keeping it a valid JPEG. */
export const commentSegment = (length: number) => segment(0xfe, new Uint8Array(length).fill(0x20));

/** The base JPEG with the given segments after SOI (JFIF first, as the format wants). */
export function jpegWith(...segments: Uint8Array[]): Uint8Array {
  return concat(BASE_JPEG.subarray(0, 2), ...segments, BASE_JPEG.subarray(2));
}

/** A JPEG whose JFIF header records this density (units 1 = dpi, 2 = dots per cm). */
export const jpegJfif = (dpi: number, units: 1 | 2 = 1) => jpegWith(jfifSegment(units, dpi));

/** A JPEG with only an EXIF block (no JFIF), as cameras write them. */
export const jpegExif = (density: ExifDensity) => jpegWith(exifSegment(density));

/** A JPEG that records no density: JFIF with units 0 and a 1:1 aspect ratio. */
export const jpegNoDensity = () => jpegWith(jfifSegment(0, 1));

/** A JPEG with no APP segments at all. */
export const jpegBare = () => BASE_JPEG.slice();

/** A 300 dpi JPEG of exactly `size` bytes, padded with comment segments before the image data. */
export function jpegOfSize(size: number, dpi = 300): Uint8Array {
  const head = jfifSegment(1, dpi);
  const MAX_SEGMENT = 0xffff + 2; // marker, length and the longest payload
  let missing = size - BASE_JPEG.length - head.length;
  const padding: Uint8Array[] = [];
  while (missing > 0) {
    if (missing < 4) throw new Error(`cannot pad a JPEG by ${missing} bytes`);
    let total = Math.min(missing, MAX_SEGMENT);
    // Leave either nothing or room for one more segment.
    if (missing - total > 0 && missing - total < 4) total -= 4;
    padding.push(commentSegment(total - 4));
    missing -= total;
  }
  const out = jpegWith(head, ...padding);
  if (out.length !== size) throw new Error(`padded JPEG is ${out.length} bytes, not ${size}`);
  return out;
}

// ---- PNG -------------------------------------------------------------------------------------

/** A 1x1 RGBA PNG from Chromium's encoder: signature, IHDR, two IDAT, IEND (no pHYs). */
const BASE_PNG = fromBase64('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4AWJSWlX+HwAAAP//DqEBjwAAAAZJREFUAwAEggJF7zHkSgAAAABJRU5ErkJggg==');

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const typeAndData = concat(ascii(type), data);
  return concat(u32be(data.length), typeAndData, u32be(crc32(typeAndData)));
}

/** A PNG; with `pixelsPerMetre` it carries a pHYs chunk (unit 1 = metre, 0 = aspect ratio only). */
export function png(phys?: { pixelsPerMetre: number; unit?: 0 | 1 }): Uint8Array {
  if (!phys) return BASE_PNG.slice();
  const afterIhdr = 8 + 12 + 13;
  const pHYs = chunk('pHYs', concat(u32be(phys.pixelsPerMetre), u32be(phys.pixelsPerMetre), Uint8Array.of(phys.unit ?? 1)));
  return concat(BASE_PNG.subarray(0, afterIhdr), pHYs, BASE_PNG.subarray(afterIhdr));
}

/** Pixels per metre for a resolution in dpi, as image editors write it. */
export const pixelsPerMetre = (dpi: number) => Math.round(dpi / 0.0254);

// ---- PDF -------------------------------------------------------------------------------------

/** A minimal complete PDF 1.4: catalog, page tree, one empty A4 page, a correct xref table. */
export function pdf(): Uint8Array {
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << >> >>'];
  let text = '%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(text.length);
    text += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = text.length;
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) text += `${String(offset).padStart(10, '0')} 00000 n \n`;
  text += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  // Latin-1 throughout, so string offsets are byte offsets.
  return ascii(text);
}

export const empty = () => new Uint8Array(0);
