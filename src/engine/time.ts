// K2: timestamps are shown in UTC plus an offset, e.g. "2027/03/04 09:30 (UTC+08:00)" in ja
// (written in the user's language by locale-format.ts).

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

const MINUTE_MS = 60_000;

/**
 * K2, the one rule for event time: an instant shifted by the event's UTC offset, so that its UTC
 * fields (getUTCHours, toISOString…) read as the event's wall clock. Never a real instant.
 */
export function toEventClock(instant: Date | string | number, offsetMinutes: number): Date {
  return new Date(new Date(instant).getTime() + offsetMinutes * MINUTE_MS);
}

/** The real instant of an event wall-clock time (a Date or epoch ms whose UTC fields are event time). */
export function fromEventClock(eventClock: Date | number, offsetMinutes: number): Date {
  return new Date(new Date(eventClock).getTime() - offsetMinutes * MINUTE_MS);
}

/** The event-time calendar day of an instant, "YYYY-MM-DD". */
export function eventDate(instant: Date | string | number, offsetMinutes: number): string {
  return toEventClock(instant, offsetMinutes).toISOString().slice(0, 10);
}

export function formatOffset(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `UTC${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}
