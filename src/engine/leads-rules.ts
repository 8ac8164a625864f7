import { fromEventClock } from './time';
import { FOLLOW_UP_ACTIONS, LEAD_TEMPERATURES, LEAD_TYPES, type FollowUpAction, type LeadTemperature, type LeadType } from './leads';
import { countryCode } from './locale-format';
import { PAGINATION } from './constants';
import type { TagDefinition } from './schemas/custom-tag';

// LD1-LD4 rules shared by the browser and the server: scan input limits, the qualification
// form's validation (V6 required messages), the lead list's filters and sorting, and the
// neutralisation of spreadsheet cells. Pure TypeScript: no React, no Node.

// ---- LD1: scans -------------------------------------------------------------------------------

/** The app's own id of a scan (a UUID, or any id unique on the device): 1-64 safe characters. */
export const CLIENT_SCAN_ID_PATTERN = '^[A-Za-z0-9._:-]{1,64}$';
/** A badge code as printed in the badge's QR code: 1-64 printable characters without spaces. */
export const BADGE_CODE_PATTERN = '^[\\x21-\\x7e]{1,64}$';
/** A scan time may be ahead of the server's clock by at most this much (device clock drift). */
export const SCAN_FUTURE_TOLERANCE_MS = 24 * 60 * 60 * 1000;
/** …and is not older than this (an unset device clock reports 1970). */
export const SCAN_EARLIEST = '2000-01-01T00:00:00Z';

/** ISO 8601 date-time with an explicit zone (Z or ±hh:mm). */
const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * An ISO instant naming a real calendar moment: `Date.parse` rolls 30 February over to
 * 2 March and 24:30 to the next day, so the written fields must survive the round trip.
 */
export function isIsoInstant(value: string): boolean {
  const match = ISO_INSTANT.exec(value);
  if (!match) return false;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0));
  const zone = match[8]!;
  if (zone !== 'Z' && (Number(zone.slice(1, 3)) > 23 || Number(zone.slice(4, 6)) > 59)) return false;
  const calendar = new Date(Date.UTC(year!, month! - 1, day!, hour!, minute!, second!));
  return (
    calendar.getUTCFullYear() === year &&
    calendar.getUTCMonth() === month! - 1 &&
    calendar.getUTCDate() === day &&
    calendar.getUTCHours() === hour &&
    calendar.getUTCMinutes() === minute &&
    calendar.getUTCSeconds() === second
  );
}

export type ScanTimeProblem = 'format' | 'future' | 'past';

/** Why a scan time is refused, or null when it is usable. */
export function checkScanTime(value: string, now: number): ScanTimeProblem | null {
  if (!isIsoInstant(value)) return 'format';
  const ms = Date.parse(value);
  if (ms > now + SCAN_FUTURE_TOLERANCE_MS) return 'future';
  if (ms < Date.parse(SCAN_EARLIEST)) return 'past';
  return null;
}

// ---- LD3: qualification -----------------------------------------------------------------------

export const LEAD_NOTES_MAX = 2000;
export const LEAD_TEXT_MAX = 200;

export interface Qualification {
  leadType: string | null;
  temperature: string | null;
  followUp: string | null;
  notes: string;
  /** Tag id (as a string key) → chosen choices of that tag. */
  tagAnswers: Record<string, string[]>;
  /** Upload id of the business card image, or null. */
  businessCard: string | null;
  /** Editable (and required) only when the badge matched no visitor. */
  visitorName?: string;
  company?: string;
}

export type QualificationField = 'leadType' | 'temperature' | 'followUp' | 'notes' | 'tagAnswers' | 'visitorName' | 'company';

/** Field → locale key of its first problem. Empty when the qualification can be saved. */
export type QualificationErrors = Partial<Record<QualificationField, string>>;

const isOneOf = (list: readonly string[], value: unknown): boolean => typeof value === 'string' && list.includes(value);

/**
 * V6 + LD3: lead type, temperature and follow-up action are required and must be known codes;
 * visitor name and company are required when the badge was unknown (the scan captured nothing
 * else); notes are bounded; every tag answer names an existing tag and only its choices.
 *
 * A complete qualification (the detail screen's form) checks every field. A partial update
 * (`changed`: the fields a request sends) checks only those: a lead is qualified step by step
 * (temperature now, type later), and is "qualified" in lists and exports once lead type,
 * temperature and follow-up are all set; a sent field may still not be cleared or invalid.
 * An unknown badge's visitor name and company are asked with any qualification field.
 */
