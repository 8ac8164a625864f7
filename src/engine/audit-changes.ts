// The audit log records what a change changed: the fields whose values differ, each under its
// path ("contactName", "flags.s04SubmitOnceOnly", "badges.0.email"), with the value before and
// after (null where the field did not exist); a list of plain values (modules) is one field. Unchanged fields are left out, so an organiser
// reading the log sees "contact: Siti Aminah → Trần Văn Bình", not two copies of the account.

export interface FieldChanges {
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A list of records (badges, products) is compared item by item; a list of words (modules) as one value. */
const isListOfRecords = (value: unknown): value is unknown[] => Array.isArray(value) && value.some((item) => typeof item === 'object' && item !== null);

function walk(before: unknown, after: unknown, path: string, changes: FieldChanges): void {
  if ((isRecord(before) && isRecord(after)) || (Array.isArray(before) && Array.isArray(after) && (isListOfRecords(before) || isListOfRecords(after)))) {
    const keys =
      Array.isArray(before) && Array.isArray(after)
        ? Array.from({ length: Math.max(before.length, after.length) }, (_, index) => String(index))
        : [...new Set([...Object.keys(before as object), ...Object.keys(after as object)])];
    for (const key of keys) {
      walk((before as Record<string, unknown>)[key], (after as Record<string, unknown>)[key], path ? `${path}.${key}` : key, changes);
    }
    return;
  }
  if (JSON.stringify(before ?? null) === JSON.stringify(after ?? null)) return;
  const key = path || '.';
  changes.before[key] = before ?? null;
  changes.after[key] = after ?? null;
}

/** The fields that differ between two values (objects and arrays compared field by field). */
export function fieldChanges(before: unknown, after: unknown): FieldChanges {
  const changes: FieldChanges = { before: {}, after: {} };
  walk(before, after, '', changes);
  return changes;
}
