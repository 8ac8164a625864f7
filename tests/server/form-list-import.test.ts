import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart, type Part } from '../support/multipart';
import { createTestApp, ENGINES, get, login, post, put, type TestApp } from './helpers';

// A form's list filled from a spreadsheet (S04's badges here). The template is
// made from the item schema in the caller's language; an upload is parsed, mapped (headers and
// choice labels in any language) and each row checked with the form's served validator; the answer
// lists the rows to add and the problems of the others, and nothing is stored.

const URL = '/oga/forms/s04/lists/badges';

async function importSheet(app: FastifyInstance, token: string, file: { bytes: Uint8Array; filename: string }, data?: unknown, language = 'en') {
  const parts: Part[] = [];
  if (data !== undefined) parts.push({ name: 'data', value: JSON.stringify(data) });
  parts.push({ name: 'file', filename: file.filename, bytes: file.bytes });
  const { payload, contentType } = multipart(parts);
  const response = await app.inject({ method: 'POST', url: `${URL}/import`, payload, headers: { 'content-type': contentType, authorization: `Bearer ${token}`, language } });
  return response.json();
}

async function xlsx(rows: ExcelJS.CellValue[][]): Promise<{ bytes: Uint8Array; filename: string }> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Badges');
  for (const row of rows) sheet.addRow(row);
  return { bytes: new Uint8Array(await workbook.xlsx.writeBuffer()), filename: 'badges.xlsx' };
}

