import type { FromSchema } from 'json-schema-to-ts';
import { IMAGE_MAX_BYTES } from '../constants';
import type { FILE_TYPES, FilePurposeRule, FileReference } from '../schemas/file';
import type { UPLOADS_SCHEMA } from './form-list-schema';

// Upload rules V2/V3 (spec §5, §9), shared by the browser's upload widget (checked before the
// upload) and the server (checked again on the bytes it received). Pure TypeScript over
// Uint8Array: no Node or browser-only APIs. The type of a file is what its bytes say, never its
// name; the resolution is what the file records (JFIF, EXIF or PNG pHYs), never a guess.
//
// What each purpose accepts is data. A form's purposes are declared in forms.yaml
// `uploads:` (read with `uploadRules`) and named by a schema's `"file": "<purpose>"`; only the
// purposes of the portal's own features (a lead's business card, a manual's attachment) are here.

export type FileType = (typeof FILE_TYPES)[number];
export type { FilePurposeRule, FileReference };
/** A file reference as a form's data holds it: its type is checked against the rule, not trusted. */
type HeldReference = Omit<FileReference, 'type'> & { type: string };

/** Upload purposes by name, each with its rule (a form set's, from forms.yaml `uploads:`). */
export type UploadRules = Readonly<Record<string, FilePurposeRule>>;

/** A purpose as forms.yaml declares it (`uploads:`): sizes in megabytes, as organisers think of them. */
type DeclaredUpload = FromSchema<typeof UPLOADS_SCHEMA.additionalProperties>;

const MIB = 1024 * 1024;

/** forms.yaml's `uploads:` as rules (maxMegabytes → bytes). */
export function uploadRules(declared: Readonly<Record<string, DeclaredUpload>> | undefined): UploadRules {
  return Object.fromEntries(
    Object.entries(declared ?? {}).map(([purpose, upload]) => [
      purpose,
      { types: upload.types, maxBytes: Math.round(upload.maxMegabytes * MIB), ...(upload.minDpi !== undefined ? { minDpi: upload.minDpi } : {}) },
    ]),
  );
}

/** LD5: the business card a lead carries (the scanning app's purpose, not a form's). */
export const BUSINESS_CARD_PURPOSE = 'businessCard';
export const BUSINESS_CARD_RULE: FilePurposeRule = { types: ['jpeg', 'png'], maxBytes: IMAGE_MAX_BYTES };

/** The rule of a purpose among the set's (a form's) and the portal's own; undefined when none has it. */
export function purposeRule(rules: UploadRules, purpose: unknown): FilePurposeRule | undefined {
  if (typeof purpose !== 'string') return undefined;
  if (purpose === BUSINESS_CARD_PURPOSE) return BUSINESS_CARD_RULE;
  return Object.hasOwn(rules, purpose) ? rules[purpose] : undefined;
}

/** What a compiled `file` keyword passes its rule: the purpose's name with its rule, fixed when the form set was compiled. */
export interface ResolvedPurpose extends FilePurposeRule {
  purpose: string;
}

/** The media type of each detected type (the server's Content-Type, the widget's `accept`). */
export const FILE_TYPE_MIME: Record<FileType, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  pdf: 'application/pdf',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** How a type is named to the user ("JPEG, PDF"). */
export const FILE_TYPE_LABEL: Record<FileType, string> = { jpeg: 'JPEG', png: 'PNG', pdf: 'PDF', gif: 'GIF', webp: 'WebP' };

/** Longest accepted file name, in characters. */
export const FILE_NAME_MAX_LENGTH = 120;

/** A problem with a file: a locale key under validation.file and its placeholders. */
export interface FileProblem {
  key: string;
  params?: Record<string, string | number>;
}

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) => bytes.length >= at + signature.length && signature.every((value, i) => bytes[at + i] === value);

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

const SIGNATURES = {
  jpeg: [0xff, 0xd8, 0xff],
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  pdf: ascii('%PDF-'),
  gif87: ascii('GIF87a'),
  gif89: ascii('GIF89a'),
  riff: ascii('RIFF'),
  webp: ascii('WEBP'),
} as const;

/** The type of a file by its first bytes (magic numbers); null when it is none of ours. */
export function detectType(bytes: Uint8Array): FileType | null {
  if (startsWith(bytes, SIGNATURES.jpeg)) return 'jpeg';
  if (startsWith(bytes, SIGNATURES.png)) return 'png';
  if (startsWith(bytes, SIGNATURES.pdf)) return 'pdf';
  if (startsWith(bytes, SIGNATURES.gif87) || startsWith(bytes, SIGNATURES.gif89)) return 'gif';
  if (startsWith(bytes, SIGNATURES.riff) && startsWith(bytes, SIGNATURES.webp, 8)) return 'webp';
  return null;
}

// ---- resolution ------------------------------------------------------------------------------

const CM_PER_INCH = 2.54;
const METRES_PER_INCH = 0.0254;

