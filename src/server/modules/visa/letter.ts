import { PDFDocument, StandardFonts, rgb, type Color, type PDFFont, type PDFPage } from 'pdf-lib';
import type { EventRow, Exhibitor } from '../../db/schema';

// F7: the visa invitation letter, one PDF per applicant of a submitted S06, drawn with pdf-lib.
//
// The letter uses the PDF standard font Helvetica, which every viewer has and which keeps the
// file small, but which can only show the WinAnsi character set (Latin-1 plus a few typographic
// signs). Names in other scripts (Chinese, Japanese, Vietnamese letters such as "ễ" or "Đ") are
// therefore transliterated where that is safe (accents dropped) and otherwise shown as "?"
// — see pdfSafe. The letter shows the applicant's "full name (as in passport)", which is the
// Latin name a visa officer checks; the optional Chinese name is not printed. Showing other
// scripts faithfully would need an embedded Unicode font (e.g. Noto Sans CJK via @pdf-lib/fontkit).

/** One applicant of the S06 form (schemas/forms/s06.schema.json). */
export interface VisaApplicant {
  fullName: string;
  chineseName?: string;
  gender?: string;
  nationality: string;
  dateOfBirth: string;
  placeOfBirth: string;
  passportNumber: string;
  passportPlaceOfIssue?: string;
  passportDateOfIssue: string;
  passportDateOfExpiry: string;
  dateOfArrival: string;
  dateOfDeparture: string;
  durationOfStay: number;
  embassyCountry: string;
  embassyCity: string;
}

export interface InvitationLetterInput {
  event: Pick<EventRow, 'code' | 'name' | 'venue' | 'starts_at' | 'ends_at' | 'utc_offset_minutes' | 'support_email'>;
  exhibitor: Pick<Exhibitor, 'name' | 'legal_name'>;
  boothNum: string;
  applicant: VisaApplicant;
  /** The letter's reference number, see letterReference. */
  reference: string;
  /** The date of issue printed on the letter (and the PDF's creation date). */
  issuedAt: Date;
}

/** The reference printed on a letter: event code, participation and the applicant's 1-based number. */
export function letterReference(eventCode: string, participationId: number, index: number): string {
  return `${eventCode}-${participationId}-${index + 1}`;
}

// ---------------------------------------------------------------------------------------------
// Text Helvetica can show

/** The code points of WinAnsiEncoding (PDF 32000-1 annex D) above ASCII and below Latin-1. */
const WIN_ANSI_EXTRA = new Set([
  0x20ac, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x017d, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022,
  0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x017e, 0x0178,
]);

function winAnsi(codePoint: number): boolean {
  return (codePoint >= 0x20 && codePoint <= 0x7e) || (codePoint >= 0xa0 && codePoint <= 0xff) || WIN_ANSI_EXTRA.has(codePoint);
}

/** Latin letters that do not decompose into a base letter plus accents. */
const LATIN_FALLBACK: Record<string, string> = {
  Đ: 'D', đ: 'd', Ħ: 'H', ħ: 'h', Ł: 'L', ł: 'l', ı: 'i', Ŀ: 'L', ŀ: 'l', Ŧ: 'T', ŧ: 't', ſ: 's', Ŋ: 'N', ŋ: 'n', Ƀ: 'B', ƀ: 'b', Ɨ: 'I', ɨ: 'i',
  '\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2015': '-', '\u2212': '-', '\u2032': "'", '\u2033': '"',
};

/** Drops every accent (combining mark) of the text. */
function stripMarks(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');
}

/** A Latin letter WinAnsi lacks that becomes one it has without its accents (or by LATIN_FALLBACK). */
function needsTransliteration(char: string): boolean {
  if (winAnsi(char.codePointAt(0)!)) return false;
  if (LATIN_FALLBACK[char] !== undefined) return /\p{L}/u.test(char);
  const bare = stripMarks(char);
  return bare !== '' && bare !== char && [...bare].every((c) => winAnsi(c.codePointAt(0)!));
}

/**
 * The text with only characters Helvetica (WinAnsiEncoding) can draw: a text with accented Latin
 * letters outside that set loses its accents ("Nguyễn Văn Đức" → "Nguyen Van Duc"), line breaks and tabs
 * become spaces, other control characters are dropped, and anything else (CJK, Thai, emoji…)
 * becomes "?". A limitation of the standard font, not of the data: see the note at the top.
 */
