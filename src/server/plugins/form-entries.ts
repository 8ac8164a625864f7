import fp from 'fastify-plugin';
import type { Kysely, Selectable } from 'kysely';
import { formDataLimit } from '../../engine/forms/form-size';
import type { Submission } from '../../engine/forms/lifecycle';
import type { Database, FormEntryTable } from '../db/schema';
import { AppError } from '../lib/app-error';

// The exhibitors' form entries (F1, F3, F9, P1, issue 9) have one owner: this service reads and
// writes `form_entries` (drafts with their version, submissions, each part's submission, the
// approval a submission needs) and `form_reopens` (the organiser's reopening of a submit-once
// form). Every save carries the version it was based on; an older version is refused, never
// overwritten. A draft changes the working copy (`data`) only: once submitted, a form stays
// submitted, with its submitted copy, approval decision and documents, until a new submission
// replaces them. The rules that decide what to write are pure (engine/forms/lifecycle.ts).

export type FormEntryRow = Selectable<FormEntryTable>;

/** A save of one entry: a draft (`submission` null) or a submission. */
export interface EntrySave {
  participationId: number;
  formId: string;
  /** The version the change is based on (0 for a form never saved). */
  version: number;
  data: Record<string, unknown>;
  userId: number;
  submission: Submission | null;
  /** The form's schema: the data may be as large as it allows (formDataLimit), never more. */
  schema: unknown;
}

export interface FormEntriesService {
  /** A participation's entries by form id. */
  ofParticipation(participationId: number): Promise<Map<string, FormEntryRow>>;
  /** When the organiser last reopened a submit-once form for this participation (null = never). */
  reopenedAt(participationId: number, formId: string): Promise<Date | null>;
  /** Reopens a submit-once form: its next submission closes it again. */
  reopen(db: Kysely<Database>, participationId: number, formId: string, by: number, at: Date): Promise<void>;
  /** F3: the form's working copy in the exhibitor's most recent event that started before `before`. */
  previousEventData(exhibitorId: number, formId: string, before: Date): Promise<Record<string, unknown> | null>;
  /** Writes the entry if it is still at `version`; answers the new version or refuses (staleVersion, formDataTooLarge). */
  save(save: EntrySave): Promise<number>;
}

declare module 'fastify' {
  interface FastifyInstance {
    formEntries: FormEntriesService;
  }
}

export default fp(
  async (app) => {
    const service: FormEntriesService = {
      async ofParticipation(participationId) {
        const rows = await app.db.selectFrom('form_entries').selectAll().where('participation_id', '=', participationId).execute();
        return new Map(rows.map((row) => [row.form_id, row]));
      },

      async reopenedAt(participationId, formId) {
        const reopen = await app.db
          .selectFrom('form_reopens')
          .select('reopened_at')
          .where('participation_id', '=', participationId)
          .where('form_id', '=', formId)
          .executeTakeFirst();
        return reopen ? new Date(reopen.reopened_at) : null;
      },

      async reopen(db, participationId, formId, by, at) {
        await db
          .insertInto('form_reopens')
          .values({ participation_id: participationId, form_id: formId, reopened_at: at, reopened_by: by })
          .onConflict((oc) => oc.columns(['participation_id', 'form_id']).doUpdateSet({ reopened_at: at, reopened_by: by }))
          .execute();
      },

      async previousEventData(exhibitorId, formId, before) {
        const previous = await app.db
          .selectFrom('form_entries')
          .innerJoin('participations', 'participations.id', 'form_entries.participation_id')
          .innerJoin('events', 'events.id', 'participations.event_id')
          .select(['form_entries.data'])
          .where('participations.exhibitor_id', '=', exhibitorId)
          .where('form_entries.form_id', '=', formId)
          .where('events.starts_at', '<', before)
          .orderBy('events.starts_at', 'desc')
          .executeTakeFirst();
        return previous?.data ?? null;
      },

      save: (entry) => saveEntry(app.db, entry),
    };
    app.decorate('formEntries', service);
  },
  { name: 'form-entries', dependencies: ['database'] },
);

async function saveEntry(db: Kysely<Database>, { participationId, formId, version, data, userId, submission, schema }: EntrySave): Promise<number> {
  const now = new Date();
  const json = JSON.stringify(data);
  const limit = formDataLimit(schema);
  if (json.length > limit) throw new AppError('formDataTooLarge', { limit }, { limit: Math.round((limit / (1024 * 1024)) * 10) / 10 });
  const submitted = submission !== null;
  const status = submitted ? ('submitted' as const) : ('draft' as const);
  const submittedJson = submission ? JSON.stringify(submission.submittedData) : null;
  const partsJson = submission?.parts ? JSON.stringify(submission.parts) : null;
  const approval = submission && submission.approval !== 'keep' ? submission.approval : null;
  if (version === 0) {
    const inserted = await db
      .insertInto('form_entries')
      .values({
        participation_id: participationId,
        form_id: formId,
        data: json,
        status,
        updated_by: userId,
        updated_at: now,
        submitted_data: submittedJson,
        submitted_at: submitted ? now : null,
        submitted_by: submitted ? userId : null,
        approval_status: approval,
        parts: partsJson,
      })
      .onConflict((oc) => oc.columns(['participation_id', 'form_id']).doNothing())
      .returning('version')
      .executeTakeFirst();
    if (!inserted) throw new AppError('staleVersion');
    return inserted.version;
  }
  const updated = await db
    .updateTable('form_entries')
    .set((eb) => ({
      data: json,
      // A draft never withdraws a submission: the status follows submissions only.
      ...(submitted ? { status } : {}),
      version: eb('version', '+', 1),
      updated_at: now,
      updated_by: userId,
      ...(submission ? { submitted_data: submittedJson, submitted_at: now, submitted_by: userId, ...(partsJson ? { parts: partsJson } : {}) } : {}),
      // A new submission replaces the decision on the previous one (of the part the rule reads).
      ...(submission && submission.approval !== 'keep' ? { approval_status: approval, approval_comment: null, decided_at: null, decided_by: null } : {}),
    }))
    .where('participation_id', '=', participationId)
    .where('form_id', '=', formId)
    .where('version', '=', version)
    .returning('version')
    .executeTakeFirst();
  if (!updated) throw new AppError('staleVersion');
  return updated.version;
}
