// How long exhibitors keep visitors' data (privacy: no longer than the organiser says). The
// organiser sets a number of days after the show's end; then the leads, their business cards
// and the lead exports are erased.

/** Days before the erasure that exhibitors are reminded to export. */
export const RETENTION_REMINDER_DAYS = 7;

/** When an event's leads are erased: its end plus the retention period (null: not set, kept). */
export function leadsEraseAt(event: { ends_at: Date | string; lead_retention_days: number | null }): Date | null {
  return event.lead_retention_days === null ? null : new Date(new Date(event.ends_at).getTime() + event.lead_retention_days * 86_400_000);
}
