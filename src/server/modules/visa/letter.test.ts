import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { pdfText } from '../../../../tests/support/pdf-text';
import { formatDay, letterReference, pdfSafe, renderInvitationLetter, type InvitationLetterInput } from './letter';

// F7: the letter's text, its one A4 page, and names Helvetica cannot show.

const input = (applicant: Partial<InvitationLetterInput['applicant']> = {}): InvitationLetterInput => ({
  event: {
    code: 'AFHE2027',
    name: 'ASEAN Food & Hospitality Expo 2027',
    venue: 'Kuala Lumpur Convention Centre, Hall 1–5',
    // 09:00 and 18:00 at UTC+08:00.
    starts_at: new Date('2027-03-04T01:00:00Z'),
    ends_at: new Date('2027-03-07T10:00:00Z'),
    utc_offset_minutes: 480,
    support_email: 'exhibitor-support@afhe-expo.example',
  },
  exhibitor: { name: 'Borneo Botanica', legal_name: 'Borneo Botanica Sdn. Bhd.' },
  boothNum: 'Hall 3 · B12',
  applicant: {
    fullName: 'Tan Wei Ming',
    gender: 'male',
    nationality: 'Malaysian',
    dateOfBirth: '1988-07-21',
    placeOfBirth: 'Kuching',
    passportNumber: 'A12345678',
    passportPlaceOfIssue: 'Kuching',
    passportDateOfIssue: '2022-02-01',
    passportDateOfExpiry: '2032-01-31',
    dateOfArrival: '2027-03-02',
    dateOfDeparture: '2027-03-09',
    durationOfStay: 8,
    embassyCountry: 'Malaysia',
    embassyCity: 'Kuala Lumpur',
    ...applicant,
  },
  reference: letterReference('AFHE2027', 7, 0),
  issuedAt: new Date('2026-11-05T20:30:00Z'),
});

describe('F7 pdfSafe keeps what Helvetica can encode', () => {
  it('keeps ASCII, Latin-1 and the WinAnsi extras unchanged', () => {
    const text = 'José Müller-Øberg · “Ltd.” – €5 … Œuvre ŠŽ';
    expect(pdfSafe(text)).toBe(text);
  });

  it('drops the accents of Vietnamese words as a passport does, per word', () => {
    expect(pdfSafe('Nguyễn Văn Đức')).toBe('Nguyen Van Duc');
    expect(pdfSafe('Hà Nội')).toBe('Ha Noi');
    expect(pdfSafe('Hà Nam')).toBe('Hà Nam');
    expect(pdfSafe('Łódź')).toBe('Lodz');
  });

  it('replaces scripts Helvetica has no glyphs for with "?", and control characters safely', () => {
    expect(pdfSafe('陈伟明 Tan')).toBe('??? Tan');
    expect(pdfSafe('山田 太郎')).toBe('?? ??');
    expect(pdfSafe('a\tb\nc\u200bd\u0007e😀')).toBe('a b cde?');
    expect(pdfSafe('e\u0301')).toBe('é');
  });

  it('everything it answers can be encoded by Helvetica, for every code point of the BMP and some beyond', async () => {
    const font = await (await PDFDocument.create()).embedFont(StandardFonts.Helvetica);
    let all = '';
    for (let c = 0; c < 0x10000; c++) if (c < 0xd800 || c > 0xdfff) all += String.fromCharCode(c);
    all += '😀𠀀𝔄';
    const safe = pdfSafe(all);
    expect(() => font.encodeText(safe)).not.toThrow();
    // Nothing Helvetica can show is lost.
    for (let c = 0x20; c <= 0x7e; c++) expect(pdfSafe(String.fromCharCode(c))).toBe(String.fromCharCode(c));
    for (const c of font.getCharacterSet()) if (c !== 0xa0) expect(pdfSafe(String.fromCodePoint(c))).toBe(String.fromCodePoint(c));
  });
});

describe('F7 the invitation letter', () => {
  it('is one A4 page with every detail of the applicant, the show and the exhibitor', async () => {
    const bytes = await renderInvitationLetter(input());
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBe(1);
    const { width, height } = doc.getPage(0).getSize();
    expect([Math.round(width), Math.round(height)]).toEqual([595, 842]);
    expect(doc.getTitle()).toBe('Visa invitation letter AFHE2027-7-1 - Tan Wei Ming');
    expect(doc.getCreationDate()?.toISOString()).toBe('2026-11-05T20:30:00.000Z');

    const text = await pdfText(bytes);
    for (const expected of [
      'ASEAN Food & Hospitality Expo 2027',
      'Kuala Lumpur Convention Centre, Hall 1–5 | 4 March 2027 to 7 March 2027',
      'exhibitor-support@afhe-expo.example',
      'Reference: AFHE2027-7-1',
      // Issued at 04:30 on 6 November at the event's UTC+08:00.
      'Date of issue: 6 November 2026',
      'To: The Visa Section, Embassy or Consulate in Kuala Lumpur, Malaysia',
      'Tan Wei Ming',
      'Malaysian',
      '21 July 1988',
      'Kuching',
      'A12345678',
      '1 February 2022',
      '31 January 2032',
      '2 March 2027',
      '9 March 2027',
      '8 days',
      'Borneo Botanica Sdn. Bhd.',
      'Hall 3 · B12',
    ]) {
      expect(text, expected).toContain(expected);
    }
    expect(text.replace(/\n/g, ' ')).toContain('We are pleased to invite Tan Wei Ming, holder of passport number A12345678, to attend ASEAN Food & Hospitality Expo 2027');
    expect(text.replace(/\n/g, ' ')).toContain('as a representative of Borneo Botanica Sdn. Bhd., exhibitor at booth Hall 3 · B12.');
  });

  it('does not fail on names Helvetica cannot show: the PDF text is transliterated, the title keeps the real name', async () => {
    const bytes = await renderInvitationLetter(input({ fullName: 'Nguyễn Văn Đức 陈', placeOfBirth: 'Hà Nội', durationOfStay: 1 }));
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBe(1);
    expect(doc.getTitle()).toBe('Visa invitation letter AFHE2027-7-1 - Nguyễn Văn Đức 陈');
    const text = await pdfText(bytes);
    expect(text).toContain('Nguyen Van Duc ?');
    expect(text).toContain('Ha Noi');
    expect(text).toContain('1 day');
  });

  it('wraps and cuts very long values instead of running off the page', async () => {
    const long = 'Lorem-ipsum-dolor-sit-amet-consectetur-adipiscing-elit-sed-do-eiusmod-tempor-incididunt-ut-labore-et-dolore-magna-aliqua';
    const bytes = await renderInvitationLetter(input({ fullName: `${long} ${'Tan Wei Ming '.repeat(8)}`.slice(0, 150), placeOfBirth: long.slice(0, 100) }));
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBe(1);
  });

  it('formats form dates as day, month name and year', () => {
    expect(formatDay('2027-03-04')).toBe('4 March 2027');
    expect(formatDay('not a date')).toBe('not a date');
  });
});
