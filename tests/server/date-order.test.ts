import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatEventTime } from '../../src/engine/locale-format';
import { translate } from '../../src/server/lib/messages';
import { pdfText } from '../support/pdf-text';
import { setParticipationDeadline } from '../support/settings';
import { bodyOf, createTestApp, ENGINES, get, login, post, put, type TestApp } from './helpers';

// K2 L1: the event decides the order of day, month and year (an ASEAN show in English writes
// 26/03/2027, not 03/26/2027); the reader's language keeps its words. The organiser sets it on
// the event (audited); pages get it in account info and event lists; exports, documents and
// e-mails write their dates in it.

describe.each(ENGINES)('K2 the event date order (%s)', (engine) => {
  let t: TestApp;
  let organiser: string;
  let demo: string;
  let eventId: number;
  let participationId: number;
  let offsetMinutes: number;

  /** The demo event as the console reads it, without its id (which the save does not take). */
  const eventAsRead = async () => {
    const { id: _id, ...input } = (await get(t.app, `/oga/organiser/events/${eventId}`, organiser)).data as Record<string, unknown>;
    return input;
  };
  const storedOrder = async () => (await t.app.db.selectFrom('events').select('date_order').where('id', '=', eventId).executeTakeFirstOrThrow()).date_order;

  beforeAll(async () => {
    t = await createTestApp(engine);
    [organiser, demo] = await Promise.all([login(t.app, 'organiser'), login(t.app, 'demo')]);
    const event = await t.app.db.selectFrom('events').select(['id', 'utc_offset_minutes']).where('code', '=', 'AFHE2027').executeTakeFirstOrThrow();
    eventId = event.id;
    offsetMinutes = event.utc_offset_minutes;
    participationId = (await t.app.db.selectFrom('users').select('participation_id').where('login_key', '=', 'demo').executeTakeFirstOrThrow()).participation_id!;
  });
  afterAll(async () => t?.close());

  it("an existing event keeps today's dates: each reader's language's order", async () => {
    expect((await eventAsRead()).dateOrder).toBe('language');
    expect((await get(t.app, '/oga/system/project/exhibirotCode', demo)).data.dateOrder).toBe('language');
  });

  it('refuses an order it does not know with a coded message, and keeps the stored one', async () => {
    for (const dateOrder of ['dym', '', 'DMY', 3]) {
      const refused = await put(t.app, `/oga/organiser/events/${eventId}`, { ...(await eventAsRead()), dateOrder }, organiser, { headers: { language: 'ja' } });
      expect(refused.status, String(dateOrder)).toBe(400);
      expect(bodyOf(refused)).toMatchObject({ error: 'badRequest', msg: translate('ja', 'errors.badRequest') });
      expect(JSON.stringify(refused.data)).toContain('dateOrder');
    }
    expect(await storedOrder()).toBe('language');
  });

  it('saves day-month-year, audits it with its before and after, and sends it with account info and the event lists', async () => {
    const saved = await put(t.app, `/oga/organiser/events/${eventId}`, { ...(await eventAsRead()), dateOrder: 'dmy' }, organiser);
    expect(bodyOf(saved)).toMatchObject({ code: 200 });
    expect(await storedOrder()).toBe('dmy');
    expect((await eventAsRead()).dateOrder).toBe('dmy');

    const audit = await t.app.db
      .selectFrom('audit_log')
      .select(['before', 'after'])
      .where('action', '=', 'event.update')
      .where('subject_id', '=', String(eventId))
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect((audit.before as { dateOrder: string }).dateOrder).toBe('language');
    expect((audit.after as { dateOrder: string }).dateOrder).toBe('dmy');

    expect((await get(t.app, '/oga/system/project/exhibirotCode', demo)).data.dateOrder).toBe('dmy');
    expect((await get(t.app, '/oga/system/project/exhibirotCode', organiser)).data.dateOrder).toBe('dmy');
    const events = (await get(t.app, '/oga/system/project/findAll', demo)).data as Array<{ exhibitCode: string; dateOrder: string }>;
    expect(events.find((event) => event.exhibitCode === 'AFHE2027')?.dateOrder).toBe('dmy');
    const organiserEvents = (await get(t.app, '/oga/organiser/events', organiser)).data as Array<{ id: number; dateOrder: string }>;
    expect(organiserEvents.find((event) => event.id === eventId)?.dateOrder).toBe('dmy');

    // A save that does not send the order (an older client) keeps it.
    const { dateOrder: _order, ...withoutOrder } = await eventAsRead();
    expect(bodyOf(await put(t.app, `/oga/organiser/events/${eventId}`, withoutOrder, organiser))).toMatchObject({ code: 200 });
    expect(await storedOrder()).toBe('dmy');
  });

  it("a lead export in English writes the event's day-month-year: CSV text and spreadsheet date cells", async () => {
    await t.app.db.updateTable('events').set({ date_order: 'dmy' }).where('id', '=', eventId).execute();
    const expected = await t.app.db.selectFrom('leads').select('scanned_at').where('participation_id', '=', participationId).where('country', '=', 'SG').execute();
    expect(expected.length).toBeGreaterThan(0);

    const csv = await post(t.app, '/oga/leads/exports', { format: 'csv', filters: { country: 'SG' } }, demo);
    const csvFile = await t.app.inject({ method: 'GET', url: `/oga/leads/exports/${csv.data.id}/file`, headers: { authorization: `Bearer ${demo}` } });
    const records = parse(csvFile.rawPayload.toString('utf8'), { bom: true }) as string[][];
    const timeColumn = records[0]!.findIndex((h) => h.startsWith(translate('en', 'leads.field.scannedAt')));
    const shown = new Set(records.slice(1).map((row) => row[timeColumn]));
    expect(shown).toEqual(new Set(expected.map((lead) => formatEventTime(lead.scanned_at, { language: 'en', dateOrder: 'dmy' }, offsetMinutes))));
    for (const text of shown) expect(text).toMatch(/^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}$/);
    // Day first: the day of the month is the first field (a day above 12 shows it cannot be the month).
    const first = expected[0]!.scanned_at;
    expect(formatEventTime(first, { language: 'en', dateOrder: 'dmy' }, offsetMinutes).slice(0, 2)).toBe(formatEventTime(first, 'en', offsetMinutes).slice(3, 5));

    const xlsx = await post(t.app, '/oga/leads/exports', { format: 'xlsx', filters: { country: 'SG' } }, demo);
    const xlsxFile = await t.app.inject({ method: 'GET', url: `/oga/leads/exports/${xlsx.data.id}/file`, headers: { authorization: `Bearer ${demo}` } });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsxFile.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const header = (sheet.getRow(1).values as string[]).slice(1);
    const cell = sheet.getRow(2).getCell(header.findIndex((h) => h.startsWith(translate('en', 'leads.field.scannedAt'))) + 1);
    expect(cell.type).toBe(ExcelJS.ValueType.Date);
    expect(cell.numFmt).toBe('dd/mm/yyyy, hh:mm');
  });

  it("a visa letter in English writes its days in words in the event's order", async () => {
    await t.app.db.updateTable('events').set({ date_order: 'dmy' }).where('id', '=', eventId).execute();
    const applicant = {
      fullName: 'Tan Wei Ming',
      gender: 'male',
      nationality: 'MY',
      dateOfBirth: '1988-07-21',
      placeOfBirth: 'Kuching',
      passportNumber: 'A12345678',
      passportPlaceOfIssue: 'Kuching',
      passportDateOfIssue: '2022-02-01',
      passportDateOfExpiry: '2032-01-31',
      dateOfArrival: '2027-03-02',
      dateOfDeparture: '2027-03-09',
      durationOfStay: 8,
      embassyCountry: 'MY',
      embassyCity: 'Kuala Lumpur',
      email: 'a12345678@borneo-botanica.example',
    };
    const data = JSON.stringify({ applicants: [applicant], confirmTruth: true });
    await t.app.db.deleteFrom('form_entries').where('participation_id', '=', participationId).where('form_id', '=', 's06').execute();
    await t.app.db
      .insertInto('form_entries')
      .values({
        participation_id: participationId,
        form_id: 's06',
        data,
        submitted_data: data,
        status: 'submitted',
        submitted_at: new Date('2026-11-05T20:30:00.000Z'),
        updated_at: new Date('2026-11-05T20:30:00.000Z'),
      })
      .execute();
    const letter = await t.app.inject({ method: 'GET', url: '/oga/forms/s06/documents/invitationLetter/0.pdf', headers: { authorization: `Bearer ${demo}` } });
    expect(letter.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(letter.rawPayload);
    // Submitted at 04:30 on 6 November in the event's time (UTC+08:00).
    expect(text).toContain('Date of issue: 6 November 2026');
    expect(text).toContain('21 July 1988');
    expect(text).not.toContain('July 21, 1988');
  });

  it("the reminder e-mail in English writes the deadline in the event's day-month-year", async () => {
    await t.app.db.updateTable('events').set({ date_order: 'dmy' }).where('id', '=', eventId).execute();
    await t.app.db.updateTable('users').set({ language: 'en' }).where('login_key', '=', 'demo').execute();
    // 14:30 on 26 March 2027 at the show (UTC+08:00).
    await setParticipationDeadline(t.app.db, participationId, 'badges', new Date('2027-03-26T06:30:00.000Z'));
    const sent = await post(t.app, '/oga/organiser/reminders/send', { participationIds: [participationId] }, organiser);
    expect(sent.data).toMatchObject({ sent: 1 });
    const email = (await t.app.db.selectFrom('users').select('email').where('login_key', '=', 'demo').executeTakeFirstOrThrow()).email;
    const mail = await t.app.db
      .selectFrom('mail_outbox')
      .select('text_body')
      .where('kind', '=', 'reminder')
      .where('to_address', '=', email)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(mail.text_body).toContain('26/03/2027, 14:30 (UTC+08:00)');
    expect(mail.text_body).not.toContain('03/26/2027');
  });
});
