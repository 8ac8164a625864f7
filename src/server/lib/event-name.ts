import type { EventRow } from '../db/schema';

/**
 * The event's name in the reader's language: the name set for that language, else the one of the
 * event's own language, else the stored name. Every place that shows an event's name to a person
 * (login branding, events lists, account info) answers it so.
 */
export function eventNameIn(event: Pick<EventRow, 'name' | 'names'> & Partial<Pick<EventRow, 'default_language'>>, language: string): string {
  const names = (event.names ?? {}) as Record<string, string | undefined>;
  return names[language]?.trim() || (event.default_language ? names[event.default_language]?.trim() : '') || event.name;
}