describe.each(ENGINES)('a list filled from a spreadsheet (%s)', (engine) => {
  let t: TestApp;
  let demo: string;

  beforeAll(async () => {
    t = await createTestApp(engine);
    demo = await login(t.app, 'demo');
  });
  afterAll(() => t.close());

  it("gives a template with the item's fields as headers in the user's language and drop-down lists of the choices' labels", async () => {
    const response = await t.app.inject({ method: 'GET', url: `${URL}/template`, headers: { authorization: `Bearer ${demo}`, language: 'ja' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const headers = (sheet.getRow(1).values as string[]).slice(1);
    expect(headers).toContain('メールアドレス');
    expect(headers).toContain('性別');
    // Only the header row: no example rows to delete.
    expect(sheet.actualRowCount).toBe(1);
    const genderColumn = sheet.getColumn(headers.indexOf('性別') + 1).letter;
    const rule = (sheet as unknown as { dataValidations: { model: Record<string, { type: string; formulae: string[] }> } }).dataValidations.model;
    const genderRule = Object.entries(rule).find(([range]) => range.startsWith(`${genderColumn}2`))?.[1];
    expect(genderRule?.type).toBe('list');
    const [listSheet, range] = genderRule!.formulae[0]!.split('!');
    const cells = range!.replace(/\$/g, '').split(':');
    const labels = workbook.getWorksheet(listSheet!)!.getCell(cells[0]!).value;
    expect([labels, workbook.getWorksheet(listSheet!)!.getCell(cells[1]!).value]).toEqual(['男性', '女性']);
  });

  it('maps an XLSX to badges: a bad row explained per column, a ja choice label mapped to its code, empty rows skipped, nothing stored', async () => {
    const before = await get(t.app, '/oga/forms/s04', demo);
    const file = await xlsx([
      ['First name', 'Last name', 'Gender', 'Email', 'Extra badge (beyond your quota)'],
      ['Siti', 'Aminah', '女性', 'siti@example.com', 'No'],
      [],
      ['Ahmad', 'Zaki', 'Male', 'not-an-email', ''],
      ['', '', '', '', ''],
      ['Lee', 'Wong', 'male', 'lee@example.com', ''],
    ]);
    const result = await importSheet(t.app, demo, file, {}, 'en');
    expect(result.code).toBe(200);
    expect(result.data.rows).toBe(3);
    expect(result.data.valid).toEqual([
      { row: 2, item: { firstName: 'Siti', lastName: 'Aminah', gender: 'female', email: 'siti@example.com', extra: false } },
      { row: 6, item: { firstName: 'Lee', lastName: 'Wong', gender: 'male', email: 'lee@example.com' } },
    ]);
    expect(result.data.problems).toEqual([{ row: 4, column: 'email', header: 'Email', key: 'validation.email', message: 'Please enter a valid email address' }]);
    const after = await get(t.app, '/oga/forms/s04', demo);
    expect(after.data.entry).toEqual(before.data.entry);
  });

  it("answers problems in the caller's language", async () => {
    const file = await xlsx([
      ['名', '姓', 'メールアドレス'],
      ['Ahmad', 'Zaki', 'ahmad@@example'],
    ]);
    const result = await importSheet(t.app, demo, file, {}, 'ja');
    expect(result.data.problems).toHaveLength(1);
    expect(result.data.problems[0]).toMatchObject({ row: 2, column: 'email', header: 'メールアドレス' });
    expect(result.data.problems[0].message).not.toBe('Please enter a valid email address');
  });

  it('reads a CSV with a BOM and ; separators, and checks rows against the badges the form already holds (unique e-mail, quota)', async () => {
    const text =
      '\uFEFFFirst name;Last name;Email\r\nNur;Aisyah;HELD@example.com\r\nTan;Mei;tan@example.com\r\nOng;Li;ong@example.com\r\nKo;Ai;ko@example.com\r\nNg;Bo;ng@example.com\r\n';
    const held = {
      badges: [
        { firstName: 'Held', lastName: 'One', email: 'held@example.com' },
        { firstName: 'Held', lastName: 'Two', email: 'two@example.com' },
      ],
    };
    const result = await importSheet(t.app, demo, { bytes: Buffer.from(text), filename: 'badges.csv' }, held);
    expect(result.code).toBe(200);
    // The demo exhibitor's badge quota is 5: two held, so three of the four new e-mails fit.
    expect(result.data.valid.map((row: { row: number }) => row.row)).toEqual([3, 4, 5]);
    expect(result.data.problems.map((p: { row: number; column: string; key: string }) => [p.row, p.column, p.key])).toEqual([
      [2, 'email', 'validation.uniqueItemProperty'],
      [6, '', 'validation.quota'],
    ]);
  });

  it('the added rows submit as any badges would', async () => {
    const file = await xlsx([
      ['First name', 'Last name', 'Email'],
      ['Siti', 'Aminah', 'siti.sub@example.com'],
    ]);
    const result = await importSheet(t.app, demo, file, {});
    const data = { badges: result.data.valid.map((row: { item: unknown }) => row.item) };
    const form = await get(t.app, '/oga/forms/s04', demo);
    const saved = await put(t.app, '/oga/forms/s04/draft', { data, version: form.data.entry?.version ?? 0 }, demo);
    expect(saved.code).toBe(200);
    const submitted = await post(t.app, '/oga/forms/s04/submit', { data, version: saved.data.version }, demo);
    expect(submitted.code).toBe(200);
  });

  it('refuses a file that is no spreadsheet, a list the form does not have, and a form the user does not fill', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
    const notSheet = await importSheet(t.app, demo, { bytes: png, filename: 'badges.xlsx' }, {});
    expect(notSheet.code).toBe(601);
    expect(notSheet.error).toBe('importFileUnreadable');
    const brokenZip = await importSheet(t.app, demo, { bytes: Buffer.from('PK\u0003\u0004broken'), filename: 'badges.xlsx' }, {});
    expect(brokenZip.error).toBe('importFileUnreadable');
    const empty = await importSheet(t.app, demo, { bytes: Buffer.alloc(0), filename: 'badges.csv' }, {});
    expect(empty.error).toBe('importFileUnreadable');
    const large = await importSheet(t.app, demo, { bytes: Buffer.from(`First name;Email\r\n${'Ann;ann@example.com\r\n'.repeat(300_000)}`), filename: 'badges.csv' }, {});
    expect(large.error).toBe('importFileTooLarge');
    expect(large.msg).toBe('The file is larger than 5 MB.');
    const withoutData = await importSheet(t.app, demo, { bytes: Buffer.from('First name\r\nAnn\r\n'), filename: 'badges.csv' }, undefined);
    expect(withoutData.code).toBe(200);
    const unknownList = await t.app.inject({ method: 'GET', url: '/oga/forms/s04/lists/nothing/template', headers: { authorization: `Bearer ${demo}` } });
    expect(unknownList.json().code).toBe(404);
    const builder = await login(t.app, 'demo/builder');
    const contractor = await t.app.inject({ method: 'GET', url: `${URL}/template`, headers: { authorization: `Bearer ${builder}` } });
    expect(contractor.json().code).not.toBe(200);
  });
});
