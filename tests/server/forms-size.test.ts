import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formDataLimit } from '../../src/engine/forms/form-size';
import { translate } from '../../src/server/lib/messages';
import { multipart } from '../support/multipart';
import { bodyOf, createTestApp, ENGINES, get, login, post, put, type TestApp } from './helpers';

// F9: a form's data may be as large as its schema allows. S04 declares up to 2,000
// badges: a realistic 2,000-badge list imported from a spreadsheet saves and submits (the old fixed
// 512 KB limit was near: see the size printed), while data beyond the form's own limit is refused
// with a message in the user's language and nothing stored.

const FIRST = ['Nurul Aisyah', 'Muhammad Hafiz', '伟明', 'Thị Lan', 'さくら', 'Siti Nurhaliza', 'Rajesh Kumar', 'Wei Ling'];
const LAST = ['Abdul Rahman', 'Tan', '陈', 'Nguyễn', '佐藤', 'binti Ismail', 'Subramaniam', 'Lim'];
const COMPANIES = [
  'Borneo Botanica Natural Products Sdn. Bhd.',
  '婆罗洲植物天然产品有限公司',
  'Saigon Specialty Foods Joint Stock Company',
  '株式会社ボルネオ・ボタニカ・ジャパン',
];

/** One realistic badge row: names in several scripts, a company as printed, a long corporate e-mail. */
const row = (index: number) => [
  FIRST[index % FIRST.length]!,
  index % 3 === 0 ? 'binti' : '',
  LAST[index % LAST.length]!,
  COMPANIES[index % COMPANIES.length]!,
  index % 2 === 0 ? 'female' : 'male',
  `exhibitor.staff.member.${String(index).padStart(4, '0')}@borneo-botanica-natural-products.example`,
];

async function importCsv(app: FastifyInstance, token: string, csv: string) {
  const { payload, contentType } = multipart([
    { name: 'data', value: '{}' },
    { name: 'file', filename: 'badges.csv', bytes: Buffer.from(csv) },
  ]);
  const response = await app.inject({
    method: 'POST',
    url: '/oga/forms/s04/lists/badges/import',
    payload,
    headers: { 'content-type': contentType, authorization: `Bearer ${token}` },
  });
  return response.json();
}

describe.each(ENGINES)('form data size on %s', (engine) => {
  let t: TestApp;
  let demo: string;

  beforeAll(async () => {
    t = await createTestApp(engine);
    demo = await login(t.app, 'demo');
    // The organiser gives this exhibitor room for 2,000 badges (its own quota, O2).
    const user = await t.app.db.selectFrom('users').select('participation_id').where('login', '=', 'demo').executeTakeFirstOrThrow();
    const event = await t.app.db.selectFrom('participations').select('event_id').where('id', '=', user.participation_id!).executeTakeFirstOrThrow();
    await t.app.db.deleteFrom('quotas').where('participation_id', '=', user.participation_id!).where('name', '=', 'badges').execute();
    await t.app.db.insertInto('quotas').values({ event_id: event.event_id, participation_id: user.participation_id!, name: 'badges', value: 2000 }).execute();
  });
  afterAll(async () => t?.close());

  it('a 2,000-badge S04 imported from a spreadsheet saves as a draft and submits', async () => {
    const csv = ['First name;Middle name;Last name;Company name on badge;Gender;Email', ...Array.from({ length: 2000 }, (_, index) => row(index).join(';'))].join('\r\n');
    const imported = await importCsv(t.app, demo, csv);
    expect(imported.code).toBe(200);
    expect(imported.data.problems).toEqual([]);
    const data = { badges: imported.data.valid.map((valid: { item: unknown }) => valid.item) };
    expect(data.badges).toHaveLength(2000);
    const size = JSON.stringify(data).length;
    console.log(
      `2,000 realistic badges: ${size} characters of JSON (${Math.round(size / 1024)} KB, ${Math.round(Buffer.byteLength(JSON.stringify(data)) / 1024)} KB as UTF-8); S04's limit ${Math.round(formDataLimit((await get(t.app, '/oga/forms/s04', demo)).data.schema) / 1024)} KB`,
    );

    const saved = await put(t.app, '/oga/forms/s04/draft', { data, version: 0 }, demo);
    expect(bodyOf(saved)).toMatchObject({ code: 200, data: { version: 1 } });
    const submitted = await post(t.app, '/oga/forms/s04/submit', { data, version: 1 }, demo);
    expect(bodyOf(submitted)).toMatchObject({ code: 200 });
  });

  it("data beyond the form's own limit is refused in the user's language, and nothing is stored", async () => {
    const { schema, entry } = (await get(t.app, '/oga/forms/s04', demo)).data;
    const limit = formDataLimit(schema);
    // Far fewer badges than allowed, but one of them holding a novel: more than the form may hold.
    const data = { badges: [{ firstName: 'Ann', lastName: 'Lee', email: 'ann@example.com', notes: 'x'.repeat(limit) }] };
    const refused = await put(t.app, '/oga/forms/s04/draft', { data, version: entry.version }, demo, { headers: { language: 'vi' } });
    expect(bodyOf(refused)).toMatchObject({
      code: 601,
      error: 'formDataTooLarge',
      msg: translate('vi', 'errors.formDataTooLarge', { limit: Math.round((limit / (1024 * 1024)) * 10) / 10 }),
    });
    expect(refused.status).toBe(413);
    const after = (await get(t.app, '/oga/forms/s04', demo)).data.entry;
    expect(after.version).toBe(entry.version);
    expect(after.data.badges).toHaveLength(2000);
    // A form without a list maximum keeps the base limit: the VIP list refuses 600 KB of text.
    const vip = await put(t.app, '/oga/forms/vip/draft', { data: { invitations: [{ name: 'x'.repeat(600 * 1024) }] }, version: 0 }, demo);
    expect(bodyOf(vip)).toMatchObject({ code: 601, error: 'formDataTooLarge' });
  });
});
