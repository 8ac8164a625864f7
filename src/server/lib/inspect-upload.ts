import type { FileProblem, FileType } from '../../engine/forms/files';

// V2: a file is judged by parsing it, not only by its first bytes (checkFile). An image
// must decode completely and stay within a pixel budget (a 30000 × 30000 JPEG is a few KB on the
// wire and gigabytes in a viewer); no file may carry markup a browser would run when the file is
// opened as a page (an HTML/JPEG polyglot); a PDF may not carry JavaScript or launch actions.

/** Most pixels an uploaded image may have (about 8000 × 8000): print-quality logos fit easily. */
export const MAX_IMAGE_PIXELS = 64_000_000;

/** Markup that makes a file a web page too, looked for anywhere in its bytes (case-insensitive). */
const ACTIVE_MARKUP = /<\s*(?:script|html|body|iframe|svg|object|embed|meta\s+http-equiv)\b|javascript:/i;

/** PDF names that run code or other programs when the document is opened or used. */
const PDF_ACTIVE_NAMES = /\/(?:JavaScript|JS|Launch|EmbeddedFile|RichMedia|XFA)\b/;

/** Deflated or hex-escaped names (/J#61vaScript) are decoded before matching. */
function pdfNames(text: string): string {
  return text.replace(/#([0-9A-Fa-f]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

async function pdfActiveContent(bytes: Buffer): Promise<boolean> {
  const latin = bytes.toString('latin1');
  if (PDF_ACTIVE_NAMES.test(pdfNames(latin))) return true;
  // Object streams hide dictionaries inside compressed streams: inflate each stream and look again.
  const { inflateSync } = await import('node:zlib');
  const stream = /stream\r?\n/g;
  for (let match = stream.exec(latin); match; match = stream.exec(latin)) {
    const start = match.index + match[0].length;
    const end = latin.indexOf('endstream', start);
    if (end < 0) break;
    try {
      const inflated = inflateSync(bytes.subarray(start, end), { finishFlush: 2 /* Z_SYNC_FLUSH */ }).toString('latin1');
      if (PDF_ACTIVE_NAMES.test(pdfNames(inflated))) return true;
    } catch {
      // Not deflated (an image, a font): nothing to read.
    }
    stream.lastIndex = end;
  }
  return false;
}

type Sharp = typeof import('sharp').default;
let sharpModule: Promise<Sharp> | undefined;
// Loaded on the first image upload: the native library costs memory the server rarely needs.
const loadSharp = () => (sharpModule ??= import('sharp').then((m) => m.default));

/** Problems found by parsing the file (locale keys under validation.file); empty when it is sound. */
export async function inspectContent(bytes: Buffer, type: FileType): Promise<FileProblem[]> {
  if (ACTIVE_MARKUP.test(bytes.toString('latin1'))) return [{ key: 'validation.file.activeContent' }];
  if (type === 'pdf') {
    return (await pdfActiveContent(bytes)) ? [{ key: 'validation.file.pdfScript' }] : [];
  }
  const sharp = await loadSharp();
  let width = 0;
  let height = 0;
  try {
    const metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
    width = metadata.width ?? 0;
    height = metadata.height ?? 0;
  } catch {
    return [{ key: 'validation.file.undecodable' }];
  }
  if (width * height > MAX_IMAGE_PIXELS) return [{ key: 'validation.file.tooManyPixels', params: { width, height, limit: Math.round(MAX_IMAGE_PIXELS / 1_000_000) } }];
  try {
    // Decode every pixel (to a small copy): a truncated or corrupt image fails here.
    await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error', sequentialRead: true }).resize(32, 32, { fit: 'inside' }).raw().toBuffer();
  } catch {
    return [{ key: 'validation.file.undecodable' }];
  }
  return [];
}
