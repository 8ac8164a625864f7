import type { VisitorDirectoryField } from './leads';

// LD2: the visitor fields a lead carries (copied from the visitor's registration), and the
// organiser's per-event choice of which of them exhibitors receive. A hidden field is left out
// of everything an exhibitor gets: the lead list and detail, exports, the leads API, webhook
// payloads and the scanner's offline visitor directory. Everything else on a lead (badge code,
// qualification, notes, scans) is the exhibitor's own and always shown.

export const LEAD_VISITOR_FIELDS = ['visitorName', 'salutation', 'company', 'businessNature', 'jobTitle', 'country', 'mobile', 'email', 'phone', 'address'] as const;
export type LeadVisitorField = (typeof LEAD_VISITOR_FIELDS)[number];

/** The visitor directory's fields as lead fields (the directory names the visitor's name `name`). */
export const LEAD_FIELD_OF_DIRECTORY_FIELD: Record<VisitorDirectoryField, LeadVisitorField> = { name: 'visitorName', company: 'company', jobTitle: 'jobTitle' };

/** The hidden fields of a stored setting (an event's `hidden_visitor_fields`), in their usual order; anything unknown is dropped. */
export function hiddenVisitorFields(stored: unknown): LeadVisitorField[] {
  return LEAD_VISITOR_FIELDS.filter((field) => Array.isArray(stored) && stored.includes(field));
}

/**
 * The one filter every answer to an exhibitor goes through: a lead (or webhook payload) shaped
 * with the API's field names, each hidden visitor field emptied. The shape stays the same, so
 * a client reads a hidden field as empty and the answer's schema holds.
 */
export function withoutHiddenFields<T extends object>(lead: T, hidden: readonly LeadVisitorField[]): T {
  if (hidden.length === 0) return lead;
  const copy = { ...lead } as Record<string, unknown>;
  for (const field of hidden) if (field in copy) copy[field] = '';
  return copy as T;
}
