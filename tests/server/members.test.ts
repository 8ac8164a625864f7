import { readFileSync } from 'node:fs';
import { chosenLoginPart } from '../../src/engine/members';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { interpolate, lookup, type LocaleTable } from '../../src/engine/i18n';
import { DEMO_CONTRACTOR_LOGIN, DEMO_TEAM_USER_LOGIN } from '../../src/server/db/seed';
import { hashToken } from '../../src/server/lib/tokens';
import { firstLink, startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { attemptLogin, bodyOf, createTestApp, ENGINES, get, login, mailText, post, put, recordUpload, type TestApp } from './helpers';

// LD5 team users and P1 contractor logins: the exhibitor adds them within its quotas, each gets a
// real activation e-mail with a link to set their password, they hold only their modules, a
// deactivated one is locked out at once, nobody else manages them, and a contractor fills only
// the contractor part of S03.

const NEW_PASSWORD = 'Member-pass-2027';
const EVENT_NAME = 'ASEAN Food & Hospitality Expo 2027';
const QUOTA = { code: 601, msg: 'Quota is not enough!', data: null, error: 'quotaNotEnough' };
const NOT_FOUND = { code: 404, data: null, error: 'notFound' };
const FORBIDDEN = { code: 403, data: null, error: 'noPermission' };
const BOOTH_DESIGN = { id: 'booth-design-0001', name: 'booth-b12.pdf', size: 480_000, type: 'pdf', dpi: null };

const localeTable = (language: string) => JSON.parse(readFileSync(new URL(`../../locales/${language}.json`, import.meta.url), 'utf8')) as LocaleTable;
const en = localeTable('en');

describe.each(ENGINES)('LD5 P1 team users and contractor logins on %s', (engine) => {
  let t: TestApp;
  let sink: SmtpSink;
  let demo: string;
  let limited: string;
  let seq = 0;
  const unique = (prefix: string) => `${prefix}-${engine}-${(seq += 1)}`;

  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await createTestApp(engine, { smtpUrl: sink.url, publicUrl: 'http://portal.test' });
    [demo, limited] = await Promise.all([login(t.app, 'demo'), login(t.app, 'limited')]);
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  const participationOf = async (loginKey: string) =>
    (await t.app.db.selectFrom('users').select('participation_id').where('login_key', '=', loginKey).executeTakeFirstOrThrow()).participation_id!;
  const userRow = (loginKey: string) => t.app.db.selectFrom('users').selectAll().where('login_key', '=', loginKey).executeTakeFirst();
  const activeTeamUsers = async () => (await get(t.app, '/oga/members/team-users', demo)).data as { active: number; quota: number };

  /** Adds a team user as the demo exhibitor and answers it with the token of its activation link. */
  async function addTeamUser(account: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    const email = `${chosenLoginPart(account).toLowerCase()}@borneo-botanica.example`;
    const since = sink.messages.length;
    const answer = await post(t.app, '/oga/members/team-users', { account, email, leadQuota: 120, ...extra }, demo, { headers });
    expect(bodyOf(answer)).toMatchObject({ code: 200, msg: 'ok' });
    const mail = await sink.waitFor(email, { since });
    const token = new URL(firstLink(mail.text)).searchParams.get('token')!;
    return { member: answer.data.member, mailSent: answer.data.mailSent, mail, token, email };
  }

  async function setPassword(token: string, password = NEW_PASSWORD) {
    expect(bodyOf(await post(t.app, '/oga/auth/password/reset', { token, password, confirmPassword: password }))).toEqual({ code: 200, msg: 'ok', data: null });
  }

  /** Deactivates every team user of demo except the seeded one, so a test starts from a known count. */
  async function resetTeam() {
    const list = (await get(t.app, '/oga/members/team-users', demo, { query: { limit: '50' } })).data as { items: Array<{ id: number; account: string; status: string }> };
    for (const member of list.items) {
      if (member.account !== DEMO_TEAM_USER_LOGIN && member.status === 'active') {
        expect((await post(t.app, `/oga/members/team-users/${member.id}/status`, { status: 'disabled' }, demo)).code).toBe(200);
      }
    }
  }

  const lastQueuedMail = async () =>
    (
      await t.app.db
        .selectFrom('mail_outbox')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirst()
    )?.id ?? 0;

  it('LD5 an added team user gets an activation e-mail, sets a password with its link and logs in holding only the lead modules', async () => {
    await resetTeam();
    const account = `demo/${unique('Scanner')}`;
    const { member, mailSent, mail, token, email } = await addTeamUser(account);
    expect(member).toMatchObject({ account, email, status: 'active', leadQuota: 120, name: chosenLoginPart(account) });
    expect(mailSent).toBe(true);

    // The e-mail: English (the request's language), account ID, event, exhibitor and a 72-hour single-use link.
    expect(mail.to).toEqual([email]);
    expect(mail.subject).toBe(interpolate(lookup(en, 'members.mail.teamUser.subject')!, { event: EVENT_NAME }));
    const link = firstLink(mail.text);
    expect(link).toMatch(/^http:\/\/portal\.test\/reset-password\?token=[A-Za-z0-9_-]{43,}$/);
    expect(mailText(mail.text)).toBe(
      interpolate(lookup(en, 'members.mail.teamUser.text')!, {
        name: chosenLoginPart(account),
        account,
        event: EVENT_NAME,
        exhibitor: 'Borneo Botanica',
        link,
        hours: 72,
        login: 'http://portal.test/login?exhibitCode=AFHE2027',
      }),
    );
    const stored = await t.app.db.selectFrom('password_resets').selectAll().where('token_hash', '=', hashToken(token)).executeTakeFirstOrThrow();
    expect(stored.expires_at.getTime() - stored.created_at.getTime()).toBe(72 * 60 * 60 * 1000);

    // Before the link is used, no password the exhibitor did not set works.
    expect(bodyOf(await attemptLogin(t.app, account, NEW_PASSWORD)).error).toBe('badCredentials');
    expect(bodyOf(await get(t.app, `/oga/auth/password/reset?token=${token}`))).toEqual({ code: 200, msg: 'ok', data: { account } });
    await setPassword(token);
    // Single use.
    expect(bodyOf(await get(t.app, `/oga/auth/password/reset?token=${token}`)).error).toBe('resetLinkInvalid');

    const teamToken = await login(t.app, account.toLowerCase(), NEW_PASSWORD);
    const info = await get(t.app, '/oga/user/info', teamToken);
    expect(info.data).toMatchObject({ account, role: 'team_user' });
    expect([...info.data.displayedModule].sort()).toEqual(['Leadgrab', 'Leadgrab Dashboard']);
    // Forms are not a team user's.
    expect(bodyOf(await get(t.app, '/oga/forms', teamToken))).toMatchObject(FORBIDDEN);

    // The exhibitor's list shows it.
    const list = await get(t.app, '/oga/members/team-users', demo);
    expect(list.data.items.map((m: { account: string }) => m.account)).toContain(account);
    expect(list.data.quota).toBe(3);
  });

  it('LD5 the activation e-mail is in the language chosen for it', async () => {
    await resetTeam();
    const ja = localeTable('ja');
    const account = `demo/${unique('Tanaka')}`;
    const { mail } = await addTeamUser(account, { language: 'ja' });
    const subject = interpolate(lookup(ja, 'members.mail.teamUser.subject')!, { event: EVENT_NAME });
    expect(subject).not.toBe(interpolate(lookup(en, 'members.mail.teamUser.subject')!, { event: EVENT_NAME }));
    expect(mail.subject).toBe(subject);
    expect(mailText(mail.text)).toContain(`アカウントID：${account}`);
  });

  it('LD5 beyond the team user quota: "Quota is not enough!", nothing stored, no e-mail; re-activating beyond it is refused too', async () => {
    await resetTeam();
    const { quota } = await activeTeamUsers();
    const added: Array<{ id: number; account: string }> = [];
    while ((await activeTeamUsers()).active < quota) added.push((await addTeamUser(unique('Fill'))).member);
    expect((await activeTeamUsers()).active).toBe(3);

    const usersBefore = (await t.app.db.selectFrom('users').select('id').execute()).length;
    const resetsBefore = (await t.app.db.selectFrom('password_resets').select('id').execute()).length;
    const queuedBefore = await lastQueuedMail();
    const refused = await post(t.app, '/oga/members/team-users', { account: unique('OneTooMany'), email: 'one-too-many@borneo-botanica.example', password: NEW_PASSWORD }, demo);
    expect(bodyOf(refused)).toEqual(QUOTA);
    expect((await t.app.db.selectFrom('users').select('id').execute()).length).toBe(usersBefore);
    expect((await t.app.db.selectFrom('password_resets').select('id').execute()).length).toBe(resetsBefore);
    expect(await t.app.db.selectFrom('mail_outbox').select('to_address').where('id', '>', queuedBefore).execute()).toEqual([]);

    // Deactivating frees a place; re-activating when it was taken meanwhile is refused.
    const [first] = added;
    expect((await post(t.app, `/oga/members/team-users/${first!.id}/status`, { status: 'disabled' }, demo)).data.member.status).toBe('disabled');
    await addTeamUser(unique('Replacement'));
    expect(bodyOf(await post(t.app, `/oga/members/team-users/${first!.id}/status`, { status: 'active' }, demo))).toEqual(QUOTA);
    expect((await userRow(first!.account.toLowerCase()))!.status).toBe('disabled');
  });

  it('LD5 a deactivated team user is logged out at once and cannot log in; activating again sends a new link', async () => {
    await resetTeam();
    const account = `demo/${unique('Shortlived')}`;
    const { member, token } = await addTeamUser(account);
    await setPassword(token);
    const session = await login(t.app, account, NEW_PASSWORD);
    expect((await get(t.app, '/oga/user/info', session)).code).toBe(200);

    // An unused second link must die with the deactivation as well.
    const resend = await addResend(member.id);
    const deactivated = await post(t.app, `/oga/members/team-users/${member.id}/status`, { status: 'disabled' }, demo);
    expect(bodyOf(deactivated)).toMatchObject({ code: 200, data: { member: { status: 'disabled' }, mailSent: null } });
    expect(bodyOf(await get(t.app, '/oga/user/info', session)).error).toBe('invalidSession');
    expect(bodyOf(await attemptLogin(t.app, account, NEW_PASSWORD)).error).toBe('accountDisabled');
    expect(bodyOf(await get(t.app, `/oga/auth/password/reset?token=${resend}`)).error).toBe('resetLinkInvalid');
    const listed = (await get(t.app, '/oga/members/team-users', demo)).data.items.find((m: { id: number }) => m.id === member.id);
    expect(listed.status).toBe('disabled');

    const since = sink.messages.length;
    const activated = await post(t.app, `/oga/members/team-users/${member.id}/status`, { status: 'active' }, demo);
    expect(bodyOf(activated)).toMatchObject({ code: 200, data: { member: { status: 'active' }, mailSent: true } });
    const mail = await sink.waitFor(member.email, { since });
    expect(mail.subject).toBe(interpolate(lookup(en, 'members.mail.teamUser.subject')!, { event: EVENT_NAME }));
    expect((await attemptLogin(t.app, account, NEW_PASSWORD)).code).toBe(200);
  });

  /** "Resend activation e-mail": answers the new link's token. */
  async function addResend(id: number): Promise<string> {
    const row = await t.app.db.selectFrom('users').select('email').where('id', '=', id).executeTakeFirstOrThrow();
    const since = sink.messages.length;
    expect(bodyOf(await post(t.app, `/oga/members/team-users/${id}/activation-mail`, {}, demo))).toMatchObject({ code: 200, data: { mailSent: true } });
    const mail = await sink.waitFor(row.email, { since });
    return new URL(firstLink(mail.text)).searchParams.get('token')!;
  }

  it('LD5 edits: e-mail and lead quota change, the user name stays; checks on the user name, e-mail, password and quota', async () => {
    await resetTeam();
    const account = `demo/${unique('Editable')}`;
    const { member } = await addTeamUser(account);
    const edited = await put(t.app, `/oga/members/team-users/${member.id}`, { email: 'renamed@borneo-botanica.example', leadQuota: null }, demo);
    expect(bodyOf(edited)).toMatchObject({ code: 200, data: { member: { account, email: 'renamed@borneo-botanica.example', leadQuota: null } } });
    expect((await userRow(account.toLowerCase()))!.lead_quota).toBeNull();

    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ account: 'Scanner', email: 'x@borneo-botanica.example' }, 'memberLoginTaken'],
      [{ account: 'other/name', email: 'x@borneo-botanica.example' }, 'memberLoginInvalid'],
      [{ account: DEMO_CONTRACTOR_LOGIN.toUpperCase(), email: 'x@borneo-botanica.example' }, 'memberLoginTaken'],
      [{ account: 'a b', email: 'x@borneo-botanica.example' }, 'memberLoginInvalid'],
      [{ account: unique('Mail'), email: 'ｘ@borneo-botanica.example' }, 'emailInvalid'],
      [{ account: unique('Mail'), email: 'not-an-address' }, 'emailInvalid'],
      [{ account: unique('Short'), email: 'x@borneo-botanica.example', password: 'Abc-123' }, 'passwordTooShort'],
    ];
    for (const [body, error] of refusals) expect(bodyOf(await post(t.app, '/oga/members/team-users', body, demo)).error, error).toBe(error);
    expect(bodyOf(await post(t.app, '/oga/members/team-users', { account: unique('Quota'), email: 'x@borneo-botanica.example', leadQuota: -1 }, demo)).code).toBe(601);
    expect(bodyOf(await put(t.app, `/oga/members/team-users/${member.id}`, { email: 'ｆｕｌｌ@borneo-botanica.example' }, demo)).error).toBe('emailInvalid');
  });

  it('LD5 a team user keeps the name given to it (shown on leaderboards), and an edit without a quota keeps the quota', async () => {
    await resetTeam();
    const account = `demo/${unique('Named')}`;
    const { member } = await addTeamUser(account, { name: 'Siti Nurhaliza', leadQuota: 80 });
    expect(member).toMatchObject({ account, name: 'Siti Nurhaliza', leadQuota: 80 });
    const kept = await put(t.app, `/oga/members/team-users/${member.id}`, { email: 'siti@borneo-botanica.example' }, demo);
    expect(bodyOf(kept)).toMatchObject({ code: 200, data: { member: { name: 'Siti Nurhaliza', leadQuota: 80, email: 'siti@borneo-botanica.example' } } });
    const renamed = await put(t.app, `/oga/members/team-users/${member.id}`, { email: 'siti@borneo-botanica.example', name: 'Siti N.', leadQuota: 90 }, demo);
    expect(renamed.data.member).toMatchObject({ name: 'Siti N.', leadQuota: 90 });
    expect((await userRow(account.toLowerCase()))!).toMatchObject({ display_name: 'Siti N.', lead_quota: 90 });
    // Without a name the user name stands in, as before.
    const unnamed = await addTeamUser(`demo/${unique('Plain')}`);
    expect(unnamed.member.name).toBe(chosenLoginPart(unnamed.member.account));
  });

  it('LD5 P1 team users and contractors cannot manage members (403), nothing is stored', async () => {
    const team = await login(t.app, DEMO_TEAM_USER_LOGIN);
    const builder = await login(t.app, DEMO_CONTRACTOR_LOGIN);
    const before = (await t.app.db.selectFrom('users').select('id').execute()).length;
    for (const token of [team, builder]) {
      for (const path of ['team-users', 'contractors']) {
        expect(bodyOf(await get(t.app, `/oga/members/${path}`, token)), path).toMatchObject(FORBIDDEN);
        expect(bodyOf(await post(t.app, `/oga/members/${path}`, { account: unique('Sneaky'), email: 's@x.example', company: 'X', name: 'Y' }, token))).toMatchObject(FORBIDDEN);
      }
      const scanner = (await userRow(DEMO_TEAM_USER_LOGIN))!;
      expect(bodyOf(await post(t.app, `/oga/members/team-users/${scanner.id}/status`, { status: 'disabled' }, token))).toMatchObject(FORBIDDEN);
      expect(bodyOf(await put(t.app, `/oga/members/team-users/${scanner.id}`, { email: 'hijack@x.example' }, token))).toMatchObject(FORBIDDEN);
    }
    expect((await t.app.db.selectFrom('users').select('id').execute()).length).toBe(before);
    expect((await userRow(DEMO_TEAM_USER_LOGIN))!).toMatchObject({ status: 'active', email: 'scanner@borneo-botanica.example' });
  });

  it("a member's ID is chosen inside its exhibitor: another exhibitor learns nothing by trying names", async () => {
    // demo already has `builder`; limited may name its own contractor `builder` too — nothing says it is taken.
    const granted = await post(t.app, '/oga/members/contractors', { account: 'builder', email: 'builder@kopi.example', company: 'Kopi Stands', name: 'Dewi Lestari' }, limited);
    expect(bodyOf(granted)).toMatchObject({ code: 200, data: { member: { account: 'limited/builder' } } });
    // Typing another exhibitor's full login only names a member of one's own (the '/' is refused in a chosen ID).
    expect(bodyOf(await post(t.app, '/oga/members/contractors', { account: DEMO_CONTRACTOR_LOGIN, email: 'x@kopi.example', company: 'K', name: 'K' }, limited)).error).toBe(
      'memberLoginInvalid',
    );
    // Inside demo the same name is taken, whatever its case.
    expect(bodyOf(await post(t.app, '/oga/members/contractors', { account: 'BUILDER', email: 'x@borneo-botanica.example', company: 'K', name: 'K' }, demo)).error).toBe(
      'memberLoginTaken',
    );
    // Both log in with their own full IDs once they set a password; nothing of demo's changed.
    expect((await userRow('limited/builder'))!.participation_id).toBe(await participationOf('limited'));
    expect((await userRow(DEMO_CONTRACTOR_LOGIN))!.participation_id).toBe(await participationOf('demo'));
    await t.app.db.deleteFrom('users').where('login_key', '=', 'limited/builder').execute();
  });

  it("P5 another exhibitor's members are never reachable: not listed, not editable, not (de)activated, no e-mail", async () => {
    // limited (Kopi Nusantara) grants a contractor; a team user of limited is put in directly.
    const granted = await post(
      t.app,
      '/oga/members/contractors',
      { account: unique('kopi-builder'), email: 'builder@kopi.example', company: 'Kopi Stands', name: 'Dewi Lestari' },
      limited,
    );
    expect(granted.code).toBe(200);
    const theirContractor = granted.data.member as { id: number; account: string };
    const limitedParticipation = await participationOf('limited');
    const kopiScan = unique('kopi-scan');
    const theirTeamUser = await t.app.db
      .insertInto('users')
      .values({
        login: kopiScan,
        login_key: kopiScan,
        email: 'scan@kopi.example',
        display_name: 'kopi-scan',
        password_hash: 'x',
        role: 'team_user',
        participation_id: limitedParticipation,
        event_id: (await userRow('limited'))!.event_id,
        status: 'active',
      })
      .returning(['id', 'login'])
      .executeTakeFirstOrThrow();

    const demoTeam = (await get(t.app, '/oga/members/team-users', demo, { query: { limit: '50' } })).data.items.map((m: { id: number }) => m.id);
    const demoContractors = (await get(t.app, '/oga/members/contractors', demo, { query: { limit: '50' } })).data.items.map((m: { id: number }) => m.id);
    expect(demoTeam).not.toContain(theirTeamUser.id);
    expect(demoContractors).not.toContain(theirContractor.id);

    // Every e-mail goes through the queue: none may be queued by what follows.
    const queuedBefore = await lastQueuedMail();
    for (const [path, id] of [
      ['team-users', theirTeamUser.id],
      ['contractors', theirContractor.id],
    ] as const) {
      expect(
        bodyOf(await put(t.app, `/oga/members/${path}/${id}`, { email: 'mine@borneo-botanica.example', company: 'X', name: 'Y', password: 'Taken-over-2027' }, demo)),
      ).toMatchObject(NOT_FOUND);
      expect(bodyOf(await post(t.app, `/oga/members/${path}/${id}/status`, { status: 'disabled' }, demo))).toMatchObject(NOT_FOUND);
      expect(bodyOf(await post(t.app, `/oga/members/${path}/${id}/activation-mail`, {}, demo))).toMatchObject(NOT_FOUND);
    }
    // Nor through the other kind's path with demo's own ids.
    const scanner = (await userRow(DEMO_TEAM_USER_LOGIN))!;
    expect(bodyOf(await post(t.app, `/oga/members/contractors/${scanner.id}/status`, { status: 'disabled' }, demo))).toMatchObject(NOT_FOUND);
    // And limited cannot reach demo's.
    const builder = (await userRow(DEMO_CONTRACTOR_LOGIN))!;
    expect(bodyOf(await post(t.app, `/oga/members/contractors/${builder.id}/status`, { status: 'disabled' }, limited))).toMatchObject(NOT_FOUND);

    const theirs = await t.app.db.selectFrom('users').selectAll().where('id', 'in', [theirTeamUser.id, theirContractor.id]).execute();
    expect(theirs.map((u) => [u.status, u.email]).sort()).toEqual([
      ['active', 'builder@kopi.example'],
      ['active', 'scan@kopi.example'],
    ]);
    expect((await userRow(DEMO_CONTRACTOR_LOGIN))!.status).toBe('active');
    expect(await t.app.db.selectFrom('mail_outbox').select('to_address').where('id', '>', queuedBefore).execute()).toEqual([]);
  });

  it('P1 a contractor login: granted within the contractor quota, activation e-mail, only the Forms module and only S03/S05/S08', async () => {
    const account = `demo/${unique('StandBuilder')}`;
    const email = 'ops@stand-builder.example';
    const since = sink.messages.length;
    const granted = await post(t.app, '/oga/members/contractors', { account, email, company: 'Stand Builder Sdn. Bhd.', name: 'Lim Wei Jie' }, demo);
    expect(bodyOf(granted)).toMatchObject({
      code: 200,
      data: { member: { account, company: 'Stand Builder Sdn. Bhd.', name: 'Lim Wei Jie', status: 'active', leadQuota: null }, mailSent: true },
    });
    const mail = await sink.waitFor(email, { since });
    expect(mail.subject).toBe(interpolate(lookup(en, 'members.mail.contractor.subject')!, { event: EVENT_NAME }));
    expect(mailText(mail.text)).toContain('Hello Lim Wei Jie,');
    expect(mailText(mail.text)).toContain(`Account ID: ${account}`);
    await setPassword(new URL(firstLink(mail.text)).searchParams.get('token')!);

    const contractor = await login(t.app, account, NEW_PASSWORD);
    const info = await get(t.app, '/oga/user/info', contractor);
    expect(info.data).toMatchObject({ role: 'contractor', displayedModule: ['Forms'] });
    const forms = await get(t.app, '/oga/forms', contractor);
    expect(forms.data.map((f: { code: string }) => f.code)).toEqual(['S03', 'S05', 'S08']);
    expect(bodyOf(await get(t.app, '/oga/forms/s01', contractor))).toMatchObject({ code: 404 });

    // The contractor quota (3 in the demo): builder + this one + one more, then refused.
    const { data: list } = await get(t.app, '/oga/members/contractors', demo);
    expect(list).toMatchObject({ quota: 3, active: 2 });
    expect((await post(t.app, '/oga/members/contractors', { account: unique('Third'), email: 'third@stand.example', company: 'Third', name: 'Third Person' }, demo)).code).toBe(
      200,
    );
    const before = (await t.app.db.selectFrom('users').select('id').execute()).length;
    expect(
      bodyOf(await post(t.app, '/oga/members/contractors', { account: unique('Fourth'), email: 'fourth@stand.example', company: 'Fourth', name: 'Fourth Person' }, demo)),
    ).toEqual(QUOTA);
    expect((await t.app.db.selectFrom('users').select('id').execute()).length).toBe(before);
  });

  it("P1 a contractor sees and changes only S03's contractor part; the exhibitor's booth design stays", async () => {
    const builder = await login(t.app, DEMO_CONTRACTOR_LOGIN);
    const participation = await participationOf('demo');
    await recordUpload(t.app, participation, 'boothDesign', BOOTH_DESIGN);
    // The exhibitor starts S03 with its booth design and height.
    const exhibitorData = {
      boothDesign: BOOTH_DESIGN,
      boothHeight: 2.2,
      contractor: { company: 'Placeholder Stands', email: 'placeholder@stand.example', contactPerson: 'Aisyah Rahman' },
    };
    const v1 = await put(t.app, '/oga/forms/s03/draft', { data: exhibitorData, version: 0 }, demo);
    expect(bodyOf(v1)).toEqual({ code: 200, msg: 'ok', data: { version: 1 } });

    // What the contractor is given: the same schema, the exhibitor's part hidden and left out.
    const exhibitorView = (await get(t.app, '/oga/forms/s03', demo)).data;
    const view = (await get(t.app, '/oga/forms/s03', builder)).data;
    expect(view.schema).toEqual(exhibitorView.schema);
    expect(view.ui.boothDesign).toEqual({ 'ui:field': 'hidden' });
    expect(view.ui.boothHeight).toEqual({ 'ui:field': 'hidden' });
    expect(view.ui.contractor).toEqual(exhibitorView.ui.contractor);
    expect(view.ui.contractorType).toEqual(exhibitorView.ui.contractorType);
    expect(view.entry.data).toEqual({ contractor: exhibitorData.contractor });
    expect(view.entry.version).toBe(1);

    // A change to the exhibitor's part is refused and nothing is stored.
    const refused = await put(t.app, '/oga/forms/s03/draft', { data: { ...view.entry.data, boothHeight: 3.5 }, version: 1 }, builder);
    expect(bodyOf(refused)).toMatchObject({ code: 403, error: 'contractorFieldForbidden', msg: lookup(en, 'errors.contractorFieldForbidden') });
    const removeDesign = await post(t.app, '/oga/forms/s03/submit', { data: { ...view.entry.data, contractorType: 'contractor', boothDesign: null }, version: 1 }, builder);
    expect(bodyOf(removeDesign)).toMatchObject({ code: 403, error: 'contractorFieldForbidden' });
    const unchanged = await t.app.db.selectFrom('form_entries').selectAll().where('participation_id', '=', participation).where('form_id', '=', 's03').executeTakeFirstOrThrow();
    expect(unchanged).toMatchObject({ version: 1, status: 'draft', data: exhibitorData });

    // The contractor's own part is saved; the exhibitor's booth design and height stay.
    const contractorPart = {
      contractor: { company: 'Rimba Stand Builders Sdn. Bhd.', email: 'hafiz@rimba-stands.example', contactPerson: 'Hafiz Ismail', telephone: '+60 3 2222 1111' },
      contractorType: 'standBuilder',
      greenCardNumber: 'GC-2027-0042',
      greenCardExpiry: '2028-06-30',
    };
    expect(bodyOf(await put(t.app, '/oga/forms/s03/draft', { data: contractorPart, version: 1 }, builder))).toEqual({ code: 200, msg: 'ok', data: { version: 2 } });
    const afterDraft = (await get(t.app, '/oga/forms/s03', demo)).data.entry;
    expect(afterDraft.data).toEqual({ ...contractorPart, boothDesign: BOOTH_DESIGN, boothHeight: 2.2 });

    // Sending the exhibitor's part back unchanged is no change; the contractor submits its own part
    // only (P1 F4): the exhibitor's booth design stays in the working copy, not submitted by it.
    const submitted = await post(t.app, '/oga/forms/s03/submit', { data: { ...contractorPart, boothHeight: 2.2 }, version: 2 }, builder);
    expect(bodyOf(submitted)).toEqual({ code: 200, msg: 'ok', data: { version: 3 } });
    const entry = await t.app.db.selectFrom('form_entries').selectAll().where('participation_id', '=', participation).where('form_id', '=', 's03').executeTakeFirstOrThrow();
    expect(entry.status).toBe('submitted');
    expect(entry.data).toEqual({ ...contractorPart, boothDesign: BOOTH_DESIGN, boothHeight: 2.2 });
    expect(entry.submitted_data).toEqual(contractorPart);
    expect(entry.submitted_by).toBe((await userRow(DEMO_CONTRACTOR_LOGIN))!.id);
    // The contractor's view of the submission leaves the exhibitor's part out as well.
    expect((await get(t.app, '/oga/forms/s03', builder)).data.entry.submittedData).toEqual(contractorPart);
  });

  it("P5 a contractor of one exhibitor never sees another exhibitor's forms", async () => {
    const limitedData = { contractor: { company: 'Kopi Secret Stands', email: 'secret@kopi.example', contactPerson: 'Dewi Lestari' }, contractorType: 'contractor' };
    const opened = (await get(t.app, '/oga/forms/s05', limited)).data;
    expect((await put(t.app, '/oga/forms/s05/draft', { data: { badges: [] }, version: opened.entry?.version ?? 0 }, limited)).code).toBe(200);
    const limitedS03 = (await get(t.app, '/oga/forms/s03', limited)).data;
    expect((await put(t.app, '/oga/forms/s03/draft', { data: limitedData, version: limitedS03.entry?.version ?? 0 }, limited)).code).toBe(200);

    const builder = await login(t.app, DEMO_CONTRACTOR_LOGIN);
    const seen = JSON.stringify((await get(t.app, '/oga/forms/s03', builder)).data);
    expect(seen).not.toContain('Kopi Secret Stands');
    const limitedEntry = await t.app.db
      .selectFrom('form_entries')
      .select(['data', 'version'])
      .where('participation_id', '=', await participationOf('limited'))
      .where('form_id', '=', 's03')
      .executeTakeFirstOrThrow();
    // Whatever version the contractor names, its save lands in its own exhibitor's entry.
    await put(
      t.app,
      '/oga/forms/s03/draft',
      { data: { contractor: { company: 'Overwrite', email: 'o@x.example', contactPerson: 'Over Write' } }, version: limitedEntry.version },
      builder,
    );
    expect(
      (
        await t.app.db
          .selectFrom('form_entries')
          .select('data')
          .where('participation_id', '=', await participationOf('limited'))
          .where('form_id', '=', 's03')
          .executeTakeFirstOrThrow()
      ).data,
    ).toEqual(limitedData);
  });
});
