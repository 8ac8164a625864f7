import { PDFDocument, rgb, type Color, type PDFPage } from 'pdf-lib';
import { embedDocumentFonts, runs, wrap, type DocumentFonts } from '../../lib/pdf-fonts';

// F7: a letter a submitted form yields (S06: the visa invitation letter), as an A4 PDF. The
// layout is fixed (letterhead, reference and date, addressee, subject, paragraphs, a table of
// particulars, closing and signature); every text in it comes already translated and filled in
// (engine/forms/documents.ts reads it from the form's strings), in any script.

export interface LetterText {
  /** The PDF's language (BCP 47), for readers and screen readers. */
  language: string;
  /** The PDF's title (document information). */
  title: string;
  letterhead: { name: string; lines: string[] };
  reference: string;
  issued: string;
  to: string;
  subject: string;
  greeting: string;
  body: string[];
  particularsIntro: string;
  particulars: Array<[string, string]>;
  after: string[];
  closing: string;
  signature: string;
  author: string;
  /** The date of issue (the PDF's creation date): the same for every copy of one letter. */
  issuedAt: Date;
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 56;
const TEXT = rgb(0.1, 0.1, 0.1);
const MUTED = rgb(0.38, 0.38, 0.38);
const RULE = rgb(0.75, 0.75, 0.75);

class Writer {
  page: PDFPage;
  y: number;
  /** The font last set on `page`: a font given to every drawText adds resource entries per line. */
  private pageFont: unknown = null;
  constructor(
    private readonly doc: PDFDocument,
    readonly fonts: DocumentFonts,
  ) {
    this.page = doc.addPage(A4);
    this.y = A4[1] - MARGIN;
  }

  get width() {
    return A4[0] - 2 * MARGIN;
  }

  /** Starts a new page when `height` points no longer fit on this one. */
  room(height: number) {
    if (this.y - height >= MARGIN) return;
    this.page = this.doc.addPage(A4);
    this.pageFont = null;
    this.y = A4[1] - MARGIN;
  }

  /** Draws one line, each run of characters in the font that has them. */
  line(text: string, x: number, y: number, size: number, bold: boolean, color: Color) {
    let at = x;
    for (const run of runs(text, this.fonts, bold)) {
      if (this.pageFont !== run.font) {
        this.page.setFont(run.font);
        this.pageFont = run.font;
      }
      this.page.drawText(run.text, { x: at, y, size, color });
      at += run.font.widthOfTextAtSize(run.text, size);
    }
  }

  paragraph(text: string, { size = 10.5, bold = false, color = TEXT, after = 8 } = {}) {
    const leading = size * 1.45;
    for (const line of wrap(text, this.fonts, bold, size, this.width)) {
      this.room(leading);
      this.y -= leading;
      this.line(line, MARGIN, this.y + size * 0.3, size, bold, color);
    }
    this.y -= after;
  }

  /** A label in the left column and its value, wrapped, in the right one. */
  row(label: string, value: string, labelWidth: number) {
    const size = 10;
    const leading = size * 1.45;
    const labels = wrap(label, this.fonts, true, size, labelWidth - 12);
    const values = wrap(value || '-', this.fonts, false, size, this.width - labelWidth);
    const lines = Math.max(labels.length, values.length);
    this.room(leading * lines + 2);
    for (let index = 0; index < lines; index += 1) {
      this.y -= leading;
      if (labels[index]) this.line(labels[index]!, MARGIN, this.y + size * 0.3, size, true, MUTED);
      if (values[index]) this.line(values[index]!, MARGIN + labelWidth, this.y + size * 0.3, size, false, TEXT);
    }
    this.y -= 2;
  }

  rule(after = 10) {
    this.room(after);
    this.page.drawLine({ start: { x: MARGIN, y: this.y }, end: { x: A4[0] - MARGIN, y: this.y }, thickness: 0.6, color: RULE });
    this.y -= after;
  }
}

/** The letter as PDF bytes (A4; one page for any real input). */
export async function renderLetter(letter: LetterText): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  // The document information holds real Unicode (UTF-16): names are kept as typed there.
  doc.setTitle(letter.title, { showInWindowTitleBar: true });
  doc.setAuthor(letter.author);
  doc.setCreator('Exhibitor portal');
  doc.setLanguage(letter.language);
  doc.setCreationDate(letter.issuedAt);
  doc.setModificationDate(letter.issuedAt);

  const texts = [
    letter.letterhead.name,
    ...letter.letterhead.lines,
    letter.reference,
    letter.issued,
    letter.to,
    letter.subject,
    letter.greeting,
    ...letter.body,
    letter.particularsIntro,
    ...letter.particulars.flat(),
    ...letter.after,
    letter.closing,
    letter.signature,
  ];
  const w = new Writer(doc, await embedDocumentFonts(doc, texts));

  w.paragraph(letter.letterhead.name, { size: 16, bold: true, after: 2 });
  letter.letterhead.lines.forEach((line, index) => w.paragraph(line, { size: 9.5, color: MUTED, after: index === letter.letterhead.lines.length - 1 ? 6 : 0 }));
  w.rule(16);

  w.paragraph(letter.reference, { bold: true, after: 0 });
  w.paragraph(letter.issued, { after: 12 });
  w.paragraph(letter.to, { after: 12 });
  w.paragraph(letter.subject, { size: 12.5, bold: true, after: 8 });
  w.paragraph(letter.greeting);
  for (const paragraph of letter.body) w.paragraph(paragraph);
  w.paragraph(letter.particularsIntro, { after: 6 });

  const longest = Math.max(0, ...letter.particulars.map(([label]) => runs(label, w.fonts, true).reduce((sum, run) => sum + run.font.widthOfTextAtSize(run.text, 10), 0)));
  // Labels take what they need, up to 45 % of the line (a longer label wraps).
  const labelWidth = Math.min(longest + 18, w.width * 0.45);
  for (const [label, value] of letter.particulars) w.row(label, value, labelWidth);
  w.y -= 10;

  letter.after.forEach((paragraph, index) => w.paragraph(paragraph, { after: index === letter.after.length - 1 ? 18 : 8 }));
  w.paragraph(letter.closing, { after: 4 });
  w.paragraph(letter.signature, { bold: true, after: 0 });
  return doc.save();
}
