import { PDFArray, PDFDocument, PDFRawStream, decodePDFRawStream } from 'pdf-lib';

// Reads back the text of a PDF drawn with pdf-lib's standard fonts, for tests: pdf-lib has no
// text extraction, but it writes each line as a hex string of WinAnsi codes in a
// Flate-compressed content stream.

/** WinAnsiEncoding 0x80–0x9F; every other code is Latin-1 (0x81, 0x8D, 0x8F, 0x90, 0x9D unused). */
const WIN_ANSI_80 = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ';

function winAnsiText(hex: string): string {
  return [...Buffer.from(hex, 'hex')].map((byte) => (byte >= 0x80 && byte <= 0x9f ? WIN_ANSI_80[byte - 0x80] : String.fromCharCode(byte))).join('');
}

/** The text of every page, one drawn line per line. */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const doc = await PDFDocument.load(bytes);
  const lines: string[] = [];
  for (const page of doc.getPages()) {
    const contents = page.node.Contents();
    const refs = contents instanceof PDFArray ? contents.asArray() : contents ? [contents] : [];
    for (const ref of refs) {
      const stream = doc.context.lookup(ref);
      const code = Buffer.from(stream instanceof PDFRawStream ? decodePDFRawStream(stream).decode() : new Uint8Array()).toString('latin1');
      for (const match of code.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)) lines.push(winAnsiText(match[1]!));
    }
  }
  return lines.join('\n');
}
