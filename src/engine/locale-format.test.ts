import { describe, expect, it } from 'vitest';
import {
  COUNTRY_CODES,
  compareCountries,
  countryCode,
  countryName,
  formatEventDay,
  formatEventTime,
  formatEventTimeWithOffset,
  formatLongDay,
  formatNumber,
  isDateOrder,
  spreadsheetDateFormat,
  type DateOrder,
} from './locale-format';

describe('country codes and names', () => {
  it('knows the ISO 3166-1 countries and leaves out groupings, reserved and withdrawn codes', () => {
    expect(COUNTRY_CODES).toContain('MY');
    expect(COUNTRY_CODES).toContain('VN');
    for (const notACountry of ['EU', 'UN', 'ZZ', 'UK', 'SU', 'XA']) expect(COUNTRY_CODES).not.toContain(notACountry);
    expect(COUNTRY_CODES.length).toBe(250);
    // Every code is one Intl names in each portal language (else it would show as a bare code).
    for (const language of ['en', 'cn', 'ja', 'vi']) {
      const names = new Intl.DisplayNames(language === 'cn' ? 'zh-CN' : language, { type: 'region', fallback: 'none' });
      expect(
        COUNTRY_CODES.filter((code) => !names.of(code)),
        language,
      ).toEqual([]);
    }
  });

  it('names a code in the user’s language, cn as simplified Chinese', () => {
    expect(countryName('JP', 'ja')).toBe('日本');
    expect(countryName('SG', 'ja')).toBe('シンガポール');
    expect(countryName('SG', 'cn')).toBe('新加坡');
    expect(countryName('JP', 'vi')).toBe('Nhật Bản');
    expect(countryName('MY', 'en')).toBe('Malaysia');
  });

  it('shows a value that is no code as it is, and nothing for nothing', () => {
    expect(countryName('Atlantis', 'ja')).toBe('Atlantis');
    expect(countryName('jp', 'ja')).toBe('jp');
    expect(countryName('', 'ja')).toBe('');
    expect(countryName(null, 'ja')).toBe('');
  });

  it('turns codes in any case and names in English or a portal language into the code', () => {
    expect(countryCode('my')).toBe('MY');
    expect(countryCode(' Singapore ')).toBe('SG');
    expect(countryCode('Vietnam')).toBe('VN');
    expect(countryCode('Viet Nam')).toBe('VN');
    expect(countryCode('south korea')).toBe('KR');
    expect(countryCode('United Arab Emirates')).toBe('AE');
    expect(countryCode('Hong Kong')).toBe('HK');
    expect(countryCode('Turkey')).toBe('TR');
    expect(countryCode('Côte d’Ivoire')).toBe('CI');
    expect(countryCode('Cote d Ivoire')).toBe('CI');
    expect(countryCode('日本')).toBe('JP');
    expect(countryCode('Nhật Bản')).toBe('JP');
    expect(countryCode('新加坡')).toBe('SG');
    expect(countryCode('UK')).toBe('GB');
  });

  it('keeps what names no country, trimmed, and empty as empty', () => {
    expect(countryCode(' Atlantis ')).toBe('Atlantis');
    expect(countryCode('')).toBe('');
    expect(countryCode(undefined)).toBe('');
  });

  it('sorts by the names users read', () => {
    const sorted = ['JP', 'SG', 'MY'].sort(compareCountries('en'));
    expect(sorted).toEqual(['JP', 'MY', 'SG']);
    expect(['SG', 'JP'].sort(compareCountries('vi'))).toEqual(['JP', 'SG']); // Nhật Bản before Singapore
  });
});

