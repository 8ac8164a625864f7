import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** 0034: the deadline name each shipped form had in forms.yaml when reopening became per form. */
const FORM_DEADLINE_NAMES_0034: Record<string, string> = {
  s01: 'profile',
  s02: 'product',
  s03: 'booth',
  s04: 'badges',
  s05: 'booth',
  s06: 'badges',
  s07: 'badges',
  s08: 'booth',
  vip: 'badges',
};

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // O2 F9: an organiser's reopening moves the deadline of one form for one exhibitor,
    // under the form's own key (`form:<id>`). It used to write the exhibitor's deadline of the
    // form's deadline name, which reopened every form sharing that name. A name row that is
    // exactly what the last reopening of a form wrote (the audit log's `after.deadline`) was
    // that reopening: it becomes the row of the reopened form(s) alone. Rows the organiser set
    // in the exhibitor editor (no matching reopening) stay as they are.
    const reopenings = await db
      .selectFrom('audit_log')
      .select(['participation_id', 'subject_id', 'after'])
      .where('action', '=', 'form.reopen')
      .where('participation_id', 'is not', null)
      .orderBy('id')
      .execute();
    const latest = new Map<string, { participationId: number; formId: string; deadline: string }>();
    for (const row of reopenings as Array<{ participation_id: number; subject_id: string; after: { deadline?: string | null } | null }>) {
      const deadline = row.after?.deadline;
      if (typeof deadline === 'string') latest.set(`${row.participation_id}/${row.subject_id}`, { participationId: row.participation_id, formId: row.subject_id, deadline });
    }
    const moved = new Set<number>();
    for (const { participationId, formId, deadline } of latest.values()) {
      const name = FORM_DEADLINE_NAMES_0034[formId];
      if (!name) continue;
      const row = (await db
        .selectFrom('deadlines')
        .select(['id', 'event_id', 'due_at'])
        .where('participation_id', '=', participationId)
        .where('name', '=', name)
        .executeTakeFirst()) as { id: number; event_id: number; due_at: Date | string } | undefined;
      if (!row || new Date(row.due_at).toISOString() !== new Date(deadline).toISOString()) continue;
      const key = `form:${formId}`;
      await db.deleteFrom('deadlines').where('participation_id', '=', participationId).where('name', '=', key).execute();
      await db.insertInto('deadlines').values({ event_id: row.event_id, participation_id: participationId, name: key, due_at: row.due_at }).execute();
      moved.add(row.id);
    }
    if (moved.size > 0)
      await db
        .deleteFrom('deadlines')
        .where('id', 'in', [...moved])
        .execute();
  },
};
