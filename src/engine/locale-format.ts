// L1, K2, LA3: country and region names, dates and numbers in the user's language,
// all through Intl (never a hand-made format), the same in the browser and in the server's exports.
// The data stores ISO 3166-1 alpha-2 codes for countries; a value that is not one (an old or
// unrecognised name) is shown as it is.

import { intlLocale } from './language';
import { formatOffset, toEventClock } from './time';

/**
 * ISO 3166-1 alpha-2: the officially assigned codes, and XK (Kosovo, the code in common use).
 * Written out rather than probed from Intl at start (probing 676 pairs costs ~50 ms on load).
 */
export const COUNTRY_CODES: readonly string[] = `
AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS
BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE
EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM
HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC
LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA
NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW
SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO
TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA ZM ZW`
  .trim()
  .split(/\s+/);

const COUNTRY_CODE_SET = new Set(COUNTRY_CODES);

export function isCountryCode(value: unknown): value is string {
  return typeof value === 'string' && COUNTRY_CODE_SET.has(value);
}

/**
 * Intl formatters by language and options. Making one costs far more than using it (ICU data is
 * read each time) and lists, tables and exports format hundreds of values (the
 * dashboard's first render waited on them). A cache of constructors' answers; nothing else is written to it.
 */
const formatters = new Map<string, unknown>();

function formatter<T>(key: string, make: () => T): T {
  let made = formatters.get(key) as T | undefined;
  if (made === undefined) {
    made = make();
    formatters.set(key, made);
  }
  return made;
}

/**
 * Makes a language's formatters (country names, numbers, event days) ahead of their first use:
 * the first formatter of each kind reads ICU's data, 25 ms for country names and 14 ms for
 * numbers in Chromium, which otherwise fell in a page's first render (/dashboard).
 */
export function prepareFormatters(language: string): void {
  countryName('US', language);
  formatNumber(0, language);
  formatEventDay('2000-01-01', language);
}

/** The country's or region's name in the user's language; a value that is no code is shown as it is. */
export function countryName(value: string | null | undefined, language: string): string {
  if (!value) return '';
  if (!isCountryCode(value)) return value;
  return formatter(`region ${language}`, () => new Intl.DisplayNames(intlLocale(language), { type: 'region' })).of(value) ?? value;
}

/** Case, accents, punctuation and "&"/"and" do not tell two names apart. */
function foldName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/\b(the|of)\b/g, ' ')
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** Names in common use that Intl does not give (older or official English forms). */
const OTHER_NAMES: Record<string, string> = {
  'United States of America': 'US',
  USA: 'US',
  'U.S.A.': 'US',
  America: 'US',
  UK: 'GB',
  'Great Britain': 'GB',
  Britain: 'GB',
  England: 'GB',
  Korea: 'KR',
  'Republic of Korea': 'KR',
  'Korea, Republic of': 'KR',
  'Viet Nam': 'VN',
  'Hong Kong': 'HK',
  Macau: 'MO',
  Macao: 'MO',
  Turkey: 'TR',
  'Czech Republic': 'CZ',
  'Russian Federation': 'RU',
  Burma: 'MM',
  'Lao PDR': 'LA',
  "Lao People's Democratic Republic": 'LA',
  'Brunei Darussalam': 'BN',
  'East Timor': 'TL',
  Swaziland: 'SZ',
  Macedonia: 'MK',
  'Ivory Coast': 'CI',
  Holland: 'NL',
  'Mainland China': 'CN',
  "People's Republic of China": 'CN',
  PRC: 'CN',
  UAE: 'AE',
};

/** Folded name → code, over the names Intl gives in English and in every portal language. */
function buildNameIndex(): ReadonlyMap<string, string> {
  const index = new Map<string, string>();
  for (const language of ['en', 'cn', 'ja', 'vi']) {
    for (const style of ['long', 'short', 'narrow'] as const) {
      const names = new Intl.DisplayNames(intlLocale(language), { type: 'region', style, fallback: 'none' });
      for (const code of COUNTRY_CODES) {
        const name = names.of(code);
        const key = name ? foldName(name) : '';
        if (key && !index.has(key)) index.set(key, code);
      }
    }
  }
  for (const [name, code] of Object.entries(OTHER_NAMES)) index.set(foldName(name), code);
  return index;
}

