import { describe, expect, it } from 'vitest';
import {
  COUNTRY_CODES,
  compareCountries,
  countryCode,
  countryName,
  formatEventDay,
  formatEventTime,
  formatEventTimeWithOffset,
  formatNumber,
  spreadsheetDateFormat,
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
