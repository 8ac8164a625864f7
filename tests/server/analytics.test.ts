import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_MODULES, DEMO_CONTRACTOR_LOGIN, DEMO_TEAM_USER_LOGIN } from '../../src/server/db/seed';
import { hashPassword } from '../../src/server/lib/passwords';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { bodyOf, eventually, call, createTestApp, DEMO_PASSWORD, ENGINES, get, login, post, put, type TestApp } from './helpers';

// LA1-LA5, LD6, V5, P5: custom tags with their limits and messages, the lead dashboard against
// figures the test computes itself from leads it writes straight into `leads` (the rollup is
// kept by triggers, including on UPDATE and DELETE), e-mail invitations read back from a real
// SMTP sink (and a mail server that is down), and no exhibitor seeing another's data.

const en = JSON.parse(readFileSync(new URL('../../locales/en.json', import.meta.url), 'utf8'));
const cn = JSON.parse(readFileSync(new URL('../../locales/cn.json', import.meta.url), 'utf8'));
const del = (t: TestApp, url: string, token: string) => call(t.app, 'DELETE', url, { token });

const OFFSET_MINUTES = 480; // the demo event, UTC+08:00
const HOUR_MS = 3_600_000;

interface Exhibitor {
  participationId: number;
  exhibitorId: number;
  userId: number;
  token: string;
  email: string;
  team: Array<{ id: number; name: string; login: string }>;
}

let counter = 0;

