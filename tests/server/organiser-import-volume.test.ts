import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../../src/server/lib/messages';
import { createTestApp, ENGINES, login, type TestApp } from './helpers';

// The exhibitor import at a show's size, stored set-based: a file of 5,000 rows mixing changed,
// new, unchanged, duplicate and bad rows gives exact counts, problems, audit record and webhook
// messages; importing the same file again writes nothing; a failure while storing leaves nothing
// half-stored.

const HEADERS = ['Exhibitor code', 'Exhibitor name', 'Booth', 'E-mail', 'Modules', 'Quota: Exhibitor badges'];
const EXISTING = 4000;
const NEW = 989;
const code = (i: number) => `VX${String(i).padStart(5, '0')}`;

function upload(app: FastifyInstance, token: string, rows: string[][], query = '', language = 'en') {
  const boundary = `----volume-${randomBytes(6).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="exhibitors.csv"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    Buffer.from(rows.map((row) => row.join(',')).join('\r\n')),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return app
    .inject({
      method: 'POST',
      url: `/oga/organiser/exhibitors/import${query}`,
      payload,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, language, authorization: `Bearer ${token}` },
    })
    .then((response) => response.json());
}

/** An exhibitor's row as first imported. */
const first = (i: number) => [code(i), `Volume ${i}`, `V-${i}`, `vx${i}@vol.example`, 'Forms;Support', '3'];

/** The second file's row of an existing exhibitor: the first 1,000 change one part each (name, booth, e-mail, quota), the rest are equal. */
function second(i: number): string[] {
  const row = first(i);
  if (i <= 250) row[1] = `Volume ${i} renamed`;
  else if (i <= 500) row[2] = `V-${i}b`;
  else if (i <= 750) row[3] = `vx${i}@new.example`;
  else if (i <= 1000) row[5] = '9';
  return row;
}

const TABLES = ['exhibitors', 'participations', 'users', 'quotas', 'deadlines', 'audit_log', 'webhook_deliveries'] as const;

describe.each(ENGINES)('exhibitor import of 5,000 rows (%s)', (engine) => {
  let t: TestApp;
  let organiser: string;
  let eventId: number;
  let demoBooth: string;

  /** Every row of the tables an import writes, with its row version (xmin): equal means nothing was inserted, updated or deleted. */
  const versions = async () => {
    const state: Record<string, string> = {};
    for (const table of TABLES) {
      const { rows } = await sql<{ state: string | null }>`select md5(string_agg(id::text || ':' || xmin::text, ',' order by id)) as state from ${sql.table(table)}`.execute(
        t.app.db,
      );
      state[table] = rows[0]?.state ?? '';
    }
    return state;
  };
  const count = async (table: (typeof TABLES)[number]) => {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(t.app.db);
    return rows[0]!.n;
  };

  // The second file: 2,500 existing exhibitors, 989 new ones, 11 refused rows, the other 1,500 existing ones (1,000 changed in all).
  const file: string[][] = [HEADERS];
  const expectedProblems: Array<[number, string, string]> = [];

  beforeAll(async () => {
    t = await createTestApp(engine);
    organiser = await login(t.app, 'organiser');
    const user = await t.app.db.selectFrom('users').select('event_id').where('login_key', '=', 'organiser').executeTakeFirstOrThrow();
    eventId = user.event_id!;
    const event = await t.app.db.selectFrom('events').select(['organisation_id', 'default_flags']).where('id', '=', eventId).executeTakeFirstOrThrow();
    const booth = await t.app.db.selectFrom('participations').select('booth_num').where('event_id', '=', eventId).where('booth_num', '<>', '').executeTakeFirstOrThrow();
    demoBooth = booth.booth_num;
    // A receiver of new exhibitors (switched off, so nothing is sent while the test runs: its messages wait in the queue).
    await t.app.db
      .insertInto('webhook_endpoints')
      .values({
        participation_id: null,
        organisation_id: event.organisation_id,
        url: 'https://receiver.example/hooks',
        events: JSON.stringify(['exhibitor.created']),
        secret: 'whsec_dGVzdHNlY3JldHRlc3RzZWNyZXQ=',
        previous_secret: null,
        previous_secret_until: null,
        enabled: false,
        disabled_reason: 'test',
        failing_since: null,
        created_by: null,
      })
      .execute();

    // The exhibitors as a first import of `first(i)` rows stores them, made set-based.
    await sql`insert into exhibitors (organisation_id, code, name, legal_name, logo_url)
      select ${event.organisation_id}, 'VX' || lpad(i::text, 5, '0'), 'Volume ' || i, '', '' from generate_series(1, ${EXISTING}) as i`.execute(t.app.db);
    await sql`insert into participations (exhibitor_id, event_id, booth_num, displayed_modules, flags)
      select e.id, ${eventId}, 'V-' || substr(e.code, 3)::int, '["Forms","Support"]'::jsonb, ${JSON.stringify(event.default_flags)}::jsonb
      from exhibitors e where e.organisation_id = ${event.organisation_id} and e.code like 'VX0%'`.execute(t.app.db);
    await sql`insert into users (login, login_key, email, display_name, password_hash, role, participation_id, event_id, organisation_id, status, lead_quota, created_by)
      select m, m, m, e.name, 'locked', 'exhibitor', p.id, ${eventId}, null, 'active', null, null
      from participations p join exhibitors e on e.id = p.exhibitor_id, lateral (select 'vx' || substr(e.code, 3)::int || '@vol.example' as m) as mail
      where p.event_id = ${eventId} and e.code like 'VX0%'`.execute(t.app.db);
    await sql`insert into quotas (event_id, participation_id, name, value)
      select ${eventId}, p.id, 'badges', 3 from participations p join exhibitors e on e.id = p.exhibitor_id where p.event_id = ${eventId} and e.code like 'VX0%'`.execute(t.app.db);
    const check = await upload(t.app, organiser, [HEADERS, ...Array.from({ length: EXISTING }, (_, i) => first(i + 1))]);
    expect(check.data).toMatchObject({ rows: EXISTING, good: EXISTING, created: 0, updated: 0, unchanged: EXISTING, problems: [] });

    for (let i = 1; i <= EXISTING; i++) file.push(second(i));
    file.splice(1 + 2500, 0, ...Array.from({ length: NEW }, (_, i) => first(EXISTING + i + 1)));
    const refused: string[][] = [
      ...[2001, 2002, 2003, 2004, 2005].map((i) => [code(i), `Again ${i}`, `D-${i}`, `dup${i}@vol.example`, '', '']),
      ...[1, 2, 3, 4].map((k) => [`VXE${k}`, `Same mail ${k}`, `E-${k}`, `vx${EXISTING + k}@vol.example`, '', '']),
      ['VXBAD', 'Bad Mail', 'B-1', 'not-an-email', '', ''],
      ['VXBOOTH', 'Taken Booth', demoBooth, 'booth@vol.example', '', ''],
    ];
    file.splice(1 + 2500 + NEW, 0, ...refused);
    const rowOf = (cells: string[]) => file.findIndex((row) => row === cells) + 1;
    const firstRowOfCode = (value: string) => file.findIndex((row) => row[0] === value) + 1;
    const firstRowOfMail = (value: string) => file.findIndex((row) => row[3] === value) + 1;
    // A repeated code names the stored exhibitor, whose account ID (kept: the file has no such column) the first row already holds.
    for (const row of refused.slice(0, 5))
      expectedProblems.push([rowOf(row), 'code', `duplicateInFile:${firstRowOfCode(row[0]!)}`], [rowOf(row), 'account', `duplicateInFile:${firstRowOfCode(row[0]!)}`]);
    // Without an account column the account ID is the e-mail, so a repeated e-mail is a repeated account ID.
    for (const row of refused.slice(5, 9)) expectedProblems.push([rowOf(row), 'account', `duplicateInFile:${firstRowOfMail(row[3]!)}`]);
    expectedProblems.push([rowOf(refused[9]!), 'email', 'errors.emailInvalid']);
    expectedProblems.push([rowOf(refused[10]!), 'boothNum', 'organiser.validation.boothTaken']);
  }, 120_000);
  afterAll(() => t?.close());

  /** The expected problem list as the route answers it in `language`. */
  const answered = (language: 'en' | 'ja', problems = expectedProblems) =>
    problems.map(([row, column, what]) => {
      const [key, firstRow] = what.startsWith('duplicateInFile:') ? ['organiser.import.duplicateInFile', Number(what.split(':')[1])] : [what, undefined];
      return {
        row,
        column: translate(language, `organiser.import.columns.${column}`),
        key,
        problem: translate(language, key, firstRow === undefined ? {} : { row: firstRow }),
      };
    });

  it('a dry run of 5,000 mixed rows counts new, changed and unchanged rows exactly, reports the refused ones in the organiser language and stores nothing', async () => {
    const before = await versions();
    const dry = await upload(t.app, organiser, file, '', 'ja');
    expect(dry.code).toBe(200);
    expect(dry.data).toMatchObject({ dryRun: true, rows: 5000, good: EXISTING + NEW, created: NEW, updated: 1000, unchanged: EXISTING - 1000 });
    expect(dry.data.problems).toEqual(answered('ja'));
    expect(await versions()).toEqual(before);
  });

  it('the commit stores exactly the changed and new rows, one audit record naming them and one webhook message per new exhibitor; unchanged rows are not written', async () => {
    const participationsBefore = await count('participations');
    const deliveriesBefore = await count('webhook_deliveries');
    // The row versions of the exhibitors the file leaves as they are.
    const untouched = () =>
      sql<{ state: string }>`select md5(string_agg(concat_ws(':', p.id, p.xmin, e.xmin, u.xmin, q.xmin), ',' order by p.id)) as state
        from participations p join exhibitors e on e.id = p.exhibitor_id
        join users u on u.participation_id = p.id and u.role = 'exhibitor'
        join quotas q on q.participation_id = p.id
        where p.event_id = ${eventId} and e.code between ${code(1001)} and ${code(EXISTING)}`
        .execute(t.app.db)
        .then((result) => result.rows[0]!.state);
    const unchangedBefore = await untouched();

    const committed = await upload(t.app, organiser, file, '?commit=true');
    expect(committed.data).toMatchObject({ dryRun: false, rows: 5000, good: EXISTING + NEW, created: NEW, updated: 1000, unchanged: EXISTING - 1000 });
    expect(committed.data.problems).toEqual(answered('en'));
    expect(await untouched()).toBe(unchangedBefore);
    expect(await count('participations')).toBe(participationsBefore + NEW);

    const stored = await t.app.db
      .selectFrom('participations')
      .innerJoin('exhibitors', 'exhibitors.id', 'participations.exhibitor_id')
      .innerJoin('users', (join) => join.onRef('users.participation_id', '=', 'participations.id').on('users.role', '=', 'exhibitor'))
      .innerJoin('quotas', (join) => join.onRef('quotas.participation_id', '=', 'participations.id').on('quotas.name', '=', 'badges'))
      .select(['exhibitors.code', 'exhibitors.name', 'participations.booth_num', 'participations.displayed_modules', 'users.email', 'users.login_key', 'quotas.value'])
      .where('participations.event_id', '=', eventId)
      .where('exhibitors.code', 'like', 'VX%')
      .orderBy('exhibitors.code')
      .execute();
    // One main login and one quota per exhibitor: nothing doubled, nothing missing.
    expect(stored).toHaveLength(EXISTING + NEW);
    const expected = [...Array.from({ length: EXISTING }, (_, i) => second(i + 1)), ...Array.from({ length: NEW }, (_, i) => first(EXISTING + i + 1))]; // by code
    expect(stored.map((row) => [row.code, row.name, row.booth_num, row.email, (row.displayed_modules as string[]).join(';'), String(row.value)])).toEqual(expected);
    // The account ID stays what it was when only the e-mail changes; a new exhibitor's is its e-mail.
    expect(stored.find((row) => row.code === code(600))!.login_key).toBe('vx600@vol.example');
    expect(stored.find((row) => row.code === code(EXISTING + 1))!.login_key).toBe(`vx${EXISTING + 1}@vol.example`);

    const audit = await t.app.db.selectFrom('audit_log').select(['after']).where('action', '=', 'exhibitor.import').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(audit.after).toEqual({
      file: 'exhibitors.csv',
      created: Array.from({ length: NEW }, (_, i) => code(EXISTING + i + 1)),
      updated: Array.from({ length: 1000 }, (_, i) => code(i + 1)),
      unchanged: EXISTING - 1000,
      refusedRows: [...new Set(expectedProblems.map(([row]) => row))],
    });
    const messages = await t.app.db.selectFrom('webhook_deliveries').select(['message_id', 'payload']).where('event_type', '=', 'exhibitor.created').orderBy('id').execute();
    expect(messages.length - deliveriesBefore).toBe(NEW);
    expect(new Set(messages.map((m) => m.message_id)).size).toBe(messages.length);
    const newIds = await t.app.db
      .selectFrom('participations')
      .innerJoin('exhibitors', 'exhibitors.id', 'participations.exhibitor_id')
      .select(['participations.id', 'exhibitors.code'])
      .where('exhibitors.code', '>', code(EXISTING))
      .where('exhibitors.code', 'like', 'VX0%')
      .orderBy('exhibitors.code')
      .execute();
    expect(messages.slice(-NEW).map((m) => (JSON.parse(m.payload) as { data: unknown }).data)).toEqual(newIds.map((row) => ({ eventId, participationId: row.id, code: row.code })));
  });

  it('importing the same file again writes nothing: no row inserted, updated or deleted, no audit record, no message', async () => {
    const before = await versions();
    const again = await upload(t.app, organiser, file, '?commit=true');
    expect(again.data).toMatchObject({ dryRun: false, rows: 5000, good: EXISTING + NEW, created: 0, updated: 0, unchanged: EXISTING + NEW });
    expect(await versions()).toEqual(before);
  });

  it('a failure while storing (a constraint refusing one new login) leaves nothing of the import stored', async () => {
    await sql`alter table users add constraint test_refuses_one_login check (login_key <> 'fail@vol.example')`.execute(t.app.db);
    try {
      const changed = [HEADERS, ...Array.from({ length: 300 }, (_, i) => second(i + 1).map((cell, at) => (at === 1 ? `${cell} again` : cell)))];
      changed.push(['VXFAIL1', 'Stored First', 'F-1', 'fine@vol.example', '', '4'], ['VXFAIL2', 'Refused Login', 'F-2', 'fail@vol.example', '', '4']);
      const dry = await upload(t.app, organiser, changed);
      expect(dry.data).toMatchObject({ good: 302, created: 2, updated: 300 });
      const before = await versions();
      const failed = await upload(t.app, organiser, changed, '?commit=true');
      expect(failed.code).not.toBe(200);
      expect(await versions()).toEqual(before);
      expect(await t.app.db.selectFrom('exhibitors').select('id').where('code', 'in', ['VXFAIL1', 'VXFAIL2']).execute()).toEqual([]);
    } finally {
      await sql`alter table users drop constraint test_refuses_one_login`.execute(t.app.db);
    }
  });

  it('an import meeting another store of the same keys (a unique index refusing a row) is refused whole with a message in the organiser language, not a 500', async () => {
    // Stands in for two imports committing the same new code at once: the later one meets the
    // unique index after its own checks passed.
    await sql`create unique index test_one_clash on exhibitors ((1)) where name like 'Clash %'`.execute(t.app.db);
    try {
      const clashing = [HEADERS, ['VXCLASH1', 'Clash One', 'C-1', 'clash1@vol.example', '', '2'], ['VXCLASH2', 'Clash Two', 'C-2', 'clash2@vol.example', '', '2']];
      const before = await versions();
      const refused = await upload(t.app, organiser, clashing, '?commit=true', 'ja');
      expect(refused.code).toBe(601);
      expect(refused.msg).toBe(translate('ja', 'errors.importConcurrentChange'));
      expect(await versions()).toEqual(before);
      expect(await t.app.db.selectFrom('exhibitors').select('id').where('code', 'in', ['VXCLASH1', 'VXCLASH2']).execute()).toEqual([]);
    } finally {
      await sql`drop index test_one_clash`.execute(t.app.db);
    }
  });
});
