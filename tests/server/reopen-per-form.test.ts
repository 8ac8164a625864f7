import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationProvider } from '../../src/server/db/migrations';
import { setParticipationDeadline } from '../support/settings';
import { createTestApp, DAY, ENGINES, get, HOUR, login, post, type TestApp } from './helpers';

// O2 F9: reopening is per form. S04, S06, S07 and VIP share the event's "badges" deadline; the
// organiser's "Reopen S04" with a new deadline for one exhibitor opens S04 only, for that exhibitor.

describe.each(ENGINES)('reopening one form on %s', (engine) => {
  let t: TestApp;
  let organiser: string;
  let limited: string;
  let kopi: number;
  let borneo: number;

  beforeAll(async () => {
    t = await createTestApp(engine);
    [organiser, limited] = await Promise.all([login(t.app, 'organiser'), login(t.app, 'limited')]);
    const participationOf = async (account: string) =>
      (await t.app.db.selectFrom('users').select('participation_id').where('login_key', '=', account).executeTakeFirstOrThrow()).participation_id!;
    [kopi, borneo] = await Promise.all([participationOf('limited'), participationOf('demo')]);
  });
  afterAll(async () => t?.close());

  const forms = async (token: string) => (await get(t.app, '/oga/forms', token)).data as Array<{ id: string; status: string; deadline: string | null }>;
  const badgeForms = ['s04', 's06', 's07', 'vip'];

  it("the exhibitor's own badges deadline has passed: reopening S04 opens S04 alone, the other badge forms stay closed", async () => {
    await setParticipationDeadline(t.app.db, kopi, 'badges', new Date(Date.now() - HOUR));
    for (const form of await forms(limited)) if (badgeForms.includes(form.id)) expect(form.status, form.id).toBe('closed');
    const until = new Date(Date.now() + 2 * DAY);
    expect((await post(t.app, `/oga/organiser/exhibitors/${kopi}/forms/s04/reopen`, { until: until.toISOString() }, organiser)).code).toBe(200);
    const after = await forms(limited);
    expect(after.find((f) => f.id === 's04')).toMatchObject({ status: 'notStarted', deadline: until.toISOString() });
    for (const id of ['s06', 's07', 'vip']) expect(after.find((f) => f.id === id)!.status, id).toBe('closed');
  });

  it("the event's badges deadline has passed: reopening S04 for Kopi leaves S06, S07 and VIP closed for Kopi, and S04 closed for others", async () => {
    const event = (await t.app.db.selectFrom('participations').select('event_id').where('id', '=', kopi).executeTakeFirstOrThrow()).event_id;
    await t.app.db.deleteFrom('deadlines').where('participation_id', 'in', [kopi, borneo]).execute();
    await t.app.db
      .updateTable('deadlines')
      .set({ due_at: new Date(Date.now() - HOUR) })
      .where('event_id', '=', event)
      .where('name', '=', 'badges')
      .execute();
    const until = new Date(Date.now() + DAY);
    expect((await post(t.app, `/oga/organiser/exhibitors/${kopi}/forms/s04/reopen`, { until: until.toISOString() }, organiser)).code).toBe(200);
    const statuses = Object.fromEntries((await forms(limited)).map((f) => [f.id, f.status]));
    expect(statuses.s04).toBe('notStarted');
    for (const id of ['s06', 's07', 'vip']) expect(statuses[id], id).toBe('closed');
    const matrix = (await get(t.app, '/oga/organiser/progress', organiser)).data as { rows: Array<{ participationId: number; statuses: Record<string, string> }> };
    expect(matrix.rows.find((r) => r.participationId === kopi)!.statuses).toMatchObject({ s04: 'notStarted', s06: 'closed', s07: 'closed', vip: 'closed' });
    expect(matrix.rows.find((r) => r.participationId === borneo)!.statuses.s04).toBe('closed');
  });

  it('migration 0034: an exhibitor deadline an earlier reopening of S04 wrote under "badges" becomes S04\'s own; one the organiser set stays by name', async () => {
    const db = t.app.db;
    const event = (await db.selectFrom('participations').select('event_id').where('id', '=', kopi).executeTakeFirstOrThrow()).event_id;
    await db.deleteFrom('deadlines').where('participation_id', 'in', [kopi, borneo]).execute();
    const reopenedUntil = new Date(Date.now() + 3 * DAY);
    const setByOrganiser = new Date(Date.now() + 4 * DAY);
    await db
      .insertInto('deadlines')
      .values([
        { event_id: event, participation_id: kopi, name: 'badges', due_at: reopenedUntil },
        { event_id: event, participation_id: borneo, name: 'badges', due_at: setByOrganiser },
      ])
      .execute();
    await db
      .insertInto('audit_log')
      .values({
        event_id: event,
        participation_id: kopi,
        action: 'form.reopen',
        subject_type: 'form',
        subject_id: 's04',
        after: JSON.stringify({ deadline: reopenedUntil.toISOString() }),
      })
      .execute();
    const migration = (await migrationProvider.getMigrations())['0034_per_form_reopen']!;
    await migration.up(db);
    const rows = await db
      .selectFrom('deadlines')
      .select(['participation_id', 'name', 'due_at'])
      .where('participation_id', 'in', [kopi, borneo])
      .orderBy('participation_id')
      .execute();
    expect(rows.map((r) => ({ ...r, due_at: new Date(r.due_at).toISOString() }))).toEqual(
      [
        { participation_id: kopi, name: 'form:s04', due_at: reopenedUntil.toISOString() },
        { participation_id: borneo, name: 'badges', due_at: setByOrganiser.toISOString() },
      ].sort((a, b) => a.participation_id - b.participation_id),
    );
  });
});
