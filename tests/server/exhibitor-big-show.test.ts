import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchRows } from '../../src/server/lib/content-search';
import { translate } from '../../src/server/lib/messages';
import { createTestApp, ENGINES, get, login, post, put, type TestApp } from './helpers';

// An exhibitor on a big show: search over many content items finds exactly the items holding the
// keyword in the user's language (a CJK word inside a longer text with no spaces, a Vietnamese
// word typed with or without its diacritics, a one-character keyword), in the lists' order and
// across pages; and a 200-badge S04 saves as a draft, opens as saved, and a submit with wrong
// badges answers each error by its badge's index in the user's language, storing nothing.

const ITEMS = 240;
const KINDS = ['manual', 'announcement', 'faq'] as const;
const SCREENS = { manual: 'manuals', announcement: 'announcements', faq: 'faq' } as const;

/** Which items hold the test's words: every third holds the crane, every fifth the vulture. */
const holdsCrane = (index: number) => index % 3 === 0;
const holdsVulture = (index: number) => index % 5 === 2;

function itemTexts(index: number) {
  const crane = holdsCrane(index);
  const vulture = holdsVulture(index);
  return {
    title: { en: `Big show notice ${index}`, cn: `大型展会通知${index}`, ja: `大型展示会のお知らせ${index}`, vi: `Thông báo triển lãm lớn ${index}` },
    body: {
      en: `Hall ${index % 7}: ${crane ? 'the Gantrycrane service opens at eight' : 'the loading bay opens at eight'}${vulture ? ', mind the vulture' : ''}.`,
      // The words sit inside longer runs of characters, as Chinese and Japanese write them.
      cn: `第${index % 7}展馆${crane ? '内的龙门吊车服务时间为早上八点' : '的装卸区早上八点开放'}${vulture ? '，注意秃鹫' : ''}。`,
      ja: `第${index % 7}ホールの${crane ? '搬入日はガントリークレーン予約が必要です' : '荷さばき場は八時に開きます'}${vulture ? '、ハゲワシ（鹫）に注意' : ''}。`,
      vi: `Hội trường ${index % 7}: ${crane ? 'dịch vụ cần cẩu giàn mở lúc tám giờ' : 'khu bốc dỡ mở lúc tám giờ'}${vulture ? ', coi chừng kền kền' : ''}.`,
    },
  };
}

