import { existsSync, readFileSync } from 'node:fs';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb, type PDFFont, type PDFImage, type PDFPage } from 'pdf-lib';
import QRCode from 'qrcode';

// CT5: the printable poster (A4 or A3): the event's name, the company, its logo, the booth
// number and a QR code to the showroom, in the chosen language. Text is set in fonts embedded
// (subset) from Debian's packages: DejaVu Sans for Latin and Vietnamese, Droid Sans Fallback for
// Chinese and Japanese, chosen per line by what it contains.

export const POSTER_SIZES = { A4: [595.28, 841.89], A3: [841.89, 1190.55] } as const;
export type PosterSize = keyof typeof POSTER_SIZES;

const FONT_FILES = {
  latin: ['/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'],
  latinBold: ['/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf'],
  cjk: ['/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf', '/usr/share/fonts-droid-fallback/truetype/DroidSansFallback.ttf'],
};

const fontCache = new Map<string, Uint8Array>();
function fontBytes(kind: keyof typeof FONT_FILES): Uint8Array {
  const cached = fontCache.get(kind);
  if (cached) return cached;
  const path = FONT_FILES[kind].find((candidate) => existsSync(candidate));
  if (!path) throw new Error(`Poster font missing (${FONT_FILES[kind].join(' or ')}): apt-get install -y fonts-dejavu-core fonts-droid-fallback`);
  const bytes = readFileSync(path);
  fontCache.set(kind, bytes);
  return bytes;
}

/** Whether the fonts the poster (and other documents) need are installed. */
export function posterFontsAvailable(): boolean {
  return (Object.keys(FONT_FILES) as Array<keyof typeof FONT_FILES>).every((kind) => FONT_FILES[kind].some((path) => existsSync(path)));
}

const CJK = /[\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef\uac00-\ud7af]/u;

export interface PosterContent {
  size: PosterSize;
  eventName: string;
  companyName: string;
  booth: string;
  /** Translated lines. */
  visitUs: string;
  scan: string;
  footer: string;
  showroomUrl: string;
  logo: { bytes: Uint8Array; type: string } | null;
}

export async function renderPoster(content: PosterContent): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  doc.setTitle(`${content.companyName} — ${content.eventName}`);
  doc.setCreator('Exhibitor Portal');
  const needsCjk = [content.eventName, content.companyName, content.booth, content.visitUs, content.scan, content.footer].some((text) => CJK.test(text));
  const latin = await doc.embedFont(fontBytes('latin'), { subset: true });
  const fonts: Fonts = {
    latin,
    latinBold: await doc.embedFont(fontBytes('latinBold'), { subset: true }),
    // Only when a line needs it; pdf-lib's subsetting of this font drops CJK glyphs (the text would
    // still extract but print as boxes), so it goes in whole and a CJK poster is about 2 MB.
    cjk: needsCjk ? await doc.embedFont(fontBytes('cjk'), { subset: false }) : latin,
  };
  const [width, height] = POSTER_SIZES[content.size];
  const page = doc.addPage([width, height]);
  const scale = width / POSTER_SIZES.A4[0];
  const margin = 48 * scale;
  const green = rgb(0.05, 0.33, 0.25);

  const band = 120 * scale;
  page.drawRectangle({ x: 0, y: height - band, width, height: band, color: green });
  centred(page, content.eventName, height - 46 * scale, 24 * scale, fonts, true, width, margin, rgb(1, 1, 1));

  let top = height - band - 40 * scale;
  const logo = content.logo ? await embedLogo(doc, content.logo) : null;
  if (logo) {
    const box = 150 * scale;
    const ratio = Math.min(box / logo.width, box / logo.height);
    page.drawImage(logo, { x: (width - logo.width * ratio) / 2, y: top - logo.height * ratio, width: logo.width * ratio, height: logo.height * ratio });
    top -= logo.height * ratio + 30 * scale;
  }
  top = centred(page, content.companyName, top, 34 * scale, fonts, true, width, margin, rgb(0.1, 0.1, 0.1));
  top = centred(page, content.visitUs, top - 24 * scale, 22 * scale, fonts, false, width, margin, rgb(0.2, 0.2, 0.2));
  top = centred(page, content.booth, top - 6 * scale, 54 * scale, fonts, true, width, margin, green);

  const qrSize = 190 * scale;
  const qrTop = top - 30 * scale;
  drawQr(page, content.showroomUrl, (width - qrSize) / 2, qrTop - qrSize, qrSize);
  top = centred(page, content.scan, qrTop - qrSize - 12 * scale, 16 * scale, fonts, false, width, margin, rgb(0.2, 0.2, 0.2));
  centred(page, content.showroomUrl, top, 10 * scale, fonts, false, width, margin, rgb(0.35, 0.35, 0.35));
  centred(page, content.footer, 56 * scale, 11 * scale, fonts, false, width, margin, rgb(0.35, 0.35, 0.35));
  return doc.save();
}

