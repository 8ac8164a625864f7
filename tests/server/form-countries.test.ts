import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationProvider } from '../../src/server/db/migrations';
import { translate } from '../../src/server/lib/messages';
import { firstSheet } from '../support/xlsx';
import { bodyOf, createTestApp, ENGINES, get, login, post, type TestApp } from './helpers';

// L1: the forms' country fields hold ISO 3166-1 alpha-2 codes (the `country` keyword):
// a code is accepted, anything else refused with the field's message in the user's language;
// migration 0027 turns the English names (and nationalities) stored before into codes and keeps
// what names no country as typed; the organiser's export names countries in the reader's language.

const invitation = (country: string, name = 'Nguyễn Thị Lan') => ({
  name,
  company: 'Saigon Fine Foods',
  jobTitle: 'Purchasing Director',
  email: `${name.replace(/[^A-Za-z]/g, '').toLowerCase()}@saigon-fine-foods.example`,
  country,
});

describe.each(ENGINES)('country fields of the forms on %s', (engine) => {
  let t: TestApp;
  let demo: string;
  let organiser: string;
  let demoParticipation: number;

  beforeAll(async () => {
    t = await createTestApp(engine);
    [demo, organiser] = await Promise.all([login(t.app, 'demo'), login(t.app, 'organiser')]);
    demoParticipation = (await t.app.db.selectFrom('users').select('participation_id').where('login_key', '=', 'demo').executeTakeFirstOrThrow()).participation_id!;
  });
  afterAll(async () => t?.close());

  it('a made-up code is refused with the message in the caller’s language, and nothing is stored', async () => {
    const before = await t.app.db.selectFrom('form_entries').select('id').where('participation_id', '=', demoParticipation).where('form_id', '=', 'vip').executeTakeFirst();
    const answer = await post(t.app, '/oga/forms/vip/submit', { data: { invitations: [invitation('XX')] }, version: 0 }, demo, { headers: { language: 'ja' } });
    expect(answer).toMatchObject({ code: 601, error: 'validationFailed', msg: translate('ja', 'errors.validationFailed') });
    expect(answer.data.errors).toEqual([{ path: '/invitations/0/country', key: 'validation.country', params: {} }]);
    expect(translate('ja', 'validation.country')).toBe('一覧から国または地域を選んでください。');
    // A name is no code either, even a country's: the widget stores the code.
    const named = await post(t.app, '/oga/forms/vip/submit', { data: { invitations: [invitation('Viet Nam')] }, version: 0 }, demo);
    expect(named.data.errors).toEqual([{ path: '/invitations/0/country', key: 'validation.country', params: {} }]);
    const after = await t.app.db.selectFrom('form_entries').select('id').where('participation_id', '=', demoParticipation).where('form_id', '=', 'vip').executeTakeFirst();
    expect(after).toEqual(before);
  });

  it('a code is accepted; the organiser’s submissions export names it in the organiser’s language', async () => {
    const version = ((await get(t.app, '/oga/forms/vip', demo)).data.entry?.version as number | undefined) ?? 0;
    const answer = await post(t.app, '/oga/forms/vip/submit', { data: { invitations: [invitation('VN'), invitation('JP', 'Sato Hanako')] }, version }, demo);
    expect(bodyOf(answer)).toMatchObject({ code: 200 });
    expect((await get(t.app, '/oga/forms/vip', demo)).data.entry.submittedData.invitations.map((i: { country: string }) => i.country)).toEqual(['VN', 'JP']);

    const response = await t.app.inject({
      method: 'GET',
      url: '/oga/organiser/submissions/vip/export',
      headers: { authorization: `Bearer ${organiser}`, 'accept-language': 'ja' },
    });
    expect(response.statusCode).toBe(200);
    const { header, rows, cell } = await firstSheet(response.rawPayload);
    expect(header).toContain(translate('ja', 'forms.vip.country'));
    const countries = rows.map((row) => String(cell(row, translate('ja', 'forms.vip.country'))));
    expect(countries).toEqual(expect.arrayContaining(['ベトナム', '日本']));
  });

  it('migration 0027 turns stored names and nationalities into codes and keeps what names no country as typed', async () => {
    const applicant = (nationality: string, embassyCountry: string) => ({ fullName: 'Tan Wei Ming', nationality, placeOfBirth: 'Japan', embassyCountry, embassyCity: 'Guangzhou' });
    const draft = {
      applicants: [applicant('Chinese', 'China'), applicant('Malaysian', 'viet nam'), applicant('Borneo Republic', '日本'), applicant('', 'SG')],
      confirmTruth: true,
    };
    const submitted = { applicants: [applicant('Vietnamese', 'Viet Nam')], confirmTruth: true };
    await t.app.db.deleteFrom('form_entries').where('participation_id', '=', demoParticipation).where('form_id', 'in', ['s06', 's03']).execute();
    await t.app.db
      .insertInto('form_entries')
      .values([
        {
          participation_id: demoParticipation,
          form_id: 's06',
          data: JSON.stringify(draft),
          submitted_data: JSON.stringify(submitted),
          status: 'submitted',
          submitted_at: new Date(),
        },
        {
          participation_id: demoParticipation,
          form_id: 's03',
          data: JSON.stringify({ contractor: { company: 'KL Stand Works', state: 'Selangor', country: 'Malaysia' } }),
          status: 'draft',
        },
      ])
      .execute();

    const migration = (await migrationProvider.getMigrations())['0027_form_countries']!;
    await migration.up(t.app.db);

    const rows = await t.app.db
      .selectFrom('form_entries')
      .select(['form_id', 'data', 'submitted_data'])
      .where('participation_id', '=', demoParticipation)
      .where('form_id', 'in', ['s06', 's03'])
      .execute();
    const s06 = rows.find((row) => row.form_id === 's06')!;
    const pairs = (data: unknown) => (data as typeof draft).applicants.map((a) => [a.nationality, a.embassyCountry]);
    expect(pairs(s06.data)).toEqual([
      ['CN', 'CN'],
      ['MY', 'VN'],
      ['Borneo Republic', 'JP'],
      ['', 'SG'],
    ]);
    expect(pairs(s06.submitted_data)).toEqual([['VN', 'VN']]);
    // Only the country fields: a place of birth that happens to be a country's name is text.
    expect((s06.data as typeof draft).applicants.map((a) => a.placeOfBirth)).toEqual(['Japan', 'Japan', 'Japan', 'Japan']);
    expect(rows.find((row) => row.form_id === 's03')!.data).toEqual({ contractor: { company: 'KL Stand Works', state: 'Selangor', country: 'MY' } });
    // The exhibitor's form reads the kept value as typed.
    expect((await get(t.app, '/oga/forms/s06', demo)).data.entry.data.applicants[2].nationality).toBe('Borneo Republic');
  });
});