export function validateQualification(
  input: Qualification,
  context: {
    badgeKnown: boolean;
    tags: readonly TagDefinition[];
    /**
     * The answers already stored: a choice the exhibitor has since removed from its tag stays
     * acceptable on this lead (shown, removable), so a changed tag never makes a lead unsavable.
     */
    stored?: Readonly<Record<string, readonly string[]>>;
    /** A partial update: only these fields were sent, and only they are required. */
    changed?: ReadonlySet<keyof Qualification>;
  },
): QualificationErrors {
  const errors: QualificationErrors = {};
  const changed = context.changed;
  const required = (field: keyof Qualification) => !changed || changed.has(field);
  // An unknown badge's visitor name and company belong to its qualification: required whenever
  // lead type, temperature or follow-up is set, so a qualified lead always names its visitor.
  const qualifying = !changed || changed.has('leadType') || changed.has('temperature') || changed.has('followUp');
  if (!input.leadType) {
    if (required('leadType')) errors.leadType = 'leads.required.leadType';
  } else if (!isOneOf(LEAD_TYPES, input.leadType)) errors.leadType = 'validation.enum';
  if (!input.temperature) {
    if (required('temperature')) errors.temperature = 'leads.required.temperature';
  } else if (!isOneOf(LEAD_TEMPERATURES, input.temperature)) errors.temperature = 'validation.enum';
  if (!input.followUp) {
    if (required('followUp')) errors.followUp = 'leads.required.followUp';
  } else if (!isOneOf(FOLLOW_UP_ACTIONS, input.followUp)) errors.followUp = 'validation.enum';
  if ((input.notes ?? '').length > LEAD_NOTES_MAX) errors.notes = 'validation.maxLength';
  if (!context.badgeKnown) {
    const name = (input.visitorName ?? '').trim();
    const company = (input.company ?? '').trim();
    if (!name) {
      if (qualifying || required('visitorName')) errors.visitorName = 'leads.required.visitorName';
    } else if (name.length > LEAD_TEXT_MAX) errors.visitorName = 'validation.maxLength';
    if (!company) {
      if (qualifying || required('company')) errors.company = 'leads.required.visitorCompany';
    } else if (company.length > LEAD_TEXT_MAX) errors.company = 'validation.maxLength';
  }
  const answers = input.tagAnswers ?? {};
  for (const [tagId, chosen] of Object.entries(answers)) {
    const tag = context.tags.find((t) => String(t.id) === tagId);
    const kept = context.stored?.[tagId] ?? [];
    const valid = tag && Array.isArray(chosen) && chosen.every((c) => tag.choices.includes(c) || kept.includes(c)) && new Set(chosen).size === chosen.length;
    if (!valid) {
      errors.tagAnswers = 'leads.validation.tagChoice';
      break;
    }
  }
  return errors;
}

/** Stored answers of a tag that are no longer among its choices (removed since): shown apart. */
export function staleChoices(tag: TagDefinition, chosen: readonly string[]): string[] {
  return chosen.filter((choice) => !tag.choices.includes(choice));
}

/** The limits of each message key, for the i18n placeholders. */
export const QUALIFICATION_LIMITS: Record<string, number> = { notes: LEAD_NOTES_MAX, visitorName: LEAD_TEXT_MAX, company: LEAD_TEXT_MAX };

// ---- LD2: list filters and sorting ------------------------------------------------------------

export const LEAD_SORTS = ['scannedAt', 'name', 'company'] as const;
export type LeadSort = (typeof LEAD_SORTS)[number];
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** Filter value meaning "not qualified yet" for lead type, temperature and follow-up. */
export const UNSET = 'none' as const;

/** A filter's "not set" choice beside the values themselves (UNSET). */
type OrUnset<T> = T | typeof UNSET;

export interface LeadFilters {
  leadType?: OrUnset<LeadType>;
  temperature?: OrUnset<LeadTemperature>;
  followUp?: OrUnset<FollowUpAction>;
  scannedBy?: number;
  /** Event days, YYYY-MM-DD in event time, both inclusive. */
  from?: string;
  to?: string;
  country?: string;
  keyword?: string;
}

export interface LeadQuery extends LeadFilters {
  page: number;
  limit: number;
  sort: LeadSort;
  order: SortOrder;
}

export const KEYWORD_MAX = 100;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a YYYY-MM-DD (in whatever zone it was written), or null. */
function dayNumber(value: string | undefined): number | null {
  if (!value || !DAY.test(value)) return null;
  const ms = Date.parse(`${value}T00:00:00Z`);
  return Number.isNaN(ms) ? null : Math.floor(ms / DAY_MS);
}

