import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import { hashPassword } from '../../src/server/lib/passwords';
import { SCAN_BATCH_MAX } from '../../src/engine/leads';
import { canAccess, findScreen } from '../../src/engine/catalogue';
import { png } from '../support/fixtures';
import { convertWithLibreOffice } from '../support/libreoffice';
import { translate } from '../../src/server/lib/messages';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { bodyOf, call, createTestApp, DEMO_PASSWORD, ENGINES, get, insertTeamUser, login, patch, post, put, type TestApp } from './helpers';

// LD1-LD4 and P5 through the HTTP API on both engines: scans (single, batch, resend, unknown
// badge, quota, deactivated), the list (filters, sorting, pagination), qualification (V6
// messages, tag choices, business card), exports read back (CSV and XLSX) with their download
// list, and another exhibitor's ids never read or changed.

const HOUR = 3_600_000;
let scanCounter = 0;
const scanId = (prefix = 't') => `${prefix}-${Date.now().toString(36)}-${(scanCounter += 1)}-${randomBytes(3).toString('hex')}`;

interface ScanResult {
  clientScanId: string;
  status: string;
  leadId: number | null;
  badgeKnown: boolean | null;
  visitorName: string | null;
  company: string | null;
}

describe.each(ENGINES)('leads on %s', (engine) => {
  let t: TestApp;
  let demo: string;
  let limited: string;
  let participationId: number;
  let limitedParticipationId: number;
  let eventId: number;
  let eventStart: Date;
  let visitors: Array<{ badge_code: string; name: string; company: string; country: string; email: string }>;

  /** A team user of the demo exhibitor, made here: login token and id. */
  async function teamUser(login: string, quota: number | null, participation = participationId): Promise<{ token: string; id: number }> {
    const id = await insertTeamUser(t.app, { login, participationId: participation, eventId, quota });
    return { token: await login_(login), id };
  }
  const login_ = (account: string) => login(t.app, account);
  const scans = (token: string, body: unknown, headers: Record<string, string> = {}) =>
    post<{ results: ScanResult[]; created: number; duplicates: number; refusedForQuota: number; invalid: number; quota: number | null; remaining: number | null }>(
      t.app,
      '/oga/leads/scans',
      body,
      token,
      { headers },
    );
  /** POST /oga/leads/scan: it answers the batch's shape; `data` here is its one result. */
  const scanOne = async (token: string, body: unknown, extra: { headers?: Record<string, string> } = {}) => {
    const answer = await post<{ results: ScanResult[]; created: number; duplicates: number }>(t.app, '/oga/leads/scan', body, token, extra);
    return { ...answer, outcome: answer.data, data: (answer.data?.results?.[0] ?? answer.data) as ScanResult & { reason?: string; problem?: string } };
  };
  const at = (offsetHours: number) => new Date(eventStart.getTime() + offsetHours * HOUR).toISOString();
  const leadCount = async (participation = participationId) =>
    Number((await t.app.db.selectFrom('leads').select(sql<number>`count(*)::int`.as('n')).where('participation_id', '=', participation).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    t = await createTestApp(engine);
    [demo, limited] = await Promise.all([login(t.app, 'demo'), login(t.app, 'limited')]);
    const users = await t.app.db.selectFrom('users').select(['login', 'participation_id', 'event_id']).where('login', 'in', ['demo', 'limited']).execute();
    participationId = users.find((u) => u.login === 'demo')!.participation_id!;
    limitedParticipationId = users.find((u) => u.login === 'limited')!.participation_id!;
    eventId = users[0]!.event_id!;
    const event = await t.app.db.selectFrom('events').select(['starts_at']).where('id', '=', eventId).executeTakeFirstOrThrow();
    // Scans "during the show" must not be in the future for the API: use yesterday as the day.
    eventStart = new Date(Math.floor((Date.now() - 30 * HOUR) / HOUR) * HOUR);
    void event;
    // Visitors the demo exhibitor has not scanned yet (one lead per visitor per exhibitor).
    visitors = await t.app.db
      .selectFrom('visitors')
      .select(['badge_code', 'name', 'company', 'country', 'email'])
      .where('event_id', '=', eventId)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('leads').select('leads.id').whereRef('leads.badge_code', '=', 'visitors.badge_code').where('leads.participation_id', '=', participationId))),
      )
      .orderBy('id')
      .limit(420)
      .execute();
  });
  afterAll(async () => t?.close());

  it('LD1 one scan makes a lead with the visitor profile copied; a resend answers duplicate with the same lead', async () => {
    const visitor = visitors[0]!;
    const scan = { clientScanId: scanId(), badgeCode: visitor.badge_code, scannedAt: new Date().toISOString() };
    const before = await leadCount();
    const first = await scanOne(demo, scan);
    expect(bodyOf(first)).toMatchObject({ code: 200, data: { status: 'created', badgeKnown: true, visitorName: visitor.name, company: visitor.company } });
    const again = await scanOne(demo, scan);
    expect(again.data).toMatchObject({ status: 'duplicate', leadId: first.data.leadId });
    expect(await leadCount()).toBe(before + 1);
    const detail = await get(t.app, `/oga/leads/${first.data.leadId}`, demo);
    expect(detail.data.lead).toMatchObject({
      visitorName: visitor.name,
      company: visitor.company,
      country: visitor.country,
      email: visitor.email,
      badgeKnown: true,
      scannedBy: { name: 'Aisyah Rahman' },
    });
  });

  it('LD1 a batch: created, in-batch repeat, unknown badge kept and flagged, future time refused; the whole batch resent makes nothing new', async () => {
    const batch = Array.from({ length: 100 }, (_, i) => ({ clientScanId: scanId('b'), badgeCode: visitors[10 + i]!.badge_code, scannedAt: at(i / 10) }));
    batch[5] = { ...batch[5]!, badgeCode: 'PAPER-BADGE-0001' };
    batch.push({ ...batch[0]! }); // the same scan twice in one batch
    batch.push({ clientScanId: scanId('f'), badgeCode: visitors[3]!.badge_code, scannedAt: new Date(Date.now() + 3 * 24 * HOUR).toISOString() });
    const before = await leadCount();
    const answer = await scans(demo, { scans: batch });
    expect(answer.code).toBe(200);
    expect(answer.data).toMatchObject({ created: 100, duplicates: 1, invalid: 1, refusedForQuota: 0, quota: null, remaining: null });
    expect(answer.data.results).toHaveLength(102);
    expect(answer.data.results[5]).toMatchObject({ status: 'created', badgeKnown: false, visitorName: '' });
    expect(answer.data.results[100]).toMatchObject({ status: 'duplicate', leadId: answer.data.results[0]!.leadId });
    expect(answer.data.results[101]).toMatchObject({ status: 'invalid', leadId: null, problem: 'future' });
    expect(await leadCount()).toBe(before + 100);
    const unknown = await t.app.db.selectFrom('leads').select(['badge_known', 'badge_code']).where('id', '=', answer.data.results[5]!.leadId!).executeTakeFirstOrThrow();
    expect(unknown).toEqual({ badge_known: false, badge_code: 'PAPER-BADGE-0001' });

    const resent = await scans(demo, { scans: batch });
    expect(resent.data).toMatchObject({ created: 0, duplicates: 101, invalid: 1 });
    expect(resent.data.results.map((r) => r.leadId).slice(0, 100)).toEqual(answer.data.results.map((r) => r.leadId).slice(0, 100));
    expect(await leadCount()).toBe(before + 100);
  });

  it('LD1 malformed input is refused whole: bad ids, too many scans, missing fields', async () => {
    const good = { clientScanId: scanId(), badgeCode: visitors[1]!.badge_code, scannedAt: new Date().toISOString() };
    expect(bodyOf(await scans(demo, { scans: [{ ...good, clientScanId: 'has space' }] }))).toMatchObject({ code: 601, error: 'badRequest' });
    expect(bodyOf(await scans(demo, { scans: [{ ...good, clientScanId: 'x'.repeat(65) }] }))).toMatchObject({ code: 601, error: 'badRequest' });
    expect((await scans(demo, { scans: Array.from({ length: SCAN_BATCH_MAX + 1 }, () => ({ ...good, clientScanId: scanId() })) })).error).toBe('badRequest');
    expect((await scans(demo, { scans: [{ clientScanId: scanId(), badgeCode: 'X1' }] })).error).toBe('badRequest');
    expect((await scanOne(demo, { ...good, scannedAt: 'yesterday' })).data).toMatchObject({ status: 'invalid', problem: 'format' });
  });

  it('LD1 V7 a team user over its lead quota: the scans that fit are stored, the rest answer quotaNotEnough; then the request is refused', async () => {
    const member = await teamUser(`quota-${engine}`, 3);
    const batch = Array.from({ length: 5 }, (_, i) => ({ clientScanId: scanId('q'), badgeCode: visitors[200 + i]!.badge_code, scannedAt: at(i) }));
    const answer = await scans(member.token, { scans: batch });
    expect(answer.code).toBe(200);
    expect(answer.data.results.map((r) => r.status)).toEqual(['created', 'created', 'created', 'quotaNotEnough', 'quotaNotEnough']);
    expect(answer.data).toMatchObject({ quota: 3, remaining: 0 });
    const refused = await scans(member.token, { scans: batch.slice(3) });
    expect(bodyOf(refused)).toMatchObject({ code: 601, error: 'quotaNotEnough', msg: 'Quota is not enough!' });
    expect(refused.data.results.map((r) => r.status)).toEqual(['quotaNotEnough', 'quotaNotEnough']);
    const single = await scanOne(member.token, batch[4], { headers: { language: 'cn' } });
    expect(bodyOf(single)).toMatchObject({ code: 601, error: 'quotaNotEnough' });
    expect(single.msg).not.toBe('Quota is not enough!');
    // A resend of a stored scan is not a new lead: it never counts against the quota.
    expect((await scans(member.token, { scans: batch.slice(0, 1) })).data.results[0]).toMatchObject({ status: 'duplicate' });
    const stored = await t.app.db.selectFrom('leads').select(sql<number>`count(*)::int`.as('n')).where('scanned_by', '=', member.id).executeTakeFirstOrThrow();
    expect(stored.n).toBe(3);
  });

  it('LD1 P1 a deactivated team user can no longer scan (session refused)', async () => {
    const member = await teamUser(`off-${engine}`, null);
    const scan = { clientScanId: scanId(), badgeCode: visitors[2]!.badge_code, scannedAt: new Date().toISOString() };
    expect((await scanOne(member.token, scan)).code).toBe(200);
    await t.app.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', member.id).execute();
    const refused = await scanOne(member.token, { ...scan, clientScanId: scanId() });
    expect(refused.code).toBe(401);
  });

  it('LD2 filters, sorting and pagination match the rows the test inserted; a team user sees only its own', async () => {
    const member = await teamUser(`list-${engine}`, null);
    const chosen = visitors.slice(300, 337);
    const batch = chosen.map((v, i) => ({ clientScanId: scanId('l'), badgeCode: v.badge_code, scannedAt: at(i < 20 ? i * 0.5 : 24 + i * 0.1) }));
    expect((await scans(member.token, { scans: batch })).data.created).toBe(37);
    const list = (query: string, token = member.token) =>
      get<{
        items: Array<{ id: number; visitorName: string; company: string; country: string; leadType: string | null; scannedAt: string; scannedBy: { id: number } }>;
        total: number;
        page: number;
        limit: number;
      }>(t.app, `/oga/leads?${query}`, token);

    const all = await list('limit=50');
    expect(all.data.total).toBe(37);
    expect(all.data.items.every((item) => item.scannedBy.id === member.id)).toBe(true);
    // Newest first by default.
    expect(all.data.items[0]!.scannedAt).toBe(new Date(batch[36]!.scannedAt).toISOString());

    // Country: as computed from what was scanned.
    const country = chosen[0]!.country;
    const byCountry = await list(`country=${encodeURIComponent(country)}&limit=50`);
    expect(byCountry.data.total).toBe(chosen.filter((v) => v.country === country).length);
    expect(byCountry.data.items.every((item) => item.country === country)).toBe(true);

    // Keyword over name / company / email / badge code, case-insensitive.
    const word = chosen[4]!.company.split(' ')[0]!.toLowerCase();
    const byKeyword = await list(`keyword=${encodeURIComponent(word)}&limit=50`);
    const expected = chosen.filter((v) => [v.name, v.company, v.email, v.badge_code].some((f) => f.toLowerCase().includes(word))).length;
    expect(byKeyword.data.total).toBe(expected);
    expect((await list(`keyword=${encodeURIComponent(batch[7]!.badgeCode)}`)).data.total).toBe(1);
    expect((await list('keyword=%25')).data.total).toBe(0);

    // Event days: the first 20 scans are on day one, the rest on day two.
    const day = (iso: string) => new Date(new Date(iso).getTime() + 8 * HOUR).toISOString().slice(0, 10);
    const firstDay = day(batch[0]!.scannedAt);
    const onFirstDay = batch.filter((s) => day(s.scannedAt) === firstDay).length;
    expect((await list(`from=${firstDay}&to=${firstDay}`)).data.total).toBe(onFirstDay);
    expect((await list(`from=${day(batch[36]!.scannedAt)}`)).data.total).toBe(batch.filter((s) => day(s.scannedAt) >= day(batch[36]!.scannedAt)).length);

    // Qualify 5 as hot potential customers; the type filter and "not qualified yet" agree.
    for (const item of all.data.items.slice(0, 5)) {
      expect((await put(t.app, `/oga/leads/${item.id}`, { leadType: 'potentialCustomer', temperature: 'hot', followUp: 'arrangeCall' }, member.token)).code).toBe(200);
    }
    expect((await list('leadType=potentialCustomer')).data.total).toBe(5);
    expect((await list('leadType=none&limit=50')).data.total).toBe(32);
    expect((await list('leadType=potentialCustomer&temperature=hot&country=Nowhere')).data.total).toBe(0);

    // Sorting: by name ascending is exactly descending reversed; same leads either way.
    const asc = (await list('sort=name&order=asc&limit=50')).data.items.map((i) => i.id);
    const desc = (await list('sort=name&order=desc&limit=50')).data.items.map((i) => i.id);
    expect(asc).toEqual([...desc].reverse());
    expect(new Set(asc)).toEqual(new Set(all.data.items.map((i) => i.id)));
    const byCompany = (await list('sort=company&order=asc&limit=50')).data.items.map((i) => i.company);
    expect(byCompany[0]! <= byCompany[byCompany.length - 1]!).toBe(true);
    expect((await list('sort=password&order=sideways')).code).toBe(601);

    // Pagination: 37 leads, 10 a page: page 4 has 7; a page past the end answers page 1.
    const page4 = await list('limit=10&page=4');
    expect(page4.data).toMatchObject({ total: 37, page: 4, limit: 10 });
    expect(page4.data.items).toHaveLength(7);
    const past = await list('limit=30&page=3');
    expect(past.data).toMatchObject({ page: 1, limit: 30 });
    expect(past.data.items).toHaveLength(30);
    expect((await list('limit=25')).code).toBe(601);

    // The exhibitor sees every lead of the participation (total from the rollup = the rows).
    const everything = await list('limit=10', demo);
    expect(everything.data.total).toBe(await leadCount());
    expect((await list(`scannedBy=${member.id}`, demo)).data.total).toBe(37);
    // The team user cannot widen its view by asking for another scanner.
    const demoId = (await t.app.db.selectFrom('users').select('id').where('login', '=', 'demo').executeTakeFirstOrThrow()).id;
    expect((await list(`scannedBy=${demoId}`)).data.total).toBe(0);
    const demoLead = (await list('limit=10', demo)).data.items.find((i) => i.scannedBy.id === demoId)!;
    expect((await get(t.app, `/oga/leads/${demoLead.id}`, member.token)).code).toBe(404);

    const options = await get(t.app, '/oga/leads/options', demo);
    expect(options.data.users.map((u: { id: number }) => u.id)).toEqual(expect.arrayContaining([demoId, member.id]));
    expect(options.data.countries).toContain(country);
    expect(options.data.utcOffsetMinutes).toBe(480);
  });

  it("LD3 V6 qualification: required messages in the user's language, unknown badge needs name and company, tag answers must be choices", async () => {
    const unknown = (await scanOne(demo, { clientScanId: scanId(), badgeCode: 'HANDWRITTEN-77', scannedAt: new Date().toISOString() })).data;
    const url = `/oga/leads/${unknown.leadId}`;
    const empty = await put(t.app, url, { leadType: null, temperature: null, followUp: null }, demo);
    expect(bodyOf(empty)).toMatchObject({ code: 601, error: 'validationFailed', msg: 'Please select the lead type.' });
    expect(empty.data.fields).toEqual({
      leadType: 'leads.required.leadType',
      temperature: 'leads.required.temperature',
      followUp: 'leads.required.followUp',
      visitorName: 'leads.required.visitorName',
      company: 'leads.required.visitorCompany',
    });
    const inJapanese = await put(t.app, url, { leadType: 'partner', temperature: 'warm', followUp: 'other' }, demo, { headers: { language: 'ja' } });
    expect(bodyOf(inJapanese)).toMatchObject({ code: 601, msg: '来場者名を入力してください。' });
    expect((await put(t.app, url, { leadType: 'vip', temperature: 'warm', followUp: 'other', visitorName: 'A', company: 'B' }, demo)).error).toBe('validationFailed');

    const [tag] = await t.app.db
      .insertInto('custom_tags')
      .values({ participation_id: participationId, name: 'Interest', choices: JSON.stringify(['Honey', 'Rice crackers']) })
      .returning('id')
      .execute();
    const [otherTag] = await t.app.db
      .insertInto('custom_tags')
      .values({ participation_id: limitedParticipationId, name: 'Roast', choices: JSON.stringify(['Dark']) })
      .returning('id')
      .execute();
    const base = {
      leadType: 'potentialCustomer',
      temperature: 'hot',
      followUp: 'sendQuotation',
      visitorName: '=HYPERLINK("http://evil.example")',
      company: 'Pasar Segar Sdn. Bhd.',
    };
    const badChoice = await put(t.app, url, { ...base, tagAnswers: { [tag!.id]: ['Durian'] } }, demo);
    expect(bodyOf(badChoice)).toMatchObject({ code: 601, msg: 'Please choose only among the choices of the custom tags.' });
    expect((await put(t.app, url, { ...base, tagAnswers: { [otherTag!.id]: ['Dark'] } }, demo)).error).toBe('validationFailed');

    // A business card through the upload endpoint, then the qualification that keeps it.
    const uploaded = { data: { id: await uploadCard() } };
    const saved = await put(
      t.app,
      url,
      { ...base, notes: '+SUM(A1:A9) asked for samples', tagAnswers: { [tag!.id]: ['Honey'] }, businessCard: uploaded.data.id, interestedProducts: ['Wild Tualang Honey'] },
      demo,
    );
    expect(saved.code).toBe(200);
    expect(saved.data.lead).toMatchObject({
      leadType: 'potentialCustomer',
      temperature: 'hot',
      followUp: 'sendQuotation',
      visitorName: base.visitorName,
      company: 'Pasar Segar Sdn. Bhd.',
      notes: '+SUM(A1:A9) asked for samples',
      tagAnswers: { [String(tag!.id)]: ['Honey'] },
      interestedProducts: ['Wild Tualang Honey'],
      businessCard: { id: uploaded.data.id, name: 'card.png' },
    });
    expect(saved.data.tags).toContainEqual({ id: tag!.id, name: 'Interest', choices: ['Honey', 'Rice crackers'] });
    // The interests offered are the exhibitor's own products (its S02), submitted copy first.
    expect(saved.data.products).toEqual([]);
    const s02 = { products: [{ productName: 'Wild Tualang Honey' }, { productName: 'Bario Rice Crackers' }, { productName: 'Wild Tualang Honey' }] };
    await t.app.db
      .insertInto('form_entries')
      .values({ participation_id: participationId, form_id: 's02', data: JSON.stringify({ products: [] }), submitted_data: JSON.stringify(s02), status: 'submitted' })
      .execute();
    expect((await get(t.app, url, demo)).data.products).toEqual(['Wild Tualang Honey', 'Bario Rice Crackers']);
    await t.app.db.deleteFrom('form_entries').where('participation_id', '=', participationId).where('form_id', '=', 's02').execute();
    // Another participation's upload cannot be attached.
    const foreignUpload = randomBytes(32).toString('base64url');
    await t.app.db
      .insertInto('uploads')
      .values({
        id: foreignUpload,
        participation_id: limitedParticipationId,
        event_id: eventId,
        user_id: 1,
        purpose: 'businessCard',
        original_name: 'x.png',
        content_type: 'image/png',
        size: 1,
        dpi: null,
        sha256: 'x',
      })
      .execute();
    expect((await put(t.app, url, { ...base, businessCard: foreignUpload }, demo)).data.fields).toEqual({ businessCard: 'leads.validation.businessCard' });
    // An empty id is no card either (null removes one): the same message, nothing stored.
    const noCard = await put(t.app, url, { ...base, businessCard: '' }, demo);
    expect(noCard.error).toBe('validationFailed');
    expect(noCard.data.fields).toEqual({ businessCard: 'leads.validation.businessCard' });
  });

  it('LD4 exports: CSV and XLSX with the filtered leads, localized headers and labels, formulas neutralised; listed and downloaded again', async () => {
    // Its own leads (whatever ran before): three scanned visitors and a handwritten badge, all
    // qualified as hot potential customers; one name is a formula, one note starts like one.
    const [tag] = await t.app.db
      .insertInto('custom_tags')
      .values({ participation_id: participationId, name: 'Export interest', choices: JSON.stringify(['Honey', 'Rice crackers']) })
      .returning('id')
      .execute();
    const hot = { leadType: 'potentialCustomer', temperature: 'hot', followUp: 'sendQuotation' };
    const scanned = await scans(demo, {
      scans: [...visitors.slice(340, 343).map((visitor) => visitor.badge_code), 'HANDWRITTEN-LD4'].map((badgeCode) => ({ clientScanId: scanId('x'), badgeCode, scannedAt: at(2) })),
    });
    expect(scanned.data.created).toBe(4);
    const [first, second, third, handwritten] = scanned.data.results.map((result) => `/oga/leads/${result.leadId}`);
    for (const [url, extra] of [
      [first, { notes: '+SUM(A1:A9) asked for samples', tagAnswers: { [tag!.id]: ['Honey'] } }],
      [second, {}],
      [third, {}],
      [handwritten, { visitorName: '=HYPERLINK("http://evil.example")', company: 'Pasar Segar Sdn. Bhd.' }],
    ] as const) {
      expect((await put(t.app, url!, { ...hot, ...extra }, demo)).code).toBe(200);
    }
    const earlierDownloads = (await get(t.app, '/oga/leads/exports?limit=10', demo)).data.total as number;

    const filters = { leadType: 'potentialCustomer', temperature: 'hot' };
    const expectedRows = await t.app.db
      .selectFrom('leads')
      .select(['visitor_name'])
      .where('participation_id', '=', participationId)
      .where('lead_type', '=', 'potentialCustomer')
      .where('temperature', '=', 'hot')
      .execute();
    expect(expectedRows.length).toBeGreaterThan(1);

    const csv = await post(t.app, '/oga/leads/exports', { format: 'csv', filters }, demo);
    expect(csv.code).toBe(200);
    expect(csv.data).toMatchObject({ format: 'csv', rows: expectedRows.length, user: 'Aisyah Rahman' });
    expect(csv.data.fileName).toMatch(/^leads-AFHE2027-\d{8}-\d{4}\.csv$/);
    const csvFile = await t.app.inject({ method: 'GET', url: `/oga/leads/exports/${csv.data.id}/file`, headers: { authorization: `Bearer ${demo}` } });
    expect(csvFile.statusCode).toBe(200);
    expect(csvFile.headers['content-disposition']).toContain(`filename="${csv.data.fileName}"`);
    const records = parse(csvFile.rawPayload.toString('utf8'), { bom: true, relax_column_count: false }) as string[][];
    expect(records[0]!.slice(0, 3)).toEqual(['Visitor name', 'Salutation', 'Company']);
    expect(records[0]).toContain('Date/time added (UTC+08:00)');
    expect(records[0]).toContain('Export interest');
    expect(records).toHaveLength(expectedRows.length + 1);
    const typeColumn = records[0]!.indexOf('Lead type');
    expect(new Set(records.slice(1).map((r) => r[typeColumn]))).toEqual(new Set(['Potential Customer']));
    expect(records.map((r) => r[0])).toContain(`'=HYPERLINK("http://evil.example")`);
    expect(records.some((r) => r.includes(`'+SUM(A1:A9) asked for samples`))).toBe(true);
    expect(records.some((r) => r.includes('Honey'))).toBe(true);

    const xlsx = await post(t.app, '/oga/leads/exports', { format: 'xlsx', filters }, demo, { headers: { language: 'ja' } });
    expect(xlsx.data).toMatchObject({ format: 'xlsx', rows: expectedRows.length });
    const xlsxFile = await t.app.inject({ method: 'GET', url: `/oga/leads/exports/${xlsx.data.id}/file`, headers: { authorization: `Bearer ${demo}` } });
    expect(xlsxFile.headers['content-type']).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsxFile.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const header = (sheet.getRow(1).values as string[]).slice(1);
    expect(header.slice(0, 3)).toEqual(['来場者名', '敬称', '会社名']);
    expect(sheet.rowCount).toBe(expectedRows.length + 1);
    const typeIndex = header.indexOf('リードの種類') + 1;
    expect(sheet.getRow(2).getCell(typeIndex).value).toBe('見込み顧客');
    // XLSX cells are typed text, read exactly as stored: no apostrophe, never a formula.
    const firstColumn = sheet.getColumn(1).values as string[];
    expect(firstColumn).toContain(`=HYPERLINK("http://evil.example")`);
    const mobileIndex = header.indexOf(translate('ja', 'leads.field.mobile')) + 1;
    expect(mobileIndex).toBeGreaterThan(0);
    sheet.eachRow((row, number) => {
      if (number > 1)
        for (const cell of [row.getCell(1), row.getCell(mobileIndex)]) expect(cell.type === ExcelJS.ValueType.String || cell.type === ExcelJS.ValueType.Null).toBe(true);
    });
    const timeIndex = header.indexOf('追加日時 (UTC+08:00)') + 1;
    // The time is a real date cell (the event's wall clock), shown in ja's field order.
    expect(sheet.getRow(2).getCell(timeIndex).value).toBeInstanceOf(Date);
    expect(sheet.getRow(2).getCell(timeIndex).numFmt).toBe('yyyy/mm/dd hh:mm');

    // As spreadsheet users see them: both files opened by LibreOffice Calc, the cells read back.
    const stored = await t.app.db
      .selectFrom('leads')
      .select(['visitor_name', 'mobile'])
      .where('participation_id', '=', participationId)
      .where('lead_type', '=', 'potentialCustomer')
      .where('temperature', '=', 'hot')
      .execute();
    const phones = stored.map((row) => row.mobile).filter((mobile) => mobile.startsWith('+'));
    expect(phones.length).toBeGreaterThan(0);
    // XLSX → what Calc shows, as CSV: every value exactly as stored (the formula as text too).
    const calcOfXlsx = parse((await convertWithLibreOffice(xlsxFile.rawPayload, 'xlsx', 'csv')).toString('utf8'), { bom: true }) as string[][];
    expect(calcOfXlsx).toHaveLength(expectedRows.length + 1);
    const shownMobiles = calcOfXlsx.slice(1).map((r) => r[mobileIndex - 1]);
    expect(new Set(shownMobiles)).toEqual(new Set(stored.map((row) => row.mobile)));
    expect(calcOfXlsx.map((r) => r[0])).toContain('=HYPERLINK("http://evil.example")');
    expect(new Set(calcOfXlsx.slice(1).map((r) => r[0]))).toEqual(new Set(stored.map((row) => row.visitor_name)));
    // CSV → opened by Calc and saved as XLSX: phone numbers readable as captured, the formula a
    // text cell (with its visible apostrophe), nothing evaluated.
    const calcOfCsv = new ExcelJS.Workbook();
    await calcOfCsv.xlsx.load((await convertWithLibreOffice(csvFile.rawPayload, 'csv', 'xlsx')) as unknown as ArrayBuffer);
    const csvSheet = calcOfCsv.worksheets[0]!;
    const csvHeader = (csvSheet.getRow(1).values as string[]).slice(1);
    const csvMobile = csvHeader.indexOf('Mobile') + 1;
    expect(csvMobile).toBeGreaterThan(0);
    const cellsOf = (column: number) => {
      const cells: ExcelJS.Cell[] = [];
      csvSheet.eachRow((row, number) => number > 1 && cells.push(row.getCell(column)));
      return cells;
    };
    for (const cell of [...cellsOf(1), ...cellsOf(csvMobile)]) expect(cell.type === ExcelJS.ValueType.String || cell.type === ExcelJS.ValueType.Null).toBe(true);
    expect(new Set(cellsOf(csvMobile).map((cell) => cell.text))).toEqual(new Set(stored.map((row) => row.mobile)));
    expect(cellsOf(1).map((cell) => cell.text)).toContain(`'=HYPERLINK("http://evil.example")`);

    // The data download list, newest first, and a re-download gives the same bytes.
    const downloads = await get(t.app, '/oga/leads/exports?limit=10', demo);
    expect(downloads.data.total).toBe(earlierDownloads + 2);
    expect(downloads.data.items.map((i: { fileName: string }) => i.fileName)).toEqual([xlsx.data.fileName, csv.data.fileName]);
    expect(downloads.data.items[0]).toMatchObject({ user: 'Aisyah Rahman', rows: expectedRows.length });
    const again = await t.app.inject({ method: 'GET', url: `/oga/leads/exports/${csv.data.id}/file`, headers: { authorization: `Bearer ${demo}` } });
    expect(again.rawPayload.equals(csvFile.rawPayload)).toBe(true);
  });

  it('P5 another exhibitor never reads or changes these leads, exports or scans', async () => {
    const lead = (await get(t.app, '/oga/leads?limit=10', demo)).data.items[0] as { id: number; visitorName: string; notes: string };
    const exportId = (await post(t.app, '/oga/leads/exports', { format: 'csv' }, demo)).data.id as number;
    // Without Leadgrab, the list is closed; the detail route (Forms) finds nothing.
    expect((await get(t.app, '/oga/leads', limited)).code).toBe(403);
    expect((await get(t.app, `/oga/leads/${lead.id}`, limited)).code).toBe(404);
    expect((await put(t.app, `/oga/leads/${lead.id}`, { leadType: 'notALead', temperature: 'cold', followUp: 'notFollowingUp' }, limited)).code).toBe(404);

    // With Leadgrab too, still nothing of Borneo Botanica's.
    await t.app.db
      .updateTable('participations')
      .set({ displayed_modules: JSON.stringify(['Forms', 'Support', 'Leadgrab']) })
      .where('id', '=', limitedParticipationId)
      .execute();
    const other = await login(t.app, 'limited');
    expect((await get(t.app, '/oga/leads', other)).data.total).toBe(0);
    expect((await get(t.app, `/oga/leads/${lead.id}`, other)).code).toBe(404);
    expect((await put(t.app, `/oga/leads/${lead.id}`, { leadType: 'notALead', temperature: 'cold', followUp: 'notFollowingUp' }, other)).code).toBe(404);
    expect((await get(t.app, '/oga/leads/exports', other)).data.total).toBe(0);
    const foreign = await call(t.app, 'GET', `/oga/leads/exports/${exportId}/file`, { token: other });
    expect(foreign.code).toBe(404);
    expect((await get(t.app, '/oga/leads/options', other)).data.users.map((u: { name: string }) => u.name)).toEqual(['Budi Santoso']);
    const exported = await post(t.app, '/oga/leads/exports', { format: 'csv' }, other);
    expect(exported.data.rows).toBe(0);
    // The same client scan id in another participation is its own lead, not a duplicate of ours.
    const stored = await t.app.db.selectFrom('leads').select(['client_scan_id']).where('id', '=', lead.id).executeTakeFirstOrThrow();
    const theirs = await scanOne(other, { clientScanId: stored.client_scan_id, badgeCode: visitors[9]!.badge_code, scannedAt: new Date().toISOString() });
    expect(theirs.data.status).toBe('created');
    expect(theirs.data.leadId).not.toBe(lead.id);
    const after = (await get(t.app, `/oga/leads/${lead.id}`, demo)).data.lead;
    expect(after).toMatchObject({ visitorName: lead.visitorName, notes: lead.notes });
    // The organiser is no scanner.
    const organiser = await login(t.app, 'organiser');
    expect((await get(t.app, `/oga/leads/${lead.id}`, organiser)).code).toBe(403);
  });

  it("LD2 P1 the exhibitor's contractor holds Forms, which the lead detail screen names, yet neither the screen nor the API opens a lead to it", async () => {
    const scanned = await scanOne(demo, { clientScanId: scanId('contractor'), badgeCode: visitors[120]!.badge_code, scannedAt: at(2) });
    const lead = { id: scanned.data.leadId! };
    expect(lead.id).toBeGreaterThan(0);
    await t.app.db
      .insertInto('users')
      .values({
        login: 'lead-contractor',
        login_key: 'lead-contractor',
        email: 'lead-contractor@stand-works.example',
        display_name: 'Stand Works',
        password_hash: await hashPassword(DEMO_PASSWORD),
        role: 'contractor',
        participation_id: participationId,
        event_id: eventId,
        status: 'active',
      })
      .execute();
    const contractor = await login_('lead-contractor');
    // What the browser's guard reads: the screen as the server has it, and the contractor's modules.
    const screen = findScreen(t.app.forms.catalogue(), 'leadDetail')!;
    const modules = (await get(t.app, '/oga/system/project/exhibirotCode', contractor)).data.displayedModule as string[];
    expect(modules).toContain('Forms');
    expect(screen.modules).toContain('Forms');
    expect(canAccess(screen, modules, 'contractor')).toBe(false);
    // The API agrees, for reading and for qualifying.
    expect((await get(t.app, `/oga/leads/${lead.id}`, contractor)).code).toBe(403);
    expect((await patch(t.app, `/oga/leads/${lead.id}`, { notes: 'x' }, contractor)).code).toBe(403);
    expect((await get(t.app, `/oga/leads/${lead.id}`, demo)).code).toBe(200);
  });

  it('LD1 the OpenAPI document explains the scanning API with examples', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/oga/openapi.json' })).json() as {
      paths: Record<string, Record<string, { summary: string; description: string; requestBody: { content: Record<string, { examples?: unknown; example?: unknown }> } }>>;
    };
    const batch = doc.paths['/oga/leads/scans']!.post!;
    expect(batch.summary).toContain('batch');
    expect(batch.description).toContain('/oga/auth/login');
    expect(batch.description).toContain('duplicate');
    const media = batch.requestBody.content['application/json']!;
    expect(media.example ?? media.examples).toBeTruthy();
    expect(doc.paths['/oga/leads/{id}']!.put!.summary).toContain('qualify');
  });

  /** A business card uploaded by the demo exhibitor: its upload id. */
  async function uploadCard(): Promise<string> {
    const boundary = `----leads-${randomBytes(6).toString('hex')}`;
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nbusinessCard\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="card.png"\r\nContent-Type: image/png\r\n\r\n`),
      Buffer.from(png()),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const answer = (
      await t.app.inject({
        method: 'POST',
        url: '/oga/uploads',
        payload,
        headers: { authorization: `Bearer ${demo}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      })
    ).json() as { code: number; data: { id: string } };
    expect(answer.code).toBe(200);
    return answer.data.id;
  }

  it('LD3 PATCH (and PUT) change only what is sent: notes, tag answers, card and interests survive a partial update; a removed card is deleted with its file', async () => {
    const lead = (await scanOne(demo, { clientScanId: scanId('p'), badgeCode: visitors[380]!.badge_code, scannedAt: new Date().toISOString() })).data;
    const url = `/oga/leads/${lead.leadId}`;
    const [tag] = await t.app.db
      .insertInto('custom_tags')
      .values({ participation_id: participationId, name: 'Packaging', choices: JSON.stringify(['Jar', 'Sachet']) })
      .returning('id')
      .execute();
    const card = await uploadCard();
    const full = {
      leadType: 'potentialCustomer',
      temperature: 'hot',
      followUp: 'sendQuotation',
      notes: 'Wants 200 kg monthly.',
      tagAnswers: { [tag!.id]: ['Jar'] },
      businessCard: card,
      interestedProducts: ['Honey'],
    };
    expect((await patch(t.app, url, full, demo)).code).toBe(200);

    const warmer = await patch(t.app, url, { temperature: 'warm' }, demo);
    expect(warmer.code).toBe(200);
    expect(warmer.data.lead).toMatchObject({
      temperature: 'warm',
      leadType: 'potentialCustomer',
      notes: 'Wants 200 kg monthly.',
      tagAnswers: { [String(tag!.id)]: ['Jar'] },
      businessCard: { id: card },
      interestedProducts: ['Honey'],
    });
    // PUT is the same partial update (documented): leaving fields out erases nothing.
    const viaPut = await put(t.app, url, { leadType: 'partner', temperature: 'warm', followUp: 'other' }, demo);
    expect(viaPut.data.lead).toMatchObject({ leadType: 'partner', notes: 'Wants 200 kg monthly.', tagAnswers: { [String(tag!.id)]: ['Jar'] }, businessCard: { id: card } });
    // Clearing is explicit; a qualification can still not be unset by a patch.
    expect((await patch(t.app, url, { leadType: null }, demo)).data.fields).toEqual({ leadType: 'leads.required.leadType' });
    const cardFile = join(t.config.dataDir, 'uploads', card);
    expect(existsSync(cardFile)).toBe(true);
    const cleared = await patch(t.app, url, { notes: '', tagAnswers: { [tag!.id]: [] }, businessCard: null }, demo);
    expect(cleared.data.lead).toMatchObject({ notes: '', tagAnswers: {}, businessCard: null, leadType: 'partner' });
    expect(existsSync(cardFile)).toBe(false);
    expect(await t.app.db.selectFrom('uploads').select('id').where('id', '=', card).executeTakeFirst()).toBeUndefined();
    // A replaced card goes too.
    const [first, second] = [await uploadCard(), await uploadCard()];
    await patch(t.app, url, { businessCard: first }, demo);
    expect((await patch(t.app, url, { businessCard: second }, demo)).data.lead.businessCard.id).toBe(second);
    expect(existsSync(join(t.config.dataDir, 'uploads', first))).toBe(false);
    expect(existsSync(join(t.config.dataDir, 'uploads', second))).toBe(true);

    const spec = (await t.app.inject({ method: 'GET', url: '/oga/openapi.json' })).json();
    expect(spec.paths['/oga/leads/{id}'].patch.description).toContain('Only what is sent changes');
    expect(spec.paths['/oga/leads/{id}'].put.description).toContain('PUT behaves exactly like');
    await t.app.db.deleteFrom('custom_tags').where('id', '=', tag!.id).execute();
  });

  it('LD3 a lead not yet qualified takes a partial update (the README example): temperature alone, notes alone; what is sent is still checked', async () => {
    const lead = (await scanOne(demo, { clientScanId: scanId('q'), badgeCode: visitors[381]!.badge_code, scannedAt: new Date().toISOString() })).data;
    const url = `/oga/leads/${lead.leadId}`;
    const warm = await patch(t.app, url, { temperature: 'warm' }, demo);
    expect(bodyOf(warm)).toMatchObject({ code: 200 });
    expect(warm.data.lead).toMatchObject({ temperature: 'warm', leadType: null, followUp: null });
    const noted = await patch(t.app, url, { notes: 'Met at the honey tasting.' }, demo);
    expect(noted.code).toBe(200);
    expect(noted.data.lead).toMatchObject({ temperature: 'warm', notes: 'Met at the honey tasting.', leadType: null });
    // What is sent is still checked: an unknown code, or clearing a required field, is refused.
    expect((await patch(t.app, url, { temperature: 'lukewarm' }, demo)).code).toBe(601);
    expect((await patch(t.app, url, { temperature: null }, demo)).data.fields).toEqual({ temperature: 'leads.required.temperature' });
    const done = await patch(t.app, url, { leadType: 'potentialCustomer', followUp: 'sendQuotation' }, demo);
    expect(done.data.lead).toMatchObject({ leadType: 'potentialCustomer', temperature: 'warm', followUp: 'sendQuotation', notes: 'Met at the honey tasting.' });
  });

  it('LD1 an impossible calendar date (30 February) is refused as invalid/format, single and batch, never stored as another day', async () => {
    const badDay = { clientScanId: scanId('d'), badgeCode: visitors[382]!.badge_code, scannedAt: '2026-02-30T10:15:00Z' };
    const before = await leadCount();
    expect((await scanOne(demo, badDay)).data).toMatchObject({ status: 'invalid', problem: 'format', leadId: null });
    const batch = await scans(demo, {
      scans: [
        { ...badDay, clientScanId: scanId('d') },
        { clientScanId: scanId('d'), badgeCode: visitors[383]!.badge_code, scannedAt: '2026-04-31T08:00:00+07:00' },
      ],
    });
    expect(batch.data.results.map((r) => [r.status, (r as { problem?: string }).problem])).toEqual([
      ['invalid', 'format'],
      ['invalid', 'format'],
    ]);
    expect((await scanOne(demo, { ...badDay, clientScanId: scanId('d'), scannedAt: '2026-03-01T24:30:00Z' })).data).toMatchObject({ status: 'invalid', problem: 'format' });
    expect(await leadCount()).toBe(before);
    // The list's day filters are dates too.
    expect((await get(t.app, '/oga/leads?from=2026-02-30', demo)).code).not.toBe(200);
  });

  it('LD2 the lead list offers the same show days as the dashboard', async () => {
    const options = await get(t.app, '/oga/leads/options', demo);
    const dashboard = await get(t.app, '/oga/analytics/dashboard', demo);
    const showDays = dashboard.data.trend.showDays as string[];
    expect(showDays.length).toBeGreaterThan(0);
    expect(options.data.eventDays).toEqual({ first: showDays[0], last: showDays.at(-1) });
  });

  it('LD4 exports made in the same minute get different file names', async () => {
    const names: string[] = [];
    for (let i = 0; i < 4; i += 1) names.push((await post(t.app, '/oga/leads/exports', { format: 'csv' }, demo)).data.fileName);
    expect(new Set(names).size).toBe(4);
    for (const name of names) expect(name).toMatch(/^leads-AFHE2027-\d{8}-\d{4}(-\d+)?\.csv$/);
  });

  it('LD6 renaming a tag choice renames it on the leads; a removed choice keeps the lead savable and can be unticked; a deleted tag leaves the leads', async () => {
    const token = await login_('demo');
    const created = await post(t.app, '/oga/custom-tags', { name: `Volume ${engine}`, choices: ['Small', 'Large', 'Pallet'] }, token);
    expect(created.code).toBe(200);
    const tagId = created.data.id as number;
    const key = String(tagId);
    const leads = await Promise.all(
      [390, 391].map(async (n) => (await scanOne(demo, { clientScanId: scanId('r'), badgeCode: visitors[n]!.badge_code, scannedAt: new Date().toISOString() })).data.leadId!),
    );
    const q = { leadType: 'potentialCustomer', temperature: 'hot', followUp: 'sendQuotation' };
    expect((await patch(t.app, `/oga/leads/${leads[0]}`, { ...q, tagAnswers: { [key]: ['Small', 'Pallet'] } }, demo)).code).toBe(200);
    expect((await patch(t.app, `/oga/leads/${leads[1]}`, { ...q, tagAnswers: { [key]: ['Large'] } }, demo)).code).toBe(200);

    // "Small" becomes "Sample size", "Pallet" is removed.
    const renamed = await put(t.app, `/oga/custom-tags/${tagId}`, { name: `Volume ${engine}`, choices: ['Sample size', 'Large'], renamedChoices: { Small: 'Sample size' } }, token);
    expect(renamed.code).toBe(200);
    const first = await get(t.app, `/oga/leads/${leads[0]}`, demo);
    expect(first.data.lead.tagAnswers[key]).toEqual(['Sample size', 'Pallet']);
    expect((await get(t.app, `/oga/leads/${leads[1]}`, demo)).data.lead.tagAnswers[key]).toEqual(['Large']);
    // The lead with the removed choice is still savable (other changes, and the kept answer)…
    const saved = await patch(t.app, `/oga/leads/${leads[0]}`, { notes: 'Call back in May' }, demo);
    expect(saved.code).toBe(200);
    expect((await put(t.app, `/oga/leads/${leads[0]}`, { ...q, tagAnswers: { [key]: ['Sample size', 'Pallet'] } }, demo)).code).toBe(200);
    // …the removed choice can be unticked, and once gone it cannot be chosen again.
    expect((await patch(t.app, `/oga/leads/${leads[0]}`, { tagAnswers: { [key]: ['Sample size'] } }, demo)).data.lead.tagAnswers[key]).toEqual(['Sample size']);
    expect((await patch(t.app, `/oga/leads/${leads[0]}`, { tagAnswers: { [key]: ['Pallet'] } }, demo)).error).toBe('validationFailed');

    expect((await call(t.app, 'DELETE', `/oga/custom-tags/${tagId}`, { token })).code).toBe(200);
    expect((await get(t.app, `/oga/leads/${leads[1]}`, demo)).data.lead.tagAnswers).toEqual({});
  });

  it('LD1 one lead per visitor per exhibitor: a second scan of the badge by anyone of the exhibitor answers the lead, is recorded, and is counted once', async () => {
    const member = await teamUser(`again-${engine}`, 1);
    const visitor = visitors[395]!;
    const rollupTotal = async () =>
      Number(
        (
          await t.app.db
            .selectFrom('lead_rollup')
            .select(sql<number>`coalesce(sum(leads), 0)::int`.as('n'))
            .where('participation_id', '=', participationId)
            .where('dimension', '=', 'all')
            .executeTakeFirstOrThrow()
        ).n,
      );
    const first = await scanOne(demo, { clientScanId: scanId('d'), badgeCode: visitor.badge_code, scannedAt: at(1) });
    expect(first.data).toMatchObject({ status: 'created', visitorName: visitor.name });
    const [leadsBefore, rollupBefore, listBefore] = [await leadCount(), await rollupTotal(), (await get(t.app, '/oga/leads?limit=10', demo)).data.total];

    // A team user scans the same badge: the exhibitor's lead, recorded; its quota is not used.
    const again = { clientScanId: scanId('d'), badgeCode: visitor.badge_code, scannedAt: at(2) };
    const second = await scanOne(member.token, again);
    expect(second.code).toBe(200);
    expect(second.data).toMatchObject({ status: 'duplicate', reason: 'alreadyScanned', leadId: first.data.leadId, visitorName: visitor.name, company: visitor.company });
    expect(second.outcome).toMatchObject({ created: 0, duplicates: 1, quota: 1, remaining: 1 });
    // The same scan resent: nothing more is recorded.
    expect((await scanOne(member.token, again)).data).toMatchObject({ status: 'duplicate', reason: 'resend', leadId: first.data.leadId });
    // A batch: the badge again (exhibitor), a new badge twice (two scans), the new one's resend.
    const fresh = visitors[396]!.badge_code;
    const batch = [
      { clientScanId: scanId('d'), badgeCode: visitor.badge_code, scannedAt: at(3) },
      { clientScanId: scanId('d'), badgeCode: fresh, scannedAt: at(3) },
      { clientScanId: scanId('d'), badgeCode: fresh, scannedAt: at(4) },
    ];
    batch.push({ ...batch[2]! });
    const answer = await scans(demo, { scans: batch });
    expect(answer.data.results.map((r) => [r.status, (r as { reason?: string }).reason])).toEqual([
      ['duplicate', 'alreadyScanned'],
      ['created', undefined],
      ['duplicate', 'alreadyScanned'],
      ['duplicate', 'resend'],
    ]);
    expect(answer.data.results[2]!.leadId).toBe(answer.data.results[1]!.leadId);

    // Counted once: rows, the trigger-kept rollup, the list's total, an export.
    expect(await leadCount()).toBe(leadsBefore + 1);
    expect(await rollupTotal()).toBe(rollupBefore + 1);
    expect((await get(t.app, '/oga/leads?limit=10', demo)).data.total).toBe(listBefore + 1);
    const lead = (await get(t.app, `/oga/leads/${first.data.leadId}`, demo)).data.lead;
    expect(lead.scans).toEqual({ count: 3, lastSeenAt: at(3), lastScannedBy: { id: expect.any(Number), name: 'Aisyah Rahman' } });
    const byMember = await t.app.db.selectFrom('lead_scans').select(['scanned_by', 'scanned_at']).where('lead_id', '=', first.data.leadId!).orderBy('scanned_at').execute();
    expect(byMember.map((row) => row.scanned_by)).toEqual([member.id, expect.any(Number)]);
    const exported = await post(t.app, '/oga/leads/exports', { format: 'csv', filters: { keyword: visitor.badge_code } }, demo);
    expect(exported.data.rows).toBe(1);
    // The team user's quota counts only the lead it made: it can still make one.
    expect((await scanOne(member.token, { clientScanId: scanId('d'), badgeCode: visitors[397]!.badge_code, scannedAt: at(5) })).data.status).toBe('created');
  });

  it('LD3 the lead detail names whoever made the latest scan, with its time, in whatever order the scans arrive', async () => {
    const [first, second] = [await teamUser(`last-a-${engine}`, null), await teamUser(`last-b-${engine}`, null)];
    const detail = async (leadId: number) => (await get(t.app, `/oga/leads/${leadId}`, demo)).data.lead.scans;
    // In order: A scans, then B scans the same badge an hour later.
    const badge = visitors[410]!.badge_code;
    const made = await scanOne(first.token, { clientScanId: scanId('o'), badgeCode: badge, scannedAt: at(1) });
    expect(made.data.status).toBe('created');
    await scanOne(second.token, { clientScanId: scanId('o'), badgeCode: badge, scannedAt: at(2) });
    expect(await detail(made.data.leadId!)).toEqual({ count: 2, lastSeenAt: at(2), lastScannedBy: { id: second.id, name: `Team last-b-${engine}` } });
    // A phone that was offline sends an earlier scan afterwards: A's later scan stays the latest.
    const other = visitors[411]!.badge_code;
    const late = await scanOne(first.token, { clientScanId: scanId('o'), badgeCode: other, scannedAt: at(3) });
    await scanOne(second.token, { clientScanId: scanId('o'), badgeCode: other, scannedAt: at(2) });
    expect(await detail(late.data.leadId!)).toEqual({ count: 2, lastSeenAt: at(3), lastScannedBy: { id: first.id, name: `Team last-a-${engine}` } });
  });

  it('LD1 a scan may carry notes, temperature and tag answers (qualify offline in one round trip); a later scan adds to the lead without overwriting', async () => {
    const member = await teamUser(`qualify-${engine}`, null);
    const [tag] = await t.app.db
      .insertInto('custom_tags')
      .values({ participation_id: participationId, name: `Samples ${engine}`, choices: JSON.stringify(['Honey', 'Tea']) })
      .returning('id')
      .execute();
    const key = String(tag!.id);
    const badge = visitors[398]!.badge_code;
    const first = await scanOne(member.token, {
      clientScanId: scanId('q'),
      badgeCode: badge,
      scannedAt: at(1),
      temperature: 'hot',
      notes: 'Wants samples.',
      tagAnswers: { [key]: ['Honey'] },
    });
    expect(first.data.status).toBe('created');
    expect((await get(t.app, `/oga/leads/${first.data.leadId}`, demo)).data.lead).toMatchObject({
      temperature: 'hot',
      leadType: null,
      notes: 'Wants samples.',
      tagAnswers: { [key]: ['Honey'] },
    });
    // A colleague's later scan: fills what is missing, appends its notes, joins tag answers.
    const later = await scanOne(demo, {
      clientScanId: scanId('q'),
      badgeCode: badge,
      scannedAt: at(2),
      temperature: 'cold',
      leadType: 'supplier',
      notes: 'Met the owner.',
      tagAnswers: { [key]: ['Tea'] },
    });
    expect(later.data).toMatchObject({ status: 'duplicate', reason: 'alreadyScanned', leadId: first.data.leadId });
    expect((await get(t.app, `/oga/leads/${first.data.leadId}`, demo)).data.lead).toMatchObject({
      temperature: 'hot',
      leadType: 'supplier',
      notes: 'Wants samples.\nMet the owner.',
      tagAnswers: { [key]: ['Honey', 'Tea'] },
      scans: { count: 2 },
    });
    // A choice the tag does not have: that scan is invalid, nothing stored; a bad code is a bad request.
    const wrong = await scanOne(demo, { clientScanId: scanId('q'), badgeCode: visitors[399]!.badge_code, scannedAt: at(3), tagAnswers: { [key]: ['Durian'] } });
    expect(wrong.data).toMatchObject({ status: 'invalid', problem: 'tagAnswers', leadId: null });
    expect(
      await t.app.db.selectFrom('leads').select('id').where('participation_id', '=', participationId).where('badge_code', '=', visitors[399]!.badge_code).executeTakeFirst(),
    ).toBeUndefined();
    expect((await scanOne(demo, { clientScanId: scanId('q'), badgeCode: visitors[399]!.badge_code, scannedAt: at(3), temperature: 'boiling' })).error).toBe('badRequest');
    // Rollup: the qualification is counted (temperature dimension) once.
    const hot = await get(t.app, `/oga/leads?temperature=hot&keyword=${encodeURIComponent(badge)}`, demo);
    expect(hot.data.total).toBe(1);
    await t.app.db.deleteFrom('custom_tags').where('id', '=', tag!.id).execute();
  });

  it("LD1 device tokens: long-lived, scanning API only, seen and revoked by the exhibitor; a deactivated user's device stops", async () => {
    const member = await teamUser(`device-${engine}`, null);
    const colleague = await teamUser(`device2-${engine}`, null);
    const made = await post(t.app, '/oga/leads/devices', { name: '  Booth iPad 1 ' }, member.token);
    expect(made.code).toBe(200);
    expect(made.data).toMatchObject({ name: 'Booth iPad 1', token: expect.stringMatching(/^[A-Za-z0-9_-]{20,}$/) });
    const device = made.data.token as string;
    expect((await post(t.app, '/oga/leads/devices', { name: '   ' }, member.token)).error).toBe('badRequest');
    // Long-lived: a year without use and older than any sign-in still scans.
    const yearAgo = new Date(Date.now() - 365 * 24 * HOUR);
    await t.app.db.updateTable('sessions').set({ created_at: yearAgo, last_seen_at: yearAgo }).where('id', '=', made.data.id).execute();
    const scanned = await scanOne(device, { clientScanId: scanId('v'), badgeCode: visitors[392]!.badge_code, scannedAt: new Date().toISOString() });
    expect(scanned.data.status).toBe('created');
    expect((await get(t.app, '/oga/leads/options', device)).code).toBe(200);
    // The scanning API only: no list, no account, no new device tokens.
    for (const answer of [
      await get(t.app, '/oga/leads', device),
      await get(t.app, '/oga/user/info', device),
      await post(t.app, '/oga/leads/devices', { name: 'Another' }, device),
    ]) {
      expect(bodyOf(answer)).toMatchObject({ code: 403, error: 'deviceTokenScope' });
    }
    // The scanner qualifies a lead it sent with the device token: its own user's leads only.
    const qualification = { leadType: 'supplier', temperature: 'warm', followUp: 'arrangeCall', notes: 'Met at the booth' };
    const qualified = await patch(t.app, `/oga/leads/${scanned.data.leadId}`, qualification, device);
    expect(qualified.code).toBe(200);
    expect((await get(t.app, `/oga/leads/${scanned.data.leadId}`, demo)).data.lead).toMatchObject(qualification);
    expect(bodyOf(await get(t.app, `/oga/leads/${scanned.data.leadId}`, device))).toMatchObject({ code: 403, error: 'deviceTokenScope' });
    expect(bodyOf(await put(t.app, `/oga/leads/${scanned.data.leadId}`, qualification, device))).toMatchObject({ code: 403, error: 'deviceTokenScope' });
    const colleaguesLead = await scanOne(colleague.token, { clientScanId: scanId('v'), badgeCode: visitors[386]!.badge_code, scannedAt: new Date().toISOString() });
    expect(colleaguesLead.data.status).toBe('created');
    expect((await patch(t.app, `/oga/leads/${colleaguesLead.data.leadId}`, qualification, device)).code).toBe(404);
    // Another exhibitor's device (with Leadgrab) never reaches this exhibitor's leads.
    await t.app.db
      .updateTable('participations')
      .set({ displayed_modules: JSON.stringify(['Forms', 'Support', 'Leadgrab']) })
      .where('id', '=', limitedParticipationId)
      .execute();
    const outsider = await teamUser(`device3-${engine}`, null, limitedParticipationId);
    const outsiderDevice = (await post(t.app, '/oga/leads/devices', { name: 'Other booth' }, outsider.token)).data as { id: number; token: string };
    expect((await patch(t.app, `/oga/leads/${scanned.data.leadId}`, qualification, outsiderDevice.token)).code).toBe(404);
    expect((await call(t.app, 'DELETE', `/oga/leads/devices/${outsiderDevice.id}`, { token: outsiderDevice.token })).code).toBe(200);
    // Who sees what: the exhibitor all of its people's devices, a team user its own.
    const listed = await get(t.app, '/oga/leads/devices', demo);
    expect(listed.data).toContainEqual(expect.objectContaining({ id: made.data.id, name: 'Booth iPad 1', user: { id: member.id, name: `Team device-${engine}` }, current: false }));
    expect((await get(t.app, '/oga/leads/devices', colleague.token)).data).toEqual([]);
    expect((await call(t.app, 'DELETE', `/oga/leads/devices/${made.data.id}`, { token: colleague.token })).code).toBe(404);
    expect((await get(t.app, '/oga/leads/devices', await login_('limited'))).data).toEqual([]);
    // The exhibitor revokes it: the device's next request is refused.
    expect((await call(t.app, 'DELETE', `/oga/leads/devices/${made.data.id}`, { token: demo })).code).toBe(200);
    expect((await scanOne(device, { clientScanId: scanId('v'), badgeCode: visitors[393]!.badge_code, scannedAt: new Date().toISOString() })).code).toBe(401);
    expect((await get(t.app, '/oga/leads/devices', demo)).data.map((d: { id: number }) => d.id)).not.toContain(made.data.id);
    // A deactivated user's device stops too; a device may sign itself out.
    const second = (await post(t.app, '/oga/leads/devices', { name: 'Phone' }, colleague.token)).data as { id: number; token: string };
    expect((await call(t.app, 'DELETE', `/oga/leads/devices/${second.id}`, { token: second.token })).code).toBe(200);
    const third = (await post(t.app, '/oga/leads/devices', { name: 'Phone 2' }, colleague.token)).data as { id: number; token: string };
    await t.app.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', colleague.id).execute();
    expect((await get(t.app, '/oga/leads/options', third.token)).code).toBe(401);
  });
});
