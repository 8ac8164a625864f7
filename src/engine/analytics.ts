import { eventDay, formatEventDay, formatEventHour } from './leads';
import { hasFullWidth } from './forms/rules';

// LA1-LA5: the lead dashboard's shapes and the small rules the browser and the server share
// (top N with "other", trend buckets in event time, invitation recipients, share links).

export type TrendGranularity = 'day' | 'hour';

/** Breakdowns show this many keys, the rest summed as "other". */
export const BREAKDOWN_TOP_DEFAULT = 10;
export const BREAKDOWN_TOP_MAX = 50;
/** Hourly trends cover at most the last 14 event days that have leads; daily trends a year. */
export const TREND_HOURS_MAX = 14 * 24;
export const TREND_DAYS_MAX = 366;
/** Above this many points the trend is drawn on a canvas (SVG slows down with many points). */
export const TREND_CANVAS_ABOVE = 300;

/** LA5: recipients in one send, and invitations a participation may send per event day. */
export const INVITATION_BATCH_MAX = 20;
export const INVITATIONS_PER_DAY_MAX = 200;
export const INVITATION_MESSAGE_MAX_LENGTH = 1000;
export const INVITATION_NAME_MAX_LENGTH = 100;

/** The key under which breakdowns sum what is beyond the top N. */
export const OTHER_KEY = '__other__';
/** The key of leads without a value (an unqualified lead, a visitor without a country). */
export const NONE_KEY = '';

export interface CountByKey {
  key: string;
  leads: number;
}

export interface UserCount {
  userId: number;
  name: string;
  leads: number;
}

export interface LeaderboardRow extends UserCount {
  rank: number;
}

export interface TrendPoint {
  /** Event hour or event day (since 1970-01-01 in event time). */
  bucket: number;
  /** "YYYY-MM-DD" or "YYYY-MM-DD HH:00", in event time. */
  label: string;
  leads: number;
}

export interface DashboardSummary {
  total: number;
  today: number;
  hot: number;
  qualified: number;
  unqualified: number;
  unknownBadges: number;
  /** Team user accounts of the participation that are activated. */
  activeTeamUsers: number;
  /** Users (exhibitor or team) with at least one lead. */
  scanningUsers: number;
}

export interface Dashboard {
  offsetMinutes: number;
  /** "UTC+08:00". */
  offsetLabel: string;
  /** Today in event time, "YYYY-MM-DD". */
  today: string;
  summary: DashboardSummary;
  trend: { granularity: TrendGranularity; points: TrendPoint[] };
  countries: CountByKey[];
  users: UserCount[];
  types: CountByKey[];
  temperatures: CountByKey[];
  leaderboard: LeaderboardRow[];
}

/** The largest `top` counts (ties by key), the rest summed under OTHER_KEY; zeros dropped. */
export function topWithOther(counts: readonly CountByKey[], top: number): CountByKey[] {
  const sorted = counts.filter((c) => c.leads > 0).sort((a, b) => b.leads - a.leads || a.key.localeCompare(b.key));
  if (sorted.length <= top) return sorted;
  const rest = sorted.slice(top).reduce((sum, c) => sum + c.leads, 0);
  return [...sorted.slice(0, top), { key: OTHER_KEY, leads: rest }];
}

/** Counts of a fixed list of codes (an enumeration) in its order, then the unset key if any. */
export function inEnumOrder(counts: readonly CountByKey[], codes: readonly string[]): CountByKey[] {
  const byKey = new Map(counts.map((c) => [c.key, c.leads]));
  const rows = codes.map((key) => ({ key, leads: byKey.get(key) ?? 0 }));
  const none = byKey.get(NONE_KEY) ?? 0;
  return none > 0 ? [...rows, { key: NONE_KEY, leads: none }] : rows;
}

/** Dense ranks (1, 2, 2, 3) by leads, ties in name order. */
export function leaderboard(users: readonly UserCount[]): LeaderboardRow[] {
  const sorted = users.filter((u) => u.leads > 0).sort((a, b) => b.leads - a.leads || a.name.localeCompare(b.name));
  let rank = 0;
  let previous = Number.NaN;
  return sorted.map((user) => {
    if (user.leads !== previous) rank += 1;
    previous = user.leads;
    return { ...user, rank };
  });
}

/**
 * A continuous trend from per-hour counts: every bucket from the first with leads to the last
 * (zeros filled), at most `max` buckets (the latest ones).
 */
