import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { formatEventTime } from '../../src/engine/locale-format';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { deadlineOfForm, formStatus, partStatus } from '../../src/engine/forms/definitions';
import { approvalPart, partsOf, partStates } from '../../src/engine/forms/parts';
import { eventDate } from '../../src/engine/time';
import { DEMO_CONTRACTOR_LOGIN, DEMO_EVENT_CODE } from '../../src/server/db/seed';
import { loadParticipationSettings } from '../../src/server/lib/participation-settings';
import { SCHEMAS_DIR } from '../../src/server/plugins/forms/form-set';
import { translate } from '../../src/server/lib/messages';
import { convertWithLibreOffice } from '../support/libreoffice';
import { setParticipationDeadline } from '../support/settings';
import { firstSheet } from '../support/xlsx';
import { addRivalOrganiser, bodyOf, createTestApp, ENGINES, get, HOUR, login, post, put, type TestApp } from './helpers';

// The organiser's progress matrix and its XLSX, reopening a form for one exhibitor
// (a deadline of its own, a submit-once form open until the next submission), and the audit
// records of logins, submissions and reopenings. Another organisation's organiser reaches none of it.

const DAY = 24 * HOUR;
const badges = (...names: string[]) => ({ badges: names.map((n, i) => ({ firstName: n, lastName: 'Santoso', email: `badge${i}@kopi.example` })) });

interface Matrix {
  forms: Array<{ id: string; code: string; mandatory: boolean; counts: Record<string, number> }>;
  rows: Array<{ participationId: number; exhibitor: string; statuses: Record<string, string>; missingMandatory: string[] }>;
}

