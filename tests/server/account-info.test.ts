import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyOf, createTestApp, ENGINES, get, login, type TestApp } from './helpers';

// C2: the spec's project endpoints (account info with every field of spec §3, the event list,
// public branding) and P2: the server enforces the same module rule as the browser.

const ALL_MODULES = ['EEC Dashboard', 'Leadgrab Dashboard', 'Event Info', 'Forms', 'Manuals', 'Leadgrab', 'Custom Tag', 'Digital Showroom', 'Support', 'Invite Your Clients'];
const FEATURE_FLAGS = ['eventShow', 'leadgrabShow', 'digitalShow', 'hideAccountHome', 'downloadPdf', 'countryRequired'];
const SECTION_FLAGS = ['s01CompanyShow', 's01ContactShow', 's01DistributionShow', 's01GoalShow', 's02BrandNameShow', 'S01BoothDisplayName'];
const LANGUAGE_FLAGS = ['productSecondLanguage', 'profileSecondLanguage'];
const SUBMIT_ONCE_FLAGS = ['s01SubmitOnceOnly', 's02SubmitOnceOnly', 's03SubmitOnceOnly', 's04SubmitOnceOnly', 's05SubmitOnceOnly'];
const DEADLINES = ['badgesDlinedate', 'boothDlinedate', 'productDlinedate', 'profileDlinedate'];
const STRING_FIELDS = ['name', 'boothNum', 'exhibitCode', 'exhibitionId', 'exhibitName', 'exhibitionName', 'legalName', 'companyLog', 'eventLog', 'eventUrl'];
const MULTILINGUAL = [
  { label: 'English', code: 'en' },
  { label: '中文', code: 'cn' },
  { label: '日本語', code: 'ja' },
  { label: 'Tiếng Việt', code: 'vi' },
];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;
const NO_PERMISSION = { code: 403, msg: 'The current operation has no permission.', data: null, error: 'noPermission' };
const NOT_FOUND = { code: 404, msg: 'The resource does not exist.', data: null, error: 'notFound' };