describe('numbers and event times in the user’s language (K2)', () => {
  const INSTANT = '2027-03-04T01:30:00Z';

  it('writes numbers as the language does', () => {
    expect(formatNumber(1234567, 'en')).toBe('1,234,567');
    expect(formatNumber(1234567, 'vi')).toBe('1.234.567');
    expect(formatNumber(1234567, 'ja')).toBe('1,234,567');
  });

  it('writes event time in the language’s order, with the offset', () => {
    expect(formatEventTimeWithOffset(INSTANT, 'ja', 480)).toBe('2027/03/04 09:30 (UTC+08:00)');
    expect(formatEventTimeWithOffset(INSTANT, 'vi', 480)).toBe('09:30 04/03/2027 (UTC+08:00)');
    expect(formatEventTimeWithOffset(INSTANT, 'en', -330)).toBe('03/03/2027, 20:00 (UTC-05:30)');
    expect(formatEventTimeWithOffset(INSTANT, 'cn', 480, false)).toBe('2027/03/04 (UTC+08:00)');
  });

  it('crosses the day and the year at the event’s offset', () => {
    expect(formatEventTime('2026-12-31T20:05:00Z', 'ja', 480)).toBe('2027/01/01 04:05');
  });

  it('writes an event day in the language, leaving what is no day alone', () => {
    expect(formatEventDay('2027-03-04', 'ja')).toBe('2027/03/04');
    expect(formatEventDay('2027-03-04', 'vi')).toBe('04/03/2027');
    expect(formatEventDay('09:00', 'ja')).toBe('09:00');
  });

  it('answers a dash (with offset) or nothing (bare) for a missing or invalid instant', () => {
    expect(formatEventTimeWithOffset(null, 'en', 480)).toBe('-');
    expect(formatEventTimeWithOffset('not a date', 'en', 480)).toBe('-');
    expect(formatEventTime('', 'en')).toBe('');
  });

  it('gives spreadsheet date formats in the language’s field order', () => {
    expect(spreadsheetDateFormat('ja')).toBe('yyyy/mm/dd hh:mm');
    expect(spreadsheetDateFormat('vi')).toBe('hh:mm dd/mm/yyyy');
    expect(spreadsheetDateFormat('en', false)).toBe('mm/dd/yyyy');
  });
});

const INSTANT = '2027-03-04T01:30:00Z';

describe('K2 event time with its offset, in ja', () => {
  it('K2 shows the wall-clock time at +08:00', () => {
    expect(formatEventTimeWithOffset(INSTANT, 'ja', 480)).toBe('2027/03/04 09:30 (UTC+08:00)');
  });

  it('K2 shows the wall-clock time at -05:30, crossing back to the previous day', () => {
    expect(formatEventTimeWithOffset(INSTANT, 'ja', -330)).toBe('2027/03/03 20:00 (UTC-05:30)');
  });

  it('K2 shows UTC itself with offset 0, which is the default', () => {
    expect(formatEventTimeWithOffset(INSTANT, 'ja', 0)).toBe('2027/03/04 01:30 (UTC+00:00)');
    expect(formatEventTimeWithOffset(INSTANT, 'ja')).toBe('2027/03/04 01:30 (UTC+00:00)');
  });

  it('K2 crosses a year boundary forwards', () => {
    expect(formatEventTimeWithOffset('2026-12-31T20:05:00Z', 'ja', 480)).toBe('2027/01/01 04:05 (UTC+08:00)');
  });

  it('K2 reads an input that carries its own offset as the same instant', () => {
    expect(formatEventTimeWithOffset('2027-03-04T09:30:00+08:00', 'ja', 0)).toBe('2027/03/04 01:30 (UTC+00:00)');
  });

  it('K2 accepts epoch milliseconds and Date objects', () => {
    const ms = Date.UTC(2027, 2, 4, 1, 30);
    expect(formatEventTimeWithOffset(ms, 'ja', 480)).toBe('2027/03/04 09:30 (UTC+08:00)');
    expect(formatEventTimeWithOffset(new Date(ms), 'ja', -330)).toBe('2027/03/03 20:00 (UTC-05:30)');
    expect(formatEventTimeWithOffset(0, 'ja', 0)).toBe('1970/01/01 00:00 (UTC+00:00)');
  });

  it('K2 can leave the time out', () => {
    expect(formatEventTimeWithOffset(INSTANT, 'ja', 480, false)).toBe('2027/03/04 (UTC+08:00)');
    expect(formatEventTimeWithOffset(INSTANT, 'ja', -330, false)).toBe('2027/03/03 (UTC-05:30)');
  });

  it('K2 shows a dash for empty or invalid input', () => {
    expect(formatEventTimeWithOffset(null, 'ja')).toBe('-');
    expect(formatEventTimeWithOffset(undefined, 'ja', 480)).toBe('-');
    expect(formatEventTimeWithOffset('', 'ja', 480)).toBe('-');
    expect(formatEventTimeWithOffset('not a date', 'ja', 480)).toBe('-');
    expect(formatEventTimeWithOffset(Number.NaN, 'ja', 0)).toBe('-');
    expect(formatEventTimeWithOffset(new Date('garbage'), 'ja', 0)).toBe('-');
  });
});

