import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { interpolate, lookup, type LocaleTable } from '../../src/engine/i18n';
import { createTestApp, ENGINES, get, login, post, put, type Answer, type TestApp } from './helpers';

// Odd input never answers 500. NUL characters in any text, lone UTF-16 surrogates,
// whole numbers past PostgreSQL's integer, JSON nested 5,000 deep: a 400 with a coded message
// in the caller's language, and nothing stored. Names refuse control characters and
// text-direction overrides.

const localeTable = (language: string) => JSON.parse(readFileSync(new URL(`../../locales/${language}.json`, import.meta.url), 'utf8')) as LocaleTable;
const message = (language: string, key: string, params: Record<string, string | number> = {}) => interpolate(lookup(localeTable(language), key)!, params);

const DEEP = '['.repeat(5000) + ']'.repeat(5000);

describe.each(ENGINES)('odd input on %s', (engine) => {
  let t: TestApp;
  let demo: string;
  let organiser: string;
  let leadId: number;
  beforeAll(async () => {
    t = await createTestApp(engine);
    demo = await login(t.app, 'demo');
    organiser = await login(t.app, 'organiser');
    leadId = ((await get(t.app, '/oga/leads', demo)).data.items as Array<{ id: number }>)[0]!.id;
  });
  afterAll(async () => t?.close());

  const raw = async (method: 'POST' | 'PUT', url: string, payload: string, token?: string, language = 'en'): Promise<Answer> => {
    const response = await t.app.inject({
      method,
      url,
      payload,
      headers: { 'content-type': 'application/json', language, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
    return Object.assign(response.json(), { status: response.statusCode, headers: response.headers });
  };

  const expectRefused = (answer: Answer, error: string, params: Record<string, string | number> = {}, language = 'en') => {
    expect(answer.status, JSON.stringify(answer)).toBe(400);
    expect(answer.code).toBe(601);
    expect(answer.error).toBe(error);
    expect(answer.msg).toBe(message(language, `errors.${error}`, params));
  };

  it('NUL in the login, lead fields, invitations, comments, drafts and query values answers textNulCharacter', async () => {
    expectRefused(await post(t.app, '/oga/auth/login', { account: 'demo\u0000', password: 'whatever-pass' }), 'textNulCharacter');
    expectRefused(await put(t.app, `/oga/leads/${leadId}`, { leadType: null, temperature: null, followUp: null, notes: 'call back\u0000' }, demo), 'textNulCharacter');
    expectRefused(await post(t.app, '/oga/invitations', { recipients: [{ name: 'Ana\u0000', email: 'ana@example.com' }] }, demo), 'textNulCharacter');
    expectRefused(await post(t.app, '/oga/approvals/1', { decision: 'rejected', comment: 'no\u0000' }, organiser), 'textNulCharacter');
    expectRefused(await put(t.app, '/oga/forms/s04/draft', { data: { badges: [{ name: 'x\u0000' }] }, version: 0 }, demo), 'textNulCharacter');
    expectRefused(await put(t.app, '/oga/forms/s04/draft', { data: { 'key\u0000': 1 }, version: 0 }, demo), 'textNulCharacter');
    expectRefused(await get(t.app, '/oga/leads?keyword=a%00b', demo), 'textNulCharacter');
    expectRefused(await get(t.app, '/oga/leads/1%00', demo), 'textNulCharacter');
    // In the caller's language.
    expectRefused(await raw('POST', '/oga/auth/login', JSON.stringify({ account: 'a\u0000', password: 'b' }), undefined, 'ja'), 'textNulCharacter', {}, 'ja');
    // Nothing stored: the lead keeps its notes, the draft was never created.
    const lead = (await get(t.app, `/oga/leads/${leadId}`, demo)).data.lead as { notes: string };
    expect(lead.notes).not.toContain('\u0000');
    const form = await get(t.app, '/oga/forms/s04', demo);
    expect(JSON.stringify(form.data)).not.toContain('\\u0000');
  });

  it('a lone UTF-16 surrogate in JSON answers textInvalidUnicode', async () => {
    expectRefused(await raw('POST', '/oga/auth/login', '{"account":"\\ud800","password":"whatever-pass"}'), 'textInvalidUnicode');
    expectRefused(await raw('PUT', '/oga/forms/s04/draft', '{"data":{"company":"A\\udc00B"},"version":0}', demo), 'textInvalidUnicode');
    expectRefused(await raw('PUT', `/oga/leads/${leadId}`, '{"leadType":null,"temperature":null,"followUp":null,"notes":"\\ud83d"}', demo, 'vi'), 'textInvalidUnicode', {}, 'vi');
    // A whole pair (an emoji) passes the guard and reaches the lead's own rules.
    const emoji = await raw('PUT', `/oga/leads/${leadId}`, '{"leadType":null,"temperature":null,"followUp":null,"notes":"\\ud83d\\ude00 ok"}', demo);
    expect(emoji.status).toBe(200);
    expect(emoji.error).toBe('validationFailed');
  });

  it('whole numbers above 2,147,483,647 in ids and versions answer numberTooLarge', async () => {
    const int32 = { limit: '2,147,483,647' };
    expectRefused(await post(t.app, '/oga/approvals/2147483648', { decision: 'approved' }, organiser), 'numberTooLarge', int32);
    expectRefused(await put(t.app, '/oga/members/team-users/99999999999', { email: 'x@example.com' }, demo), 'numberTooLarge', int32);
    expectRefused(await put(t.app, '/oga/forms/s04/draft', { data: {}, version: 2147483648 }, demo), 'numberTooLarge', int32);
    expectRefused(await get(t.app, '/oga/leads?scannedBy=2147483648', demo, { headers: { language: 'cn' } }), 'numberTooLarge', int32, 'cn');
    // Lead ids are bigint: past 2^31 an unknown id, past 2^53 too large.
    expect((await get(t.app, '/oga/leads/2147483648', demo)).code).toBe(404);
    expectRefused(await get(t.app, '/oga/leads/99999999999999999999', demo), 'numberTooLarge', { limit: '9,007,199,254,740,991' });
    // The largest integer itself is an ordinary unknown id.
    expect((await post(t.app, '/oga/approvals/2147483647', { decision: 'approved' }, organiser)).code).toBe(404);
  });

  it('JSON nested 5,000 deep answers jsonTooDeep, as a body or inside a value', async () => {
    expectRefused(await raw('PUT', '/oga/forms/s04/draft', DEEP, demo), 'jsonTooDeep', { limit: 64 });
    expectRefused(await raw('PUT', '/oga/forms/s04/draft', `{"data":{"x":${DEEP}},"version":0}`, demo), 'jsonTooDeep', { limit: 64 });
    expectRefused(await raw('POST', '/oga/auth/login', DEEP), 'jsonTooDeep', { limit: 64 });
  });

  it('names with control characters or text-direction overrides answer nameInvalidCharacters', async () => {
    const contractor = (name: string, company = 'Kopi Stands') =>
      post(t.app, '/oga/members/contractors', { account: `odd-${Math.random().toString(36).slice(2, 8)}`, email: 'odd@kopi.example', company, name }, demo);
    expectRefused(await contractor('Dewi\u202Egnp.exe'), 'nameInvalidCharacters');
    expectRefused(await contractor('Dewi', 'Kopi\u0007Stands'), 'nameInvalidCharacters');
    expectRefused(await contractor('Dewi\u2066x'), 'nameInvalidCharacters');
    expectRefused(await post(t.app, '/oga/invitations', { recipients: [{ name: 'Ana\u202E', email: 'ana@example.com' }] }, demo), 'nameInvalidCharacters');
    const stored = await t.app.db.selectFrom('users').select('display_name').where('email', '=', 'odd@kopi.example').execute();
    expect(stored).toEqual([]);
    // Names in any script are fine.
    expect((await contractor('Nguyễn Thị Ánh', '株式会社コーヒー')).code).toBe(200);
  });
});
