import { existsSync, readFileSync } from 'node:fs';
import fontkit from '@pdf-lib/fontkit';
import type { PDFDocument, PDFFont } from 'pdf-lib';

// Text in every script the portal's users write, for the PDFs it makes (CT5 posters, F7 letters):
// fonts embedded from Debian's packages — DejaVu Sans for Latin (Vietnamese included), Greek and
// Cyrillic, Droid Sans Fallback for Chinese, Japanese and Korean — chosen per run of characters,
// so "Tan Wei Ming 陈伟明" and "Nguyễn Văn Đức" print as typed. A character neither font has is
// drawn as "?" rather than an empty box.

const FONT_FILES = {
  latin: ['/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'],
  latinBold: ['/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf'],
  cjk: ['/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf', '/usr/share/fonts-droid-fallback/truetype/DroidSansFallback.ttf'],
};
type FontKind = keyof typeof FONT_FILES;

/** The bytes of each font file and the code points it has, read once per process (the files do not change). */
const loaded = new Map<FontKind, { bytes: Uint8Array; has: (codePoint: number) => boolean }>();
function fontFile(kind: FontKind) {
  const known = loaded.get(kind);
  if (known) return known;
  const path = FONT_FILES[kind].find((candidate) => existsSync(candidate));
  if (!path) throw new Error(`Document font missing (${FONT_FILES[kind].join(' or ')}): apt-get install -y fonts-dejavu-core fonts-droid-fallback`);
  const bytes = readFileSync(path);
  const font = fontkit.create(bytes);
  const entry = { bytes, has: (codePoint: number) => font.hasGlyphForCodePoint(codePoint) };
  loaded.set(kind, entry);
  return entry;
}

export interface DocumentFonts {
  regular: PDFFont;
  bold: PDFFont;
  /** The CJK font, or the regular one when no text of the document needs it. */
  cjk: PDFFont;
  /** Which font draws a character: regular/bold, else CJK, else none (drawn as "?"). */
  choose(char: string, bold: boolean): PDFFont | null;
}

/**
 * Embeds the fonts the given texts need. DejaVu goes in as a subset; the CJK font only when a
 * text needs it, and whole (pdf-lib's subsetting of it drops glyphs: the text would extract but
 * print as boxes), which makes such a document about 2 MB larger.
 */
export async function embedDocumentFonts(doc: PDFDocument, texts: string[]): Promise<DocumentFonts> {
  doc.registerFontkit(fontkit);
  const latin = fontFile('latin');
  const latinBold = fontFile('latinBold');
  const cjkFile = fontFile('cjk');
  const needsCjk = texts.some((text) => [...text].some((char) => !latin.has(char.codePointAt(0)!) && cjkFile.has(char.codePointAt(0)!)));
  const regular = await doc.embedFont(latin.bytes, { subset: true });
  const bold = await doc.embedFont(latinBold.bytes, { subset: true });
  const cjk = needsCjk ? await doc.embedFont(cjkFile.bytes, { subset: false }) : regular;
  return {
    regular,
    bold,
    cjk,
    choose(char, wantBold) {
      const codePoint = char.codePointAt(0)!;
      if ((wantBold ? latinBold : latin).has(codePoint)) return wantBold ? bold : regular;
      if (needsCjk && cjkFile.has(codePoint)) return cjk;
      return null;
    },
  };
}

export interface TextRun {
  text: string;
  font: PDFFont;
}

/** The text in runs of one font each; control characters dropped, white space as spaces. */
export function runs(text: string, fonts: DocumentFonts, bold: boolean): TextRun[] {
  const out: TextRun[] = [];
  for (const raw of text.normalize('NFC')) {
    if (/\p{Cc}|\p{Cf}/u.test(raw) && !/\s/u.test(raw)) continue;
    const char = /\s/u.test(raw) ? ' ' : raw;
    const chosen = fonts.choose(char, bold);
    const font = chosen ?? (bold ? fonts.bold : fonts.regular);
    const shown = chosen ? char : '?';
    const last = out.at(-1);
    if (last && last.font === font) last.text += shown;
    else out.push({ text: shown, font });
  }
  return out;
}

export function widthOf(text: string, fonts: DocumentFonts, bold: boolean, size: number): number {
  return runs(text, fonts, bold).reduce((sum, run) => sum + run.font.widthOfTextAtSize(run.text, size), 0);
}

/** Characters of scripts written without spaces, where a line may break between any two. */
const UNSPACED = /[\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef\uac00-\ud7af]/u;

/** Lines of at most `room` points: words for spaced scripts, characters for CJK, a too-long word cut. */
export function wrap(text: string, fonts: DocumentFonts, bold: boolean, size: number, room: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const piece of text.match(/\S+\s*|\s+/gu) ?? [text]) {
    const parts = widthOf(piece, fonts, bold, size) > room || UNSPACED.test(piece) ? [...piece] : [piece];
    for (const part of parts) {
      if (line && widthOf(line + part, fonts, bold, size) > room) {
        lines.push(line.trimEnd());
        line = part.trimStart();
      } else line += part;
    }
  }
  if (line || lines.length === 0) lines.push(line.trimEnd());
  return lines;
}
