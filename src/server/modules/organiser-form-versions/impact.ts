import type { FastifyInstance } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import { formDifference } from '../../../engine/forms/gallery';
import type { Database, EventRow } from '../../db/schema';
import { loadParticipationSettings } from '../../lib/participation-settings';
import type { FormSet } from '../../plugins/forms/form-set';
import { validateSubmission } from '../../plugins/forms/validate';
import { hasAnswer, newOrChangedQuestions } from './form-content';

// F11: what publishing a changed form does to the exhibitors of the event who already answered
// it: answers that are dropped (questions removed), submissions the changed form would refuse
// (a new required question, a narrower rule: each run through the changed form's validator), and
// the questions new or changed, which a reopened submission asks for.

type Json = Record<string, unknown>;

export interface ImpactInput {
  event: Pick<EventRow, 'id' | 'code'>;
  formId: string;
  before: FormSet;
  after: FormSet;
}

interface EntryOfEvent {
  participation_id: number;
  status: 'draft' | 'submitted';
  data: Json;
  submitted_data: Json | null;
  exhibitor: string | null;
  company: string;
  flags: Record<string, boolean> | null;
}

/** Every entry of the form by the event's active exhibitors, with who they are. */
async function entriesOf(db: Kysely<Database>, eventId: number, formId: string): Promise<EntryOfEvent[]> {
  return (await db
    .selectFrom('form_entries')
    .innerJoin('participations', 'participations.id', 'form_entries.participation_id')
    .innerJoin('exhibitors', 'exhibitors.id', 'participations.exhibitor_id')
    .select([
      'form_entries.participation_id',
      'form_entries.status',
      'form_entries.data',
      'form_entries.submitted_data',
      'exhibitors.code as exhibitor',
      'exhibitors.name as company',
      'participations.flags',
    ])
    .where('participations.event_id', '=', eventId)
    .where('participations.status', '=', 'active')
    .where('form_entries.form_id', '=', formId)
    .orderBy('participations.id')
    .execute()) as EntryOfEvent[];
}

/** The title (locale key) of a field at a dotted path (`list[].field`), or null. */
function titleAt(schema: Json, path: string): string | null {
  let node: unknown = schema;
  for (const part of path.split('.')) {
    const name = part.replace(/\[\]$/, '');
    node = ((node as Json | undefined)?.properties as Json | undefined)?.[name];
    if (part.endsWith('[]')) node = (node as Json | undefined)?.items;
  }
  const title = (node as Json | undefined)?.title;
  return typeof title === 'string' ? title : null;
}

/** The submissions the changed form refuses where the form in use accepted them: participation, failing field pointers. */
async function newlyInvalid(db: Kysely<Database>, input: ImpactInput, entries: EntryOfEvent[]): Promise<Map<number, string[]>> {
  const submitted = entries.filter((entry) => entry.submitted_data !== null);
  const settings = await loadParticipationSettings(
    db,
    input.event.id,
    submitted.map((entry) => entry.participation_id),
  );
  const oldValidator = input.before.validatorFor(input.formId, input.event.code);
  const newValidator = input.after.validatorFor(input.formId, input.event.code);
  const invalid = new Map<number, string[]>();
  for (const entry of submitted) {
    const context = { flags: entry.flags ?? {}, quotas: settings.get(entry.participation_id)?.quotas ?? {} };
    const after = validateSubmission(newValidator, entry.submitted_data, context);
    if (after.length === 0) continue;
    const before = new Set(validateSubmission(oldValidator, entry.submitted_data, context).map((error) => error.path));
    const fields = [...new Set(after.map((error) => error.path).filter((path) => !before.has(path)))];
    if (fields.length > 0) invalid.set(entry.participation_id, fields);
  }
  return invalid;
}

function questionsOf(input: ImpactInput) {
  const before = input.before.filesFor(input.formId, input.event.code);
  const after = input.after.filesFor(input.formId, input.event.code);
  return newOrChangedQuestions(before, after).map((question) => ({ ...question, title: titleAt(after.schema, question.path) }));
}

export async function impactOf(db: Kysely<Database>, input: ImpactInput & { limit: number }) {
  const entries = await entriesOf(db, input.event.id, input.formId);
  const before = input.before.filesFor(input.formId, input.event.code);
  const after = input.after.filesFor(input.formId, input.event.code);
  const removed = formDifference(before, after).filter((change) => change.kind === 'removed');
  const dropped = removed.map((change) => ({
    path: change.path,
    title: 'title' in change ? change.title : null,
    answers: entries.filter((entry) => hasAnswer(entry.data, change.path) || hasAnswer(entry.submitted_data, change.path)).length,
  }));
  const invalid = await newlyInvalid(db, input, entries);
  const byParticipation = new Map(entries.map((entry) => [entry.participation_id, entry]));
  return {
    drafts: entries.filter((entry) => entry.status === 'draft').length,
    submissions: entries.filter((entry) => entry.submitted_data !== null).length,
    dropped,
    invalid: [...invalid].slice(0, input.limit).map(([participationId, fields]) => ({
      participationId,
      exhibitor: byParticipation.get(participationId)?.exhibitor ?? '',
      company: byParticipation.get(participationId)?.company ?? '',
      fields,
    })),
    invalidCount: invalid.size,
    questions: questionsOf(input),
  };
}

/**
 * Reopens the submissions the change makes invalid, asking only for the new or changed questions
 * (stored with the reopening; the exhibitor's form lists them). Runs in the publishing transaction.
 */
export async function reopenAffected(app: FastifyInstance, trx: Transaction<Database>, input: ImpactInput & { by: number }): Promise<number> {
  const entries = await entriesOf(trx, input.event.id, input.formId);
  const invalid = await newlyInvalid(trx, input, entries);
  if (invalid.size === 0) return 0;
  const questions = questionsOf(input).map((question) => question.path);
  const now = new Date();
  for (const participationId of invalid.keys()) await app.formEntries.reopen(trx, participationId, input.formId, input.by, now, { fields: questions });
  return invalid.size;
}
