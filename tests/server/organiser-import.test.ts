import { randomBytes } from 'node:crypto';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ENGINES, get, login, type TestApp } from './helpers';
import { otherOrganiser } from './organiser-support';

// Exhibitors from XLSX or CSV — the template in the organiser's language, a dry run
// reporting every bad row (row, column, problem) and storing nothing, a commit storing the good
// rows, and a second import updating by code without duplicates.

function upload(app: FastifyInstance, token: string | undefined, bytes: Buffer, name: string, query = '', language = 'en') {
  const boundary = `----import-${randomBytes(6).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return app
    .inject({
      method: 'POST',
      url: `/oga/organiser/exhibitors/import${query}`,
      payload,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, language, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    })
    .then((response) => response.json());
}

const csv = (rows: string[][]) => Buffer.from(rows.map((row) => row.map((cell) => (/[",\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)).join(',')).join('\r\n'));

async function xlsx(rows: ExcelJS.CellValue[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Exhibitors');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const HEADERS = ['Exhibitor code', 'Exhibitor name', 'Booth', 'E-mail', 'Modules', 'Quota: Exhibitor badges'];

describe.each(ENGINES)('exhibitor import (%s)', (engine) => {
  let t: TestApp;
  let organiser: string;

  beforeAll(async () => {
    t = await createTestApp(engine);
    organiser = await login(t.app, 'organiser');
  });
  afterAll(() => t.close());

  const participations = () =>
    t.app.db
      .selectFrom('participations')
      .select('id')
      .execute()
      .then((rows) => rows.length);

  it("downloads the template with headers in the organiser's language", async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/oga/organiser/exhibitors/import/template?format=xlsx',
      headers: { authorization: `Bearer ${organiser}`, language: 'ja' },
    });
    expect(response.headers['content-type']).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const headers = (workbook.worksheets[0]!.getRow(1).values as string[]).slice(1);
    expect(headers).toContain('出展者コード');
    expect(headers).toContain('上限：出展者バッジ');
    const csvTemplate = await t.app.inject({ method: 'GET', url: '/oga/organiser/exhibitors/import/template?format=csv', headers: { authorization: `Bearer ${organiser}` } });
    expect(csvTemplate.body.replace(/^\uFEFF/, '').split('\n')[0]).toContain('Exhibitor code,Exhibitor name');
  });

  it('a dry run reports each bad row by row and column and stores nothing; the commit stores only the good rows', async () => {
    const before = await participations();
    const file = csv([
      HEADERS,
      ['IMP1', 'Good One', 'H1-01', 'one@imp.example', 'Forms;Support', '4'],
      ['IMP2', 'Bad Module', 'H1-02', 'two@imp.example', 'Forms;Hoverboard', ''],
      ['IMP3', '', 'H1-03', 'three@imp.example', '', ''],
      ['IMP4', 'Bad Mail', 'H1-04', 'not-an-email', '', ''],
      ['IMP5', 'Same Booth', 'H1-01', 'five@imp.example', '', ''],
      ['IMP1', 'Same Code', 'H1-06', 'six@imp.example', '', ''],
      ['IMP7', '=HYPERLINK("http://evil.example")', 'H1-07', 'seven@imp.example', '', ''],
      ['IMP8', 'Demo Booth', 'Hall 3 · B12', 'eight@imp.example', '', ''],
      ['IMP9', 'Good Two', 'H1-09', 'nine@imp.example', '', ''],
    ]);
    const dry = await upload(t.app, organiser, file, 'exhibitors.csv');
    expect(dry.code).toBe(200);
    expect(dry.data).toMatchObject({ dryRun: true, rows: 9, good: 2, created: 2, updated: 0 });
    expect(dry.data.problems.map((p: { row: number; column: string; problem: string }) => [p.row, p.column, p.problem])).toEqual([
      [3, 'Modules', 'Unknown module.'],
      [4, 'Exhibitor name', 'Please enter the exhibitor name.'],
      [5, 'E-mail', 'Please enter a valid email address'],
      [6, 'Booth', 'Already used in row 2 of this file.'],
      [7, 'Exhibitor code', 'Already used in row 2 of this file.'],
      [8, 'Exhibitor name', 'A value may not start with "=".'],
      [9, 'Booth', 'Another exhibitor of this event has this booth.'],
    ]);
    expect(await participations()).toBe(before);

    const committed = await upload(t.app, organiser, file, 'exhibitors.csv', '?commit=true');
    expect(committed.data).toMatchObject({ dryRun: false, good: 2, created: 2 });
    expect(await participations()).toBe(before + 2);
    const stored = await t.app.db
      .selectFrom('exhibitors')
      .innerJoin('participations', 'participations.exhibitor_id', 'exhibitors.id')
      .select(['exhibitors.code', 'exhibitors.name', 'participations.displayed_modules'])
      .where('exhibitors.code', 'like', 'IMP%')
      .orderBy('exhibitors.code')
      .execute();
    expect(stored.map((row) => [row.code, row.name])).toEqual([
      ['IMP1', 'Good One'],
      ['IMP9', 'Good Two'],
    ]);
    expect(stored[0]!.displayed_modules).toEqual(['Forms', 'Support']);
    const audit = await t.app.db.selectFrom('audit_log').select(['after']).where('action', '=', 'exhibitor.import').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.after).toMatchObject({ created: ['IMP1', 'IMP9'], updated: [] });
  });

  it('importing again (XLSX) updates by code without duplicates; a formula cell is refused', async () => {
    const before = await participations();
    const file = await xlsx([
      HEADERS,
      ['IMP1', 'Good One Renamed', 'H1-01', 'one@imp.example', 'Forms', 7],
      ['IMP10', 'New Ten', 'H1-10', 'ten@imp.example', '', ''],
      ['IMP11', { formula: '1+1', result: 2 }, 'H1-11', 'eleven@imp.example', '', ''],
    ]);
    const result = await upload(t.app, organiser, file, 'exhibitors.xlsx', '?commit=true', 'vi');
    expect(result.data).toMatchObject({ rows: 3, good: 2, created: 1, updated: 1 });
    expect(result.data.problems).toEqual([{ row: 4, column: 'Tên nhà triển lãm', key: 'organiser.validation.formula', problem: 'Giá trị không được bắt đầu bằng "=".' }]);
    expect(await participations()).toBe(before + 1);
    const renamed = await t.app.db
      .selectFrom('exhibitors')
      .innerJoin('participations', 'participations.exhibitor_id', 'exhibitors.id')
      .select(['exhibitors.name', 'participations.id', 'participations.displayed_modules'])
      .where('exhibitors.code', '=', 'IMP1')
      .execute();
    expect(renamed).toHaveLength(1);
    expect(renamed[0]).toMatchObject({ name: 'Good One Renamed', displayed_modules: ['Forms'] });
    const quota = await t.app.db.selectFrom('quotas').select('value').where('participation_id', '=', renamed[0]!.id).where('name', '=', 'badges').executeTakeFirstOrThrow();
    expect(quota.value).toBe(7);
  });

  it('refuses an unreadable file; another organisation imports into its own event only; 403 for exhibitors, 401 without a token', async () => {
    expect((await upload(t.app, organiser, Buffer.from(''), 'empty.csv')).error).toBe('importFileUnreadable');
    const rival = await otherOrganiser(t.app);
    // Without an event of its own the rival cannot import at all.
    expect((await upload(t.app, rival.token, csv([HEADERS, ['R1', 'Rival', 'R-1', 'r@rival.example', '', '']]), 'x.csv', '?commit=true')).error).toBe('noCurrentEvent');
    const demo = await login(t.app, 'demo');
    expect((await upload(t.app, demo, csv([HEADERS]), 'x.csv')).code).toBe(403);
    expect((await upload(t.app, undefined, csv([HEADERS]), 'x.csv')).code).toBe(401);
    expect((await get(t.app, '/oga/organiser/exhibitors/import/template', demo)).code).toBe(403);
    expect((await get(t.app, '/oga/organiser/exhibitors/import/template')).code).toBe(401);
  });
});