describe.each(ENGINES)('exhibitor on a big show on %s', (engine) => {
  let t: TestApp;
  let demo: string;
  /** The test's items in the order the search lists them: manuals, announcements, FAQ; newest first. */
  let listed: Array<{ id: number; index: number }>;

  beforeAll(async () => {
    t = await createTestApp(engine);
    demo = await login(t.app, 'demo');
    const event = await t.app.db
      .selectFrom('events')
      .innerJoin('participations', 'participations.event_id', 'events.id')
      .innerJoin('users', 'users.participation_id', 'participations.id')
      .select(['events.id', 'events.default_language'])
      .where('users.login', '=', 'demo')
      .executeTakeFirstOrThrow();
    const rows = await t.app.db
      .insertInto('content')
      .values(
        Array.from({ length: ITEMS }, (_, index) => {
          const kind = KINDS[index % 3]!;
          const { title, body } = itemTexts(index);
          // Distinct publish times (some equal, the id then orders them), all in the past.
          return {
            event_id: event.id,
            kind,
            screen_id: SCREENS[kind],
            title: JSON.stringify(title),
            body: JSON.stringify(body),
            published_at: new Date(Date.UTC(2026, 0, 1) + Math.floor(index / 2) * 60_000),
          };
        }),
      )
      .returning(['id', 'kind', 'published_at', 'title', 'body', 'description', 'category'])
      .execute();
    await t.app.db
      .insertInto('content_search')
      .values(rows.flatMap((row) => searchRows(row, event.default_language)))
      .execute();
    listed = rows
      .map((row, index) => ({ id: row.id, index, kind: KINDS.indexOf(row.kind as (typeof KINDS)[number]), at: new Date(row.published_at).getTime() }))
      .sort((a, b) => a.kind - b.kind || b.at - a.at || b.id - a.id)
      .map(({ id, index }) => ({ id, index }));
  });
  afterAll(async () => t?.close());

  /** Every result of a search, page after page (30 a page). */
  async function searchAll(keyword: string, language: string) {
    const items: Array<{ kind: string; id: string; title: string; snippet: string; path: string }> = [];
    let total = 0;
    for (let page = 1; page === 1 || items.length < total; page += 1) {
      const answer = await get(t.app, '/oga/search', demo, { query: { keyword, page: String(page), limit: '30' }, headers: { language } });
      expect(answer.code).toBe(200);
      total = answer.data.total;
      items.push(...answer.data.items);
      if (answer.data.items.length === 0) break;
    }
    return { total, items };
  }

  const CASES: Array<{ language: string; keyword: string; holds: (index: number) => boolean; title: (index: number) => string }> = [
    { language: 'en', keyword: 'gantrycrane', holds: holdsCrane, title: (index) => `Big show notice ${index}` },
    { language: 'en', keyword: 'GANTRYCRANE service', holds: holdsCrane, title: (index) => `Big show notice ${index}` },
    { language: 'cn', keyword: '龙门吊车', holds: holdsCrane, title: (index) => `大型展会通知${index}` },
    { language: 'cn', keyword: '吊车服务', holds: holdsCrane, title: (index) => `大型展会通知${index}` },
    { language: 'ja', keyword: 'ガントリークレーン', holds: holdsCrane, title: (index) => `大型展示会のお知らせ${index}` },
    // Half-width katakana are folded to full-width, as the search always did.
    { language: 'ja', keyword: 'ｸﾚｰﾝ予約', holds: holdsCrane, title: (index) => `大型展示会のお知らせ${index}` },
    { language: 'vi', keyword: 'cần cẩu giàn', holds: holdsCrane, title: (index) => `Thông báo triển lãm lớn ${index}` },
    { language: 'vi', keyword: 'can cau gian', holds: holdsCrane, title: (index) => `Thông báo triển lãm lớn ${index}` },
    { language: 'vi', keyword: 'kền kền', holds: holdsVulture, title: (index) => `Thông báo triển lãm lớn ${index}` },
    // One character: no pair of characters to narrow the texts by.
    { language: 'ja', keyword: '鹫', holds: holdsVulture, title: (index) => `大型展示会のお知らせ${index}` },
  ];

  for (const { language, keyword, holds, title } of CASES) {
    it(`finds exactly the items holding "${keyword}" in ${language}, in the lists' order, across pages`, async () => {
      const found = await searchAll(keyword, language);
      const expected = listed.filter(({ index }) => holds(index));
      expect(found.total).toBe(expected.length);
      expect(found.items.map((item) => [item.kind, item.id, item.title])).toEqual(expected.map(({ id, index }) => [KINDS[index % 3], String(id), title(index)]));
      // The snippet shows where the word is.
      for (const item of found.items) expect(item.snippet.length).toBeGreaterThan(0);
    });
  }

  it('finds nothing for a word no item holds, in any language, and nothing of another language', async () => {
    for (const language of ['en', 'cn', 'ja', 'vi']) expect((await searchAll('gantrycrane vulture', language)).total).toBe(0);
    expect((await searchAll('龙门吊车', 'en')).total).toBe(0);
    expect((await searchAll('kền kền', 'ja')).total).toBe(0);
  });

  it('finds a change to an item and loses a deleted one at the next search (the texts in memory are read again)', async () => {
    const event = await t.app.db.selectFrom('content').select(['event_id']).where('id', '=', listed[0]!.id).executeTakeFirstOrThrow();
    const language = (await t.app.db.selectFrom('events').select('default_language').where('id', '=', event.event_id).executeTakeFirstOrThrow()).default_language;
    const cranes = (await searchAll('龙门吊车', 'cn')).total;
    const changedItem = listed.find(({ index }) => !holdsCrane(index))!;
    await t.app.db.transaction().execute(async (trx) => {
      const body = { en: 'Gantrycrane for all', cn: '全馆龙门吊车', ja: 'ガントリークレーン全館', vi: 'cần cẩu giàn toàn bộ' };
      const row = await trx
        .updateTable('content')
        .set({ body: JSON.stringify(body) })
        .where('id', '=', changedItem.id)
        .returning(['id', 'title', 'body', 'description', 'category'])
        .executeTakeFirstOrThrow();
      await trx.deleteFrom('content_search').where('content_id', '=', row.id).execute();
      await trx.insertInto('content_search').values(searchRows(row, language)).execute();
    });
    expect((await searchAll('龙门吊车', 'cn')).total).toBe(cranes + 1);
    const deleted = listed.find(({ index }) => holdsCrane(index))!;
    await t.app.db.deleteFrom('content').where('id', '=', deleted.id).execute();
    const after = await searchAll('龙门吊车', 'cn');
    expect(after.total).toBe(cranes);
    expect(after.items.map((item) => item.id)).toContain(String(changedItem.id));
    expect(after.items.map((item) => item.id)).not.toContain(String(deleted.id));
  });

  describe('S04 with 200 badges', () => {
    const NAMES = ['Nurul Aisyah', '伟明', 'Thị Lan', 'さくら', 'Rajesh'];
    const badgeList = Array.from({ length: 200 }, (_, index) => ({
      firstName: NAMES[index % NAMES.length]!,
      middleName: '',
      lastName: index % 2 === 0 ? 'Nguyễn' : '佐藤',
      lastNameFirst: false,
      companyOnBadge: 'Borneo Botanica Natural Products',
      gender: index % 2 === 0 ? 'female' : 'male',
      email: `staff.${index}@borneo-botanica.example`,
      extra: false,
    }));

    beforeAll(async () => {
      // The organiser gives this exhibitor room for 200 badges (its own quota, O2).
      const user = await t.app.db.selectFrom('users').select('participation_id').where('login', '=', 'demo').executeTakeFirstOrThrow();
      const participation = await t.app.db.selectFrom('participations').select('event_id').where('id', '=', user.participation_id!).executeTakeFirstOrThrow();
      await t.app.db.deleteFrom('quotas').where('participation_id', '=', user.participation_id!).where('name', '=', 'badges').execute();
      await t.app.db.insertInto('quotas').values({ event_id: participation.event_id, participation_id: user.participation_id!, name: 'badges', value: 200 }).execute();
    });

    it('saves as a draft, opens and lists as saved, and saves again on its version', async () => {
      const saved = await put(t.app, '/oga/forms/s04/draft', { data: { badges: badgeList }, version: 0 }, demo);
      expect(saved).toMatchObject({ code: 200, data: { version: 1 } });
      const opened = (await get(t.app, '/oga/forms/s04', demo)).data;
      expect(opened.entry).toEqual({ data: { badges: badgeList }, version: 1, status: 'draft', submittedData: null, submittedAt: null, approval: null });
      expect(opened.status).toBe('draft');
      const listedForm = (await get(t.app, '/oga/forms', demo)).data.find((form: { id: string }) => form.id === 's04');
      expect(listedForm).toMatchObject({ status: 'draft', changesNotSubmitted: false });
      const changed = badgeList.map((badge, index) => (index === 199 ? { ...badge, companyOnBadge: 'Borneo Botanica' } : badge));
      expect(await put(t.app, '/oga/forms/s04/draft', { data: { badges: changed }, version: 1 }, demo)).toMatchObject({ code: 200, data: { version: 2 } });
      // A save on an older version is refused and changes nothing.
      expect(await put(t.app, '/oga/forms/s04/draft', { data: { badges: badgeList }, version: 1 }, demo)).toMatchObject({ error: 'staleVersion' });
      expect((await get(t.app, '/oga/forms/s04', demo)).data.entry.data).toEqual({ badges: changed });
    });

    it('a submit with wrong badges answers each error by its index in the user language and stores nothing', async () => {
      const before = (await get(t.app, '/oga/forms/s04', demo)).data.entry;
      const wrong = before.data.badges.map((badge: Record<string, unknown>, index: number) => {
        if (index === 3) return { ...badge, email: 'not an address' };
        if (index === 77) return { ...badge, email: 'ｓｔａｆｆ@borneo-botanica.example' };
        if (index === 150) return { ...badge, firstName: undefined };
        if (index === 199) return { ...badge, email: 'staff.0@borneo-botanica.example' };
        return badge;
      });
      const answer = await post(t.app, '/oga/forms/s04/submit', { data: { badges: wrong }, version: before.version }, demo, { headers: { language: 'ja' } });
      expect(answer).toMatchObject({ code: 601, error: 'validationFailed', msg: translate('ja', 'errors.validationFailed') });
      expect(answer.data.errors).toEqual([
        { path: '/badges/3/email', key: 'validation.email', params: { format: 'email' } },
        { path: '/badges/77/email', key: 'validation.noFullWidth', params: {} },
        { path: '/badges/150/firstName', key: 'validation.required', params: {} },
        { path: '/badges', key: 'validation.uniqueItemProperty', params: { property: 'email', value: 'staff.0@borneo-botanica.example' } },
      ]);
      expect((await get(t.app, '/oga/forms/s04', demo)).data.entry).toEqual(before);
    });

    it('submits when every badge is right, and lists as submitted', async () => {
      const before = (await get(t.app, '/oga/forms/s04', demo)).data.entry;
      const answer = await post(t.app, '/oga/forms/s04/submit', { data: before.data, version: before.version }, demo);
      expect(answer).toMatchObject({ code: 200, data: { version: before.version + 1 } });
      const listedForm = (await get(t.app, '/oga/forms', demo)).data.find((form: { id: string }) => form.id === 's04');
      expect(listedForm).toMatchObject({ status: 'submitted', changesNotSubmitted: false });
      // A draft after the submission is a change not submitted yet (the list compares both copies).
      const changed = before.data.badges.map((badge: Record<string, unknown>, index: number) => (index === 120 ? { ...badge, middleName: 'binti' } : badge));
      expect(await put(t.app, '/oga/forms/s04/draft', { data: { badges: changed }, version: before.version + 1 }, demo)).toMatchObject({ code: 200 });
      expect((await get(t.app, '/oga/forms', demo)).data.find((form: { id: string }) => form.id === 's04')).toMatchObject({ status: 'submitted', changesNotSubmitted: true });
    });
  });
});
