import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { leadSearchText } from '../../src/engine/leads';
import { migrationProvider } from '../../src/server/db/migrations';
import { createTestApp, ENGINES, get, login, patch, post, type TestApp } from './helpers';

// LD2: the lead list's keyword folds case, width and diacritics as the content and exhibitor
// searches do: booth staff type "nguyen" on a phone keyboard and find "Nguyễn"; the reverse, and
// Chinese or Japanese substrings, still find their leads.

interface ListAnswer {
  total: number;
  items: Array<{ id: number; visitorName: string; company: string }>;
}

describe.each(ENGINES)('lead keyword folding on %s', (engine) => {
  let t: TestApp;
  let demo: string;
  const run = randomBytes(3).toString('hex').toUpperCase();
  const people = [
    { code: `FOLD-${run}-1`, name: 'Nguyễn Thị Minh', company: 'Công ty Đông Á', email: `minh.${run}@example.vn` },
    { code: `FOLD-${run}-2`, name: 'Jürgen Müller', company: 'Zürich Maschinenbau AG', email: `jm.${run}@example.ch` },
    { code: `FOLD-${run}-3`, name: 'Nguyen Van An', company: 'Sai Gon Trading', email: `an.${run}@example.vn` },
    { code: `FOLD-${run}-4`, name: '山田 太郎', company: '東京精密株式会社', email: `yamada.${run}@example.jp` },
    { code: `FOLD-${run}-5`, name: '王小明', company: '上海国际贸易有限公司', email: `wang.${run}@example.cn` },
    { code: `FOLD-${run}-6`, name: 'タナカ ユウキ', company: 'ガス機器 Osaka', email: `tanaka.${run}@example.jp` },
    { code: `FOLD-${run}-7`, name: '김민준', company: '삼성전자', email: `kim.${run}@example.kr` },
  ];
  /** This run's leads (the seeded demo leads are searched too). */
  const ours = new Set<number>();
  /** The visitor names the demo exhibitor's list finds for a keyword, among this run's leads. */
  const found = async (keyword: string) => {
    const answer = await get<ListAnswer>(t.app, `/oga/leads?keyword=${encodeURIComponent(keyword)}&limit=50`, demo);
    expect(answer.code).toBe(200);
    return answer.data.items
      .filter((item) => ours.has(item.id))
      .map((item) => item.visitorName)
      .sort();
  };

  beforeAll(async () => {
    t = await createTestApp(engine);
    demo = await login(t.app, 'demo');
    const user = await t.app.db.selectFrom('users').select(['event_id']).where('login', '=', 'demo').executeTakeFirstOrThrow();
    await t.app.db
      .insertInto('visitors')
      .values(
        people.map((p) => ({
          event_id: user.event_id!,
          badge_code: p.code,
          name: p.name,
          salutation: '',
          company: p.company,
          business_nature: '',
          job_title: '',
          country: '',
          mobile: '',
          email: p.email,
          phone: '',
          address: '',
        })),
      )
      .execute();
    const scannedAt = new Date(Date.now() - 60_000).toISOString();
    const answer = await post<{ created: number; results: Array<{ leadId: number }> }>(
      t.app,
      '/oga/leads/scans',
      { scans: people.map((p, i) => ({ clientScanId: `fold-${run}-${i}`, badgeCode: p.code, scannedAt })) },
      demo,
    );
    expect(answer.data.created).toBe(people.length);
    for (const result of answer.data.results) ours.add(result.leadId);
  });
  afterAll(async () => t?.close());

  it('finds visitors named with diacritics by a keyword typed without them, in any case', async () => {
    expect(await found('nguyen thi')).toEqual(['Nguyễn Thị Minh']);
    expect(await found('nguyen')).toEqual(['Nguyen Van An', 'Nguyễn Thị Minh']);
    expect(await found('muller')).toEqual(['Jürgen Müller']);
    expect(await found('ZURICH')).toEqual(['Jürgen Müller']);
    expect(await found('cong ty dong a')).toEqual(['Nguyễn Thị Minh']);
  });

  it('finds a plain name by a keyword typed with diacritics, and full-width letters as plain ones', async () => {
    expect(await found('Nguyễn Văn')).toEqual(['Nguyen Van An']);
    expect(await found('SÀI GÒN')).toEqual(['Nguyen Van An']);
    expect(await found('ＭＵＬＬＥＲ')).toEqual(['Jürgen Müller']);
  });

  it('still finds Chinese and Japanese substrings, e-mail addresses and badge codes', async () => {
    expect(await found('精密')).toEqual(['山田 太郎']);
    expect(await found('山田')).toEqual(['山田 太郎']);
    expect(await found('国际贸易')).toEqual(['王小明']);
    expect(await found(`wang.${run}@example`)).toEqual(['王小明']);
    expect(await found(`fold-${run.toLowerCase()}-2`)).toEqual(['Jürgen Müller']);
  });

  it('one or two CJK characters, in full or half width, alone or with Latin letters, find the leads holding them in one field', async () => {
    expect(await found('田')).toEqual(['山田 太郎']);
    expect(await found('国')).toEqual(['王小明']);
    expect(await found('ﾀﾅｶ')).toEqual(['タナカ ユウキ']);
    expect(await found('カス')).toEqual(['タナカ ユウキ']);
    expect(await found('ｶﾞｽ')).toEqual(['タナカ ユウキ']);
    expect(await found('ス機器 O')).toEqual(['タナカ ユウキ']);
    expect(await found('삼성')).toEqual(['김민준']);
    expect(await found('김')).toEqual(['김민준']);
    // The pairs of a keyword are all in the text, but not in this order: no match.
    expect(await found('京東')).toEqual([]);
    // A name and a company are separate fields: a keyword never spans them.
    expect(await found('郎東')).toEqual([]);
  });

  it('a lead of an unknown badge, named by booth staff with diacritics, is found without them', async () => {
    const scan = await post<{ results: Array<{ leadId: number }> }>(
      t.app,
      '/oga/leads/scans',
      { scans: [{ clientScanId: `fold-${run}-unknown`, badgeCode: `NOPE-${run}`, scannedAt: new Date(Date.now() - 30_000).toISOString() }] },
      demo,
    );
    const leadId = scan.data.results[0]!.leadId;
    ours.add(leadId);
    const named = await patch(t.app, `/oga/leads/${leadId}`, { leadType: 'potentialCustomer', visitorName: 'Phạm Đức Huy', company: `Đà Nẵng Logistics ${run}` }, demo);
    expect(named.code).toBe(200);
    expect(await found('pham duc')).toEqual(['Phạm Đức Huy']);
    expect(await found('da nang')).toEqual(['Phạm Đức Huy']);
    // Renamed in Japanese, then again: found by its new characters only.
    expect((await patch(t.app, `/oga/leads/${leadId}`, { visitorName: '林 美咲', company: '札幌茶房' }, demo)).code).toBe(200);
    expect(await found('林')).toEqual(['林 美咲']);
    expect(await found('茶房')).toEqual(['林 美咲']);
    expect((await patch(t.app, `/oga/leads/${leadId}`, { visitorName: '森 美咲', company: '札幌珈琲' }, demo)).code).toBe(200);
    expect(await found('林')).toEqual([]);
    expect(await found('茶房')).toEqual([]);
    expect(await found('森')).toEqual(['森 美咲']);
  });
  it('migration 0040 folds the leads stored before it with the same fold the application writes', async () => {
    const db = t.app.db;
    const before = await db.selectFrom('leads').select(['id', 'search_folded']).orderBy('id').execute();
    await sql`alter table leads drop column search_folded`.execute(db);
    const migration = (await migrationProvider.getMigrations())['0040_lead_search_folded']!;
    await migration.up(db);
    const after = await db.selectFrom('leads').select(['id', 'visitor_name', 'company', 'email', 'badge_code', 'search_folded']).orderBy('id').execute();
    expect(after.map((row) => ({ id: row.id, search_folded: row.search_folded }))).toEqual(before);
    for (const row of after) {
      expect(row.search_folded).toBe(leadSearchText({ visitorName: row.visitor_name, company: row.company, email: row.email, badgeCode: row.badge_code }));
    }
    expect(await found('nguyen thi')).toEqual(['Nguyễn Thị Minh']);
  });
});
