import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyOf, createTestApp, ENGINES, get, login, post, put, type TestApp } from './helpers';
import { eventInput, otherOrganiser } from './organiser-support';

// O2: the organiser's events — create and edit every setting, deadlines and quotas as
// event rows keyed by the forms' names, impossible dates refused beside their field, another
// organisation's event 404, exhibitors 403, no token 401, every change audited.

describe.each(ENGINES)('organiser events (%s)', (engine) => {
  let t: TestApp;
  let organiser: string;
  let rival: Awaited<ReturnType<typeof otherOrganiser>>;
  let demoEventId: number;

  beforeAll(async () => {
    t = await createTestApp(engine);
    organiser = await login(t.app, 'organiser');
    rival = await otherOrganiser(t.app);
    demoEventId = (await t.app.db.selectFrom('events').select('id').where('code', '=', 'AFHE2027').executeTakeFirstOrThrow()).id;
  });
  afterAll(() => t.close());

  it("lists only the organisation's events and names the deadlines and quotas from the forms", async () => {
    const list = await get(t.app, '/oga/organiser/events', organiser);
    expect(list.code).toBe(200);
    expect(list.data.map((e: { code: string }) => e.code)).toContain('AFHE2027');
    expect(list.data.find((e: { code: string }) => e.code === 'AFHE2027').current).toBe(true);
    expect((await get(t.app, '/oga/organiser/events', rival.token)).data).toEqual([]);

    const vocabulary = await get(t.app, '/oga/organiser/vocabulary', organiser);
    expect(vocabulary.data.deadlineNames).toEqual(expect.arrayContaining(['profile', 'product', 'booth', 'badges']));
    expect(vocabulary.data.quotaNames).toEqual(expect.arrayContaining(['badges', 'contractorBadges', 'teamUsers', 'contractors']));
    expect(vocabulary.data.modules).toContain('Forms');
    expect(vocabulary.data.modules).not.toContain('Organiser Console');
  });

  it('creates an event with every setting, reads it back, and a first event becomes the current one', async () => {
    const created = await post(t.app, '/oga/organiser/events', eventInput('RIVAL31'), rival.token);
    expect(bodyOf(created)).toMatchObject({ code: 200 });
    const id = created.data.id as number;
    const read = await get(t.app, `/oga/organiser/events/${id}`, rival.token);
    expect(read.data).toEqual({ id, ...eventInput('RIVAL31') });
    const row = await t.app.db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    // The show runs from the first opening to the last closing, in event time (UTC+8).
    expect(row.starts_at.toISOString()).toBe('2031-05-13T02:00:00.000Z');
    expect(row.ends_at.toISOString()).toBe('2031-05-14T09:00:00.000Z');
    expect(row.name).toBe('RIVAL31 Expo');
    const deadlines = await t.app.db.selectFrom('deadlines').select(['name', 'participation_id']).where('event_id', '=', id).orderBy('name').execute();
    expect(deadlines).toEqual([
      { name: 'badges', participation_id: null },
      { name: 'booth', participation_id: null },
    ]);
    const user = await t.app.db.selectFrom('users').select('event_id').where('id', '=', rival.userId).executeTakeFirstOrThrow();
    expect(user.event_id).toBe(id);
    const audit = await t.app.db
      .selectFrom('audit_log')
      .select(['action', 'actor_user_id', 'before', 'after'])
      .where('subject_type', '=', 'event')
      .where('subject_id', '=', String(id))
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'event.create', actor_user_id: rival.userId, before: null });
    expect((audit[0]!.after as { code: string }).code).toBe('RIVAL31');
  });

  it('edits an event: deadlines and quotas become exactly the new rows, before and after audited', async () => {
    const id = (await post(t.app, '/oga/organiser/events', eventInput('EDIT31'), organiser)).data.id as number;
    const changed = eventInput('EDIT31', { deadlines: { profile: '2031-03-01T00:00:00.000Z' }, defaultQuotas: { contractors: 4 }, venue: 'KLCC', reminderDays: [14, 3, 1] });
    expect((await put(t.app, `/oga/organiser/events/${id}`, changed, organiser)).code).toBe(200);
    expect((await get(t.app, `/oga/organiser/events/${id}`, organiser)).data).toEqual({ id, ...changed });
    const update = await t.app.db
      .selectFrom('audit_log')
      .select(['before', 'after'])
      .where('action', '=', 'event.update')
      .where('subject_id', '=', String(id))
      .executeTakeFirstOrThrow();
    expect((update.before as { venue: string }).venue).toBe('MITEC, Kuala Lumpur');
    expect((update.after as { venue: string }).venue).toBe('KLCC');
    // The organiser already had a current event: creating another does not switch it.
    expect((await t.app.db.selectFrom('users').select('event_id').where('login_key', '=', 'organiser').executeTakeFirstOrThrow()).event_id).toBe(demoEventId);
  });

  it('refuses impossible dates and unknown names beside their fields, storing nothing', async () => {
    const before = await t.app.db.selectFrom('events').select('id').execute();
    const bad = await post(
      t.app,
      '/oga/organiser/events',
      eventInput('BAD31', {
        showDays: [{ date: '2031-05-13', opens: '18:00', closes: '10:00' }],
        deadlines: { badges: '2031-06-01T00:00:00.000Z', visa: '2031-01-01T00:00:00.000Z' },
        defaultModules: ['Forms', 'Teleport'],
      }),
      organiser,
      { headers: { language: 'ja' } },
    );
    expect(bad.code).toBe(601);
    expect(bad.error).toBe('validationFailed');
    expect(bad.msg).toBe('終了時刻は開始時刻より後にしてください。');
    expect(bad.data.fields).toEqual({
      'showDays.0.closes': 'organiser.validation.closesBeforeOpens',
      'deadlines.badges': 'organiser.validation.deadlineAfterShow',
      'deadlines.visa': 'organiser.validation.unknownName',
      defaultModules: 'organiser.validation.unknownModule',
    });
    const late = await post(t.app, '/oga/organiser/events', eventInput('LATE31', { deadlines: { badges: '2031-05-14T09:01:00.000Z' } }), organiser);
    expect(late.data.fields).toEqual({ 'deadlines.badges': 'organiser.validation.deadlineAfterShow' });
    expect(late.msg).toBe("The deadline must not be after the show's last day.");
    const taken = await post(t.app, '/oga/organiser/events', eventInput('afhe2027'), organiser);
    expect(taken.data.fields).toEqual({ code: 'organiser.validation.codeTaken' });
    expect(await t.app.db.selectFrom('events').select('id').execute()).toHaveLength(before.length);
  });

  it("answers 404 for another organisation's event, 403 to an exhibitor and 401 without a token", async () => {
    expect(bodyOf(await get(t.app, `/oga/organiser/events/${demoEventId}`, rival.token))).toMatchObject({ code: 404, error: 'notFound' });
    expect((await put(t.app, `/oga/organiser/events/${demoEventId}`, eventInput('AFHE2027'), rival.token)).code).toBe(404);
    expect((await put(t.app, '/oga/organiser/current-event', { eventId: demoEventId }, rival.token)).code).toBe(404);
    expect((await get(t.app, '/oga/organiser/events/999999', organiser)).code).toBe(404);
    const demo = await login(t.app, 'demo');
    for (const [method, url, body] of [
      ['GET', '/oga/organiser/events', undefined],
      ['GET', '/oga/organiser/vocabulary', undefined],
      ['GET', `/oga/organiser/events/${demoEventId}`, undefined],
      ['POST', '/oga/organiser/events', eventInput('EXH31')],
      ['PUT', `/oga/organiser/events/${demoEventId}`, eventInput('AFHE2027')],
      ['PUT', '/oga/organiser/current-event', { eventId: demoEventId }],
      ['GET', '/oga/organiser/current-event', undefined],
    ] as const) {
      const asExhibitor = method === 'GET' ? await get(t.app, url, demo) : method === 'POST' ? await post(t.app, url, body, demo) : await put(t.app, url, body, demo);
      expect([url, asExhibitor.code]).toEqual([url, 403]);
      const anonymous = method === 'GET' ? await get(t.app, url) : method === 'POST' ? await post(t.app, url, body) : await put(t.app, url, body);
      expect([url, anonymous.code]).toEqual([url, 401]);
    }
  });

  it('switches the current event between its own events', async () => {
    const id = (await post(t.app, '/oga/organiser/events', eventInput('SWITCH31'), organiser)).data.id as number;
    expect((await put(t.app, '/oga/organiser/current-event', { eventId: id }, organiser)).code).toBe(200);
    expect((await get(t.app, '/oga/organiser/current-event', organiser)).data).toEqual({ id, code: 'SWITCH31', name: 'SWITCH31 Expo' });
    expect((await put(t.app, '/oga/organiser/current-event', { eventId: demoEventId }, organiser)).code).toBe(200);
  });
});
