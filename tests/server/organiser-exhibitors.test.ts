import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attemptLogin, bodyOf, createTestApp, ENGINES, eventually, get, login, post, put, type TestApp } from './helpers';
import { otherOrganiser } from './organiser-support';

// O2, spec §3: the organiser's exhibitors of its current event — create, list with
// search/filters/pages, edit every field (applied on the exhibitor's next request), deactivate
// (sessions end), activation e-mail and password reset through the queue; another
// organisation's exhibitor 404, an exhibitor 403, no token 401; every change audited.

const input = (code: string, overrides: Record<string, unknown> = {}) => ({
  code,
  name: `${code} Trading`,
  legalName: `${code} Trading Sdn Bhd`,
  boothNum: `Hall 9 · ${code}`,
  logoUrl: '',
  account: `${code.toLowerCase()}.main`,
  email: `${code.toLowerCase()}@trading.example`,
  contactName: 'Siti Aminah',
  modules: ['Forms', 'Support'],
  flags: { eventShow: true, s01SubmitOnceOnly: true },
  quotas: { badges: 9 },
  deadlines: { badges: '2027-01-10T00:00:00.000Z' },
  ...overrides,
});

describe.each(ENGINES)('organiser exhibitors (%s)', (engine) => {
  let t: TestApp;
  let organiser: string;
  let rival: Awaited<ReturnType<typeof otherOrganiser>>;

  beforeAll(async () => {
    t = await createTestApp(engine, { publicUrl: 'http://portal.test' });
    organiser = await login(t.app, 'organiser');
    rival = await otherOrganiser(t.app);
  });
  afterAll(() => t.close());

  const outbox = (to: string) => t.app.db.selectFrom('mail_outbox').select(['subject', 'text_body', 'status']).where('to_address', '=', to).orderBy('id').execute();

  it('creates an exhibitor, sends its activation e-mail; it sets its password and sees only the modules set', async () => {
    const created = await post(t.app, '/oga/organiser/exhibitors', input('EX1'), organiser);
    expect(bodyOf(created)).toMatchObject({ code: 200 });
    const id = created.data.id as number;
    const read = await get(t.app, `/oga/organiser/exhibitors/${id}`, organiser);
    expect(read.data).toMatchObject({ id, ...input('EX1'), status: 'active' });
    expect(read.data.forms.s04).toBe('notStarted');

    expect((await post(t.app, `/oga/organiser/exhibitors/${id}/activation`, { language: 'en' }, organiser)).code).toBe(200);
    const [mail] = await outbox('ex1@trading.example');
    expect(mail!.subject).toContain('ASEAN Food');
    const token = mail!.text_body.match(/reset-password\?token=([A-Za-z0-9_-]+)/)![1]!;
    expect(mail!.text_body).toContain('ex1.main');
    expect((await post(t.app, '/oga/auth/password/reset', { token, password: 'Exhibitor-pass-2027', confirmPassword: 'Exhibitor-pass-2027' })).code).toBe(200);
    const exhibitor = await login(t.app, 'ex1.main', 'Exhibitor-pass-2027');
    const info = await get(t.app, '/oga/user/info', exhibitor);
    expect(info.data.displayedModule).toEqual(['Forms', 'Support']);
    const account = await get(t.app, '/oga/system/project/exhibirotCode', exhibitor);
    expect(account.data).toMatchObject({
      name: 'EX1 Trading',
      boothNum: 'Hall 9 · EX1',
      s01SubmitOnceOnly: true,
      hideAccountHome: false,
      badgesDlinedate: '2027-01-10T00:00:00.000Z',
    });

    // A change applies to the exhibitor's next request, in the same session.
    expect((await put(t.app, `/oga/organiser/exhibitors/${id}`, input('EX1', { modules: ['Forms'], flags: { hideAccountHome: true } }), organiser)).code).toBe(200);
    expect((await get(t.app, '/oga/user/info', exhibitor)).data.displayedModule).toEqual(['Forms']);
    expect((await get(t.app, '/oga/system/project/exhibirotCode', exhibitor)).data.hideAccountHome).toBe(true);
    // The organiser's changes (the exhibitor's own login is audited too, as auth.login).
    const audit = await t.app.db
      .selectFrom('audit_log')
      .select(['action', 'before', 'after'])
      .where('participation_id', '=', id)
      .where('action', 'like', 'exhibitor.%')
      .orderBy('id')
      .execute();
    expect(audit.map((row) => row.action)).toEqual(['exhibitor.create', 'exhibitor.activationSent', 'exhibitor.update']);
    expect((audit[2]!.before as { modules: string[] }).modules).toEqual(['Forms', 'Support']);
    expect((audit[2]!.after as { modules: string[] }).modules).toEqual(['Forms']);

    // Deactivated: its session ends and it cannot log in; activated again it can.
    expect((await put(t.app, `/oga/organiser/exhibitors/${id}/status`, { status: 'disabled' }, organiser)).code).toBe(200);
    expect((await get(t.app, '/oga/user/info', exhibitor)).code).toBe(401);
    expect((await attemptLogin(t.app, 'ex1.main', 'Exhibitor-pass-2027')).error).toBe('accountDisabled');
    expect((await put(t.app, `/oga/organiser/exhibitors/${id}/status`, { status: 'active' }, organiser)).code).toBe(200);
    expect((await attemptLogin(t.app, 'ex1.main', 'Exhibitor-pass-2027')).code).toBe(200);

    // The organiser starts a password reset: the reset e-mail is queued.
    expect((await post(t.app, `/oga/organiser/exhibitors/${id}/password-reset`, {}, organiser)).code).toBe(200);
    const mails = await eventually(
      () => outbox('ex1@trading.example'),
      (rows) => rows.length === 2,
    );
    expect(mails[1]!.text_body).toContain('reset-password?token=');
  });

  it('refuses a missing name, a bad e-mail, a formula, a taken booth, code or account ID, a deadline after the show', async () => {
    await post(t.app, '/oga/organiser/exhibitors', input('EX2'), organiser);
    const count = async () => (await t.app.db.selectFrom('participations').select('id').execute()).length;
    const before = await count();
    const bad = await post(
      t.app,
      '/oga/organiser/exhibitors',
      input('EX3', { name: ' ', email: 'nope', legalName: '=HYPERLINK("x")', deadlines: { badges: '2040-01-01T00:00:00.000Z' } }),
      organiser,
    );
    expect(bad.error).toBe('validationFailed');
    expect(bad.data.fields).toEqual({
      name: 'organiser.validation.exhibitorNameRequired',
      email: 'errors.emailInvalid',
      legalName: 'organiser.validation.formula',
      'deadlines.badges': 'organiser.validation.deadlineAfterShow',
    });
    const clash = await post(t.app, '/oga/organiser/exhibitors', input('EX2', { boothNum: 'Hall 9 · EX2', account: 'demo' }), organiser);
    expect(clash.data.fields).toEqual({
      boothNum: 'organiser.validation.boothTaken',
      code: 'organiser.validation.exhibitorCodeTaken',
      account: 'organiser.validation.accountTaken',
    });
    expect(await count()).toBe(before);
  });

  it('lists with search, module, flag and form-status filters in pages', async () => {
    const all = await get(t.app, '/oga/organiser/exhibitors?limit=10', organiser);
    expect(all.data.total).toBeGreaterThanOrEqual(4);
    expect(all.data.limit).toBe(10);
    const search = await get(t.app, '/oga/organiser/exhibitors?keyword=borneo', organiser);
    expect(search.data.items.map((row: { name: string }) => row.name)).toEqual(['Borneo Botanica']);
    const byModule = await get(t.app, `/oga/organiser/exhibitors?module=${encodeURIComponent('Leadgrab')}`, organiser);
    expect(byModule.data.items.map((row: { name: string }) => row.name)).toEqual(['Borneo Botanica']);
    const byFlag = await get(t.app, '/oga/organiser/exhibitors?flag=hideAccountHome', organiser);
    expect(byFlag.data.items.map((row: { code: string }) => row.code)).toEqual(['EX1']);
    // The demo's S01 (profile) deadline has passed: not submitted there means closed.
    const closed = await get(t.app, '/oga/organiser/exhibitors?form=s01&formStatus=closed', organiser);
    expect(closed.data.total).toBeGreaterThan(0);
    for (const row of closed.data.items) expect(row.forms.s01).toBe('closed');
    const page2 = await get(t.app, '/oga/organiser/exhibitors?limit=10&page=99', organiser);
    expect(page2.data.page).toBe(1);
  });

  it("answers 404 for another organisation's exhibitor, 403 to an exhibitor, 401 without a token", async () => {
    const id = (
      await t.app.db
        .selectFrom('participations')
        .innerJoin('exhibitors', 'exhibitors.id', 'participations.exhibitor_id')
        .select('participations.id')
        .where('exhibitors.name', '=', 'Borneo Botanica')
        .orderBy('participations.id', 'desc')
        .executeTakeFirstOrThrow()
    ).id;
    const demoEvent = await t.app.db.selectFrom('participations').select('event_id').where('id', '=', id).executeTakeFirstOrThrow();
    // The rival works on an event of its own.
    const rivalEvent = await t.app.db
      .insertInto('events')
      .values({
        code: 'RIVALX',
        name: 'Rival',
        url: '',
        logo_url: '',
        venue: '',
        starts_at: new Date('2031-01-01'),
        ends_at: new Date('2031-01-02'),
        utc_offset_minutes: 0,
        terms_url: '',
        support_email: '',
        organisation_id: rival.organisationId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.app.db.updateTable('users').set({ event_id: rivalEvent.id }).where('id', '=', rival.userId).execute();
    expect(demoEvent.event_id).not.toBe(rivalEvent.id);
    const calls = [
      ['GET', `/oga/organiser/exhibitors/${id}`, undefined],
      ['PUT', `/oga/organiser/exhibitors/${id}`, input('BB')],
      ['PUT', `/oga/organiser/exhibitors/${id}/status`, { status: 'disabled' }],
      ['POST', `/oga/organiser/exhibitors/${id}/activation`, {}],
      ['POST', `/oga/organiser/exhibitors/${id}/password-reset`, {}],
    ] as const;
    const send = (method: string, url: string, body: unknown, token?: string) =>
      method === 'GET' ? get(t.app, url, token) : method === 'POST' ? post(t.app, url, body, token) : put(t.app, url, body, token);
    for (const [method, url, body] of calls) expect([url, (await send(method, url, body, rival.token)).code]).toEqual([url, 404]);
    expect((await get(t.app, '/oga/organiser/exhibitors', rival.token)).data.total).toBe(0);
    const demo = await login(t.app, 'demo');
    for (const [method, url, body] of [...calls, ['GET', '/oga/organiser/exhibitors', undefined], ['POST', '/oga/organiser/exhibitors', input('X9')]] as const) {
      expect([url, (await send(method, url, body, demo)).code]).toEqual([url, 403]);
      expect([url, (await send(method, url, body)).code]).toEqual([url, 401]);
    }
    expect((await t.app.db.selectFrom('participations').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status).toBe('active');
  });
});
