import { eventDay, formatEventDay } from './leads';
import { isEmailAddress } from './email';
import { hasFullWidth } from './forms/rules';
import type { CountByKey, InvitationRecipient, LeaderboardRow, ShowTrend, TrendGranularity, TrendPoint, UserCount } from './schemas/analytics';

// LA1-LA5: the lead dashboard's shapes and the small rules the browser and the server share
// (top N with "other", trend buckets in event time, invitation recipients, share links).

/** Breakdowns show this many keys, the rest summed as "other". */
export const BREAKDOWN_TOP_DEFAULT = 10;
export const BREAKDOWN_TOP_MAX = 50;
/** Hourly trends cover at most the last 14 event days that have leads; daily trends a year. */
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

/** LA2: a show day (event time) and its opening hours ("HH:MM"; absent when not recorded). */
export interface ShowDayHours {
  /** Event day number (days since 1970-01-01 in event time). */
  day: number;
  opens?: string;
  closes?: string;
}

/** Opening hours assumed for a show day that records none. */
const DEFAULT_OPEN_HOUR = 9;
const DEFAULT_CLOSE_HOUR = 18;
const hourOf = (time: string | undefined, fallback: number) => {
  const match = /^(\d{2}):(\d{2})$/.exec(time ?? '');
  return match ? Number(match[1]) : fallback;
};

/**
 * LA2: the trend as exhibitors read it. Daily: every day from the first show day or day with
 * leads to the last one, an empty day at 0 (true to time: a gap shows as a gap). Hourly: one day — the chosen
 * one, else today when it is a show day, else the latest show day with leads, else the first —
 * from its opening to its closing hour, widened to any hour with leads; labels "HH:00".
 */
export function showTrend(
  hourCounts: ReadonlyArray<{ hour: number; leads: number }>,
  granularity: TrendGranularity,
  show: { days: readonly ShowDayHours[]; today: number; chosenDay?: number },
): ShowTrend {
  const showDays = [...show.days].sort((a, b) => a.day - b.day);
  const showDayNumbers = new Set(showDays.map((d) => d.day));
  const labels = showDays.map((d) => formatEventDay(d.day));
  if (granularity === 'day') {
    const perDay = new Map<number, number>();
    for (const { hour, leads } of hourCounts) if (leads > 0) perDay.set(eventDay(hour), (perDay.get(eventDay(hour)) ?? 0) + leads);
    // Every day from the first to the last (show days and days with leads), empty ones at 0: the
    // chart spaces its points evenly, so a missing day would join distant days as neighbours.
    const known = [...showDayNumbers, ...perDay.keys()];
    const last = known.length > 0 ? Math.max(...known) : 0;
    const first = known.length > 0 ? Math.max(Math.min(...known), last - TREND_DAYS_MAX + 1) : 1;
    const days: number[] = [];
    for (let day = first; day <= last; day += 1) days.push(day);
    return { granularity, showDays: labels, day: null, points: days.map((day) => ({ bucket: day, label: formatEventDay(day), leads: perDay.get(day) ?? 0 })) };
  }
  const perHour = new Map<number, number>();
  for (const { hour, leads } of hourCounts) if (leads > 0) perHour.set(hour, (perHour.get(hour) ?? 0) + leads);
  const daysWithLeads = new Set([...perHour.keys()].map(eventDay));
  const day =
    show.chosenDay ??
    (showDayNumbers.has(show.today) ? show.today : undefined) ??
    [...showDays].reverse().find((d) => daysWithLeads.has(d.day))?.day ??
    showDays[0]?.day ??
    show.today;
  const hours = showDays.find((d) => d.day === day);
  let first = hours ? hourOf(hours.opens, DEFAULT_OPEN_HOUR) : 24;
  let last = hours ? Math.min(23, Math.max(0, hourOf(hours.closes, DEFAULT_CLOSE_HOUR) - (/:00$/.test(hours.closes ?? ':00') ? 1 : 0))) : -1;
  for (let h = 0; h < 24; h += 1) {
    if ((perHour.get(day * 24 + h) ?? 0) > 0) {
      first = Math.min(first, h);
      last = Math.max(last, h);
    }
  }
  const points: TrendPoint[] = [];
  for (let h = first; h <= last; h += 1) {
    points.push({ bucket: day * 24 + h, label: `${String(h).padStart(2, '0')}:00`, leads: perHour.get(day * 24 + h) ?? 0 });
  }
  return { granularity, showDays: labels, day: formatEventDay(day), points };
}

// ---- LA5 invitations ------------------------------------------------------------------------

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
    else if (!isEmailAddress(email)) problems.push({ index, field: 'email', key: 'validation.email', params: {} });
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