describe.each(ENGINES)('progress and reopen on %s', (engine) => {
  let t: TestApp;
  let organiser: string;
  let rival: string;
  let limited: string;
  let kopi: number;
  let borneo: number;

  let formsDir: string;

  beforeAll(async () => {
    // A copy of the forms, so the matrix can meet a reloaded form set.
    const root = mkdtempSync(join(tmpdir(), 'portal-progress-forms-'));
    formsDir = join(root, 'schemas');
    cpSync(SCHEMAS_DIR, formsDir, { recursive: true });
    cpSync(join(SCHEMAS_DIR, '..', 'locales'), join(root, 'locales'), { recursive: true });
    t = await createTestApp(engine, { formsDir });
    const db = t.app.db;
    // Another organisation with its own event and organiser.
    await addRivalOrganiser(t.app, {
      url: 'https://rival.example',
      venue: 'Elsewhere',
      starts_at: new Date(Date.now() + 100 * DAY),
      ends_at: new Date(Date.now() + 103 * DAY),
      terms_url: 'https://rival.example/terms',
      support_email: 'support@rival.example',
    });
    [organiser, rival, limited] = await Promise.all([login(t.app, 'organiser'), login(t.app, 'rival'), login(t.app, 'limited')]);
    const participationOf = async (account: string) =>
      (await db.selectFrom('users').select('participation_id').where('login_key', '=', account).executeTakeFirstOrThrow()).participation_id!;
    [kopi, borneo] = await Promise.all([participationOf('limited'), participationOf('demo')]);
  });
  afterAll(async () => t?.close());

  const matrix = async (token = organiser, query = '') => (await get<Matrix>(t.app, `/oga/organiser/progress${query}`, token)).data;
  const statusOf = async (formId: string) => ((await get(t.app, '/oga/forms', limited)).data as Array<{ id: string; status: string }>).find((f) => f.id === formId)!.status;
  const reopen = (participationId: number, formId: string, body: object, token = organiser) =>
    post(t.app, `/oga/organiser/exhibitors/${participationId}/forms/${formId}/reopen`, body, token);

  it('the new endpoints refuse an exhibitor (403) and a caller without a token (401); another organisation sees none of this event', async () => {
    for (const url of ['/oga/organiser/progress', '/oga/organiser/progress/export']) {
      expect((await t.app.inject({ method: 'GET', url })).json().code).toBe(401);
      expect((await get(t.app, url, limited)).code).toBe(403);
    }
    expect((await reopen(kopi, 's04', {}, limited)).code).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: `/oga/organiser/exhibitors/${kopi}/forms/s04/reopen`, payload: {} })).json().code).toBe(401);
    // The rival organiser's own event has no exhibitors; ours are out of its reach.
    expect((await matrix(rival)).rows).toEqual([]);
    expect(bodyOf(await reopen(kopi, 's04', { until: new Date(Date.now() + DAY).toISOString() }, rival))).toMatchObject({ code: 404, error: 'notFound' });
    expect((await reopen(kopi, 'noSuchForm', {})).code).toBe(404);
  });

  it('the matrix holds every exhibitor × form with the status the exhibitor sees; counts add up; the filter keeps missing mandatory forms', async () => {
    const all = await matrix();
    expect(all.rows.map((r) => r.exhibitor)).toEqual(['Borneo Botanica', 'Kopi Nusantara']);
    for (const form of all.forms) expect(Object.values(form.counts).reduce((a, b) => a + b, 0)).toBe(all.rows.length);
    const kopiRow = all.rows.find((r) => r.participationId === kopi)!;
    const seen = (await get(t.app, '/oga/forms', limited)).data as Array<{ id: string; status: string }>;
    for (const form of seen) expect(kopiRow.statuses[form.id]).toBe(form.status);
    expect(kopiRow.missingMandatory).toEqual(all.forms.filter((f) => f.mandatory).map((f) => f.id));
    expect((await matrix(organiser, '?missing=true')).rows).toHaveLength(2);
  });

  it('reopen: a passed deadline needs a new one in the future and before the show ends; then the exhibitor submits', async () => {
    await setParticipationDeadline(t.app.db, kopi, 'badges', new Date(Date.now() - HOUR));
    expect(await statusOf('s04')).toBe('closed');
    expect((await post(t.app, '/oga/forms/s04/submit', { data: badges('Budi'), version: 0 }, limited)).error).toBe('deadlinePassed');
    expect(bodyOf(await reopen(kopi, 's04', {}))).toMatchObject({ code: 601, error: 'reopenUntilRequired' });
    expect((await reopen(kopi, 's04', { until: new Date(Date.now() - 60_000).toISOString() })).error).toBe('reopenUntilPast');
    expect((await reopen(kopi, 's04', { until: new Date(Date.now() + 400 * DAY).toISOString() })).error).toBe('reopenUntilAfterShow');
    expect((await reopen(kopi, 's04', { until: 'tomorrow' })).code).not.toBe(200);
    const until = new Date(Date.now() + 2 * DAY);
    const reopened = await reopen(kopi, 's04', { until: until.toISOString() });
    expect(reopened.data).toEqual({ deadline: until.toISOString(), reopened: false, status: 'notStarted' });
    expect(await statusOf('s04')).toBe('notStarted');
    // Only this exhibitor's deadline moved.
    expect((await matrix()).rows.find((r) => r.participationId === borneo)!.statuses.s04).not.toBe('closed');
    const submitted = await post(t.app, '/oga/forms/s04/submit', { data: badges('Budi', 'Sari'), version: 0 }, limited);
    expect(submitted.code).toBe(200);
    expect((await matrix()).rows.find((r) => r.participationId === kopi)!.statuses.s04).toBe('submitted');
  });

  it('reopen: a submit-once form opens for one more submission, then closes again; an open form has nothing to reopen', async () => {
    // The organiser makes S04 submit-once for this exhibitor (its flag, as the exhibitor editor sets it).
    await t.app.db.updateTable('participations').set({ flags: sql`flags || '{"s04SubmitOnceOnly": true}'::jsonb` }).where('id', '=', kopi).execute();
    const first = (await get(t.app, '/oga/forms/s04', limited)).data as { locked: boolean; entry: { version: number } };
    expect(first.locked).toBe(true);
    expect((await post(t.app, '/oga/forms/s04/submit', { data: badges('Budi'), version: first.entry.version }, limited)).error).toBe('submitOnce');
    const reopened = await reopen(kopi, 's04', {});
    expect(reopened.data).toMatchObject({ reopened: true, status: 'submitted' });
    const open = (await get(t.app, '/oga/forms/s04', limited)).data as { locked: boolean; entry: { version: number } };
    expect(open.locked).toBe(false);
    const again = await post<{ version: number }>(t.app, '/oga/forms/s04/submit', { data: badges('Budi', 'Sari', 'Wayan'), version: open.entry.version }, limited);
    expect(again.code).toBe(200);
    expect((await post(t.app, '/oga/forms/s04/submit', { data: badges('Budi'), version: again.data.version }, limited)).error).toBe('submitOnce');
    // S02 has no submit-once flag and its deadline is ahead: nothing to reopen. S06 shares S04's
    // deadline name but not its reopening: still closed, it needs a new deadline of its own.
    expect((await reopen(kopi, 's02', {})).error).toBe('reopenNotNeeded');
    expect((await reopen(kopi, 's06', {})).error).toBe('reopenUntilRequired');
  });

  it('the audit log holds the logins, the submissions and the reopenings with before and after', async () => {
    const rows = await t.app.db.selectFrom('audit_log').selectAll().orderBy('id').execute();
    const login = rows.find((r) => r.action === 'auth.login' && r.actor_name === 'Budi Santoso')!;
    expect(login).toMatchObject({ actor_role: 'exhibitor', participation_id: kopi });
    expect(login.organisation_id).not.toBeNull();
    expect(rows.filter((r) => r.action === 'form.submit' && r.participation_id === kopi && r.subject_id === 's04')).toHaveLength(2);
    const reopenings = rows.filter((r) => r.action === 'form.reopen');
    expect(reopenings).toHaveLength(2);
    expect(reopenings[0]).toMatchObject({ participation_id: kopi, subject_id: 's04', actor_name: 'AFHE Organising Committee' });
    expect((reopenings[0]!.after as { deadline: string }).deadline).not.toBe((reopenings[0]!.before as { deadline: string }).deadline);
    expect(reopenings[1]!.before).toMatchObject({ submitOnceLocked: true });
  });

  it('the progress export reads back in the organiser’s language with one row per exhibitor', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/oga/organiser/progress/export', headers: { authorization: `Bearer ${organiser}`, 'accept-language': 'ja' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toContain('.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
    expect(header[0]).toBe(translate('ja', 'organiser.progress.exhibitor'));
    const s04Column = header.findIndex((h) => h.startsWith('S04 ')) + 1;
    expect(s04Column).toBeGreaterThan(0);
    const kopiRow = Array.from({ length: sheet.rowCount - 1 }, (_, i) => sheet.getRow(i + 2)).find((row) => row.getCell(1).value === 'Kopi Nusantara')!;
    expect(kopiRow.getCell(s04Column).value).toBe(translate('ja', 'formRuntime.status.submitted'));
    expect(sheet.rowCount).toBe(3);
  });

  const exportOf = async (formId: string, token = organiser, language = 'en') => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/oga/organiser/submissions/${formId}/export`,
      headers: { authorization: `Bearer ${token}`, 'accept-language': language },
    });
    expect(response.statusCode).toBe(200);
    return { ...(await firstSheet(response.rawPayload)), disposition: String(response.headers['content-disposition']) };
  };

  it('submissions export: one row per badge of every exhibitor, headers and labels in the organiser’s language; refused to others', async () => {
    const demo = await login(t.app, 'demo');
    const person = (firstName: string, gender: string) => ({ firstName, lastName: 'Rahman', email: `${firstName.toLowerCase()}@borneo.example`, gender });
    expect((await post(t.app, '/oga/forms/s04/submit', { data: { badges: [person('Aisyah', 'female'), person('Hafiz', 'male')] }, version: 0 }, demo)).code).toBe(200);
    // Kopi's current submission holds three badges, Borneo's two: one row each.
    const { header, rows, cell, disposition } = await exportOf('s04', organiser, 'vi');
    expect(disposition).toContain('S04.xlsx');
    expect(header).toContain(translate('vi', 'forms.s04.firstName'));
    const names = rows.map((row) => `${String(cell(row, translate('vi', 'organiser.progress.exhibitor')))}:${String(cell(row, translate('vi', 'forms.s04.firstName')))}`);
    expect(names.sort()).toEqual(['Borneo Botanica:Aisyah', 'Borneo Botanica:Hafiz', 'Kopi Nusantara:Budi', 'Kopi Nusantara:Sari', 'Kopi Nusantara:Wayan']);
    const hafiz = rows.find((row) => cell(row, translate('vi', 'forms.s04.firstName')) === 'Hafiz')!;
    expect(cell(hafiz, translate('vi', 'forms.s04.gender'))).toBe(translate('vi', 'forms.s04.enum.gender.male'));

    expect((await t.app.inject({ method: 'GET', url: '/oga/organiser/submissions/s04/export' })).json().code).toBe(401);
    expect((await get(t.app, '/oga/organiser/submissions/s04/export', demo)).code).toBe(403);
    expect((await get(t.app, '/oga/organiser/submissions', demo)).code).toBe(403);
    expect((await get(t.app, '/oga/organiser/submissions/nothing/export', organiser)).code).toBe(404);
    // The rival organisation's organiser exports its own event: none of our badges.
    expect((await exportOf('s04', rival)).rows).toHaveLength(0);
    const counts = (await get<Array<{ id: string; submissions: number }>>(t.app, '/oga/organiser/submissions', organiser)).data;
    expect(counts.find((c) => c.id === 's04')!.submissions).toBe(2);
    expect((await get<Array<{ id: string; submissions: number }>>(t.app, '/oga/organiser/submissions', rival)).data.every((c) => c.submissions === 0)).toBe(true);
  });

  it('submissions export: files are links to the upload, one row per product', async () => {
    const image = { id: 'P'.repeat(43), name: 'tualang-honey.jpg', size: 2048, type: 'jpeg', dpi: 300 };
    const products = {
      products: [
        { brandName: 'Borneo Botanica', productName: 'Wild Tualang Honey', category: 'beverages', image },
        { brandName: 'Borneo Botanica', productName: '=cmd|calc', category: 'dairy' },
      ],
    };
    await t.app.db
      .insertInto('form_entries')
      .values({ participation_id: borneo, form_id: 's02', data: JSON.stringify(products), submitted_data: JSON.stringify(products), status: 'submitted', submitted_at: new Date() })
      .execute();
    const { rows, cell } = await exportOf('s02');
    expect(rows).toHaveLength(2);
    const link = cell(rows[0]!, translate('en', 'forms.s02.image')) as { text: string; hyperlink: string };
    expect(link).toEqual({ text: 'tualang-honey.jpg', hyperlink: `${t.config.publicUrl}/oga/uploads/${image.id}` });
    expect(cell(rows[0]!, translate('en', 'forms.s02.category'))).toBe(translate('en', 'forms.s02.enum.category.beverages'));
    // A formula-like value is stored as text, never run by the spreadsheet.
    expect(cell(rows[1]!, translate('en', 'forms.s02.productName'))).toBe("'=cmd|calc");
  });

  it('submissions export at volume: every badge of 3,000 a row, opened by LibreOffice Calc with the values, the date cells in the event’s date order and the item numbers as numbers', async () => {
    const db = t.app.db;
    const kept = await db
      .selectFrom('form_entries')
      .select(['participation_id', 'submitted_data'])
      .where('form_id', '=', 's04')
      .where('participation_id', 'in', [kopi, borneo])
      .execute();
    const { date_order: dateOrder, utc_offset_minutes: offset } = await db
      .selectFrom('events')
      .select(['date_order', 'utc_offset_minutes'])
      .where('code', '=', 'AFHE2027')
      .executeTakeFirstOrThrow();
    const perExhibitor = 1500;
    // Kopi's and Borneo's submissions hold 1,500 badges each, made in SQL.
    await sql`update form_entries set submitted_data = jsonb_build_object('badges', (
        select jsonb_agg(jsonb_build_object('firstName', 'Badge' || i, 'lastName', 'P' || participation_id, 'email', 'b' || i || '.' || participation_id || '@volume.example',
          'gender', case when i % 2 = 0 then 'female' else 'male' end, 'extra', i % 3 = 0) order by i)
        from generate_series(1, ${perExhibitor}) i))
      where form_id = 's04' and participation_id in (${kopi}, ${borneo})`.execute(db);
    try {
      const response = await t.app.inject({
        method: 'GET',
        url: '/oga/organiser/submissions/s04/export',
        headers: { authorization: `Bearer ${organiser}`, 'accept-language': 'ja' },
      });
      expect(response.statusCode).toBe(200);
      const { header, rows, cell } = await firstSheet(response.rawPayload);
      expect(rows).toHaveLength(2 * perExhibitor);
      const firstName = translate('ja', 'forms.s04.firstName');
      const itemNumber = translate('ja', 'organiser.submissions.itemNumber');
      const submittedAt = header.find((h) => h.startsWith(translate('ja', 'organiser.submissions.submittedAt')))!;
      for (const row of [rows[0]!, rows[perExhibitor - 1]!, rows[perExhibitor]!, rows.at(-1)!]) {
        expect(cell(row, firstName)).toBe(`Badge${Number(cell(row, itemNumber))}`);
        expect(typeof cell(row, itemNumber)).toBe('number');
        expect(cell(row, submittedAt)).toBeInstanceOf(Date);
      }
      // As users see it: the file opened by LibreOffice Calc, every row there with its cells.
      const calc = parse((await convertWithLibreOffice(response.rawPayload, 'xlsx', 'csv')).toString('utf8'), { bom: true }) as string[][];
      expect(calc).toHaveLength(2 * perExhibitor + 1);
      expect(calc[0]).toEqual(header);
      const column = (title: string) => header.indexOf(title);
      const submitted = new Map(
        (
          await db
            .selectFrom('form_entries')
            .innerJoin('participations', 'participations.id', 'form_entries.participation_id')
            .innerJoin('exhibitors', 'exhibitors.id', 'participations.exhibitor_id')
            .select(['exhibitors.name', 'form_entries.submitted_at'])
            .where('form_entries.form_id', '=', 's04')
            .where('form_entries.participation_id', 'in', [kopi, borneo])
            .execute()
        ).map((row) => [row.name, row.submitted_at]),
      );
      const shownNames = new Set<string>();
      for (const line of calc.slice(1)) {
        const number = Number(line[column(itemNumber)]);
        expect(number).toBeGreaterThanOrEqual(1);
        expect(line[column(firstName)]).toBe(`Badge${number}`);
        expect(line[column(translate('ja', 'forms.s04.gender'))]).toBe(translate('ja', `forms.s04.enum.gender.${number % 2 === 0 ? 'female' : 'male'}`));
        const exhibitor = line[column(translate('ja', 'organiser.progress.exhibitor'))]!;
        shownNames.add(`${exhibitor}:${number}`);
        expect(line[column(submittedAt)]).toBe(formatEventTime(submitted.get(exhibitor), { language: 'ja', dateOrder }, offset));
      }
      expect(shownNames.size).toBe(2 * perExhibitor);
    } finally {
      for (const entry of kept)
        await db
          .updateTable('form_entries')
          .set({ submitted_data: JSON.stringify(entry.submitted_data) })
          .where('form_id', '=', 's04')
          .where('participation_id', '=', entry.participation_id)
          .execute();
    }
  });

  it('audit log page: the organisation’s records only, filtered by action, who and date, paged; XLSX export; refused to others', async () => {
    const all = (await get(t.app, '/oga/organiser/audit?limit=50', organiser)).data as {
      total: number;
      items: Array<{ action: string; actorName: string; exhibitor: string | null }>;
    };
    expect(all.total).toBeGreaterThan(3);
    expect(all.items.some((i) => i.action === 'form.reopen' && i.exhibitor === 'Kopi Nusantara')).toBe(true);
    expect(all.items.some((i) => i.actorName === 'Rival')).toBe(false);
    const reopenings = (await get(t.app, '/oga/organiser/audit?action=form.reopen', organiser)).data as { total: number; items: Array<{ action: string }> };
    expect(reopenings.total).toBe(2);
    const byWho = (await get(t.app, '/oga/organiser/audit?who=budi', organiser)).data as { items: Array<{ actorName: string }> };
    expect(byWho.items.length).toBeGreaterThan(0);
    expect(byWho.items.every((i) => i.actorName === 'Budi Santoso')).toBe(true);
    // K2: the day filters are the event's days (its time zone), so "tomorrow" is the event's.
    const { utc_offset_minutes: offset } = await t.app.db.selectFrom('events').select('utc_offset_minutes').where('code', '=', 'AFHE2027').executeTakeFirstOrThrow();
    const tomorrow = eventDate(Date.now() + 86_400_000, offset);
    expect(((await get(t.app, `/oga/organiser/audit?from=${tomorrow}`, organiser)).data as { total: number }).total).toBe(0);
    const paged = (await get(t.app, '/oga/organiser/audit?limit=10&page=1', organiser)).data as { items: unknown[]; limit: number };
    expect(paged.items.length).toBeLessThanOrEqual(10);
    // The rival organisation's log holds only its own organiser's login.
    const theirs = (await get(t.app, '/oga/organiser/audit', rival)).data as { items: Array<{ actorName: string }> };
    expect(theirs.items.map((i) => i.actorName)).toEqual(['Rival']);
    expect((await get(t.app, '/oga/organiser/audit', limited)).code).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/oga/organiser/audit' })).json().code).toBe(401);
    expect((await get(t.app, '/oga/organiser/audit/export', limited)).code).toBe(403);

    const response = await t.app.inject({
      method: 'GET',
      url: '/oga/organiser/audit/export?action=form.',
      headers: { authorization: `Bearer ${organiser}`, 'accept-language': 'cn' },
    });
    expect(response.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(1).getCell(3).value).toBe(translate('cn', 'organiser.audit.action'));
    const actions = Array.from({ length: sheet.rowCount - 1 }, (_, i) => String(sheet.getRow(i + 2).getCell(3).value));
    expect(actions.length).toBeGreaterThan(0);
    expect(actions.every((a) => a.startsWith('form.'))).toBe(true);
    // When, as a real date cell in the organiser's language's order, the offset in the header.
    expect(String(sheet.getRow(1).getCell(1).value)).toMatch(/\(UTC[+-]\d\d:\d\d\)$/);
    expect(sheet.getRow(2).getCell(1).value).toBeInstanceOf(Date);
    expect(sheet.getRow(2).getCell(1).numFmt).toBe('yyyy/mm/dd hh:mm');
  });

  it('the matrix follows every write and every change of rules: draft, submission, reopening, a deadline of its own, a reloaded form set', async () => {
    const db = t.app.db;
    const event = await db.selectFrom('events').select(['id', 'code']).where('code', '=', DEMO_EVENT_CODE).executeTakeFirstOrThrow();
    /** Every row and count as the rules give them from the whole entries (what the matrix read before it kept each entry's progress). */
    const fromWholeEntries = async () => {
      const now = new Date();
      const registry = t.app.forms.registry;
      const participations = await db
        .selectFrom('participations')
        .innerJoin('exhibitors', 'exhibitors.id', 'participations.exhibitor_id')
        .select('participations.id')
        .where('event_id', '=', event.id)
        .where('participations.status', '=', 'active')
        .orderBy('exhibitors.name')
        .orderBy('participations.id')
        .execute();
      const ids = participations.map((p) => p.id);
      const entries = await db.selectFrom('form_entries').selectAll().where('participation_id', 'in', ids).execute();
      const settings = await loadParticipationSettings(db, event.id, ids);
      const counts: Record<string, Record<string, number>> = {};
      const rows = ids.map((participationId) => {
        const statuses: Record<string, string> = {};
        const parts: Record<string, Record<string, string>> = {};
        for (const definition of registry.definitions) {
          const entry = entries.find((e) => e.participation_id === participationId && e.form_id === definition.id) ?? null;
          const deadline = deadlineOfForm(settings.get(participationId)!.deadlines, definition);
          const formParts = partsOf(definition, registry.filesFor(definition.id, event.code).schema as { properties?: Record<string, unknown> });
          let status: string;
          if (formParts) {
            const states = partStates(entry, formParts);
            const approvalId = approvalPart(formParts, definition.approval)?.id;
            const keys = entry ? { ...entry, data: Object.fromEntries(Object.keys(entry.data).map((key) => [key, true])) } : null;
            parts[definition.id] = Object.fromEntries(formParts.map((part) => [part.id, partStatus(part, states, keys, approvalId, deadline, now)]));
            const byPart = Object.values(parts[definition.id]!);
            const passed = deadline !== null && deadline < now;
            status = byPart.every((s) => ['submitted', 'pendingApproval', 'approved', 'rejected'].includes(s))
              ? (parts[definition.id]![approvalId!] ?? 'submitted')
              : passed
                ? 'closed'
                : byPart.some((s) => s !== 'notStarted' && s !== 'closed')
                  ? 'draft'
                  : 'notStarted';
          } else status = formStatus(entry, deadline, now);
          statuses[definition.id] = status;
          counts[definition.id] = { ...counts[definition.id], [status]: (counts[definition.id]?.[status] ?? 0) + 1 };
        }
        return { participationId, statuses, parts };
      });
      return { rows, counts };
    };
    const expectRight = async () => {
      const answer = (
        await get<Omit<Matrix, 'rows'> & { rows: Array<Matrix['rows'][number] & { parts: Record<string, Record<string, string>> }> }>(t.app, '/oga/organiser/progress', organiser)
      ).data;
      const expected = await fromWholeEntries();
      expect(answer.rows.map((row) => ({ participationId: row.participationId, statuses: row.statuses, parts: row.parts }))).toEqual(expected.rows);
      for (const form of answer.forms) expect(Object.fromEntries(Object.entries(form.counts).filter(([, n]) => n > 0))).toEqual(expected.counts[form.id]);
      return (participationId: number, formId: string) => expected.rows.find((row) => row.participationId === participationId)!.statuses[formId];
    };
    const [demo, builder] = await Promise.all([login(t.app, 'demo'), login(t.app, DEMO_CONTRACTOR_LOGIN)]);
    const versionOf = async (formId: string) => ((await get(t.app, `/oga/forms/${formId}`, demo)).data as { entry: { version: number } | null }).entry?.version ?? 0;
    await expectRight();
    // A draft of the booth (the exhibitor's part), then the contractor's part submitted.
    expect((await put(t.app, '/oga/forms/s03/draft', { data: { boothHeight: 2.3 }, version: await versionOf('s03') }, demo)).code).toBe(200);
    expect((await expectRight())(borneo, 's03')).toBe('draft');
    const contractorPart = {
      contractor: { company: 'Rimba Stand Builders Sdn. Bhd.', email: 'hafiz@rimba-stands.example', contactPerson: 'Hafiz Ismail' },
      contractorType: 'contractor',
    };
    expect((await post(t.app, '/oga/forms/s03/submit', { data: contractorPart, version: await versionOf('s03') }, builder)).code).toBe(200);
    expect((await expectRight())(borneo, 's03')).toBe('draft');
    // A submission, then a reopening that asks for the badges again (the submission goes back to a draft).
    expect((await post(t.app, '/oga/forms/s04/submit', { data: badges('Ayu'), version: await versionOf('s04') }, demo)).code).toBe(200);
    expect((await expectRight())(borneo, 's04')).toBe('submitted');
    const organiserId = (await db.selectFrom('users').select('id').where('login_key', '=', 'organiser').executeTakeFirstOrThrow()).id;
    await t.app.formEntries.reopen(db, borneo, 's04', organiserId, new Date(), { fields: ['badges'] });
    expect((await expectRight())(borneo, 's04')).toBe('draft');
    // A deadline of the exhibitor's own that passed: closed for it alone, no entry written.
    await setParticipationDeadline(db, borneo, 'badges', new Date(Date.now() - HOUR));
    expect((await expectRight())(borneo, 's04')).toBe('closed');
    await setParticipationDeadline(db, borneo, 'badges', new Date(Date.now() + DAY));
    expect((await expectRight())(borneo, 's04')).toBe('draft');
    // A form set whose S03 has no parts any more: the contractor's submission is S03's, at once.
    const listFile = join(formsDir, 'forms', 'forms.yaml');
    const original = readFileSync(listFile, 'utf8');
    const list = parseYaml(original) as { forms: Array<{ id: string; parts?: unknown }> };
    delete list.forms.find((form) => form.id === 's03')!.parts;
    writeFileSync(listFile, stringifyYaml(list));
    try {
      expect(t.app.forms.reload('test').problems).toEqual([]);
      expect((await expectRight())(borneo, 's03')).toBe('submitted');
    } finally {
      writeFileSync(listFile, original);
      expect(t.app.forms.reload('test').problems).toEqual([]);
    }
    expect((await expectRight())(borneo, 's03')).toBe('draft');
  });
});
