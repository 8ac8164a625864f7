import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import { hashPassword } from '../../src/server/lib/passwords';
import { SCAN_BATCH_MAX } from '../../src/engine/leads';
import { png } from '../support/fixtures';
import { bodyOf, call, createTestApp, DEMO_PASSWORD, ENGINES, get, login, post, put, type TestApp } from './helpers';

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
    const row = await t.app.db
      .insertInto('users')
      .values({
        login,
        login_key: login,
        email: `${login}@borneo-botanica.example`,
        display_name: `Team ${login}`,
        password_hash: await hashPassword(DEMO_PASSWORD),
        role: 'team_user',
        participation_id: participation,
        event_id: eventId,
        status: 'active',
        lead_quota: quota,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { token: await login_(login), id: row.id };
  }
  const login_ = (account: string) => login(t.app, account);
  const scans = (token: string, body: unknown, headers: Record<string, string> = {}) => post<{ results: ScanResult[]; created: number; duplicates: number; refusedForQuota: number; invalid: number; quota: number | null; remaining: number | null }>(t.app, '/oga/leads/scans', body, token, { headers });
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
    visitors = await t.app.db.selectFrom('visitors').select(['badge_code', 'name', 'company', 'country', 'email']).where('event_id', '=', eventId).orderBy('id').limit(400).execute();
  });
  afterAll(async () => t?.close());

  it('LD1 one scan makes a lead with the visitor profile copied; a resend answers duplicate with the same lead', async () => {
    const visitor = visitors[0]!;
    const scan = { clientScanId: scanId(), badgeCode: visitor.badge_code, scannedAt: new Date().toISOString() };
    const before = await leadCount();
    const first = await post<ScanResult>(t.app, '/oga/leads/scan', scan, demo);
    expect(bodyOf(first)).toMatchObject({ code: 200, data: { status: 'created', badgeKnown: true, visitorName: visitor.name, company: visitor.company } });
    const again = await post<ScanResult>(t.app, '/oga/leads/scan', scan, demo);
    expect(again.data).toMatchObject({ status: 'duplicate', leadId: first.data.leadId });
    expect(await leadCount()).toBe(before + 1);
    const detail = await get(t.app, `/oga/leads/${first.data.leadId}`, demo);
    expect(detail.data.lead).toMatchObject({ visitorName: visitor.name, company: visitor.company, country: visitor.country, email: visitor.email, badgeKnown: true, scannedBy: { name: 'Aisyah Rahman' } });
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
    expect((await post(t.app, '/oga/leads/scan', { ...good, scannedAt: 'yesterday' }, demo)).data).toMatchObject({ status: 'invalid', problem: 'format' });
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
    const single = await post(t.app, '/oga/leads/scan', batch[4], member.token, { headers: { language: 'cn' } });
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
    expect((await post(t.app, '/oga/leads/scan', scan, member.token)).code).toBe(200);
    await t.app.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', member.id).execute();
    const refused = await post(t.app, '/oga/leads/scan', { ...scan, clientScanId: scanId() }, member.token);
    expect(refused.code).toBe(401);
  });

  it('LD2 filters, sorting and pagination match the rows the test inserted; a team user sees only its own', async () => {
    const member = await teamUser(`list-${engine}`, null);
    const chosen = visitors.slice(300, 337);
    const batch = chosen.map((v, i) => ({ clientScanId: scanId('l'), badgeCode: v.badge_code, scannedAt: at(i < 20 ? i * 0.5 : 24 + i * 0.1) }));
    expect((await scans(member.token, { scans: batch })).data.created).toBe(37);
    const list = (query: string, token = member.token) => get<{ items: Array<{ id: number; visitorName: string; company: string; country: string; leadType: string | null; scannedAt: string; scannedBy: { id: number } }>; total: number; page: number; limit: number }>(t.app, `/oga/leads?${query}`, token);

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

  it('LD3 V6 qualification: required messages in the user\'s language, unknown badge needs name and company, tag answers must be choices', async () => {
    const unknown = (await post<ScanResult>(t.app, '/oga/leads/scan', { clientScanId: scanId(), badgeCode: 'HANDWRITTEN-77', scannedAt: new Date().toISOString() }, demo)).data;
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
    const base = { leadType: 'potentialCustomer', temperature: 'hot', followUp: 'sendQuotation', visitorName: '=HYPERLINK("http://evil.example")', company: 'Pasar Segar Sdn. Bhd.' };
    const badChoice = await put(t.app, url, { ...base, tagAnswers: { [tag!.id]: ['Durian'] } }, demo);
    expect(bodyOf(badChoice)).toMatchObject({ code: 601, msg: 'Please choose only among the choices of the custom tags.' });
    expect((await put(t.app, url, { ...base, tagAnswers: { [otherTag!.id]: ['Dark'] } }, demo)).error).toBe('validationFailed');

    // A business card through the upload endpoint, then the qualification that keeps it.
    const boundary = `----leads-${randomBytes(6).toString('hex')}`;
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nbusinessCard\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="card.png"\r\nContent-Type: image/png\r\n\r\n`),
      Buffer.from(png()),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const uploaded = (await t.app.inject({ method: 'POST', url: '/oga/uploads', payload, headers: { authorization: `Bearer ${demo}`, 'content-type': `multipart/form-data; boundary=${boundary}` } })).json() as { code: number; data: { id: string } };
    expect(uploaded.code).toBe(200);
    const saved = await put(t.app, url, { ...base, notes: '+SUM(A1:A9) asked for samples', tagAnswers: { [tag!.id]: ['Honey'] }, businessCard: uploaded.data.id, interestedProducts: ['Wild Tualang Honey'] }, demo);
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
    await t.app.db.insertInto('form_entries').values({ participation_id: participationId, form_id: 's02', data: JSON.stringify({ products: [] }), submitted_data: JSON.stringify(s02), status: 'submitted' }).execute();
    expect((await get(t.app, url, demo)).data.products).toEqual(['Wild Tualang Honey', 'Bario Rice Crackers']);
    await t.app.db.deleteFrom('form_entries').where('participation_id', '=', participationId).where('form_id', '=', 's02').execute();
    // Another participation's upload cannot be attached.
    const foreignUpload = randomBytes(32).toString('base64url');
    await t.app.db.insertInto('uploads').values({ id: foreignUpload, participation_id: limitedParticipationId, event_id: eventId, user_id: 1, purpose: 'businessCard', original_name: 'x.png', content_type: 'image/png', size: 1, dpi: null, sha256: 'x' }).execute();
    expect((await put(t.app, url, { ...base, businessCard: foreignUpload }, demo)).data.fields).toEqual({ businessCard: 'leads.validation.businessCard' });
  });

  it('LD4 exports: CSV and XLSX with the filtered leads, localized headers and labels, formulas neutralised; listed and downloaded again', async () => {
    const formula = await t.app.db.selectFrom('leads').select(['id']).where('visitor_name', 'like', '=HYPERLINK%').where('participation_id', '=', participationId).executeTakeFirstOrThrow();
    void formula;
    const filters = { leadType: 'potentialCustomer', temperature: 'hot' };
    const expectedRows = await t.app.db.selectFrom('leads').select(['visitor_name']).where('participation_id', '=', participationId).where('lead_type', '=', 'potentialCustomer').where('temperature', '=', 'hot').execute();
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
    expect(records[0]).toContain('Interest');
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
    const firstColumn = sheet.getColumn(1).values as string[];
    expect(firstColumn).toContain(`'=HYPERLINK("http://evil.example")`);
    const timeIndex = header.indexOf('追加日時 (UTC+08:00)') + 1;
    expect(String(sheet.getRow(2).getCell(timeIndex).value)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);

    // The data download list, newest first, and a re-download gives the same bytes.
    const downloads = await get(t.app, '/oga/leads/exports?limit=10', demo);
    expect(downloads.data.total).toBe(2);
    expect(downloads.data.items.map((i: { fileName: string }) => i.fileName)).toEqual([xlsx.data.fileName, csv.data.fileName]);
    expect(downloads.data.items[0]).toMatchObject({ user: 'Aisyah Rahman', rows: expectedRows.length });
    const again = await t.app.inject({ method: 'GET', url: `/oga/leads/exports/${csv.data.id}/file`, headers: { authorization: `Bearer ${demo}` } });
    expect(again.rawPayload.equals(csvFile.rawPayload)).toBe(true);
  });

  it('P5 another exhibitor never reads or changes these leads, exports or scans', async () => {
    const lead = (await get(t.app, '/oga/leads?limit=10', demo)).data.items[0] as { id: number; visitorName: string; notes: string };
    const exportId = (await get(t.app, '/oga/leads/exports', demo)).data.items[0].id as number;
    // Without Leadgrab, the list is closed; the detail route (Forms) finds nothing.
    expect((await get(t.app, '/oga/leads', limited)).code).toBe(403);
    expect((await get(t.app, `/oga/leads/${lead.id}`, limited)).code).toBe(404);
    expect((await put(t.app, `/oga/leads/${lead.id}`, { leadType: 'notALead', temperature: 'cold', followUp: 'notFollowingUp' }, limited)).code).toBe(404);

    // With Leadgrab too, still nothing of Borneo Botanica's.
    await t.app.db.updateTable('participations').set({ displayed_modules: JSON.stringify(['Forms', 'Support', 'Leadgrab']) }).where('id', '=', limitedParticipationId).execute();
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
    const theirs = await post<ScanResult>(t.app, '/oga/leads/scan', { clientScanId: stored.client_scan_id, badgeCode: visitors[9]!.badge_code, scannedAt: new Date().toISOString() }, other);
    expect(theirs.data.status).toBe('created');
    expect(theirs.data.leadId).not.toBe(lead.id);
    const after = (await get(t.app, `/oga/leads/${lead.id}`, demo)).data.lead;
    expect(after).toMatchObject({ visitorName: lead.visitorName, notes: lead.notes });
    // The organiser is no scanner.
    const organiser = await login(t.app, 'organiser');
    expect((await get(t.app, `/oga/leads/${lead.id}`, organiser)).code).toBe(403);
  });

  it('LD1 the OpenAPI document explains the scanning API with examples', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/oga/openapi.json' })).json() as { paths: Record<string, Record<string, { summary: string; description: string; requestBody: { content: Record<string, { examples?: unknown; example?: unknown }> } }>> };
    const batch = doc.paths['/oga/leads/scans']!.post!;
    expect(batch.summary).toContain('batch');
    expect(batch.description).toContain('/oga/auth/login');
    expect(batch.description).toContain('duplicate');
    const media = batch.requestBody.content['application/json']!;
    expect(media.example ?? media.examples).toBeTruthy();
    expect(doc.paths['/oga/leads/{id}']!.put!.summary).toContain('qualify');
  });
});