describe("K2 L1: the event's date order, the reader's language", () => {
  // 14:30 on 26 March 2027 in an event at UTC+08:00.
  const INSTANT = '2027-03-26T06:30:00Z';
  const EXPECTED: Record<string, Record<DateOrder, string>> = {
    en: { language: '03/26/2027, 14:30', dmy: '26/03/2027, 14:30', mdy: '03/26/2027, 14:30', ymd: '2027/03/26, 14:30' },
    cn: { language: '2027/03/26 14:30', dmy: '26/03/2027 14:30', mdy: '03/26/2027 14:30', ymd: '2027/03/26 14:30' },
    ja: { language: '2027/03/26 14:30', dmy: '26/03/2027 14:30', mdy: '03/26/2027 14:30', ymd: '2027/03/26 14:30' },
    vi: { language: '14:30 26/03/2027', dmy: '14:30 26/03/2027', mdy: '14:30 03/26/2027', ymd: '14:30 2027/03/26' },
  };

  for (const [language, byOrder] of Object.entries(EXPECTED)) {
    for (const [dateOrder, expected] of Object.entries(byOrder)) {
      it(`${language} × ${dateOrder}: ${expected}`, () => {
        const locale = { language, dateOrder };
        expect(formatEventTime(INSTANT, locale, 480)).toBe(expected);
        expect(formatEventTimeWithOffset(INSTANT, locale, 480)).toBe(`${expected} (UTC+08:00)`);
        // The day alone is the same day in the same order, without the time.
        expect(formatEventDay('2027-03-26', locale)).toBe(expected.replace(/,? ?14:30 ?/, ''));
        expect(formatEventTime(INSTANT, locale, 480, false)).toBe(expected.replace(/,? ?14:30 ?/, ''));
      });
    }
  }

  it('an ASEAN show in English writes 26/03/2027, an American one 03/26/2027; a language alone keeps its own order', () => {
    expect(formatEventDay('2027-03-26', { language: 'en', dateOrder: 'dmy' })).toBe('26/03/2027');
    expect(formatEventDay('2027-03-26', { language: 'en', dateOrder: 'mdy' })).toBe('03/26/2027');
    expect(formatEventDay('2027-03-26', 'en')).toBe('03/26/2027');
    expect(formatEventDay('2027-03-26', { language: 'en' })).toBe('03/26/2027');
    // An order the portal does not know (an old client, a typo) is the language's own.
    expect(formatEventDay('2027-03-26', { language: 'vi', dateOrder: 'dym' })).toBe('26/03/2027');
    expect(formatEventDay('2027-03-26', { language: 'en', dateOrder: null })).toBe('03/26/2027');
  });

  it('knows its orders', () => {
    expect(['language', 'dmy', 'mdy', 'ymd'].every(isDateOrder)).toBe(true);
    expect(isDateOrder('dym')).toBe(false);
    expect(isDateOrder(undefined)).toBe(false);
  });

  it("gives spreadsheets the date format of the event's order in the reader's language", () => {
    expect(spreadsheetDateFormat({ language: 'en', dateOrder: 'dmy' })).toBe('dd/mm/yyyy, hh:mm');
    expect(spreadsheetDateFormat({ language: 'en', dateOrder: 'dmy' }, false)).toBe('dd/mm/yyyy');
    expect(spreadsheetDateFormat({ language: 'en', dateOrder: 'ymd' }, false)).toBe('yyyy/mm/dd');
    expect(spreadsheetDateFormat({ language: 'ja', dateOrder: 'dmy' })).toBe('dd/mm/yyyy hh:mm');
    expect(spreadsheetDateFormat({ language: 'vi', dateOrder: 'mdy' })).toBe('hh:mm mm/dd/yyyy');
    expect(spreadsheetDateFormat({ language: 'cn', dateOrder: 'language' })).toBe(spreadsheetDateFormat('cn'));
  });

  it('writes a day in words with the language’s month names, English in either order', () => {
    expect(formatLongDay('2027-03-26', { language: 'en', dateOrder: 'dmy' })).toBe('26 March 2027');
    expect(formatLongDay('2027-03-26', { language: 'en', dateOrder: 'mdy' })).toBe('March 26, 2027');
    expect(formatLongDay('2027-03-26', 'en')).toBe('March 26, 2027');
    for (const dateOrder of ['language', 'dmy', 'mdy', 'ymd']) {
      expect(formatLongDay('2027-03-26', { language: 'ja', dateOrder })).toBe('2027年3月26日');
      expect(formatLongDay('2027-03-26', { language: 'cn', dateOrder })).toBe('2027年3月26日');
      expect(formatLongDay('2027-03-26', { language: 'vi', dateOrder })).toBe('26 tháng 3, 2027');
    }
    expect(formatLongDay('not a day', 'en')).toBe('not a day');
  });
});