/**
 * Built on the first name looked up (~20 ms), never on import: pages that only show names do
 * not pay for it. A cache of a pure function's answer; nothing else is ever written to it.
 */
let codeByName: ReadonlyMap<string, string> | undefined;

/**
 * The ISO code of a country given by code (any case) or by name (English or a portal language,
 * as Intl or common usage writes it). A value that names no country comes back trimmed, as
 * given, so that nothing typed is lost; empty stays empty.
 */
export function countryCode(value: string | null | undefined): string {
  const text = (value ?? '').trim();
  if (!text) return '';
  const upper = text.toUpperCase();
  if (/^[A-Z]{2}$/.test(upper) && COUNTRY_CODE_SET.has(upper)) return upper;
  codeByName ??= buildNameIndex();
  return codeByName.get(foldName(text)) ?? text;
}

/** Compares two country values by their names in the user's language. */
export function compareCountries(language: string): (a: string, b: string) => number {
  const collator = new Intl.Collator(intlLocale(language));
  return (a, b) => collator.compare(countryName(a, language), countryName(b, language));
}

/** A count or amount written as the user's language writes numbers ("1,234", "1.234"). */
export function formatNumber(value: number, language: string, options?: Intl.NumberFormatOptions): string {
  return formatter(`number ${language} ${options ? JSON.stringify(options) : ''}`, () => new Intl.NumberFormat(intlLocale(language), options)).format(value);
}

/**
 * How an event writes dates: the order of day, month and year is the show's (an ASEAN show in
 * English writes 26/03/2027, an American one 03/26/2027), while the reader's language keeps its
 * words, month names and separators. `language` writes dates as the reader's language does.
 */
export const DATE_ORDERS = ['language', 'dmy', 'mdy', 'ymd'] as const;
export type DateOrder = (typeof DATE_ORDERS)[number];
export const DEFAULT_DATE_ORDER: DateOrder = 'language';

export function isDateOrder(value: unknown): value is DateOrder {
  return typeof value === 'string' && (DATE_ORDERS as readonly string[]).includes(value);
}

/** Who reads a date: a language code alone (its own order), or a language and the event's order. */
export type DateLocale = string | { language: string; dateOrder?: string | null };

function languageOf(locale: DateLocale): string {
  return typeof locale === 'string' ? locale : locale.language;
}

function orderOf(locale: DateLocale): DateOrder {
  return typeof locale === 'string' || !isDateOrder(locale.dateOrder) ? DEFAULT_DATE_ORDER : locale.dateOrder;
}

/**
 * K2: the fields shown for an event-time date and time. Numeric, in the language's order and
 * separators, on the 24-hour clock K2 writes event times on.
 */
const DATE_PARTS: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit' };
const DATE_TIME_PARTS: Intl.DateTimeFormatOptions = { ...DATE_PARTS, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };

function eventClockFormat(language: string, withTime: boolean): Intl.DateTimeFormat {
  // The shifted instant's UTC fields are the event's wall clock (toEventClock).
  return formatter(`clock ${language} ${withTime}`, () => new Intl.DateTimeFormat(intlLocale(language), { ...(withTime ? DATE_TIME_PARTS : DATE_PARTS), timeZone: 'UTC' }));
}

const ORDER_FIELDS: Record<Exclude<DateOrder, 'language'>, ReadonlyArray<'day' | 'month' | 'year'>> = {
  dmy: ['day', 'month', 'year'],
  mdy: ['month', 'day', 'year'],
  ymd: ['year', 'month', 'day'],
};

/**
 * The language's numeric rendering with its day, month and year put in the event's order: the
 * date keeps the language's separators and its place beside the time (Vietnamese writes the time first).
 */
