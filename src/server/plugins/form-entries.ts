import fp from 'fastify-plugin';
import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type { ApprovalStatus, FormStatus } from '../../engine/forms/definitions';
import { formDataLimit } from '../../engine/forms/form-size';
import type { Submission } from '../../engine/forms/lifecycle';
import type { Database, FormEntryTable } from '../db/schema';
import { AppError } from '../lib/app-error';

// The exhibitors' form entries (F1, F3, F9, P1) have one owner: this service reads and
// writes `form_entries` (drafts with their version, submissions, each part's submission, the
// approval a submission needs) and `form_reopens` (the organiser's reopening of a submit-once
// form). Every save carries the version it was based on; an older version is refused, never
// overwritten. A draft changes the working copy (`data`) only: once submitted, a form stays
// submitted, with its submitted copy, approval decision and documents, until a new submission
// replaces them. The rules that decide what to write are pure (engine/forms/lifecycle.ts).

export type FormEntryRow = Selectable<FormEntryTable>;

/**
 * An entry as the progress matrix reads it, from the facts the database keeps on every write
 * (form_entries.progress and data_keys, migration 0054): status, approval, the parts submitted
 * ('all': a submission recorded before the form had parts) and, for a form with parts, the
 * working copy's top-level keys.
 */
export interface StoredProgress {
  status: 'draft' | 'submitted';
  approval: ApprovalStatus | null;
  submittedParts: readonly string[] | 'all';
  dataKeys: readonly string[] | null;
}

const APPROVAL_OF_CODE: Record<string, ApprovalStatus | null> = { p: 'pending', a: 'approved', r: 'rejected', '-': null };
const NO_PARTS: readonly string[] = [];

/**
 * A progressKey as the text eachStoredProgress reads: each form with parts gets its working
 * copy's keys after its progress (U+001D before them).
 */
export function storedProgressOfKey(key: string): string {
  const [progress, ...parted] = key.split('\x02');
  if (parted.length === 0 || !progress) return progress ?? '';
  const keysOf = new Map<string, string>();
  for (const one of parted) {
    const [formId, keys] = one.split('\x03') as [string, string];
    if (keys !== '\x04') keysOf.set(formId, keys);
  }
  return progress
    .split('\x1c')
    .map((entry) => {
      const keys = keysOf.get(entry.slice(0, entry.indexOf('\x1e')));
      return keys === undefined ? entry : `${entry}\x1d${keys}`;
    })
    .join('\x1c');
}

/**
 * Reads the text of storedProgressOfKey entry by entry (a matrix reads 50,000 of them per
 * request: slices, no intermediate lists); `keys` only for the forms with parts asked for.
 */
export function eachStoredProgress(text: string | null, visit: (formId: string, entry: StoredProgress) => void): void {
  if (!text) return;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\x1c', start);
    if (end < 0) end = text.length;
    const idEnd = text.indexOf('\x1e', start);
    const keysAt = text.indexOf('\x1d', idEnd);
    const progressEnd = keysAt < 0 || keysAt > end ? end : keysAt;
    const parts = text.slice(idEnd + 3, progressEnd);
    const keys = progressEnd < end ? text.slice(progressEnd + 1, end) : null;
    visit(text.slice(start, idEnd), {
      status: text[idEnd + 1] === 's' ? 'submitted' : 'draft',
      approval: APPROVAL_OF_CODE[text[idEnd + 2]!] ?? null,
      submittedParts: parts === '*' ? 'all' : parts === '' ? NO_PARTS : parts.split('\x1f'),
      dataKeys: keys === null ? null : keys === '' ? [] : keys.split('\x1f'),
    });
    start = end + 1;
  }
}

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

/** An entry waiting for (or given) the organiser's decision, with its exhibitor (F5 O1). */
export interface ApprovalQueueRow {
  id: number;
  form_id: string;
  submitted_at: Date | null;
  submitted_by: number | null;
  parts: FormEntryRow['parts'];
  submitted_data: FormEntryRow['submitted_data'];
  approval_status: FormEntryRow['approval_status'];
  approval_comment: string | null;
  exhibitor: string;
  booth_num: string;
}

