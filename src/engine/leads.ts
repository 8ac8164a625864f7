import { toEventClock } from './time';
import { searchFold } from './search';
// Lead capture (spec §3 Lead and its enumerations), shared by the scanning API, the lead list,
// the qualification form, exports and the dashboard. Stored values are these stable codes;
// every screen shows them through the locale keys `leads.<enum>.<code>`.

export const LEAD_TYPES = ['existingCustomer', 'potentialCustomer', 'supplier', 'partner', 'investor', 'notALead', 'notApplicable'] as const;
export type LeadType = (typeof LEAD_TYPES)[number];

export const LEAD_TEMPERATURES = ['cold', 'warm', 'hot'] as const;
export type LeadTemperature = (typeof LEAD_TEMPERATURES)[number];

export const FOLLOW_UP_ACTIONS = ['arrangeCall', 'arrangeMeeting', 'sendIntroductionEmail', 'sendQuotation', 'noFollowUpYet', 'notFollowingUp', 'other'] as const;
export type FollowUpAction = (typeof FOLLOW_UP_ACTIONS)[number];

/** LD1 P1: the people of a participation who scan and work its leads: the exhibitor and its team users (never its contractor). */
export const LEAD_SCANNER_ROLES = ['exhibitor', 'team_user'] as const;

/** LD1: the visitor fields an organiser may let exhibitors' scanners keep offline (the visitor directory). */
/** LD2: the most leads one answer of the leads API's incremental sync carries. */
export const LEAD_SYNC_BATCH_MAX = 1000;

export const VISITOR_DIRECTORY_FIELDS = ['name', 'company', 'jobTitle'] as const;
export type VisitorDirectoryField = (typeof VISITOR_DIRECTORY_FIELDS)[number];
/** Visitors per page of the directory download. */
export const VISITOR_DIRECTORY_PAGE_MAX = 2000;

/** Scans one request may carry (the app syncs its offline queue in batches). */
export const SCAN_BATCH_MAX = 500;

/**
 * A keyword search of the lead list counts its matches up to this many, then answers
 * "more than" it; counting every match of a common word among a million leads took most of a
 * page's time, and nobody pages through more than this (they narrow the search).
 */
export const LEAD_TOTAL_CAP = 1_000;

const HOUR_MS = 3_600_000;

/** Hours since 1970-01-01T00:00 in event time (UTC + offset): the trend bucket of an instant. */
export function eventHour(instant: Date | string | number, offsetMinutes: number): number {
  return Math.floor(toEventClock(instant, offsetMinutes).getTime() / HOUR_MS);
}

/** The event-time day (days since 1970-01-01) an event hour falls on. */
export function eventDay(hour: number): number {
  return Math.floor(hour / 24);
}

/** "YYYY-MM-DD" of an event day; "YYYY-MM-DD HH:00" of an event hour (already in event time). */
export function formatEventDay(day: number): string {
  return new Date(day * 24 * HOUR_MS).toISOString().slice(0, 10);
}
export function formatEventHour(hour: number): string {
  return `${new Date(hour * HOUR_MS).toISOString().slice(0, 13).replace('T', ' ')}:00`;
}

/** The fields of a lead the list's keyword searches. */
export interface LeadSearchFields {
  visitorName: string;
  company: string;
  email: string;
  badgeCode: string;
}

/**
 * LD2: the text the lead list's keyword is matched against, kept on the lead (`search_folded`).
 * Each field is folded as the content and exhibitor searches fold (case, width, diacritics), so
 * "nguyen" finds "Nguyễn"; fields are joined by a line break, which a folded keyword never holds,
 * so a match never spans two fields.
 */
export function leadSearchText(fields: LeadSearchFields): string {
  return [fields.visitorName, fields.company, fields.email, fields.badgeCode].map(searchFold).join('\n');
}