function inOrder(parts: Intl.DateTimeFormatPart[], order: DateOrder): Intl.DateTimeFormatPart[] {
  if (order === 'language') return parts;
  const at = parts.flatMap((part, index) => (part.type === 'day' || part.type === 'month' || part.type === 'year' ? [index] : []));
  if (at.length !== 3) return parts;
  const [first, second, third] = at as [number, number, number];
  const field = (type: string) => parts.find((part) => part.type === type)!;
  const [a, b, c] = ORDER_FIELDS[order].map(field) as [Intl.DateTimeFormatPart, Intl.DateTimeFormatPart, Intl.DateTimeFormatPart];
  return [...parts.slice(0, first), a, ...parts.slice(first + 1, second), b, ...parts.slice(second + 1, third), c, ...parts.slice(third + 1)];
}

function eventClockParts(locale: DateLocale, withTime: boolean, date: Date | number): Intl.DateTimeFormatPart[] {
  return inOrder(eventClockFormat(languageOf(locale), withTime).formatToParts(date), orderOf(locale));
}

function validDate(instant: string | number | Date | null | undefined): Date | undefined {
  if (instant === null || instant === undefined || instant === '') return undefined;
  const date = instant instanceof Date ? instant : new Date(instant);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** An instant as event wall-clock time in the reader's language and the event's date order, without the offset (a column header says it). */
export function formatEventTime(instant: string | number | Date | null | undefined, locale: DateLocale, offsetMinutes = 0, withTime = true): string {
  const date = validDate(instant);
  return date
    ? eventClockParts(locale, withTime, toEventClock(date, offsetMinutes))
        .map((part) => part.value)
        .join('')
    : '';
}

/** An event calendar day ("YYYY-MM-DD", already in event time) in the reader's language and the event's order; a value that is no day comes back as it is. */
export function formatEventDay(day: string, locale: DateLocale): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(day) ? formatEventTime(`${day}T00:00:00Z`, locale, 0, false) || day : day;
}

/** K2: an instant as event wall-clock time in the reader's language and the event's order, with the offset written out; "-" when none. */
export function formatEventTimeWithOffset(instant: string | number | Date | null | undefined, locale: DateLocale, offsetMinutes = 0, withTime = true): string {
  const text = formatEventTime(instant, locale, offsetMinutes, withTime);
  return text ? `${text} (${formatOffset(offsetMinutes)})` : '-';
}

/**
 * English writes a day in words either way round ("26 March 2027", "March 26, 2027"): the
 * event's order picks the region whose writing has it. The other portal languages have one
 * grammatical order for a day in words (2027年3月26日, 26 tháng 3, 2027), kept whatever the order.
 */
const ENGLISH_IN_WORDS: Record<DateOrder, string> = { language: 'en', dmy: 'en-GB', mdy: 'en-US', ymd: 'en-GB' };

/** A calendar day ("YYYY-MM-DD") written in full in the reader's language ("26 March 2027", "2027年3月26日"); a value that is no day comes back as it is. */
export function formatLongDay(day: string, locale: DateLocale): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return day;
  const language = languageOf(locale);
  const tag = intlLocale(language) === 'en' ? ENGLISH_IN_WORDS[orderOf(locale)] : intlLocale(language);
  const date = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return formatter(`long ${tag}`, () => new Intl.DateTimeFormat(tag, { dateStyle: 'long', timeZone: 'UTC' })).format(date);
}

const EXCEL_TOKEN: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = { year: 'yyyy', month: 'mm', day: 'dd', hour: 'hh', minute: 'mm' };

/**
 * The spreadsheet number format of a date cell in the reader's language and the event's order,
 * read from the portal's own rendering (order of fields and separators), so a real date cell
 * looks as the portal writes it.
 */
export function spreadsheetDateFormat(locale: DateLocale, withTime = true): string {
  const parts = eventClockParts(locale, withTime, Date.UTC(2027, 0, 2, 3, 4));
  return parts.map((part) => EXCEL_TOKEN[part.type] ?? (/^[\s/:.,-]*$/.test(part.value) ? part.value : `"${part.value.replace(/"/g, '')}"`)).join('');
}