interface Fonts {
  latin: PDFFont;
  latinBold: PDFFont;
  cjk: PDFFont;
}

/** The text in runs of one font each: CJK characters in the CJK font, the rest in DejaVu. */
function runs(text: string, fonts: Fonts, bold: boolean): Array<{ text: string; font: PDFFont }> {
  const out: Array<{ text: string; font: PDFFont }> = [];
  for (const char of text) {
    const font = CJK.test(char) ? fonts.cjk : bold ? fonts.latinBold : fonts.latin;
    const last = out.at(-1);
    if (last && last.font === font) last.text += char;
    else out.push({ text: char, font });
  }
  return out;
}

const widthOf = (text: string, fonts: Fonts, bold: boolean, size: number) => runs(text, fonts, bold).reduce((sum, run) => sum + run.font.widthOfTextAtSize(run.text, size), 0);

/**
 * Draws text centred below `top`, shrinking it to fit and wrapping if it still does not fit;
 * answers the top of the next line.
 */
function centred(page: PDFPage, text: string, top: number, size: number, fonts: Fonts, bold: boolean, width: number, margin: number, color: ReturnType<typeof rgb>): number {
  const room = width - 2 * margin;
  let fontSize = size;
  while (fontSize > size * 0.55 && widthOf(text, fonts, bold, fontSize) > room) fontSize -= 1;
  const lines = widthOf(text, fonts, bold, fontSize) > room ? wrap(text, fonts, bold, fontSize, room) : [text];
  for (const line of lines) {
    let x = (width - widthOf(line, fonts, bold, fontSize)) / 2;
    const baseline = top - fontSize;
    for (const run of runs(line, fonts, bold)) {
      page.drawText(run.text, { x, y: baseline, size: fontSize, font: run.font, color });
      x += run.font.widthOfTextAtSize(run.text, fontSize);
    }
    top -= fontSize * 1.3;
  }
  return top;
}

function wrap(text: string, fonts: Fonts, bold: boolean, size: number, room: number): string[] {
  const lines: string[] = [];
  let line = '';
  // Words for spaced scripts, characters for CJK.
  for (const piece of text.match(/\S+\s*|\s+/gu) ?? [text]) {
    const parts = widthOf(piece, fonts, bold, size) > room || CJK.test(piece) ? [...piece] : [piece];
    for (const part of parts) {
      if (line && widthOf(line + part, fonts, bold, size) > room) {
        lines.push(line.trimEnd());
        line = part.trimStart();
      } else line += part;
    }
  }
  if (line) lines.push(line.trimEnd());
  return lines;
}

function drawQr(page: PDFPage, url: string, x: number, y: number, size: number) {
  const qr = QRCode.create(url, { errorCorrectionLevel: 'M' });
  const count = qr.modules.size;
  const quiet = 4;
  const cell = size / (count + 2 * quiet);
  page.drawRectangle({ x, y, width: size, height: size, color: rgb(1, 1, 1) });
  for (let row = 0; row < count; row += 1) {
    for (let column = 0; column < count; column += 1) {
      if (!qr.modules.get(row, column)) continue;
      page.drawRectangle({ x: x + (quiet + column) * cell, y: y + size - (quiet + row + 1) * cell, width: cell + 0.05, height: cell + 0.05, color: rgb(0, 0, 0) });
    }
  }
}

async function embedLogo(doc: PDFDocument, logo: { bytes: Uint8Array; type: string }): Promise<PDFImage | null> {
  try {
    if (logo.type === 'jpeg') return await doc.embedJpg(logo.bytes);
    if (logo.type === 'png') return await doc.embedPng(logo.bytes);
  } catch {
    // A logo the PDF library cannot read leaves the poster without it rather than failing it.
  }
  return null;
}