export function trendPoints(hourCounts: ReadonlyArray<{ hour: number; leads: number }>, granularity: TrendGranularity): TrendPoint[] {
  const buckets = new Map<number, number>();
  for (const { hour, leads } of hourCounts) {
    if (leads === 0) continue;
    const bucket = granularity === 'day' ? eventDay(hour) : hour;
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + leads);
  }
  if (buckets.size === 0) return [];
  const keys = [...buckets.keys()];
  const last = Math.max(...keys);
  const first = Math.max(Math.min(...keys), last - (granularity === 'day' ? TREND_DAYS_MAX : TREND_HOURS_MAX) + 1);
  const points: TrendPoint[] = [];
  for (let bucket = first; bucket <= last; bucket += 1) {
    points.push({ bucket, label: granularity === 'day' ? formatEventDay(bucket) : formatEventHour(bucket), leads: buckets.get(bucket) ?? 0 });
  }
  return points;
}

/** The first event hour of a trend of this granularity ending at `lastHour` (what to read). */
export function trendStartHour(lastHour: number, granularity: TrendGranularity): number {
  return granularity === 'day' ? (eventDay(lastHour) - TREND_DAYS_MAX + 1) * 24 : lastHour - TREND_HOURS_MAX + 1;
}

// ---- LA5 invitations ------------------------------------------------------------------------

/** The e-mail format of ajv-formats (what the forms check), without full-width characters (V1). */
const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

export function isValidEmail(text: string): boolean {
  const value = text.trim();
  return value.length <= 254 && !hasFullWidth(value) && EMAIL.test(value);
}

export interface InvitationRecipient {
  name: string;
  email: string;
}

export interface RecipientProblem {
  index: number;
  field: 'name' | 'email';
  key: string;
  params: Record<string, string | number>;
}

/** Every problem of a list of recipients (V1 e-mails, names, no address twice, the batch size). */
export function checkRecipients(recipients: readonly InvitationRecipient[]): RecipientProblem[] {
  const problems: RecipientProblem[] = [];
  const seen = new Set<string>();
  recipients.forEach((recipient, index) => {
    const name = recipient.name.trim();
    const email = recipient.email.trim();
    if (name === '') problems.push({ index, field: 'name', key: 'validation.required', params: {} });
    else if (name.length > INVITATION_NAME_MAX_LENGTH) problems.push({ index, field: 'name', key: 'validation.maxLength', params: { limit: INVITATION_NAME_MAX_LENGTH } });
    if (email === '') problems.push({ index, field: 'email', key: 'validation.required', params: {} });
    else if (hasFullWidth(email)) problems.push({ index, field: 'email', key: 'validation.noFullWidth', params: {} });
    else if (!isValidEmail(email)) problems.push({ index, field: 'email', key: 'validation.email', params: {} });
    else if (seen.has(email.toLowerCase())) problems.push({ index, field: 'email', key: 'invitations.duplicateEmail', params: { value: email } });
    seen.add(email.toLowerCase());
  });
  return problems;
}

export type ShareNetwork = 'linkedin' | 'facebook' | 'x' | 'whatsapp' | 'email';
export const SHARE_NETWORKS: readonly ShareNetwork[] = ['linkedin', 'facebook', 'x', 'whatsapp', 'email'];

/** Share links for the event's address with a prefilled text. */
export function shareLinks(url: string, text: string, subject: string): Record<ShareNetwork, string> {
  const u = encodeURIComponent(url);
  const t = encodeURIComponent(text);
  return {
    linkedin: `https://www.linkedin.com/sharing/share-offsite/?url=${u}`,
    facebook: `https://www.facebook.com/sharer/sharer.php?u=${u}&quote=${t}`,
    x: `https://x.com/intent/post?text=${t}&url=${u}`,
    whatsapp: `https://wa.me/?text=${encodeURIComponent(`${text} ${url}`)}`,
    email: `mailto:?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(`${text}\n\n${url}`)}`,
  };
}

/** Why an invitation could not be sent, by what the mail server (or the connection) said. */
export type InvitationFailure = 'unreachable' | 'timeout' | 'refused' | 'recipientRejected' | 'unknown';

export function invitationFailureOf(error: unknown): InvitationFailure {
  const e = (error ?? {}) as { code?: string; responseCode?: number; command?: string };
  if (e.code === 'ETIMEDOUT' || e.code === 'TIMEOUT') return 'timeout';
  if (e.code === 'ECONNECTION' || e.code === 'ESOCKET' || e.code === 'ECONNREFUSED' || e.code === 'EDNS' || e.code === 'ETLS') return 'unreachable';
  if (e.responseCode && e.responseCode >= 500 && e.command === 'RCPT TO') return 'recipientRejected';
  if (e.code === 'EENVELOPE') return 'recipientRejected';
  if (e.responseCode && e.responseCode >= 400) return 'refused';
  return 'unknown';
}