/** Reads integers of either byte order, answering null past the end instead of throwing. */
function reader(bytes: Uint8Array, littleEndian = false) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    u8: (at: number) => (at >= 0 && at + 1 <= bytes.length ? view.getUint8(at) : null),
    u16: (at: number) => (at >= 0 && at + 2 <= bytes.length ? view.getUint16(at, littleEndian) : null),
    u32: (at: number) => (at >= 0 && at + 4 <= bytes.length ? view.getUint32(at, littleEndian) : null),
  };
}

/** The smaller of the horizontal and vertical resolution (the one that limits print quality). */
function dpiOf(x: number, y: number | null, perInch: number): number | null {
  const values = [x, y].filter((v): v is number => v !== null && Number.isFinite(v) && v > 0);
  if (values.length === 0) return null;
  return Math.round(Math.min(...values) * perInch);
}

/** JFIF APP0: units 1 = dots per inch, 2 = dots per cm; 0 is only an aspect ratio. */
function jfifDpi(bytes: Uint8Array, start: number, end: number): number | null {
  if (end - start < 12 || !startsWith(bytes, [...ascii('JFIF'), 0], start)) return null;
  const read = reader(bytes);
  const units = read.u8(start + 7);
  const x = read.u16(start + 8);
  const y = read.u16(start + 10);
  if (x === null || y === null) return null;
  if (units === 1) return dpiOf(x, y, 1);
  if (units === 2) return dpiOf(x, y, CM_PER_INCH);
  return null;
}

const TIFF_RATIONAL = 5;
const TIFF_SHORT = 3;
const TAG_X_RESOLUTION = 0x011a;
const TAG_Y_RESOLUTION = 0x011b;
const TAG_RESOLUTION_UNIT = 0x0128;

/** EXIF APP1: XResolution/YResolution with ResolutionUnit (2 = inch, the default; 3 = cm; 1 = none) in IFD0. */
function exifDpi(bytes: Uint8Array, start: number, end: number): number | null {
  if (!startsWith(bytes, [...ascii('Exif'), 0, 0], start)) return null;
  const tiff = bytes.subarray(start + 6, end);
  let littleEndian: boolean;
  if (startsWith(tiff, [0x49, 0x49, 0x2a, 0x00])) littleEndian = true;
  else if (startsWith(tiff, [0x4d, 0x4d, 0x00, 0x2a])) littleEndian = false;
  else return null;
  const read = reader(tiff, littleEndian);
  const ifd = read.u32(4);
  const count = ifd === null ? null : read.u16(ifd);
  if (ifd === null || count === null) return null;
  const rational = (entry: number) => {
    const type = read.u16(entry + 2);
    const offset = read.u32(entry + 8);
    if (type !== TIFF_RATIONAL || offset === null) return null;
    const numerator = read.u32(offset);
    const denominator = read.u32(offset + 4);
    return numerator === null || !denominator ? null : numerator / denominator;
  };
  let x: number | null = null;
  let y: number | null = null;
  let unit = 2;
  for (let i = 0; i < count; i += 1) {
    const entry = ifd + 2 + i * 12;
    const tag = read.u16(entry);
    if (tag === null) break;
    if (tag === TAG_X_RESOLUTION) x = rational(entry);
    else if (tag === TAG_Y_RESOLUTION) y = rational(entry);
    else if (tag === TAG_RESOLUTION_UNIT && read.u16(entry + 2) === TIFF_SHORT) unit = read.u16(entry + 8) ?? 2;
  }
  if (x === null) return null;
  if (unit === 2) return dpiOf(x, y, 1);
  if (unit === 3) return dpiOf(x, y, CM_PER_INCH);
  return null;
}

/** Markers that stand alone, without a length: TEM, RST0–7, SOI. */
const isStandaloneMarker = (marker: number) => marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8);

/**
 * The resolution a JPEG records. EXIF wins over JFIF when both record one (as libvips does;
 * EXIF is what editors and cameras keep up to date); JFIF units 0 (aspect ratio only) and EXIF
 * unit 1 (no absolute unit) record none.
 */
function jpegDpi(bytes: Uint8Array): number | null {
  const read = reader(bytes);
  let jfif: number | null = null;
  let exif: number | null = null;
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (isStandaloneMarker(marker)) {
      at += 2;
      continue;
    }
    // Start of scan or end of image: the headers are over.
    if (marker === 0xda || marker === 0xd9) break;
    const length = read.u16(at + 2);
    if (length === null || length < 2) break;
    const start = at + 4;
    const end = Math.min(at + 2 + length, bytes.length);
    if (marker === 0xe0 && jfif === null) jfif = jfifDpi(bytes, start, end);
    if (marker === 0xe1 && exif === null) exif = exifDpi(bytes, start, end);
    at += 2 + length;
  }
  return exif ?? jfif;
}

