import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import { countryName, formatEventTime } from '../../src/engine/locale-format';
import { toEventClock } from '../../src/engine/time';
import { migrationProvider } from '../../src/server/db/migrations';
import { translate } from '../../src/server/lib/messages';
import { convertWithLibreOffice } from '../support/libreoffice';
import { createTestApp, ENGINES, get, login, post, type TestApp } from './helpers';

// Languages: countries are stored as ISO codes (migration 0023 turns the English names
// stored before into codes) and named in the reader's language; exports write country names and
// dates in the exporting user's language, XLSX times as real date cells.

describe.each(ENGINES)('countries, dates and numbers in the user’s language on %s', (engine) => {
  let t: TestApp;
  let demo: string;
  let participationId: number;
  let offsetMinutes: number;

  beforeAll(async () => {
    t = await createTestApp(engine);
    demo = await login(t.app, 'demo');
    const user = await t.app.db
      .selectFrom('users')
      .innerJoin('events', 'events.id', 'users.event_id')
      .select(['users.participation_id', 'events.utc_offset_minutes'])
      .where('login', '=', 'demo')
      .executeTakeFirstOrThrow();
    participationId = user.participation_id!;
    offsetMinutes = user.utc_offset_minutes;
  });
  afterAll(async () => t?.close());

  const rollupOf = async (key: string) =>
    Number(
      (
        await t.app.db
          .selectFrom('lead_rollup')
          .select(sql<number>`coalesce(sum(leads), 0)::int`.as('n'))
          .where('participation_id', '=', participationId)
          .where('dimension', '=', 'country')
          .where('key', '=', key)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('the demo’s visitors and leads hold codes', async () => {
    const countries = await t.app.db.selectFrom('leads').select('country').distinct().where('participation_id', '=', participationId).where('country', '!=', '').execute();
    expect(countries.length).toBeGreaterThan(3);
    for (const { country } of countries) expect(country).toMatch(/^[A-Z]{2}$/);
    const options = await get(t.app, '/oga/leads/options', demo);
    expect(options.data.countries).toContain('JP');
  });

  it('migration 0023 turns stored English names into codes, keeps unknown names, and moves the dashboard counts', async () => {
    const leads = await t.app.db
      .selectFrom('leads')
      .select(['id', 'country'])
      .where('participation_id', '=', participationId)
      .where('country', 'in', ['JP', 'SG'])
      .orderBy('id')
      .limit(4)
      .execute();
    expect(leads).toHaveLength(4);
    const ids = leads.map((l) => l.id);
    const japanBefore = await rollupOf('JP');
    // As stored before codes: English names, one that names no country.
    await t.app.db.updateTable('leads').set({ country: 'Japan' }).where('id', '=', ids[0]!).execute();
    await t.app.db.updateTable('leads').set({ country: 'Viet Nam' }).where('id', '=', ids[1]!).execute();
    await t.app.db.updateTable('leads').set({ country: 'Atlantis' }).where('id', '=', ids[2]!).execute();
    const visitor = await t.app.db.selectFrom('visitors').select(['id']).where('country', '=', 'SG').executeTakeFirstOrThrow();
    await t.app.db.updateTable('visitors').set({ country: 'Singapore' }).where('id', '=', visitor.id).execute();
    expect(await rollupOf('Japan')).toBe(1);

    const migration = (await migrationProvider.getMigrations())['0023_country_codes']!;
    await migration.up(t.app.db);

    const after = await t.app.db.selectFrom('leads').select(['id', 'country']).where('id', 'in', ids.slice(0, 3)).orderBy('id').execute();
    expect(after.map((l) => l.country)).toEqual(['JP', 'VN', 'Atlantis']);
    expect((await t.app.db.selectFrom('visitors').select('country').where('id', '=', visitor.id).executeTakeFirstOrThrow()).country).toBe('SG');
    // The dashboard reads the rollup: the name's key is gone, its lead counted under the code.
    expect(await rollupOf('JP')).toBe(japanBefore);
    const keys = await t.app.db
      .selectFrom('lead_rollup')
      .select('key')
      .where('participation_id', '=', participationId)
      .where('dimension', '=', 'country')
      .where('key', 'in', ['Japan', 'Viet Nam'])
      .execute();
    expect(keys).toEqual([]);
    // A name no country has is shown as it is.
    const shown = await get(t.app, `/oga/leads/${ids[2]}`, demo);
    expect(shown.data.country ?? shown.data.lead?.country).toBe('Atlantis');
    await t.app.db.updateTable('leads').set({ country: leads[2]!.country }).where('id', '=', ids[2]!).execute();
  });

  it('the lead list filters by a code or by a country’s name in any portal language alike', async () => {
    const byCode = await get(t.app, '/oga/leads?country=JP&limit=50', demo);
    expect(byCode.data.total).toBeGreaterThan(0);
    for (const name of ['Japan', 'japan', '日本', 'Nhật Bản', 'jp']) {
      const byName = await get(t.app, `/oga/leads?country=${encodeURIComponent(name)}&limit=50`, demo);
      expect(byName.data.total, name).toBe(byCode.data.total);
    }
    for (const lead of byCode.data.items as Array<{ country: string }>) expect(lead.country).toBe('JP');
  });

  it('a ja XLSX export names countries in Japanese and holds real date cells; Calc shows them in ja order', async () => {
    const filters = { country: 'SG' };
    const expected = await t.app.db
      .selectFrom('leads')
      .select(['scanned_at', 'country'])
      .where('participation_id', '=', participationId)
      .where('country', '=', 'SG')
      .orderBy('scanned_at', 'desc')
      .execute();
    expect(expected.length).toBeGreaterThan(0);
    const exported = await post(t.app, '/oga/leads/exports', { format: 'xlsx', filters }, demo, { headers: { language: 'ja' } });
    expect(exported.data.rows).toBe(expected.length);
    const file = await t.app.inject({ method: 'GET', url: `/oga/leads/exports/${exported.data.id}/file`, headers: { authorization: `Bearer ${demo}` } });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const header = (sheet.getRow(1).values as string[]).slice(1);
    const countryColumn = header.indexOf(translate('ja', 'leads.field.country')) + 1;
    const timeColumn = header.findIndex((h) => h.startsWith(translate('ja', 'leads.field.scannedAt'))) + 1;
    expect(countryColumn).toBeGreaterThan(0);
    expect(timeColumn).toBeGreaterThan(0);
    const countries = new Set<unknown>();
    const times: number[] = [];
    sheet.eachRow((row, number) => {
      if (number === 1) return;
      countries.add(row.getCell(countryColumn).value);
      const cell = row.getCell(timeColumn);
      expect(cell.type).toBe(ExcelJS.ValueType.Date);
      expect(cell.numFmt).toBe('yyyy/mm/dd hh:mm');
      times.push((cell.value as Date).getTime());
    });
    expect([...countries]).toEqual(['シンガポール']);
    // The cell is the event's wall clock (what the header's offset says), to the minute.
    const wall = (instant: Date) => Math.floor(toEventClock(instant, offsetMinutes).getTime() / 60_000);
    expect(new Set(times.map((ms) => Math.floor(ms / 60_000)))).toEqual(new Set(expected.map((l) => wall(new Date(l.scanned_at)))));

    // As a spreadsheet user sees it: Calc renders the date cells in the ja order, the name as is.
    const shown = parse((await convertWithLibreOffice(file.rawPayload, 'xlsx', 'csv')).toString('utf8'), { bom: true }) as string[][];
    expect(shown).toHaveLength(expected.length + 1);
    const shownTimes = new Set(shown.slice(1).map((r) => r[timeColumn - 1]));
    expect(shownTimes).toEqual(new Set(expected.map((l) => formatEventTime(l.scanned_at, 'ja', offsetMinutes))));
    for (const text of shownTimes) expect(text).toMatch(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}$/);
    expect(new Set(shown.slice(1).map((r) => r[countryColumn - 1]))).toEqual(new Set(['シンガポール']));
  });

  it('a vi CSV export writes dates and country names as Vietnamese does', async () => {
    const exported = await post(t.app, '/oga/leads/exports', { format: 'csv', filters: { country: 'JP' } }, demo, { headers: { language: 'vi' } });
    const file = await t.app.inject({ method: 'GET', url: `/oga/leads/exports/${exported.data.id}/file`, headers: { authorization: `Bearer ${demo}` } });
    const records = parse(file.rawPayload.toString('utf8'), { bom: true }) as string[][];
    const header = records[0]!;
    const countryColumn = header.indexOf(translate('vi', 'leads.field.country'));
    const timeColumn = header.findIndex((h) => h.startsWith(translate('vi', 'leads.field.scannedAt')));
    expect(header[timeColumn]).toContain('(UTC+08:00)');
    expect(new Set(records.slice(1).map((r) => r[countryColumn]))).toEqual(new Set([countryName('JP', 'vi')]));
    expect(countryName('JP', 'vi')).toBe('Nhật Bản');
    for (const row of records.slice(1)) expect(row[timeColumn]).toMatch(/^\d{2}:\d{2} \d{2}\/\d{2}\/\d{4}$/);
  });
});