export interface FormEntriesService {
  /** A participation's entries by form id. */
  ofParticipation(participationId: number): Promise<Map<string, FormEntryRow>>;
  /** A participation's entries of these forms. */
  ofForms(participationId: number, formIds: readonly string[]): Promise<FormEntryRow[]>;
  /** One entry; null before its first save. */
  find(participationId: number, formId: string): Promise<FormEntryRow | null>;
  /** F1: the status and approval of every entry of these participations (the organiser's lists). */
  statusesOf(participationIds: readonly number[]): Promise<Array<Pick<FormEntryRow, 'participation_id' | 'form_id' | 'status' | 'approval_status'>>>;
  /** How many active exhibitors of the event submitted each form, by form id. */
  submissionCounts(eventId: number): Promise<Map<string, number>>;
  /** F5 O1: the event's entries whose approval is in this state, oldest submission first. */
  approvalQueue(eventId: number, status: 'pending' | 'approved' | 'rejected'): Promise<ApprovalQueueRow[]>;
  /**
   * F5 O1: records a decision on waiting entries of the event, in the caller's transaction;
   * answers the entries decided (an entry of another event, unknown or decided already is left out).
   */
  decide(
    db: Kysely<Database>,
    decision: { eventId: number; ids: readonly number[]; status: 'approved' | 'rejected'; comment: string | null; by: number },
  ): Promise<Array<{ id: number; participation_id: number; form_id: string }>>;
  /**
   * The submissions export's keyset pages: the submitted entries of one form of the event's active
   * exhibitors, by participation id after `after`, `limit` at a time.
   */
  submittedPage(
    eventId: number,
    formId: string,
    after: number,
    limit: number,
  ): Promise<
    Array<{
      id: number;
      name: string;
      code: string | null;
      booth_num: string;
      submitted_data: FormEntryRow['submitted_data'];
      submitted_at: Date | null;
      approval_status: FormEntryRow['approval_status'];
    }>
  >;
  /**
   * The progress matrix's set-based read, over `participation_progress` joined as `pp` (a
   * participation's entries' stored progress, kept by the database on every write; left join: no
   * row before a first save): what the participation's statuses are worked out from, as one text:
   * the entries' progress, then for each form with parts named U+0002, its id, U+0003 and its
   * working copy's keys (U+0004: no entry). Equal keys give equal rows, so the matrix groups
   * exhibitors by it (`columns`: the stored columns it is made of, to group by: the key is then
   * made once per group); storedProgressOfKey turns one into the text eachStoredProgress reads.
   */
  progressKey(partedIds: readonly string[]): { key: RawBuilder<string>; columns: RawBuilder<unknown> };
  /**
   * A condition on the outer query's participation (`participations.id`): its entry of the form
   * has the status `wanted` as the forms list tells it (formStatus), the form's deadline passed or
   * not. Set-based, so a list filters thousands of exhibitors by a form's status in its own query.
   */
  hasFormStatus(formId: string, wanted: FormStatus, deadlinePassed: boolean): RawBuilder<boolean>;
  /** When the organiser last reopened a submit-once form for this participation (null = never). */
  reopenedAt(participationId: number, formId: string): Promise<Date | null>;
  /** When the organiser last reopened each submit-once form of the participation it reopened, by form id (one read for a whole list). */
  reopensOf(participationId: number): Promise<Map<string, Date>>;
  /**
   * Reopens a submit-once form: its next submission closes it again. With `fields` (after a form
   * change, F11) the submission goes back to a draft that asks for those questions (dotted paths).
   */
  reopen(db: Kysely<Database>, participationId: number, formId: string, by: number, at: Date, options?: { fields: string[] }): Promise<void>;
  /** F11: the questions a reopening after a form change asks for, until the entry is submitted again (null: none). */
  reopenedFor(participationId: number, formId: string): Promise<string[] | null>;
  /** F3: the form's working copy in the exhibitor's most recent event that started before `before`. */
  previousEventData(exhibitorId: number, formId: string, before: Date): Promise<Record<string, unknown> | null>;
  /** F11: replaces the working copy of an entry (answers to questions a form change removed are dropped); the submitted copy stays. */
  replaceData(db: Kysely<Database>, participationId: number, formId: string, data: Record<string, unknown>, by: number): Promise<void>;
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
    const service: FormEntriesService = { ...participationReads(app.db), ...organiserReads(app.db), ...writes(app.db) };
    app.decorate('formEntries', service);
  },
  { name: 'form-entries', dependencies: ['database'] },
);

