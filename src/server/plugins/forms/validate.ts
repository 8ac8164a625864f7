import type { Kysely } from 'kysely';
import type { FormContext, RecordedUpload } from '../../../engine/forms/context';
import { FILE_TYPE_MIME } from '../../../engine/forms/files';
import type { FieldError } from '../../../engine/forms/messages';
import { runValidator } from '../../../engine/forms/validator';
import type { Database } from '../../db/schema';
import type { ServedValidator } from './form-set';

// The server validates a submission with the compiled validator it serves to the browser, for
// the event's patched form when it has one (both from the same form set).

export function validateSubmission(served: ServedValidator, data: unknown, context: FormContext): FieldError[] {
  const validate = served.validators[served.rootKey]!;
  return runValidator(validate, () => validate.errors, data, context);
}

/** The ids of everything in the data shaped like a file reference ({ id, name, size, type }). */
export function fileReferenceIds(data: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(data)) for (const item of data) fileReferenceIds(item, found);
  else if (data && typeof data === 'object') {
    const value = data as Record<string, unknown>;
    if (typeof value.id === 'string' && 'name' in value && 'size' in value && 'type' in value) found.add(value.id);
    else for (const child of Object.values(value)) fileReferenceIds(child, found);
  }
  return found;
}

const TYPE_OF_MIME = new Map(Object.entries(FILE_TYPE_MIME).map(([type, mime]) => [mime, type]));

/**
 * V3/P5: the uploads a submission's file references may name — those made for any of this
 * exhibitor's participations (a product copied from last year's event keeps its image) — as
 * the server recorded them. The `file` rule compares each reference with its record.
 */
export async function uploadsForReferences(db: Kysely<Database>, exhibitorId: number, data: unknown): Promise<Map<string, RecordedUpload>> {
  const ids = [...fileReferenceIds(data)];
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('uploads')
    .innerJoin('participations', 'participations.id', 'uploads.participation_id')
    .select(['uploads.id', 'uploads.purpose', 'uploads.size', 'uploads.content_type', 'uploads.dpi'])
    .where('participations.exhibitor_id', '=', exhibitorId)
    .where('uploads.id', 'in', ids)
    .execute();
  return new Map(rows.map((row) => [row.id, { purpose: row.purpose, size: row.size, type: TYPE_OF_MIME.get(row.content_type) ?? row.content_type, dpi: row.dpi }]));
}
