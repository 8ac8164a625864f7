import { API_BASE, IMAGE_MAX_BYTES } from './constants';
import type { FilePurposeRule } from './forms/files';
import { fromEventClock, toEventClock } from './time';
import { LANGUAGES } from './language';
import { isDateOrder } from './locale-format';
import { emailProblem } from './members';
import { eventSettingProblem } from './forms/event-settings';
import type { EventInput, EventSettingName, ShowDayInput } from './schemas/event';

// O2: the rules of an event as the organiser sets it up (its shape: schemas/event.ts), run by the
// console (messages beside the fields) and by the server (nothing stored when one fails). Times:
// show days and opening hours are in event time (UTC + offset); deadlines are instants (ISO 8601).

export interface EventVocabulary {
  modules: readonly string[];
  flags: readonly string[];
  deadlineNames: readonly string[];
  quotaNames: readonly string[];
  /** O2: the settings forms.yaml names (fee prices, approval limits), with their kinds and defaults. */
  settings?: readonly Pick<EventSettingName, 'name' | 'kind'>[];
}

/** Field path → locale key of its message ('' path never used). */
export type FieldProblems = Record<string, string>;

export const EVENT_CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{1,31}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const CLOCK = /^([01]\d|2[0-3]):[0-5]\d$/;
/** Whole minutes from UTC-12:00 to UTC+14:00. */
export const UTC_OFFSET_RANGE = { min: -12 * 60, max: 14 * 60 } as const;
export const REMINDER_DAYS_MAX = 60;

