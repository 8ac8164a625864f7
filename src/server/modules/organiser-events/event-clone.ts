import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ContentKind, Database, EventRow } from '../../db/schema';
import { type FileStorage, fileKey } from '../../plugins/storage';

// O2: what an event clone carries besides the event's own settings: the organiser's content
// (with copies of its attachments' files) and, when asked, the exhibitors' participations.

const DAY_MS = 86_400_000;

/**
 * Content that belongs to the show rather than to last year's run: manuals, FAQ, tips, terms, the
 * introduction and the support contact. Announcements are news of the run they were sent in.
 */
const CLONED_KINDS: readonly ContentKind[] = ['manual', 'faq', 'tip', 'terms', 'introduction', 'supportContact'];

/** A date moved by whole days (event time has a fixed UTC offset, so UTC days are event days). */
export const shiftedBy = (at: Date | string, days: number) => new Date(new Date(at).getTime() + days * DAY_MS);

/** YYYY-MM-DD moved by whole days. */
export const shiftedDate = (date: string, days: number) => shiftedBy(`${date}T00:00:00Z`, days).toISOString().slice(0, 10);

/** Whole days from one YYYY-MM-DD to another. */
export const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

export interface CopiedFile {
  from: string;
  to: string;
}

/**
 * Copies the stored files of the source event's content attachments under new ids, before the
 * clone's transaction (the store is not transactional); the caller removes them when it fails.
 */
export async function copyAttachmentFiles(db: Kysely<Database>, storage: FileStorage, source: EventRow): Promise<CopiedFile[]> {
  const rows = await db
    .selectFrom('content')
    .select('attachments')
    .where('event_id', '=', source.id)
    .where('kind', 'in', [...CLONED_KINDS])
    .execute();
  const ids = [...new Set(rows.flatMap((row) => row.attachments.map((attachment) => attachment.id)))];
  const copied: CopiedFile[] = [];
  try {
    for (const from of ids) {
      const body = await storage.get(fileKey.upload(from));
      // A file lost from the store is not copied; the manual then names no such attachment.
      if (!body) continue;
      const to = randomBytes(32).toString('base64url');
      await storage.put(fileKey.upload(to), body);
      copied.push({ from, to });
    }
  } catch (error) {
    await removeFiles(storage, copied);
    throw error;
  }
  return copied;
}

export async function removeFiles(storage: FileStorage, copied: readonly CopiedFile[]) {
  for (const { to } of copied) await storage.delete(fileKey.upload(to)).catch(() => undefined);
}

/** Copies the event's content rows, their search words and their attachments' upload rows; answers how many. */
export async function copyContent(trx: Kysely<Database>, source: EventRow, targetId: number, days: number, files: readonly CopiedFile[], userId: number): Promise<number> {
  const newId = new Map(files.map((file) => [file.from, file.to]));
  const uploads =
    files.length === 0
      ? []
      : await trx
          .selectFrom('uploads')
          .selectAll()
          .where('id', 'in', [...newId.keys()])
          .execute();
  for (const upload of uploads)
    await trx
      .insertInto('uploads')
      .values({ ...upload, id: newId.get(upload.id)!, event_id: targetId, participation_id: null, user_id: userId, created_at: new Date() })
      .execute();
  const rows = await trx
    .selectFrom('content')
    .selectAll()
    .where('event_id', '=', source.id)
    .where('kind', 'in', [...CLONED_KINDS])
    .orderBy('id')
    .execute();
  for (const { id, ...row } of rows) {
    const inserted = await trx
      .insertInto('content')
      .values({
        ...row,
        event_id: targetId,
        title: JSON.stringify(row.title),
        body: JSON.stringify(row.body),
        description: JSON.stringify(row.description),
        category: JSON.stringify(row.category),
        audience: JSON.stringify(row.audience),
        attachments: JSON.stringify(row.attachments.filter((attachment) => newId.has(attachment.id)).map((attachment) => ({ ...attachment, id: newId.get(attachment.id)! }))),
        deadline: row.deadline === null ? null : shiftedBy(row.deadline, days),
        updated_at: new Date(),
        updated_by: userId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const words = await trx.selectFrom('content_search').select(['language', 'folded']).where('content_id', '=', id).execute();
    if (words.length > 0)
      await trx
        .insertInto('content_search')
        .values(words.map((word) => ({ ...word, content_id: inserted.id })))
        .execute();
  }
  return rows.length;
}

/**
 * Carries the source event's active exhibitors over: the same company records (the organisation's,
 * found by code as an import would) take part in the new event with their modules, flags and own
 * deadlines (moved) and quotas. Booths are assigned anew each run; form entries, leads, showrooms and
 * accounts stay with the old event (accounts belong to one participation: the organiser invites
 * the exhibitors once the event is reviewed). Answers the exhibitor codes carried.
 */
export async function carryExhibitors(trx: Kysely<Database>, source: EventRow, targetId: number, days: number): Promise<string[]> {
  const rows = await trx
    .selectFrom('participations')
    .innerJoin('exhibitors', 'exhibitors.id', 'participations.exhibitor_id')
    .select(['participations.id', 'participations.exhibitor_id', 'participations.displayed_modules', 'participations.flags', 'exhibitors.code', 'exhibitors.name'])
    .where('participations.event_id', '=', source.id)
    .where('participations.status', '=', 'active')
    .orderBy('participations.id')
    .execute();
  const carried: string[] = [];
  for (const row of rows) {
    const inserted = await trx
      .insertInto('participations')
      .values({
        exhibitor_id: row.exhibitor_id,
        event_id: targetId,
        booth_num: '',
        displayed_modules: JSON.stringify(row.displayed_modules),
        flags: JSON.stringify(row.flags),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const [deadlines, quotas] = await Promise.all([
      trx.selectFrom('deadlines').select(['name', 'due_at']).where('participation_id', '=', row.id).execute(),
      trx.selectFrom('quotas').select(['name', 'value']).where('participation_id', '=', row.id).execute(),
    ]);
    if (deadlines.length > 0)
      await trx
        .insertInto('deadlines')
        .values(deadlines.map((deadline) => ({ event_id: targetId, participation_id: inserted.id, name: deadline.name, due_at: shiftedBy(deadline.due_at, days) })))
        .execute();
    if (quotas.length > 0)
      await trx
        .insertInto('quotas')
        .values(quotas.map((quota) => ({ event_id: targetId, participation_id: inserted.id, name: quota.name, value: quota.value })))
        .execute();
    carried.push(row.code ?? row.name);
  }
  return carried;
}

/** Removes a clone whose form patches could not be copied: every row the clone made, newest first. */
export async function removeClone(trx: Kysely<Database>, targetId: number) {
  const participations = trx.selectFrom('participations').select('id').where('event_id', '=', targetId);
  const content = trx.selectFrom('content').select('id').where('event_id', '=', targetId);
  await trx.deleteFrom('content_search').where('content_id', 'in', content).execute();
  await trx.deleteFrom('content').where('event_id', '=', targetId).execute();
  await trx.deleteFrom('uploads').where('event_id', '=', targetId).execute();
  await trx.deleteFrom('deadlines').where('event_id', '=', targetId).execute();
  await trx.deleteFrom('quotas').where('event_id', '=', targetId).execute();
  await trx.deleteFrom('event_settings').where('event_id', '=', targetId).execute();
  await trx.deleteFrom('participations').where('id', 'in', participations).execute();
  await trx.updateTable('users').set({ event_id: null }).where('event_id', '=', targetId).execute();
  await trx.deleteFrom('events').where('id', '=', targetId).execute();
}
