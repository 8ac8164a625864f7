import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/server/lib/passwords';
import { fileKey, readWhole } from '../../src/server/plugins/storage';
import { bodyOf, createTestApp, DAY, DEMO_PASSWORD, ENGINES, get, login, post, type TestApp } from './helpers';
import { otherOrganiser } from './organiser-support';

// O2 / F11: "New event from …" — a new event with the source's settings, its dates moved by the
// same number of days, its content (with copies of the attachments' files) and its form patches;
// its exhibitors carried over when asked (no answers, no accounts); refused cleanly otherwise.

describe.each(ENGINES)('event clone (%s)', (engine) => {
  let t: TestApp;
  let organiser: string;
  let demoEventId: number;

  /** An exhibitor account for a participation of the clone (the organiser's invitation, made directly). */
  const exhibitorOf = async (participationId: number, eventId: number, loginId: string) => {
    await t.app.db
      .insertInto('users')
      .values({
        login: loginId,
        login_key: loginId,
        email: `${loginId}@borneo-botanica.example`,
        display_name: 'Next Year',
        password_hash: await hashPassword(DEMO_PASSWORD),
        role: 'exhibitor',
        participation_id: participationId,
        event_id: eventId,
        status: 'active',
        lead_quota: null,
        created_by: null,
      })
      .execute();
    return login(t.app, loginId);
  };

  beforeAll(async () => {
    t = await createTestApp(engine);
    organiser = await login(t.app, 'organiser');
    demoEventId = (await t.app.db.selectFrom('events').select('id').where('code', '=', 'AFHE2027').executeTakeFirstOrThrow()).id;
  });
  afterAll(() => t.close());

  it('copies settings, moves show days and deadlines, copies content and form patches, carries exhibitors over, and is audited', async () => {
    const source = (await get(t.app, `/oga/organiser/events/${demoEventId}`, organiser)).data;
    const firstDay: string = source.showDays[0].date;
    const nextYear = new Date(Date.parse(`${firstDay}T00:00:00Z`) + 364 * DAY).toISOString().slice(0, 10);
    const answer = await post(
      t.app,
      `/oga/organiser/events/${demoEventId}/clone`,
      { code: 'AFHE2028', names: { en: 'AFHE 2028', ja: 'AFHE 2028 展' }, firstShowDay: nextYear, carryExhibitors: true },
      organiser,
    );
    expect(bodyOf(answer)).toMatchObject({ code: 200, data: { days: 364 } });
    const id = answer.data.id as number;
    expect(answer.data.content).toBeGreaterThan(0);

    // Settings, modules, flags and quotas as they were; days and deadlines 364 days later.
    const clone = (await get(t.app, `/oga/organiser/events/${id}`, organiser)).data;
    expect(clone).toMatchObject({
      code: 'AFHE2028',
      names: { en: 'AFHE 2028', ja: 'AFHE 2028 展' },
      venue: source.venue,
      currency: source.currency,
      settings: source.settings,
      defaultModules: source.defaultModules,
      defaultFlags: source.defaultFlags,
      defaultQuotas: source.defaultQuotas,
      reminderDays: source.reminderDays,
      utcOffsetMinutes: source.utcOffsetMinutes,
    });
    expect(clone.showDays).toHaveLength(source.showDays.length);
    expect(clone.showDays[0]).toEqual({ ...source.showDays[0], date: nextYear });
    expect(Object.keys(clone.deadlines).sort()).toEqual(Object.keys(source.deadlines).sort());
    for (const [name, at] of Object.entries(source.deadlines as Record<string, string>)) expect(Date.parse(clone.deadlines[name]) - Date.parse(at)).toBe(364 * DAY);
    const [sourceRow, cloneRow] = await Promise.all(
      [demoEventId, id].map((eventId) => t.app.db.selectFrom('events').selectAll().where('id', '=', eventId).executeTakeFirstOrThrow()),
    );
    // The show starts at its first opening, in event time.
    expect(cloneRow!.starts_at.getTime()).toBe(Date.parse(`${nextYear}T${source.showDays[0].opens}:00Z`) - source.utcOffsetMinutes * 60_000);
    expect(cloneRow!.visitor_directory_fields).toEqual(sourceRow!.visitor_directory_fields);
    expect(cloneRow!.organisation_id).toBe(sourceRow!.organisation_id);

    // Content: manuals, FAQ, tips, support and the introduction, not last year's announcements.
    const kinds = async (eventId: number) =>
      (await t.app.db.selectFrom('content').select(['kind', 'title']).where('event_id', '=', eventId).orderBy('id').execute()).map(
        (row) => `${row.kind} ${JSON.stringify(row.title)}`,
      );
    expect(await kinds(id)).toEqual((await kinds(demoEventId)).filter((row) => !row.startsWith('announcement')));
    expect(await kinds(id)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^manual/), expect.stringMatching(/^faq/), expect.stringMatching(/^tip/), expect.stringMatching(/^supportContact/)]),
    );

    // Exhibitors carried over: the same companies, their modules and flags, no answers, no booths, no accounts.
    const participations = (eventId: number) =>
      t.app.db
        .selectFrom('participations')
        .select(['id', 'exhibitor_id', 'displayed_modules', 'flags', 'booth_num'])
        .where('event_id', '=', eventId)
        .where('status', '=', 'active')
        .orderBy('exhibitor_id')
        .execute();
    const [before, after] = await Promise.all([participations(demoEventId), participations(id)]);
    expect(after.map(({ exhibitor_id, displayed_modules, flags }) => ({ exhibitor_id, displayed_modules, flags }))).toEqual(
      before.map(({ exhibitor_id, displayed_modules, flags }) => ({ exhibitor_id, displayed_modules, flags })),
    );
    expect(after.every((row) => row.booth_num === '')).toBe(true);
    const carriedIds = after.map((row) => row.id);
    expect(await t.app.db.selectFrom('form_entries').select('id').where('participation_id', 'in', carriedIds).execute()).toEqual([]);
    expect(await t.app.db.selectFrom('users').select('id').where('participation_id', 'in', carriedIds).execute()).toEqual([]);
    expect(await t.app.db.selectFrom('leads').select('id').where('participation_id', 'in', carriedIds).execute()).toEqual([]);

    // An exhibitor invited to the clone sees the demo event's patched S01, its manuals and their attachments.
    const borneoId = (await t.app.db.selectFrom('exhibitors').select('id').where('code', '=', 'BORNEO').executeTakeFirstOrThrow()).id;
    const borneo = after.find((row) => row.exhibitor_id === borneoId)!;
    const exhibitor = await exhibitorOf(borneo.id, id, 'next.year');
    const s01 = await get(t.app, '/oga/forms/s01', exhibitor);
    expect(s01.code).toBe(200);
    expect(s01.data.schema.properties.company.properties.halalCertified).toMatchObject({ type: 'boolean' });
    const manuals = await get(t.app, '/oga/content/manuals', exhibitor);
    expect(manuals.code).toBe(200);
    const attached = await t.app.db.selectFrom('content').select(['id', 'attachments']).where('event_id', '=', id).where('kind', '=', 'manual').execute();
    const withFile = attached.find((row) => row.attachments.length > 0);
    expect(withFile).toBeTruthy();
    const sourceFiles = await t.app.db.selectFrom('content').select('attachments').where('event_id', '=', demoEventId).where('kind', '=', 'manual').execute();
    const sourceIds = new Set(sourceFiles.flatMap((row) => row.attachments.map((a) => a.id)));
    const copiedId = withFile!.attachments[0]!.id;
    // A copy of its own: removing last year's file later leaves this year's manual whole.
    expect(sourceIds.has(copiedId)).toBe(false);
    expect(await readWhole(t.app.storage, fileKey.upload(copiedId))).not.toBeNull();
    const download = await t.app.inject({ method: 'GET', url: `/oga/content/manuals/${withFile!.id}/attachments/${copiedId}`, headers: { authorization: `Bearer ${exhibitor}` } });
    expect(download.statusCode).toBe(200);

    // The demo event's own exhibitor still sees its patched form; the clone is audited with before and after.
    const audit = await t.app.db
      .selectFrom('audit_log')
      .select(['before', 'after', 'event_id'])
      .where('action', '=', 'event.clone')
      .where('subject_id', '=', String(id))
      .executeTakeFirstOrThrow();
    expect(audit.event_id).toBe(id);
    expect(audit.before).toMatchObject({ id: demoEventId, code: 'AFHE2027' });
    expect(audit.after).toMatchObject({ code: 'AFHE2028', from: 'AFHE2027', days: 364, exhibitors: expect.arrayContaining(['BORNEO']) });
    const formsAudit = await t.app.db.selectFrom('audit_log').select('after').where('action', '=', 'forms.copyEventPatches').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(formsAudit.after).toMatchObject({ from: 'AFHE2027' });
    // Nobody switched events: the organiser keeps working on the demo event until it reviews the clone.
    expect((await get(t.app, '/oga/organiser/current-event', organiser)).data.id).toBe(demoEventId);
  });

  it('carries no exhibitors when not asked', async () => {
    const answer = await post(
      t.app,
      `/oga/organiser/events/${demoEventId}/clone`,
      { code: 'AFHE2029', names: { en: 'AFHE 2029' }, firstShowDay: '2029-06-01', carryExhibitors: false },
      organiser,
    );
    expect(answer.code).toBe(200);
    expect(answer.data.exhibitors).toBe(0);
    expect(await t.app.db.selectFrom('participations').select('id').where('event_id', '=', answer.data.id).execute()).toEqual([]);
    expect((await get(t.app, '/oga/organiser/events', organiser)).data.find((e: { code: string }) => e.code === 'AFHE2029').exhibitors).toBe(0);
  });

  it('refuses a code in use in the caller’s language, another organisation’s event (404), an exhibitor (403), a bad day; nothing is made', async () => {
    const count = async () =>
      Number(
        (
          await t.app.db
            .selectFrom('events')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const versions = async () =>
      Number(
        (
          await t.app.db
            .selectFrom('form_set_versions')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const [events, formVersions] = [await count(), await versions()];
    const body = { code: 'halal2026', names: { en: 'Again' }, firstShowDay: '2030-01-10', carryExhibitors: true };

    const clash = await post(t.app, `/oga/organiser/events/${demoEventId}/clone`, body, organiser, { headers: { 'accept-language': 'ja' } });
    expect(clash).toMatchObject({ code: 601, error: 'validationFailed', data: { fields: { code: 'organiser.validation.codeTaken' } } });
    expect(clash.msg).toBe('このコードは別の展示会または出展者が使用しています。');

    const rival = await otherOrganiser(t.app, 'clone.rival');
    expect(bodyOf(await post(t.app, `/oga/organiser/events/${demoEventId}/clone`, { ...body, code: 'RIVALCOPY' }, rival.token))).toMatchObject({ code: 404 });

    const exhibitor = await login(t.app, 'demo');
    const asExhibitor = await post(t.app, `/oga/organiser/events/${demoEventId}/clone`, { ...body, code: 'EXHCOPY' }, exhibitor);
    expect(asExhibitor.code).toBe(403);

    const badDay = await post(t.app, `/oga/organiser/events/${demoEventId}/clone`, { ...body, code: 'BADDAY', firstShowDay: '2030-02-31' }, organiser);
    expect(badDay).toMatchObject({ code: 601, data: { fields: { firstShowDay: 'organiser.validation.date' } } });
    const noName = await post(t.app, `/oga/organiser/events/${demoEventId}/clone`, { ...body, code: 'NONAME', names: { ja: '名前' } }, organiser);
    expect(noName).toMatchObject({ code: 601, error: 'validationFailed' });

    expect(await count()).toBe(events);
    expect(await versions()).toBe(formVersions);
  });

  it('takes the clone back when the form patches cannot be copied', async () => {
    const events = await t.app.db.selectFrom('events').select('id').execute();
    const copy = t.app.forms.copyEventPatches;
    t.app.forms.copyEventPatches = async () => {
      throw new Error('forms changed');
    };
    try {
      const answer = await post(
        t.app,
        `/oga/organiser/events/${demoEventId}/clone`,
        { code: 'FAILS2030', names: { en: 'Fails' }, firstShowDay: '2030-03-01', carryExhibitors: true },
        organiser,
      );
      expect(answer).toMatchObject({ code: 601, error: 'eventCloneFormsFailed' });
    } finally {
      t.app.forms.copyEventPatches = copy;
    }
    expect(await t.app.db.selectFrom('events').select('id').execute()).toEqual(events);
    expect(
      await t.app.db
        .selectFrom('content')
        .select('id')
        .where(
          'event_id',
          'not in',
          events.map((e) => e.id),
        )
        .execute(),
    ).toEqual([]);
    expect(await t.app.db.selectFrom('audit_log').select('action').where('action', '=', 'event.cloneUndone').execute()).toHaveLength(1);
  });
});