function validDate(value: string): boolean {
  if (!DATE.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
}

function webAddress(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * A logo is a web address or a file the portal itself serves ("/demo/afhe-logo.svg", as the
 * demo's are): a site-relative path, never protocol-relative ("//host") or a backslash trick.
 * Events and exhibitors share it so seeded logos can be saved unchanged in the console.
 */
export function logoAddress(value: string): boolean {
  return /^\/[^/\\]/.test(value) || webAddress(value);
}

/** The instant of an event-time day and clock. */
export function eventInstant(date: string, clock: string, utcOffsetMinutes: number): Date {
  return fromEventClock(Date.parse(`${date}T${clock}:00Z`), utcOffsetMinutes);
}

/** The show's first opening and last closing, or null without valid show days. */
export function showSpan(showDays: ShowDayInput[], utcOffsetMinutes: number): { startsAt: Date; endsAt: Date } | null {
  const valid = showDays.filter((day) => validDate(day.date) && CLOCK.test(day.opens) && CLOCK.test(day.closes));
  if (valid.length === 0 || valid.length !== showDays.length) return null;
  const sorted = [...valid].sort((a, b) => a.date.localeCompare(b.date));
  const first = sorted[0]!;
  const last = sorted[sorted.length - 1]!;
  return { startsAt: eventInstant(first.date, first.opens, utcOffsetMinutes), endsAt: eventInstant(last.date, last.closes, utcOffsetMinutes) };
}

export function eventProblems(input: EventInput, vocabulary: EventVocabulary): FieldProblems {
  const problems: FieldProblems = {};
  const add = (field: string, key: string) => {
    if (!(field in problems)) problems[field] = key;
  };
  if (!EVENT_CODE_PATTERN.test(input.code)) add('code', 'organiser.validation.code');
  if (!(LANGUAGES as readonly string[]).includes(input.defaultLanguage)) add('defaultLanguage', 'organiser.validation.language');
  else if (!input.names[input.defaultLanguage]?.trim()) add(`names.${input.defaultLanguage}`, 'organiser.validation.nameRequired');
  for (const language of Object.keys(input.names)) {
    if (!(LANGUAGES as readonly string[]).includes(language)) add(`names.${language}`, 'organiser.validation.language');
  }
  if (!Number.isInteger(input.utcOffsetMinutes) || input.utcOffsetMinutes < UTC_OFFSET_RANGE.min || input.utcOffsetMinutes > UTC_OFFSET_RANGE.max) {
    add('utcOffsetMinutes', 'organiser.validation.utcOffset');
  }
  if (input.dateOrder !== undefined && !isDateOrder(input.dateOrder)) add('dateOrder', 'organiser.validation.dateOrder');
  if (input.showDays.length === 0) add('showDays', 'organiser.validation.showDaysRequired');
  const seen = new Set<string>();
  input.showDays.forEach((day, index) => {
    if (!validDate(day.date)) add(`showDays.${index}.date`, 'organiser.validation.date');
    else if (seen.has(day.date)) add(`showDays.${index}.date`, 'organiser.validation.showDayTwice');
    seen.add(day.date);
    if (!CLOCK.test(day.opens)) add(`showDays.${index}.opens`, 'organiser.validation.clock');
    if (!CLOCK.test(day.closes)) add(`showDays.${index}.closes`, 'organiser.validation.clock');
    else if (CLOCK.test(day.opens) && day.closes <= day.opens) add(`showDays.${index}.closes`, 'organiser.validation.closesBeforeOpens');
  });
  if (input.logoUrl !== '' && !logoAddress(input.logoUrl)) add('logoUrl', 'organiser.validation.url');
  for (const [field, value] of [
    ['url', input.url],
    ['termsUrl', input.termsUrl],
  ] as const) {
    if (value !== '' && !webAddress(value)) add(field, 'organiser.validation.url');
  }
  if (input.supportEmail !== '' && emailProblem(input.supportEmail)) add('supportEmail', 'errors.emailInvalid');
  if (!/^[A-Z]{3}$/.test(input.currency)) add('currency', 'organiser.validation.currency');
  for (const [name, value] of Object.entries(input.settings)) {
    const setting = vocabulary.settings?.find((known) => known.name === name);
    if (!setting) add(`settings.${name}`, 'organiser.validation.unknownName');
    else {
      const problem = eventSettingProblem(setting.kind, value);
      if (problem) add(`settings.${name}`, problem);
    }
  }

  const span = showSpan(input.showDays, input.utcOffsetMinutes);
  for (const [name, value] of Object.entries(input.deadlines)) {
    const field = `deadlines.${name}`;
    const at = Date.parse(value);
    if (!vocabulary.deadlineNames.includes(name)) add(field, 'organiser.validation.unknownName');
    else if (Number.isNaN(at)) add(field, 'organiser.validation.dateTime');
    else if (span && at > span.endsAt.getTime()) add(field, 'organiser.validation.deadlineAfterShow');
  }
  for (const module of input.defaultModules) if (!vocabulary.modules.includes(module)) add('defaultModules', 'organiser.validation.unknownModule');
  for (const flag of Object.keys(input.defaultFlags)) if (!vocabulary.flags.includes(flag)) add('defaultFlags', 'organiser.validation.unknownName');
  for (const [name, value] of Object.entries(input.defaultQuotas)) {
    if (!vocabulary.quotaNames.includes(name)) add(`defaultQuotas.${name}`, 'organiser.validation.unknownName');
    else if (!Number.isInteger(value) || value < 0) add(`defaultQuotas.${name}`, 'organiser.validation.quota');
  }
  if (input.reminderDays.some((day) => !Number.isInteger(day) || day < 1 || day > REMINDER_DAYS_MAX) || new Set(input.reminderDays).size !== input.reminderDays.length) {
    add('reminderDays', 'organiser.validation.reminderDays');
  }
  return problems;
}

/** An instant as event-local "YYYY-MM-DDTHH:MM" (a datetime-local field in event time). */
export function toEventLocal(iso: string, utcOffsetMinutes: number): string {
  const at = Date.parse(iso);
  return Number.isNaN(at) ? '' : toEventClock(at, utcOffsetMinutes).toISOString().slice(0, 16);
}

/** An event-local "YYYY-MM-DDTHH:MM" as an ISO instant ('' when it is not one). */
export function fromEventLocal(local: string, utcOffsetMinutes: number): string {
  const at = Date.parse(`${local}:00Z`);
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(local) && !Number.isNaN(at) ? new Date(at - utcOffsetMinutes * 60_000).toISOString() : '';
}

/** The upload purpose recorded for an event's logo (no form field ever holds one). */
export const EVENT_LOGO_PURPOSE = 'eventLogo';
/** An event logo: a JPEG or PNG up to the image limit, checked by its content like every upload. */
export const EVENT_LOGO_RULE: FilePurposeRule = { types: ['jpeg', 'png'], maxBytes: IMAGE_MAX_BYTES };
/** Where the portal serves an uploaded event logo (same origin: the content policy shows it). */
export const EVENT_LOGO_PATH = `${API_BASE}/event-logos/`;
