import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ENGINES, get, login, type TestApp } from './helpers';

// K2: the audit page's day filters are days of the event's calendar. At UTC+14:00 the event's
// 10 March runs from 9 March 10:00 UTC to 10 March 10:00 UTC.

describe.each(ENGINES)('Audit day filters in event time on %s', (engine) => {
  let t: TestApp;
  let organiser: string;

  beforeAll(async () => {
    t = await createTestApp(engine);
    const db = t.app.db;
    const account = await db.selectFrom('users').select(['organisation_id', 'event_id']).where('login_key', '=', 'organiser').executeTakeFirstOrThrow();
    const eventId = account.event_id ?? (await db.selectFrom('events').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    const organisationId = account.organisation_id ?? (await db.selectFrom('events').select('organisation_id').where('id', '=', eventId).executeTakeFirstOrThrow()).organisation_id;
    await db
      .updateTable('events')
      .set({ utc_offset_minutes: 14 * 60 })
      .where('id', '=', eventId)
      .execute();
    await db
      .insertInto('audit_log')
      .values(
        [
          ['test.day.before', '2027-03-09T09:59:00Z'], // 9 March 23:59 event time
          ['test.day.first', '2027-03-09T10:00:00Z'], // 10 March 00:00 event time
          ['test.day.last', '2027-03-10T09:59:00Z'], // 10 March 23:59 event time
          ['test.day.after', '2027-03-10T10:00:00Z'], // 11 March 00:00 event time
        ].map(([action, at]) => ({ action: action!, at: new Date(at!), organisation_id: organisationId, event_id: eventId, actor_name: 'Day Probe' })),
      )
      .execute();
    organiser = await login(t.app, 'organiser');
  });
  afterAll(async () => t?.close());

  const actions = async (query: string) =>
    ((await get(t.app, `/oga/organiser/audit?action=test.day.&limit=50&${query}`, organiser)).data as { items: Array<{ action: string }> }).items.map((i) => i.action).sort();

  it('one event day holds the records of its event-time hours, whatever their UTC date', async () => {
    expect(await actions('from=2027-03-10&to=2027-03-10')).toEqual(['test.day.first', 'test.day.last']);
    expect(await actions('to=2027-03-09')).toEqual(['test.day.before']);
    expect(await actions('from=2027-03-11')).toEqual(['test.day.after']);
  });
});