/** A new exhibitor of the demo event with every module, a team of two and its own login. */
async function createExhibitor(t: TestApp, name: string): Promise<Exhibitor> {
  counter += 1;
  const db = t.app.db;
  const event = await db.selectFrom('events').select('id').where('code', '=', 'AFHE2027').executeTakeFirstOrThrow();
  const exhibitor = await db
    .insertInto('exhibitors')
    .values({ name, legal_name: `${name} Sdn. Bhd.`, logo_url: '' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const participation = await db
    .insertInto('participations')
    .values({
      exhibitor_id: exhibitor.id,
      event_id: event.id,
      booth_num: `Hall 9 · Z${counter}`,
      displayed_modules: JSON.stringify(ALL_MODULES),
      flags: JSON.stringify({}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const login = `analytics${counter}`;
  const email = `${login}@exhibitor.example`;
  const person = (suffix: string, role: 'exhibitor' | 'team_user', displayName: string, status: 'active' | 'disabled' = 'active') => ({
    login: `${login}${suffix}`,
    login_key: `${login}${suffix}`,
    email: suffix ? `${login}${suffix}@exhibitor.example` : email,
    display_name: displayName,
    password_hash: passwordHash,
    role,
    participation_id: participation.id,
    event_id: event.id,
    status,
    lead_quota: null,
    created_by: null,
  });
  const users = await db
    .insertInto('users')
    .values([
      person('', 'exhibitor', `${name} Owner`),
      person('t1', 'team_user', 'Siti Aminah'),
      person('t2', 'team_user', 'Wong Kar Lok'),
      person('t3', 'team_user', 'Retired Scanner', 'disabled'),
    ])
    .returning(['id', 'display_name', 'login'])
    .execute();
  const token = await loginWith(t, login);
  return {
    participationId: participation.id,
    exhibitorId: exhibitor.id,
    userId: users[0]!.id,
    token,
    email,
    team: users.slice(1, 3).map((u) => ({ id: u.id, name: u.display_name, login: u.login })),
  };
}

const loginWith = (t: TestApp, account: string) => login(t.app, account);

interface LeadSpec {
  scannedBy: number;
  at: Date;
  country: string;
  type: string | null;
  temperature: string | null;
  known: boolean;
}

let scanSequence = 0;
function leadRow(participationId: number, lead: LeadSpec) {
  scanSequence += 1;
  return {
    participation_id: participationId,
    client_scan_id: `scan-${scanSequence}`,
    badge_code: `AFHE2027-T${String(scanSequence).padStart(7, '0')}`,
    badge_known: lead.known,
    visitor_name: `Visitor ${scanSequence}`,
    country: lead.country,
    scanned_by: lead.scannedBy,
    scanned_at: lead.at,
    // Written here the way the scanning API does: hours since epoch in event time.
    event_hour: Math.floor((lead.at.getTime() + OFFSET_MINUTES * 60_000) / HOUR_MS),
    lead_type: lead.type,
    temperature: lead.temperature,
    follow_up: null,
  };
}

/** The event-time day ("YYYY-MM-DD") of an instant, computed without the engine. */
const eventDate = (at: Date) => new Date(at.getTime() + OFFSET_MINUTES * 60_000).toISOString().slice(0, 10);
const eventHourLabel = (at: Date) => `${new Date(at.getTime() + OFFSET_MINUTES * 60_000).toISOString().slice(0, 13).replace('T', ' ')}:00`;

function tally<T>(items: T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

/** What the dashboard should say about these leads, computed independently. */
function expectedDashboard(leads: LeadSpec[], names: Map<number, string>, now: Date) {
  const today = eventDate(now);
  const byDay = tally(leads, (l) => eventDate(l.at));
  const byHour = tally(leads, (l) => eventHourLabel(l.at));
  return {
    today,
    summary: {
      total: leads.length,
      today: leads.filter((l) => eventDate(l.at) === today).length,
      hot: leads.filter((l) => l.temperature === 'hot').length,
      qualified: leads.filter((l) => l.type !== null).length,
      unqualified: leads.filter((l) => l.type === null).length,
      unknownBadges: leads.filter((l) => !l.known).length,
    },
    days: [...byDay.entries()].sort(),
    hours: [...byHour.entries()].sort(),
    countries: tally(leads, (l) => l.country),
    types: tally(leads, (l) => l.type ?? ''),
    temperatures: tally(leads, (l) => l.temperature ?? ''),
    users: [...tally(leads, (l) => names.get(l.scannedBy)!).entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])),
  };
}

const nonZero = (rows: Array<{ key: string; leads: number }>) => new Map(rows.filter((r) => r.leads > 0).map((r) => [r.key, r.leads]));

describe.each(ENGINES)('LD6 LA1-LA5 P5 analytics on %s', (engine) => {
  let t: TestApp;
  let sink: SmtpSink;
  let a: Exhibitor;
  let b: Exhibitor;

  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await createTestApp(engine, { smtpUrl: sink.url });
    a = await createExhibitor(t, 'Durian Delights');
    b = await createExhibitor(t, 'Pandan Provisions');
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  // ---- LD6 / V5 custom tags ----

  it('V5 LD6 tags: up to three, then the too-many message; nothing stored on refusal', async () => {
    for (const [name, choices] of [
      ['Budget', ['< 10k', '10k-50k', '> 50k']],
      ['Region', ['ASEAN', 'China', 'Europe']],
      ['Interest', ['Spices', 'Coffee']],
    ] as const) {
      const created = await post(t.app, '/oga/custom-tags', { name: ` ${name} `, choices }, a.token);
      expect(bodyOf(created)).toMatchObject({ code: 200, data: { name, choices } });
    }
    const fourth = await post(t.app, '/oga/custom-tags', { name: 'Fourth', choices: ['x'] }, a.token);
    expect(bodyOf(fourth)).toMatchObject({ code: 601, error: 'customTagsTooMany', msg: 'You can have at most 3 custom tags.' });
    const tags = (await get(t.app, '/oga/custom-tags', a.token)).data as Array<{ name: string }>;
    expect(tags.map((tag) => tag.name)).toEqual(['Budget', 'Region', 'Interest']);
  });

  it('V5 a duplicate tag name (any case) and duplicate choices are refused with the spec messages', async () => {
    const c = await createExhibitor(t, 'Rambutan Raya');
    expect((await post(t.app, '/oga/custom-tags', { name: 'Budget', choices: ['Low', 'High'] }, c.token)).code).toBe(200);
    const duplicate = await post(t.app, '/oga/custom-tags', { name: '  BUDGET ', choices: ['x'] }, c.token);
    expect(bodyOf(duplicate)).toMatchObject({ code: 601, error: 'tagExists', msg: 'The tag already exists, please do not add it again.' });
    const choices = await post(t.app, '/oga/custom-tags', { name: 'Size', choices: ['Small', 'Large', 'small '] }, c.token);
    expect(bodyOf(choices)).toMatchObject({ code: 601, error: 'tagChoicesDuplicated', msg: 'Tag choices cannot be duplicated.' });
    expect((choices.data as { problems: Array<{ index: number }> }).problems[0]!.index).toBe(2);
    const eleven = await post(t.app, '/oga/custom-tags', { name: 'Many', choices: Array.from({ length: 11 }, (_, i) => `c${i}`) }, c.token);
    expect(bodyOf(eleven)).toMatchObject({ code: 601, error: 'tagChoicesTooMany', msg: 'A tag can have at most 10 choices.' });
    const inChinese = await post(t.app, '/oga/custom-tags', { name: 'budget', choices: ['x'] }, c.token, { headers: { language: 'cn' } });
    expect(inChinese.msg).toBe(cn.errors.tagExists);
    const empty = await post(t.app, '/oga/custom-tags', { name: ' ', choices: [] }, c.token);
    expect(bodyOf(empty)).toMatchObject({ code: 601, msg: en.customTags.nameRequired });
    const stored = (await get(t.app, '/oga/custom-tags', c.token)).data as Array<{ name: string; choices: string[] }>;
    expect(stored).toEqual([expect.objectContaining({ name: 'Budget', choices: ['Low', 'High'] })]);
  });

  it('LD6 edit and delete a tag; renaming onto another tag is refused', async () => {
    const c = await createExhibitor(t, 'Sago Street');
    const first = (await post(t.app, '/oga/custom-tags', { name: 'Budget', choices: ['Low'] }, c.token)).data as { id: number };
    const second = (await post(t.app, '/oga/custom-tags', { name: 'Region', choices: ['ASEAN'] }, c.token)).data as { id: number };
    expect(bodyOf(await put(t.app, `/oga/custom-tags/${second.id}`, { name: 'budget', choices: ['ASEAN'] }, c.token))).toMatchObject({ code: 601, error: 'tagExists' });
    const edited = await put(t.app, `/oga/custom-tags/${second.id}`, { name: 'Market', choices: ['ASEAN', 'EU', 'US'] }, c.token);
    expect(bodyOf(edited)).toMatchObject({ code: 200, data: { id: second.id, name: 'Market', choices: ['ASEAN', 'EU', 'US'] } });
    // Keeping its own name is not a duplicate.
    expect((await put(t.app, `/oga/custom-tags/${first.id}`, { name: 'BUDGET', choices: ['Low', 'Mid'] }, c.token)).code).toBe(200);
    expect((await del(t, `/oga/custom-tags/${first.id}`, c.token)).code).toBe(200);
    expect((await del(t, `/oga/custom-tags/${first.id}`, c.token)).code).toBe(404);
    const stored = (await get(t.app, '/oga/custom-tags', c.token)).data as Array<{ name: string }>;
    expect(stored.map((tag) => tag.name)).toEqual(['Market']);
  });

  // ---- LA1-LA4 dashboard ----

  it('LA1-LA4 an exhibitor without leads sees zeros and empty charts', async () => {
    const c = await createExhibitor(t, 'Empty Booth');
    const dashboard = (await get(t.app, '/oga/analytics/dashboard', c.token)).data;
    expect(dashboard.summary).toMatchObject({ total: 0, today: 0, hot: 0, qualified: 0, unqualified: 0, unknownBadges: 0, activeTeamUsers: 2 });
    // LA2: the daily trend shows the show days, at zero.
    expect(dashboard.trend.points.length).toBeGreaterThan(0);
    expect(dashboard.trend.points.map((p: { label: string }) => p.label)).toEqual(dashboard.trend.showDays);
    expect(dashboard.trend.points.every((p: { leads: number }) => p.leads === 0)).toBe(true);
    expect(dashboard.countries).toEqual([]);
    expect(dashboard.offsetLabel).toBe('UTC+08:00');
  });

  it('LA1-LA4 the dashboard matches counts computed from the leads, after inserts, updates and deletes', async () => {
    const now = new Date();
    // Midnight of today in event time, as an instant: leads on both sides of the day boundary.
    const todayStart = new Date(Date.parse(`${eventDate(now)}T00:00:00Z`) - OFFSET_MINUTES * 60_000);
    const people = [a.userId, a.team[0]!.id, a.team[1]!.id];
    const names = new Map<number, string>([
      [a.userId, 'Durian Delights Owner'],
      [a.team[0]!.id, 'Siti Aminah'],
      [a.team[1]!.id, 'Wong Kar Lok'],
    ]);
    const countries = ['Malaysia', 'Singapore', 'Indonesia', 'Thailand', 'Viet Nam', 'Japan', ''];
    const types = [null, 'existingCustomer', 'potentialCustomer', 'supplier', 'partner', 'investor', 'notALead', 'notApplicable'];
    const temperatures = [null, 'cold', 'warm', 'hot'];
    const leads: LeadSpec[] = [];
    for (let i = 0; i < 60; i += 1) {
      // Spread over three event days before today, yesterday's last minute, today up to now, and
      // tomorrow (a device with a clock ahead): only today's count as "today".
      const offsets = [-3 * 24 * HOUR_MS + i * 997_000, -60_000, 0, Math.min(i * 61_000, Math.max(0, now.getTime() - todayStart.getTime())), 24 * HOUR_MS + 60_000];
      leads.push({
        scannedBy: people[(i * 7) % 3]!,
        at: new Date(todayStart.getTime() + offsets[i % 5]!),
        country: countries[(i * 5) % countries.length]!,
        type: types[(i * 3) % types.length]!,
        temperature: temperatures[(i * 11) % temperatures.length]!,
        known: i % 6 !== 0,
      });
    }
    // Several statements (the rollup triggers are per statement): one batch, then one by one.
    await t.app.db
      .insertInto('leads')
      .values(leads.slice(0, 50).map((l) => leadRow(a.participationId, l)))
      .execute();
    for (const lead of leads.slice(50)) await t.app.db.insertInto('leads').values(leadRow(a.participationId, lead)).execute();
    // Another exhibitor's leads never count.
    await t.app.db
      .insertInto('leads')
      .values([leadRow(b.participationId, { scannedBy: b.userId, at: now, country: 'Malaysia', type: 'partner', temperature: 'hot', known: true })])
      .execute();

    const check = async (current: LeadSpec[]) => {
      const expected = expectedDashboard(current, names, now);
      const daily = (await get(t.app, '/oga/analytics/dashboard?granularity=day&top=3', a.token)).data;
      expect(daily.today).toBe(expected.today);
      expect(daily.summary).toEqual({ ...expected.summary, activeTeamUsers: 2, scanningUsers: expected.users.length });
      expect(daily.trend.points.filter((p: { leads: number }) => p.leads > 0).map((p: { label: string; leads: number }) => [p.label, p.leads])).toEqual(expected.days);
      // LA2: hourly is one day at a time; each day with leads, chosen, shows exactly its hours.
      for (const [day] of expected.days) {
        const hourly = (await get(t.app, `/oga/analytics/dashboard?granularity=hour&day=${day}`, a.token)).data;
        expect(hourly.trend.day).toBe(day);
        expect(hourly.trend.points.filter((p: { leads: number }) => p.leads > 0).map((p: { label: string; leads: number }) => [`${day} ${p.label}`, p.leads])).toEqual(
          expected.hours.filter(([hour]) => hour.startsWith(day)),
        );
      }
      // Countries: the top 3 and the rest as other.
      const sortedCountries = [...expected.countries.entries()].sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]));
      const top = sortedCountries.slice(0, 3);
      const rest = sortedCountries.slice(3).reduce((sum, [, n]) => sum + n, 0);
      expect(daily.countries).toEqual([...top.map(([key, leads]) => ({ key, leads })), ...(rest > 0 ? [{ key: '__other__', leads: rest }] : [])]);
      expect(nonZero(daily.types)).toEqual(expected.types);
      expect(nonZero(daily.temperatures)).toEqual(expected.temperatures);
      expect(daily.users.map((u: { name: string; leads: number }) => [u.name, u.leads])).toEqual(expected.users);
      expect(daily.leaderboard[0]).toMatchObject({ rank: 1, name: expected.users[0]![0], leads: expected.users[0]![1] });
      expect(daily.leaderboard.map((r: { leads: number }) => r.leads)).toEqual(expected.users.map(([, n]) => n));
    };
    await check(leads);
    // The boundary: yesterday 23:59 and today 00:00 (event time) fall on different days.
    const boundaryDays = new Set([eventDate(new Date(todayStart.getTime() - 60_000)), eventDate(todayStart)]);
    expect(boundaryDays.size).toBe(2);

    // UPDATE: qualify every unqualified lead as a hot potential customer.
    await t.app.db
      .updateTable('leads')
      .set({ lead_type: 'potentialCustomer', temperature: 'hot' })
      .where('participation_id', '=', a.participationId)
      .where('lead_type', 'is', null)
      .execute();
    const updated = leads.map((l) => (l.type === null ? { ...l, type: 'potentialCustomer', temperature: 'hot' } : l));
    await check(updated);

    // DELETE: the leads of one team user and everything from Singapore.
    await t.app.db
      .deleteFrom('leads')
      .where('participation_id', '=', a.participationId)
      .where((eb) => eb.or([eb('scanned_by', '=', a.team[1]!.id), eb('country', '=', 'Singapore')]))
      .execute();
    await check(updated.filter((l) => l.scannedBy !== a.team[1]!.id && l.country !== 'Singapore'));
  });

  it('LA a team user sees its participation dashboard; not tags, invitations or downloads; a contractor sees nothing', async () => {
    const owner = (await get(t.app, '/oga/analytics/dashboard', a.token)).data;
    const teamToken = await loginWith(t, a.team[0]!.login);
    const team = await get(t.app, '/oga/analytics/dashboard', teamToken);
    expect(team.code).toBe(200);
    expect(team.data.summary).toEqual(owner.summary);
    expect((await get(t.app, '/oga/custom-tags', teamToken)).code).toBe(403);
    expect((await get(t.app, '/oga/invitations', teamToken)).code).toBe(403);
    expect((await get(t.app, '/oga/analytics/exports', teamToken)).code).toBe(403);
    const contractor = await login(t.app, DEMO_CONTRACTOR_LOGIN);
    expect((await get(t.app, '/oga/analytics/dashboard', contractor)).code).toBe(403);
    expect((await get(t.app, '/oga/custom-tags', contractor)).code).toBe(403);
    const organiser = await login(t.app, 'organiser');
    expect((await get(t.app, '/oga/analytics/dashboard', organiser)).code).toBe(403);
    // The seeded `limited` exhibitor has neither module.
    const limited = await login(t.app, 'limited');
    expect((await get(t.app, '/oga/analytics/dashboard', limited)).code).toBe(403);
    expect((await get(t.app, '/oga/custom-tags', limited)).code).toBe(403);
    expect((await post(t.app, '/oga/invitations', { recipients: [{ name: 'X', email: 'x@example.com' }] }, limited)).code).toBe(403);
  });

  // ---- LA5 invitations ----

  it('LA5 invitations go out by e-mail naming event, booth and exhibitor, and are listed as sent', async () => {
    const since = sink.messages.length;
    const sent = await post(
      t.app,
      '/oga/invitations',
      {
        recipients: [
          { name: 'Mei Ling Tan', email: 'meiling@buyer.example' },
          { name: 'Arjun Nair', email: 'arjun@buyer.example' },
        ],
        message: 'Come and taste our new durian range!',
      },
      a.token,
    );
    expect(sent.code).toBe(200);
    // Recorded at once, delivered by the mail queue (the request never waits for SMTP).
    expect(sent.data.map((i: { status: string }) => i.status)).toEqual(['pending', 'pending']);
    const mail = await sink.waitFor('meiling@buyer.example', { since });
    expect(mail.subject).toBe('Durian Delights invites you to ASEAN Food & Hospitality Expo 2027');
    expect(mail.text).toContain('Dear Mei Ling Tan,');
    expect(mail.text).toMatch(/booth Hall 9 · Z\d+/);
    expect(mail.text).toContain('Come and taste our new durian range!');
    expect(mail.text).toContain('https://www.afhe-expo.example/afhe2027');
    // Replies reach the exhibitor, not the portal's no-reply sender.
    expect(mail.raw).toMatch(/^Reply-To: \S+@/m);
    expect(mail.raw).not.toMatch(/^Reply-To: .*no-reply/m);
    await sink.waitFor('arjun@buyer.example', { since });

    const list = await eventually(
      async () => (await get(t.app, '/oga/invitations', a.token)).data,
      (page) => page.items.every((i: { status: string }) => i.status === 'sent'),
    );
    expect(list.total).toBe(2);
    expect(list.items[0]).toMatchObject({ recipientName: 'Arjun Nair', recipientEmail: 'arjun@buyer.example', senderEmail: a.email, status: 'sent', reason: null });
    expect(Date.parse(list.items[0].sentAt)).toBeGreaterThan(Date.now() - 60_000);
    const onDashboard = (await get(t.app, '/oga/analytics/invitations', a.token)).data;
    expect(onDashboard.items.map((i: { recipientEmail: string }) => i.recipientEmail)).toEqual(['arjun@buyer.example', 'meiling@buyer.example']);
  });

  it("LA5 the e-mail is in the sender's language", async () => {
    const since = sink.messages.length;
    expect((await post(t.app, '/oga/invitations', { recipients: [{ name: '李明', email: 'liming@buyer.example' }] }, a.token, { headers: { language: 'cn' } })).code).toBe(200);
    const mail = await sink.waitFor('liming@buyer.example', { since });
    expect(mail.subject).toBe('Durian Delights 邀请您参加 ASEAN Food & Hospitality Expo 2027');
    expect(mail.text).toContain('尊敬的 李明：');
  });

  it('V1 LA5 invalid and full-width e-mails are refused with their messages and nothing is sent or stored', async () => {
    const before = (await get(t.app, '/oga/invitations', b.token)).data.total;
    const since = sink.messages.length;
    const fullWidth = await post(t.app, '/oga/invitations', { recipients: [{ name: 'A', email: 'ａ@buyer.example' }] }, b.token);
    expect(bodyOf(fullWidth)).toMatchObject({ code: 601, error: 'emailInvalid', msg: en.validation.noFullWidth });
    const invalid = await post(
      t.app,
      '/oga/invitations',
      {
        recipients: [
          { name: 'A', email: 'a@ok.example' },
          { name: 'B', email: 'not-an-address' },
        ],
      },
      b.token,
    );
    expect(bodyOf(invalid)).toMatchObject({ code: 601, error: 'emailInvalid', msg: 'Please enter a valid email address' });
    const tooMany = await post(t.app, '/oga/invitations', { recipients: Array.from({ length: 21 }, (_, i) => ({ name: `N${i}`, email: `n${i}@buyer.example` })) }, b.token);
    expect(bodyOf(tooMany)).toMatchObject({ code: 601, error: 'invitationsTooMany', msg: 'You can invite at most 20 clients at once.' });
    expect((await get(t.app, '/oga/invitations', b.token)).data.total).toBe(before);
    expect(sink.messages.length).toBe(since);
  });

  it('LA5 a mail server that is down: the invitation is recorded as failed with a readable reason, not an error', async () => {
    // The queue tries twice, at once, then gives up and records why.
    const down = await createTestApp(engine, { smtpUrl: 'smtp://127.0.0.1:1', mail: { maxAttempts: 2, retrySeconds: 0, pollSeconds: 1 } });
    try {
      const token = await login(down.app, 'demo');
      const answer = await post(down.app, '/oga/invitations', { recipients: [{ name: 'Mei Ling Tan', email: 'meiling@buyer.example' }] }, token);
      expect(answer.status).toBe(200);
      expect(answer.data[0]).toMatchObject({ status: 'pending', sentAt: null });
      const list = await eventually(
        async () => (await get(down.app, '/oga/invitations', token)).data,
        (page) => page.items[0]?.status !== 'pending',
      );
      expect(list.items[0]).toMatchObject({
        recipientEmail: 'meiling@buyer.example',
        status: 'failed',
        sentAt: null,
        reason: 'unreachable',
        reasonText: en.invitations.failure.unreachable,
      });
      expect(en.invitations.failure.unreachable).toBe('The mail server could not be reached.');
    } finally {
      await down.close();
    }
  });

  // ---- P5 isolation ----

  it("P5 another exhibitor can neither read nor change A's tags, dashboard, downloads or invitations", async () => {
    const tagsOfA = (await get(t.app, '/oga/custom-tags', a.token)).data as Array<{ id: number; name: string }>;
    const target = tagsOfA[0]!;
    expect((await get(t.app, '/oga/custom-tags', b.token)).data).toEqual([]);
    expect((await put(t.app, `/oga/custom-tags/${target.id}`, { name: 'Hijacked', choices: ['x'] }, b.token)).code).toBe(404);
    expect((await del(t, `/oga/custom-tags/${target.id}`, b.token)).code).toBe(404);
    const teamOfB = await loginWith(t, b.team[0]!.login);
    expect((await del(t, `/oga/custom-tags/${target.id}`, teamOfB)).code).toBe(403);
    expect(((await get(t.app, '/oga/custom-tags', a.token)).data as Array<{ name: string }>)[0]!.name).toBe(target.name);

    // B's dashboard holds only B's one lead; A's export and invitations stay A's.
    expect((await get(t.app, '/oga/analytics/dashboard', b.token)).data.summary).toMatchObject({ total: 1, hot: 1 });
    await t.app.db
      .insertInto('lead_exports')
      .values({ participation_id: a.participationId, user_id: a.userId, file_name: 'leads-durian.xlsx', format: 'xlsx', filters: '{}', storage_name: 'x.xlsx' })
      .execute();
    const exportsOfA = (await get(t.app, '/oga/analytics/exports', a.token)).data;
    expect(exportsOfA.items[0]).toMatchObject({ fileName: 'leads-durian.xlsx', user: 'Durian Delights Owner' });
    expect((await get(t.app, '/oga/analytics/exports', b.token)).data.total).toBe(0);
    const invitationsOfB = (await get(t.app, '/oga/invitations', b.token)).data;
    expect(invitationsOfB.items.some((i: { recipientEmail: string }) => i.recipientEmail.endsWith('@buyer.example'))).toBe(false);
    // Query parameters cannot widen the scope.
    expect((await get(t.app, `/oga/analytics/dashboard?participationId=${a.participationId}`, b.token)).code).not.toBe(200);
    // The demo team user (another participation) sees its own participation, not A's.
    const scanner = await login(t.app, DEMO_TEAM_USER_LOGIN);
    const demoDashboard = (await get(t.app, '/oga/analytics/dashboard', scanner)).data;
    expect(demoDashboard.leaderboard.some((row: { name: string }) => ['Siti Aminah', 'Wong Kar Lok', 'Durian Delights Owner'].includes(row.name))).toBe(false);
  });
});