/** PNG pHYs: pixels per unit, unit 1 = metre; unit 0 is only an aspect ratio. */
function pngDpi(bytes: Uint8Array): number | null {
  const read = reader(bytes);
  let at = 8;
  while (at + 8 <= bytes.length) {
    const length = read.u32(at);
    if (length === null) return null;
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    // pHYs must come before the image data.
    if (type === 'IDAT' || type === 'IEND') return null;
    if (type === 'pHYs') {
      if (length < 9) return null;
      const x = read.u32(at + 8);
      const y = read.u32(at + 12);
      const unit = read.u8(at + 16);
      if (x === null || unit !== 1) return null;
      return dpiOf(x, y, METRES_PER_INCH);
    }
    at += 12 + length;
  }
  return null;
}

/** The resolution a file records, in dots per inch (rounded); null when it records none. */
export function readDpi(bytes: Uint8Array, type: FileType | null = detectType(bytes)): number | null {
  if (type === 'jpeg') return jpegDpi(bytes);
  if (type === 'png') return pngDpi(bytes);
  return null;
}

// ---- names -----------------------------------------------------------------------------------

/** Letters of any script (with their combining marks), digits, space, dot, dash, underscore, parentheses. */
const SAFE_NAME = /^[\p{L}\p{M}\p{Nd} ._()-]+$/u;

/**
 * A file name without special characters (V2): no path separators, control characters or
 * anything outside the safe set; at most 120 characters; not hidden (leading dot), no "..",
 * no leading or trailing space and no trailing dot (names some systems cannot store).
 */
export function safeFileName(name: string): boolean {
  if (typeof name !== 'string' || name.length === 0) return false;
  if ([...name].length > FILE_NAME_MAX_LENGTH) return false;
  if (!SAFE_NAME.test(name)) return false;
  if (name.startsWith('.') || name.includes('..')) return false;
  return name.trim() === name && !name.endsWith('.');
}

// ---- checks ----------------------------------------------------------------------------------

export function typesLabel(types: readonly FileType[]): string {
  return types.map((type) => FILE_TYPE_LABEL[type]).join(', ');
}

interface FileFacts {
  name: string;
  size: number;
  type: string | null;
  dpi: number | null;
}

function problemsOf(rule: FilePurposeRule, { name, size, type, dpi }: FileFacts): FileProblem[] {
  const problems: FileProblem[] = [];
  if (size === 0) problems.push({ key: 'validation.file.empty' });
  if (!safeFileName(name)) problems.push({ key: 'validation.file.name' });
  // An empty file has no type or resolution to speak of.
  if (size === 0) return problems;
  const accepted = type !== null && (rule.types as readonly string[]).includes(type);
  if (!accepted) problems.push({ key: 'validation.file.type', params: { types: typesLabel(rule.types) } });
  if (size > rule.maxBytes) problems.push({ key: 'validation.file.tooLarge', params: { limit: rule.maxBytes / MIB } });
  if (accepted && rule.minDpi !== undefined) {
    if (dpi === null) problems.push({ key: 'validation.file.noDpi', params: { limit: rule.minDpi } });
    else if (dpi < rule.minDpi) problems.push({ key: 'validation.file.dpi', params: { limit: rule.minDpi, dpi } });
  }
  return problems;
}

/** Everything wrong with a file for a purpose's rule, in order: empty, name, type, size, resolution. */
export function checkFile(rule: FilePurposeRule, file: { name: string; bytes: Uint8Array }): FileProblem[] {
  const type = detectType(file.bytes);
  return problemsOf(rule, { name: file.name, size: file.bytes.length, type, dpi: readDpi(file.bytes, type) });
}

/** The same rules on a reference to an uploaded file (what a form holds): size, type and dpi as recorded. */
export function checkFileReference(rule: FilePurposeRule, ref: HeldReference): FileProblem[] {
  return problemsOf(rule, {
    name: ref.name,
    size: ref.size,
    type: ref.type,
    dpi: typeof ref.dpi === 'number' ? ref.dpi : null,
  });
}

/** A value in a file field that holds no file: rjsf's `{}` for an object nobody filled, or a reference without its id. */
export function isEmptyFileValue(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { id?: unknown }).id !== 'string';
}

type SchemaNode = { file?: unknown; properties?: Record<string, SchemaNode>; items?: SchemaNode | SchemaNode[] };

/**
 * V2 F9: the data without empty file values (a file field's `{}` that nobody filled): an empty
 * value is never stored, and a required file field left empty is "missing", not a file with a
 * bad name. File fields are those the schema gives the `file` keyword.
 */
export function withoutEmptyFiles<T>(schemaObject: object, data: T): T {
  const schema = schemaObject as SchemaNode;
  if (Array.isArray(data)) {
    const items = schema.items;
    return (items && !Array.isArray(items) ? data.map((item) => withoutEmptyFiles(items, item)) : data) as T;
  }
  if (typeof data !== 'object' || data === null || !schema.properties) return data;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
    const property = schema.properties[key];
    if (property?.file !== undefined && isEmptyFileValue(value)) continue;
    result[key] = property ? withoutEmptyFiles(property, value) : value;
  }
  return result as T;
}
