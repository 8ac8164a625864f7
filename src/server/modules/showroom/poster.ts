import { PDFDocument, rgb, type PDFImage, type PDFPage } from 'pdf-lib';
import QRCode from 'qrcode';
import { embedDocumentFonts, runs, widthOf, wrap, type DocumentFonts } from '../../lib/pdf-fonts';

// CT5: the printable poster (A4 or A3): the event's name, the company, its logo, the booth
// number and a QR code to the showroom, in the chosen language, in the fonts of lib/pdf-fonts.ts.

export const POSTER_SIZES = { A4: [595.28, 841.89], A3: [841.89, 1190.55] } as const;
export type PosterSize = keyof typeof POSTER_SIZES;

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
  const fonts = await embedDocumentFonts(doc, [content.eventName, content.companyName, content.booth, content.visitUs, content.scan, content.footer]);
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

/**
 * Draws text centred below `top`, shrinking it to fit and wrapping if it still does not fit;
 * answers the top of the next line.
 */
function centred(
  page: PDFPage,
  text: string,
  top: number,
  size: number,
  fonts: DocumentFonts,
  bold: boolean,
  width: number,
  margin: number,
  color: ReturnType<typeof rgb>,
): number {
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