/** A participation's own entries (the exhibitor's forms). */
function participationReads(
  db: Kysely<Database>,
): Pick<FormEntriesService, 'ofParticipation' | 'ofForms' | 'find' | 'reopenedAt' | 'reopensOf' | 'reopenedFor' | 'previousEventData'> {
  return {
    async ofParticipation(participationId) {
      const rows = await db.selectFrom('form_entries').selectAll().where('participation_id', '=', participationId).execute();
      return new Map(rows.map((row) => [row.form_id, row]));
    },

    ofForms: async (participationId, formIds) =>
      formIds.length === 0
        ? []
        : db
            .selectFrom('form_entries')
            .selectAll()
            .where('participation_id', '=', participationId)
            .where('form_id', 'in', [...formIds])
            .execute(),

    find: async (participationId, formId) =>
      (await db.selectFrom('form_entries').selectAll().where('participation_id', '=', participationId).where('form_id', '=', formId).executeTakeFirst()) ?? null,

    async reopenedAt(participationId, formId) {
      const reopen = await db.selectFrom('form_reopens').select('reopened_at').where('participation_id', '=', participationId).where('form_id', '=', formId).executeTakeFirst();
      return reopen ? new Date(reopen.reopened_at) : null;
    },

    async reopensOf(participationId) {
      const rows = await db.selectFrom('form_reopens').select(['form_id', 'reopened_at']).where('participation_id', '=', participationId).execute();
      return new Map(rows.map((row) => [row.form_id, new Date(row.reopened_at)]));
    },

    async reopenedFor(participationId, formId) {
      const row = await db
        .selectFrom('form_reopens')
        .innerJoin('form_entries', (join) =>
          join.onRef('form_entries.participation_id', '=', 'form_reopens.participation_id').onRef('form_entries.form_id', '=', 'form_reopens.form_id'),
        )
        .select(['form_reopens.fields', 'form_reopens.reopened_at', 'form_entries.submitted_at', 'form_entries.status'])
        .where('form_reopens.participation_id', '=', participationId)
        .where('form_reopens.form_id', '=', formId)
        .executeTakeFirst();
      if (!row?.fields || row.status === 'submitted') return null;
      return row.submitted_at && new Date(row.submitted_at) > new Date(row.reopened_at) ? null : row.fields;
    },

    async previousEventData(exhibitorId, formId, before) {
      const previous = await db
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
  };
}

/** The organiser's reads over an event's entries, set-based or in keyset pages. */
function organiserReads(db: Kysely<Database>): Pick<FormEntriesService, 'statusesOf' | 'submissionCounts' | 'approvalQueue' | 'submittedPage' | 'progressKey' | 'hasFormStatus'> {
  return {
    statusesOf: async (participationIds) =>
      participationIds.length === 0
        ? []
        : db
            .selectFrom('form_entries')
            .select(['participation_id', 'form_id', 'status', 'approval_status'])
            .where('participation_id', 'in', [...participationIds])
            .execute(),

    async submissionCounts(eventId) {
      const counts = await db
        .selectFrom('form_entries')
        .innerJoin('participations', 'participations.id', 'form_entries.participation_id')
        .select(['form_entries.form_id', (eb) => eb.fn.countAll<string>().as('n')])
        .where('participations.event_id', '=', eventId)
        .where('participations.status', '=', 'active')
        .where('form_entries.submitted_data', 'is not', null)
        .groupBy('form_entries.form_id')
        .execute();
      return new Map(counts.map((count) => [count.form_id, Number(count.n)]));
    },

    approvalQueue: (eventId, status) =>
      db
        .selectFrom('form_entries')
        .innerJoin('participations', 'participations.id', 'form_entries.participation_id')
        .innerJoin('exhibitors', 'exhibitors.id', 'participations.exhibitor_id')
        .select([
          'form_entries.id',
          'form_entries.form_id',
          'form_entries.submitted_at',
          'form_entries.submitted_by',
          'form_entries.parts',
          'form_entries.submitted_data',
          'form_entries.approval_status',
          'form_entries.approval_comment',
          'exhibitors.name as exhibitor',
          'participations.booth_num',
        ])
        .where('participations.event_id', '=', eventId)
        .where('form_entries.approval_status', '=', status)
        .orderBy('form_entries.submitted_at', 'asc')
        .execute(),

    submittedPage: (eventId, formId, after, limit) =>
      db
        .selectFrom('form_entries')
        .innerJoin('participations', 'participations.id', 'form_entries.participation_id')
        .innerJoin('exhibitors', 'exhibitors.id', 'participations.exhibitor_id')
        .select([
          'participations.id',
          'exhibitors.name',
          'exhibitors.code',
          'participations.booth_num',
          'form_entries.submitted_data',
          'form_entries.submitted_at',
          'form_entries.approval_status',
        ])
        .where('participations.event_id', '=', eventId)
        .where('participations.status', '=', 'active')
        .where('form_entries.form_id', '=', formId)
        .where('form_entries.submitted_data', 'is not', null)
        .where('participations.id', '>', after)
        .orderBy('participations.id')
        .limit(limit)
        .execute(),

    progressKey(partedIds) {
      // Form ids as literals (registry ids, not input): a GROUP BY expression and the key's own
      // parts must be the same expression, which parameters ($1, $2…) would not be.
      const ids = [...partedIds].sort();
      return {
        key: sql<string>`(coalesce(pp.progress_text, '')${sql.join(
          ids.map((id) => sql` || chr(2) || ${sql.lit(id)} || chr(3) || coalesce(pp.data_keys ->> ${sql.lit(id)}, chr(4))`),
          sql``,
        )})`,
        columns: sql.join([sql`pp.progress_text`, ...ids.map((id) => sql`pp.data_keys ->> ${sql.lit(id)}`)]),
      };
    },

    hasFormStatus(formId, wanted, deadlinePassed) {
      const entries = (condition: RawBuilder<unknown>) =>
        sql<boolean>`participations.id in (select fe.participation_id from form_entries fe where fe.form_id = ${formId} ${condition})`;
      const submittedAs = (approval: ApprovalStatus) => entries(sql`and fe.status = 'submitted' and fe.approval_status = ${approval}`);
      // A submission's status (its approval decision), else closed past the deadline, else a draft or not started.
      const conditions: Record<FormStatus, () => RawBuilder<boolean>> = {
        submitted: () => entries(sql`and fe.status = 'submitted' and fe.approval_status is null`),
        pendingApproval: () => submittedAs('pending'),
        approved: () => submittedAs('approved'),
        rejected: () => submittedAs('rejected'),
        closed: () => (deadlinePassed ? sql<boolean>`not ${entries(sql`and fe.status = 'submitted'`)}` : sql<boolean>`false`),
        draft: () => (deadlinePassed ? sql<boolean>`false` : entries(sql`and fe.status = 'draft'`)),
        notStarted: () => (deadlinePassed ? sql<boolean>`false` : sql<boolean>`not ${entries(sql``)}`),
      };
      return conditions[wanted]();
    },
  };
}

/** The writes: versioned saves, decisions and reopenings. */
function writes(db: Kysely<Database>): Pick<FormEntriesService, 'decide' | 'reopen' | 'replaceData' | 'save'> {
  return {
    decide: (db, { eventId, ids, status, comment, by }) =>
      db
        .updateTable('form_entries')
        .set({ approval_status: status, approval_comment: comment, decided_at: new Date(), decided_by: by })
        .where('id', 'in', [...ids])
        .where('approval_status', '=', 'pending')
        .where('participation_id', 'in', (eb) => eb.selectFrom('participations').select('id').where('event_id', '=', eventId))
        .returning(['id', 'participation_id', 'form_id'])
        .execute(),

    async reopen(db, participationId, formId, by, at, options) {
      const fields = options ? JSON.stringify(options.fields) : null;
      await db
        .insertInto('form_reopens')
        .values({ participation_id: participationId, form_id: formId, reopened_at: at, reopened_by: by, fields })
        .onConflict((oc) => oc.columns(['participation_id', 'form_id']).doUpdateSet({ reopened_at: at, reopened_by: by, fields }))
        .execute();
      if (options)
        await db
          .updateTable('form_entries')
          .set({ status: 'draft', updated_at: at, updated_by: by, version: sql`version + 1` })
          .where('participation_id', '=', participationId)
          .where('form_id', '=', formId)
          .execute();
    },

    async replaceData(db, participationId, formId, data, by) {
      await db
        .updateTable('form_entries')
        .set({ data: JSON.stringify(data), updated_at: new Date(), updated_by: by, version: sql`version + 1` })
        .where('participation_id', '=', participationId)
        .where('form_id', '=', formId)
        .execute();
    },

    save: (entry) => saveEntry(db, entry),
  };
}

/**
 * A submitted entry written as it stands (the demo seed's history, in the seed's transaction,
 * before the app's services exist): its working copy is the submitted copy.
 */
export async function insertSubmittedEntry(
  db: Kysely<Database>,
  entry: { participationId: number; formId: string; data: Record<string, unknown>; submittedAt: Date },
): Promise<void> {
  const json = JSON.stringify(entry.data);
  await db
    .insertInto('form_entries')
    .values({ participation_id: entry.participationId, form_id: entry.formId, data: json, submitted_data: json, status: 'submitted', submitted_at: entry.submittedAt })
    .execute();
}

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