export function pdfSafe(text: string): string {
  let out = '';
  // A text with a letter that must lose its accents loses all of them, so "Hà Nội" reads
  // "Ha Noi" rather than a mixed "Hà Noi" (the letter passes each value on its own).
  const nfc = text.normalize('NFC');
  for (const char of [...nfc].some(needsTransliteration) ? stripMarks(nfc) : nfc) {
    const codePoint = char.codePointAt(0)!;
    if (winAnsi(codePoint) && codePoint !== 0xa0) {
      out += char;
    } else if (/\s/u.test(char)) {
      out += ' ';
    } else if (codePoint < 0x20 || (codePoint >= 0x7f && codePoint < 0xa0) || /\p{Cf}/u.test(char)) {
      // control and format characters (zero-width joiners, direction marks) show nothing
    } else if (/\p{M}/u.test(char)) {
      // an accent that combines with nothing Helvetica has is dropped
    } else if (LATIN_FALLBACK[char] !== undefined) {
      out += LATIN_FALLBACK[char];
    } else {
      // A Latin letter with accents WinAnsi lacks loses all of them, as in a passport's
      // machine-readable zone ("ễ" → "e", not a half-accented "ê").
      const bare = [...char.normalize('NFD')].filter((part) => !/\p{M}/u.test(part)).join('');
      if (bare !== '' && bare !== char && [...bare].every((c) => winAnsi(c.codePointAt(0)!))) out += bare;
      else out += '?';
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Dates

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "2027-03-04" → "4 March 2027"; anything else is shown as given. */
export function formatDay(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value ?? '');
  if (!match) return value ?? '';
  const month = MONTHS[Number(match[2]) - 1];
  return month ? `${Number(match[3])} ${month} ${match[1]}` : value;
}

/** An instant as the calendar day at the event's UTC offset (K2), e.g. "4 March 2027". */
function eventDay(instant: Date | string, offsetMinutes: number): string {
  const shifted = new Date(new Date(instant).getTime() + offsetMinutes * 60_000);
  return `${shifted.getUTCDate()} ${MONTHS[shifted.getUTCMonth()]} ${shifted.getUTCFullYear()}`;
}

function eventDates(event: InvitationLetterInput['event']): string {
  const from = eventDay(event.starts_at, event.utc_offset_minutes);
  const to = eventDay(event.ends_at, event.utc_offset_minutes);
  return from === to ? from : `${from} to ${to}`;
}

// ---------------------------------------------------------------------------------------------
// Layout

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 56;
const TEXT = rgb(0.1, 0.1, 0.1);
const MUTED = rgb(0.38, 0.38, 0.38);
const RULE = rgb(0.75, 0.75, 0.75);

/** Lines of at most `width` points; a word longer than a line is cut. */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  const fits = (candidate: string) => font.widthOfTextAtSize(candidate, size) <= width;
  for (const word of text.split(' ').filter((w) => w !== '')) {
    const candidate = line ? `${line} ${word}` : word;
    if (fits(candidate)) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = '';
    let rest = word;
    while (!fits(rest)) {
      let cut = rest.length - 1;
      while (cut > 1 && !fits(rest.slice(0, cut))) cut -= 1;
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    line = rest;
  }
  if (line || lines.length === 0) lines.push(line);
  return lines;
}

class Writer {
  page: PDFPage;
  y: number;
  /** The font last set on `page`. */
  private pageFont: PDFFont | null = null;
  constructor(
    private readonly doc: PDFDocument,
    readonly regular: PDFFont,
    readonly bold: PDFFont,
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

  /**
   * Draws one line of text. The font is set on the page only when it changes: a font passed to
   * every drawText would add two font resource entries per line.
   */
  text(line: string, x: number, y: number, size: number, font: PDFFont, color: Color) {
    if (this.pageFont !== font) {
      this.page.setFont(font);
      this.pageFont = font;
    }
    this.page.drawText(line, { x, y, size, color });
  }

  paragraph(text: string, { size = 10.5, font = this.regular, color = TEXT, after = 8, indent = 0 } = {}) {
    const leading = size * 1.4;
    for (const line of wrap(pdfSafe(text), font, size, this.width - indent)) {
      this.room(leading);
      this.y -= leading;
      this.text(line, MARGIN + indent, this.y + size * 0.3, size, font, color);
    }
    this.y -= after;
  }

  /** A label in the left column and its value, wrapped, in the right one. */
  row(label: string, value: string, labelWidth: number) {
    const size = 10;
    const leading = size * 1.4;
    const lines = wrap(pdfSafe(value || '-'), this.regular, size, this.width - labelWidth);
    this.room(leading * lines.length + 2);
    this.text(pdfSafe(label), MARGIN, this.y - leading + size * 0.3, size, this.bold, MUTED);
    for (const line of lines) {
      this.y -= leading;
      this.text(line, MARGIN + labelWidth, this.y + size * 0.3, size, this.regular, TEXT);
    }
    this.y -= 2;
  }

  rule(after = 10) {
    this.room(after);
    this.page.drawLine({ start: { x: MARGIN, y: this.y }, end: { x: A4[0] - MARGIN, y: this.y }, thickness: 0.6, color: RULE });
    this.y -= after;
  }

  gap(points: number) {
    this.y -= points;
  }
}

/** F7: the invitation letter of one applicant, as PDF bytes (A4, one page for any real input). */
export async function renderInvitationLetter(input: InvitationLetterInput): Promise<Uint8Array> {
  const { event: rawEvent, exhibitor, boothNum: rawBooth, applicant: rawApplicant, reference, issuedAt } = input;
  const doc = await PDFDocument.create();
  const rawCompany = exhibitor.legal_name || exhibitor.name;
  // The document information holds real Unicode (UTF-16), so the name is kept as typed there.
  doc.setTitle(`Visa invitation letter ${reference} - ${rawApplicant.fullName.trim()}`);
  doc.setSubject(`Invitation to ${rawEvent.name} for ${rawApplicant.fullName.trim()}, representative of ${rawCompany}`);
  doc.setAuthor(rawEvent.name);
  doc.setCreator('Exhibitor portal');
  doc.setLanguage('en');
  doc.setCreationDate(issuedAt);
  doc.setModificationDate(issuedAt);

  // Each value is made drawable on its own (see pdfSafe), before it goes into a sentence.
  const event = { ...rawEvent, name: pdfSafe(rawEvent.name), venue: pdfSafe(rawEvent.venue), support_email: pdfSafe(rawEvent.support_email) };
  const applicant = Object.fromEntries(
    Object.entries(rawApplicant).map(([key, value]) => [key, typeof value === 'string' ? pdfSafe(value.trim()) : value]),
  ) as unknown as VisaApplicant;
  const name = applicant.fullName;
  const company = pdfSafe(rawCompany);
  const boothNum = pdfSafe(rawBooth.trim());

  const w = new Writer(doc, await doc.embedFont(StandardFonts.Helvetica), await doc.embedFont(StandardFonts.HelveticaBold));
  const dates = eventDates(event);

  // Letterhead: the show and how to reach its organiser.
  w.paragraph(event.name, { size: 16, font: w.bold, after: 2 });
  w.paragraph(`${event.venue} | ${dates}`, { size: 9.5, color: MUTED, after: 0 });
  w.paragraph(`Exhibitor services: ${event.support_email}`, { size: 9.5, color: MUTED, after: 6 });
  w.rule(16);

  w.paragraph(`Reference: ${reference}`, { font: w.bold, after: 0 });
  w.paragraph(`Date of issue: ${eventDay(issuedAt, event.utc_offset_minutes)}`, { after: 12 });
  w.paragraph(`To: The Visa Section, Embassy or Consulate in ${applicant.embassyCity}, ${applicant.embassyCountry}`, { after: 12 });
  w.paragraph(`Letter of invitation: ${event.name}`, { size: 12.5, font: w.bold, after: 8 });
  w.paragraph('Dear Sir or Madam,');
  w.paragraph(
    `We are pleased to invite ${name}, holder of passport number ${applicant.passportNumber}, to attend ${event.name}, ` +
      `held at ${event.venue} from ${dates}, as a representative of ${company}, exhibitor at booth ${boothNum || '-'}.`,
  );
  w.paragraph('The details of the applicant are as follows:', { after: 6 });

  const rows: Array<[string, string]> = [
    ['Full name', name],
    ['Nationality', applicant.nationality],
    ['Date of birth', formatDay(applicant.dateOfBirth)],
    ['Place of birth', applicant.placeOfBirth],
    ['Passport number', applicant.passportNumber],
    ...(applicant.passportPlaceOfIssue ? [['Passport place of issue', applicant.passportPlaceOfIssue] as [string, string]] : []),
    ['Passport date of issue', formatDay(applicant.passportDateOfIssue)],
    ['Passport date of expiry', formatDay(applicant.passportDateOfExpiry)],
    ['Date of arrival', formatDay(applicant.dateOfArrival)],
    ['Date of departure', formatDay(applicant.dateOfDeparture)],
    ['Duration of stay', `${applicant.durationOfStay} day${applicant.durationOfStay === 1 ? '' : 's'}`],
    ['Visa applied for at', `${applicant.embassyCity}, ${applicant.embassyCountry}`],
    ['Exhibiting company', company],
    ['Booth', boothNum || '-'],
  ];
  const labelWidth = Math.max(...rows.map(([label]) => w.bold.widthOfTextAtSize(label, 10))) + 18;
  for (const [label, value] of rows) w.row(label, value, labelWidth);
  w.gap(10);

  w.paragraph(
    `This letter is issued at the request of ${company} for the purpose of the applicant's visa application only. ` +
      'It does not constitute a guarantee that a visa will be granted, and it does not cover any costs of travel or stay.',
  );
  w.paragraph(`For any question about this letter, please contact ${event.support_email}, quoting reference ${reference}.`, { after: 18 });
  w.paragraph('Yours faithfully,', { after: 4 });
  w.paragraph(`Exhibitor Services, ${event.name}`, { font: w.bold, after: 0 });

  return doc.save();
}
