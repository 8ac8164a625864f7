import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { pdfText } from '../../../../tests/support/pdf-text';
import { renderLetter, type LetterText } from './letter';

// F7: a letter's layout (one A4 page, every part in order), read back with pdftotext as a reader
// would, in the scripts the portal's users write: names in Vietnamese, Chinese and Japanese print
// as typed (fonts per run of characters), never as "?".

const letter = (changes: Partial<LetterText> = {}): LetterText => ({
  language: 'en',
  title: 'Visa invitation letter AFHE2027-7-1 - Tan Wei Ming',
  author: 'ASEAN Food & Hospitality Expo 2027',
  letterhead: {
    name: 'ASEAN Food & Hospitality Expo 2027',
    lines: ['Kuala Lumpur Convention Centre | March 4, 2027 to March 7, 2027', 'Exhibitor services: support@afhe.example'],
  },
  reference: 'Reference: AFHE2027-7-1',
  issued: 'Date of issue: November 6, 2026',
  to: 'To: The Visa Section, Embassy or Consulate in Kuala Lumpur, Malaysia',
  subject: 'Letter of invitation: ASEAN Food & Hospitality Expo 2027',
  greeting: 'Dear Sir or Madam,',
  body: ['We are pleased to invite Tan Wei Ming, holder of passport number A12345678, to attend the show.'],
  particularsIntro: 'The details of the applicant are as follows:',
  particulars: [
    ['Full name (as in passport)', 'Tan Wei Ming'],
    ['Passport number', 'A12345678'],
    ['Duration of stay (days)', '8'],
  ],
  after: ['This letter is issued for the visa application only.', 'For any question, quote reference AFHE2027-7-1.'],
  closing: 'Yours faithfully,',
  signature: 'Exhibitor Services, ASEAN Food & Hospitality Expo 2027',
  issuedAt: new Date('2026-11-05T20:30:00Z'),
  ...changes,
});

const oneLine = (text: string) => text.replace(/\s+/g, ' ');

describe('F7 a letter as PDF', () => {
  it('is one A4 page with every part in order, its title and date of issue in the document information', async () => {
    const bytes = await renderLetter(letter());
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBe(1);
    const { width, height } = doc.getPage(0).getSize();
    expect([Math.round(width), Math.round(height)]).toEqual([595, 842]);
    expect(doc.getTitle()).toBe('Visa invitation letter AFHE2027-7-1 - Tan Wei Ming');
    expect(doc.getCreationDate()?.toISOString()).toBe('2026-11-05T20:30:00.000Z');
    const text = oneLine(await pdfText(bytes));
    const parts = [
      'ASEAN Food & Hospitality Expo 2027',
      'Reference: AFHE2027-7-1',
      'Date of issue: November 6, 2026',
      'To: The Visa Section, Embassy or Consulate in Kuala Lumpur, Malaysia',
      'Dear Sir or Madam,',
      'We are pleased to invite Tan Wei Ming',
      'The details of the applicant are as follows:',
      'This letter is issued for the visa application only.',
      'For any question, quote reference AFHE2027-7-1.',
      'Yours faithfully,',
      'Exhibitor Services, ASEAN Food & Hospitality Expo 2027',
    ];
    let from = 0;
    for (const part of parts) {
      const at = text.indexOf(part, from);
      expect(at, `"${part}" after what comes before it`).toBeGreaterThanOrEqual(0);
      from = at + part.length;
    }
    const table = oneLine(await pdfText(bytes, { layout: true }));
    expect(table).toMatch(/Passport number\s+A12345678/);
    expect(table).toMatch(/Duration of stay \(days\)\s+8/);
  });

  it('prints Vietnamese, Chinese and Japanese as typed, in one line and in one PDF', async () => {
    const bytes = await renderLetter(
      letter({
        language: 'ja',
        greeting: '拝啓',
        body: ['旅券番号A12345678の陈伟明 (Tan Wei Ming) 様をお招きいたします。'],
        particulars: [
          ['氏名', 'Nguyễn Văn Đức 陈伟明'],
          ['出生地', 'Hà Nội'],
        ],
      }),
    );
    const text = await pdfText(bytes, { layout: true });
    for (const typed of ['拝啓', '陈伟明 (Tan Wei Ming)', 'Nguyễn Văn Đức 陈伟明', 'Hà Nội', '氏名']) expect(text).toContain(typed);
    expect(text).not.toContain('?');
  });

  it('draws a character no font has as "?" rather than failing', async () => {
    const text = await pdfText(await renderLetter(letter({ greeting: 'Hello 🦩 there\u200b\u0007' })));
    expect(text).toContain('Hello ? there');
  });

  it('wraps long values and long Chinese text inside the page instead of running off it', async () => {
    const long = 'Lorem-ipsum-dolor-sit-amet-consectetur-adipiscing-elit-sed-do-eiusmod-tempor-incididunt-ut-labore-et-dolore-magna-aliqua';
    const chinese = '我们诚挚邀请申请人参加展会'.repeat(12);
    const bytes = await renderLetter(
      letter({
        particulars: [
          ['Place of birth', long],
          ['备注', chinese],
        ],
      }),
    );
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBe(1);
    const lines = (await pdfText(bytes, { layout: true })).split('\n');
    // Cut into several lines, and nothing lost on the way.
    expect(lines.filter((line) => line.includes('我们诚挚')).length).toBeGreaterThan(1);
    expect(lines.join('').replace(/\s+/g, '')).toContain(chinese);
    expect(lines.join('').replace(/\s+/g, '')).toContain(long);
  });
});