/**
 * The instants [start, end) an event-day range covers at an offset. A missing bound is open.
 * `to` is inclusive: its whole day counts.
 */
export function dayRangeInstants(from: string | undefined, to: string | undefined, offsetMinutes: number): { start?: Date; end?: Date } {
  const first = dayNumber(from);
  const last = dayNumber(to);
  return {
    start: first === null ? undefined : fromEventClock(first * DAY_MS, offsetMinutes),
    end: last === null ? undefined : fromEventClock((last + 1) * DAY_MS, offsetMinutes),
  };
}

/** Event hours [startHour, endHour) of a day range, for the trigger-kept rollup. */
export function dayRangeHours(from: string | undefined, to: string | undefined): { startHour?: number; endHour?: number } {
  const first = dayNumber(from);
  const last = dayNumber(to);
  return { startHour: first === null ? undefined : first * 24, endHour: last === null ? undefined : (last + 1) * 24 };
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

/**
 * A list query from untrusted parameters (URL or request): unknown codes, sorts and sizes are
 * dropped or fall back to the defaults, so a hand-edited URL never fails or injects anything.
 */
export function parseLeadQuery(params: Record<string, unknown>): LeadQuery {
  const code = <Code extends string>(list: readonly Code[], value: unknown): OrUnset<Code> | undefined => {
    const text = str(value);
    if (text === UNSET) return UNSET;
    return list.find((item) => item === text);
  };
  const scannedBy = Number(params.scannedBy);
  const page = Number(params.page);
  const limit = Number(params.limit);
  const sort = str(params.sort);
  const order = str(params.order);
  const keyword = str(params.keyword);
  const country = str(params.country);
  return {
    leadType: code(LEAD_TYPES, params.leadType),
    temperature: code(LEAD_TEMPERATURES, params.temperature),
    followUp: code(FOLLOW_UP_ACTIONS, params.followUp),
    scannedBy: Number.isInteger(scannedBy) && scannedBy > 0 ? scannedBy : undefined,
    from: dayNumber(str(params.from)) === null ? undefined : str(params.from),
    to: dayNumber(str(params.to)) === null ? undefined : str(params.to),
    // L1: a country given by name (English or a portal language) filters by its ISO code.
    country: country && country.length <= LEAD_TEXT_MAX ? countryCode(country) : undefined,
    keyword: keyword ? keyword.slice(0, KEYWORD_MAX) : undefined,
    page: Number.isInteger(page) && page >= 1 ? page : PAGINATION.defaultPage,
    limit: (PAGINATION.pageSizes as readonly number[]).includes(limit) ? limit : PAGINATION.defaultLimit,
    sort: (LEAD_SORTS as readonly string[]).includes(sort ?? '') ? (sort as LeadSort) : 'scannedAt',
    order: order === 'asc' ? 'asc' : 'desc',
  };
}

/** The filters of a query only (what an export takes, what a URL keeps). */
export function filtersOf(query: LeadFilters): LeadFilters {
  const { leadType, temperature, followUp, scannedBy, from, to, country, keyword } = query;
  const all: LeadFilters = { leadType, temperature, followUp, scannedBy, from, to, country, keyword };
  return Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined && v !== '')) as LeadFilters;
}

// ---- LD4: exports -----------------------------------------------------------------------------

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * A phone number or a signed number ("+84 31864359", "-5", "+1 (555) 010-9999"): digits and
 * phone punctuation only. A spreadsheet may read it as arithmetic, but with no letters it can
 * name no function, cell or link, so it is written as captured and stays readable.
 */
const PLAIN_NUMBER = /^[+-][\d ()./-]*\d[\d ()./-]*$/;

/**
 * CSV only (LD4): a cell a spreadsheet would run as a formula (= + - @, or a leading tab /
 * carriage return) and that could name a function or link is prefixed with an apostrophe, so it
 * shows as the text that was captured (CSV/formula injection). Phone numbers stay as they are.
 * XLSX needs none of this: its cells are typed text and never run (see export.ts).
 */
export function neutraliseCell(value: string): string {
  if (!/^[=+\-@\t\r]/.test(value) || PLAIN_NUMBER.test(value)) return value;
  return `'${value}`;
}

/** One CSV field: neutralised, quoted when it holds a comma, quote or line break. */
export function csvField(value: string): string {
  const safe = neutraliseCell(value);
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