describe.each(ENGINES)('C2 account info and P2 module enforcement on %s', (engine) => {
  let t: TestApp;
  let demo: string;
  let limited: string;
  let organiser: string;
  beforeAll(async () => {
    t = await createTestApp(engine);
    [demo, limited, organiser] = await Promise.all([login(t.app, 'demo'), login(t.app, 'limited'), login(t.app, 'organiser')]);
  });
  afterAll(async () => t?.close());

  const contentId = async (screenId: string) => (await t.app.db.selectFrom('content').select('id').where('screen_id', '=', screenId).orderBy('id').executeTakeFirstOrThrow()).id;

  it('C2 account info has every field of spec §3 with the right type', async () => {
    const answer = await get(t.app, '/oga/system/project/exhibirotCode', demo);
    expect(answer.code).toBe(200);
    const info = answer.data as Record<string, unknown>;
    for (const field of STRING_FIELDS) expect(typeof info[field], field).toBe('string');
    for (const field of DEADLINES) expect(info[field], field).toMatch(ISO);
    for (const flag of [...FEATURE_FLAGS, ...SECTION_FLAGS, ...LANGUAGE_FLAGS, ...SUBMIT_ONCE_FLAGS]) expect(typeof info[flag], flag).toBe('boolean');
    expect(info.displayedModule).toEqual(ALL_MODULES);
    expect(info.multilingual).toEqual(MULTILINGUAL);
  });

  it('C2 account info of demo carries its exhibitor, booth, event and flags', async () => {
    const info = (await get(t.app, '/oga/system/project/exhibirotCode', demo)).data;
    expect(info).toMatchObject({
      name: 'Borneo Botanica',
      legalName: 'Borneo Botanica Sdn. Bhd.',
      boothNum: 'Hall 3 · B12',
      exhibitCode: 'AFHE2027',
      exhibitionId: 'AFHE2027',
      exhibitName: 'ASEAN Food & Hospitality Expo 2027',
      exhibitionName: 'ASEAN Food & Hospitality Expo 2027',
      companyLog: '/demo/borneo-botanica-logo.svg',
      eventLog: '/demo/afhe-logo.svg',
      eventUrl: 'https://www.afhe-expo.example/afhe2027',
      eventShow: true,
      hideAccountHome: false,
      s02BrandNameShow: true,
      S01BoothDisplayName: true,
      productSecondLanguage: true,
      s01SubmitOnceOnly: false,
      s03SubmitOnceOnly: true,
      s05SubmitOnceOnly: true,
    });
    // The demo has a deadline that has passed and others ahead.
    const now = Date.now();
    const past = DEADLINES.filter((field) => Date.parse(info[field]) < now);
    const future = DEADLINES.filter((field) => Date.parse(info[field]) > now);
    expect(past).toEqual(['profileDlinedate']);
    expect(future).toEqual(['badgesDlinedate', 'boothDlinedate', 'productDlinedate']);
  });

  it('C2 account info of limited has exactly the modules Forms and Support and its own flags', async () => {
    const info = (await get(t.app, '/oga/system/project/exhibirotCode', limited)).data;
    expect(info.displayedModule).toEqual(['Forms', 'Support']);
    expect(info).toMatchObject({
      name: 'Kopi Nusantara',
      boothNum: 'Hall 1 · A03',
      exhibitCode: 'AFHE2027',
      productSecondLanguage: false,
      s02BrandNameShow: false,
      profileSecondLanguage: true,
    });
  });

  it('C2 a flag the participation does not set reads as false; deadlines it does not set read as null', async () => {
    const user = await t.app.db.selectFrom('users').select('participation_id').where('login_key', '=', 'limited').executeTakeFirstOrThrow();
    await t.app.db
      .updateTable('participations')
      .set({ flags: JSON.stringify({ eventShow: true }) })
      .where('id', '=', user.participation_id!)
      .execute();
    // O2: the event sets no badges deadline in this test.
    const { event_id } = await t.app.db.selectFrom('participations').select('event_id').where('id', '=', user.participation_id!).executeTakeFirstOrThrow();
    await t.app.db.deleteFrom('deadlines').where('event_id', '=', event_id).where('name', '=', 'badges').execute();
    const info = (await get(t.app, '/oga/system/project/exhibirotCode', limited)).data;
    expect(info.eventShow).toBe(true);
    for (const flag of [...FEATURE_FLAGS, ...SECTION_FLAGS, ...LANGUAGE_FLAGS, ...SUBMIT_ONCE_FLAGS].filter((f) => f !== 'eventShow')) {
      expect(info[flag], flag).toBe(false);
    }
    expect(info.badgesDlinedate).toBeNull();
    expect(info.boothDlinedate).toMatch(ISO);
  });

  it('C2 user info describes the logged-in user', async () => {
    const answer = await get(t.app, '/oga/user/info', demo);
    expect(answer.code).toBe(200);
    expect(answer.data).toMatchObject({
      account: 'demo',
      name: 'Aisyah Rahman',
      email: 'demo@borneo-botanica.example',
      role: 'exhibitor',
      displayedModule: ALL_MODULES,
      showLeftMenus: true,
      session: { idleSeconds: 1800, warningSeconds: 120 },
    });
    expect(typeof answer.data.id).toBe('number');
    expect(answer.data.session.expiresAt).toMatch(ISO);
    const expiresIn = Date.parse(answer.data.session.expiresAt) - Date.now();
    expect(expiresIn).toBeGreaterThan(11.9 * 3600_000);
    expect(expiresIn).toBeLessThanOrEqual(12 * 3600_000);
  });

  it('C2 findAll lists the upcoming, live and past events of the exhibitor, newest first', async () => {
    const answer = await get(t.app, '/oga/system/project/findAll', demo);
    expect(answer.code).toBe(200);
    expect(answer.data.map((e: Record<string, unknown>) => [e.exhibitCode, e.status, e.current, e.boothNum])).toEqual([
      ['AFHE2027', 'upcoming', true, 'Hall 3 · B12'],
      ['HALAL2026', 'live', false, 'Hall A · 118'],
      ['AFHE2026', 'past', false, 'Hall 2 · C07'],
    ]);
    for (const event of answer.data) {
      expect(event.startsAt).toMatch(ISO);
      expect(event.endsAt).toMatch(ISO);
      expect(Date.parse(event.endsAt)).toBeGreaterThan(Date.parse(event.startsAt));
    }
    const past = await get(t.app, '/oga/system/project/findAll?status=past', demo);
    expect(past.data.map((e: { exhibitName: string }) => e.exhibitName)).toEqual(['ASEAN Food & Hospitality Expo 2026']);
    const keyword = await get(t.app, '/oga/system/project/findAll?keyword=halal', demo);
    expect(keyword.data.map((e: { exhibitCode: string }) => e.exhibitCode)).toEqual(['HALAL2026']);
  });

  it('C2 public branding of an event by its code needs no login', async () => {
    expect(bodyOf(await get(t.app, '/oga/system/project/exhibirotCodeOrNum?exhibitCode=afhe2027'))).toEqual({
      code: 200,
      msg: 'ok',
      data: { exhibitCode: 'AFHE2027', exhibitName: 'ASEAN Food & Hospitality Expo 2027', eventLog: '/demo/afhe-logo.svg', eventUrl: 'https://www.afhe-expo.example/afhe2027' },
    });
    expect(bodyOf(await get(t.app, '/oga/system/project/exhibirotCodeOrNum?exhibitCode=NOPE2099'))).toEqual(NOT_FOUND);
  });

  it('P2 limited (no Event Info module) is refused findAll with 403; demo gets it', async () => {
    const refused = await get(t.app, '/oga/system/project/findAll', limited);
    expect(refused.status).toBe(200);
    expect(bodyOf(refused)).toEqual(NO_PERMISSION);
    expect((await get(t.app, '/oga/system/project/findAll', demo)).code).toBe(200);
    // The organiser has no participation and so no modules.
    expect(bodyOf(await get(t.app, '/oga/system/project/findAll', organiser))).toEqual(NO_PERMISSION);
  });

  it('P2 content follows the module of its screen: limited cannot read a manual but can read a home tip and a support FAQ', async () => {
    const manual = await contentId('manuals');
    const tip = await contentId('home');
    const faq = await contentId('faq');

    expect(bodyOf(await get(t.app, `/oga/system/content/content/${manual}`, limited))).toEqual(NO_PERMISSION);
    const manualForDemo = await get(t.app, `/oga/system/content/content/${manual}`, demo);
    expect(manualForDemo.data).toMatchObject({ id: manual, kind: 'manual', title: 'Exhibitor manual 2027' });

    const tipForLimited = await get(t.app, `/oga/system/content/content/${tip}`, limited);
    expect(tipForLimited.code).toBe(200);
    expect(tipForLimited.data).toMatchObject({ id: tip, kind: 'tip', title: 'Before you start' });
    expect(tipForLimited.data.body).toMatch(/^Complete the mandatory forms before their deadlines/);
    expect(tipForLimited.data.publishedAt).toMatch(ISO);
    expect((await get(t.app, `/oga/system/content/content/${faq}`, limited)).data.title).toBe('How many badges do I get?');

    // The list leaves out what the user may not see.
    const manuals = await get(t.app, '/oga/system/content/list?kind=manual', limited);
    expect(bodyOf(manuals)).toEqual({ code: 200, msg: 'ok', data: [] });
    expect((await get(t.app, '/oga/system/content/list?kind=manual', demo)).data.map((c: { id: number }) => c.id)).toContain(manual);
  });

  it('P2 content is answered in the language of the request', async () => {
    const tip = await contentId('home');
    const cn = await get(t.app, `/oga/system/content/content/${tip}`, limited, { headers: { language: 'cn' } });
    expect(cn.data.title).toBe('开始之前');
    const vi = await get(t.app, `/oga/system/content/content/${tip}`, limited, { headers: { language: 'vi' } });
    expect(vi.data.title).toBe('Trước khi bắt đầu');
  });

  it('P2 content of another event answers 404, as does an id that does not exist', async () => {
    const otherEvent = await t.app.db.selectFrom('events').select('id').where('code', '=', 'AFHE2026').executeTakeFirstOrThrow();
    const { id } = await t.app.db
      .insertInto('content')
      .values({
        event_id: otherEvent.id,
        kind: 'tip',
        screen_id: 'home',
        title: JSON.stringify({ en: 'Last year' }),
        body: JSON.stringify({ en: 'A tip of the 2026 show' }),
        published_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(bodyOf(await get(t.app, `/oga/system/content/content/${id}`, demo))).toEqual(NOT_FOUND);
    expect(bodyOf(await get(t.app, '/oga/system/content/content/999999', demo))).toEqual(NOT_FOUND);
    expect((await get(t.app, '/oga/system/content/list?kind=tip', demo)).data.map((c: { title: string }) => c.title)).not.toContain('Last year');
  });
});
