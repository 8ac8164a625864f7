import { mkdtempSync, rmSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { createDatabase, startPostgres } from '../../tests/support/postgres';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import type { Database } from '../../src/server/db/schema';
import { progressMatrix } from '../../src/server/lib/progress-matrix';
import { ORGANISER_QUERY_INDEXES } from '../../src/server/db/migrations/0049_organiser_indexes';
import { landedVersion, type Version } from './exhibitor';
import { databaseTime, machineLoad, perOperation, withCpu, type DatabaseTime, percentile } from './work';

// O2 at a big show's size, on PostgreSQL (5,000 exhibitors × every form, S04 with 100 badges
// each = 500,000 badges, 30,000 audit rows a day over 8 weeks) with the embedded database's
// figures on a slice (500 exhibitors): the exhibitors list with each filter (p95 ≤ 50 ms), the
// progress matrix (≤ 100 ms, paged, counts over every exhibitor), the audit log filters
// (≤ 50 ms) and the streamed badges export (≤ 30 s, ≤ 150 MB above rest). The list and audit
// cases run twice on the same data: without the organiser indexes (the index set as landed,
// "before") and with them ("after"); the progress matrix's "before" is the whole matrix in one
// answer, as the page read it. Requests go through app.inject: the figure is the server's own.
// With BENCH_BEFORE=<commit> (see exhibitor.ts) the progress and audit cases also run that
// commit's server on its own copy of the data, case by case beside this one (same machine load).

const EXHIBITORS = Number(process.env.BENCH_EXHIBITORS ?? 5000);
const BADGES_EACH = Number(process.env.BENCH_BADGES_EACH ?? 100);
const AUDIT_PER_DAY = Number(process.env.BENCH_AUDIT_PER_DAY ?? 30_000);
const AUDIT_DAYS = 56;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const BUDGET = { listP95Ms: 50, progressP95Ms: 100, auditP95Ms: 50, exportSeconds: 30, exportRssMb: 150 };
/** `BENCH_ORGANISER_CASES=list,progress,audit,export` measures only those (all when unset). */
const CASES = new Set((process.env.BENCH_ORGANISER_CASES ?? 'list,progress,audit,export').split(',').map((c) => c.trim()));

export async function fill(db: Kysely<Database>, size: { exhibitors: number; badgesEach: number; auditPerDay: number }) {
  const event = await db.selectFrom('events').select(['id', 'organisation_id', 'starts_at']).where('code', '=', 'AFHE2027').executeTakeFirstOrThrow();
  const forms = ['s01', 's02', 's03', 's04', 's05', 's06', 's07', 's08', 'vip'];
  await sql`insert into exhibitors (name, legal_name, logo_url, organisation_id, code)
    select (array['Borneo','Kopi','Mekong','Sakura','Lotus','Jade','Harbour','Saigon'])[1 + g % 8] || ' Bench ' || g, 'Bench Exhibitor ' || g || ' Sdn. Bhd.', '', ${event.organisation_id}, 'BENCH' || g
    from generate_series(1, ${size.exhibitors}) g`.execute(db);
  // Modules and flags vary so each list filter keeps a part of the exhibitors; one in 20 is deactivated.
  await sql`insert into participations (exhibitor_id, event_id, booth_num, displayed_modules, flags, status)
    select id, ${event.id}, 'Hall ' || (id % 9 + 1) || ' · ' || id,
      case when id % 4 = 0 then '["Forms","Leads"]'::jsonb else '["Forms"]'::jsonb end,
      case when id % 10 = 0 then '{"vip":true}'::jsonb else '{}'::jsonb end,
      case when id % 20 = 0 then 'disabled' else 'active' end
    from exhibitors where code like 'BENCH%'`.execute(db);
  await sql`insert into users (login, login_key, email, display_name, password_hash, role, participation_id, event_id)
    select 'bench' || p.id, 'bench' || p.id, 'bench' || p.id || '@bench.example', e.name, 'x', 'exhibitor', p.id, p.event_id
    from participations p join exhibitors e on e.id = p.exhibitor_id where e.code like 'BENCH%'`.execute(db);
  const badges = JSON.stringify({
    badges: Array.from({ length: size.badgesEach }, (_, i) => ({
      firstName: `Name${i}`,
      middleName: '',
      lastName: 'Benchmark',
      lastNameFirst: false,
      companyOnBadge: 'Bench Co',
      gender: i % 2 ? 'male' : 'female',
      email: `b${i}@bench.example`,
    })),
  });
  // Every form has an entry for most exhibitors, in every state; S04 holds the badges.
  for (const [index, form] of forms.entries()) {
    await sql`insert into form_entries (participation_id, form_id, data, status, submitted_data, submitted_at, approval_status)
      select p.id, ${form}, ${form === 's04' ? badges : '{}'}::jsonb,
        case when p.id % 3 = 0 and ${form} <> 's04' then 'draft' else 'submitted' end,
        case when p.id % 3 = 0 and ${form} <> 's04' then null else ${form === 's04' ? badges : '{}'}::jsonb end,
        case when p.id % 3 = 0 and ${form} <> 's04' then null else now() end,
        case when p.id % 7 = ${index % 7} then 'pending' else null end
      from participations p join exhibitors e on e.id = p.exhibitor_id where e.code like 'BENCH%' and (${form} = 's04' or p.id % 10 <> ${index})`.execute(db);
  }
  // The audit log: `auditPerDay` rows a day over 8 weeks before the show, by 300 people, in the actions the portal records.
  await sql`insert into audit_log (at, actor_name, actor_role, organisation_id, event_id, participation_id, action, subject_type, subject_id, after, ip)
    select ${event.starts_at}::timestamptz - (${AUDIT_DAYS} * interval '1 day') + (g * (${AUDIT_DAYS} * 86400.0 / ${size.auditPerDay * AUDIT_DAYS})) * interval '1 second',
      (array['Anh','Budi','Chen','Dewi','Emi','Farid','Gita','Hiro','Ivy','Joko'])[1 + g % 10] || ' ' || (array['Nguyen','Santoso','Tanaka','Lim','Wong'])[1 + (g / 10) % 5] || ' ' || (g % 300),
      case when g % 50 = 0 then 'organiser' else 'exhibitor' end,
      ${event.organisation_id}, ${event.id},
      (select min(id) from participations) + g % ${size.exhibitors},
      (array['form.save','form.submit','auth.login','form.save','auth.login','exhibitor.update','form.reopen','reminder.sent','form.decide','content.acknowledge'])[1 + g % 10],
      'form', 's0' || (g % 8 + 1), '{"n":1}'::jsonb, '10.0.0.' || (g % 250)
    from generate_series(1, ${size.auditPerDay * AUDIT_DAYS}) g`.execute(db);
  // As autovacuum leaves a table at rest (its visibility map set, so index-only scans apply).
  await sql`vacuum analyze`.execute(db);
  const count = await db
    .selectFrom('form_entries')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('form_id', '=', 's04')
    .executeTakeFirstOrThrow();
  return { forms: forms.length, badges: Number(count.n) * size.badgesEach, audit: size.auditPerDay * AUDIT_DAYS, startsAt: new Date(event.starts_at), eventId: event.id };
}

const ms = (value: number) => value.toFixed(1).padStart(6);

/** p50/p95 of `work` over the rounds, with CPU and database ms per operation and the machine's load. */
async function measure(work: () => Promise<number>, dbTime: DatabaseTime | null) {
  for (let warm = 0; warm < 2; warm += 1) await work();
  await dbTime?.reset();
  const times: number[] = [];
  let bytes = 0;
  const measured = await withCpu(undefined, async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const started = performance.now();
      bytes = await work();
      times.push(performance.now() - started);
    }
  });
  const dbMs = dbTime ? await dbTime.read() : null;
  return { median: percentile(times, 0.5), p95: percentile(times, 0.95), bytes, work: `${perOperation(ROUNDS, measured.cpuMs, dbMs)}  ${measured.load}` };
}

function line(label: string, figures: Awaited<ReturnType<typeof measure>>, budget: number) {
  return `  ${label.padEnd(44)} p50 ${ms(figures.median)} ms  p95 ${ms(figures.p95)} ms  ${String(Math.round(figures.bytes / 1024)).padStart(5)} kB  ${figures.work}  ${figures.p95 <= budget ? 'met' : 'NOT met'}`;
}

async function setIndexes(db: Kysely<Database>, wanted: boolean) {
  for (const index of ORGANISER_QUERY_INDEXES) {
    if (wanted) await sql.raw(index.create).execute(db);
    else await sql`drop index if exists ${sql.ref(index.name)}`.execute(db);
  }
  await sql`analyze`.execute(db);
}

/** The landed version's server on its own database (filled as this one), measured case by case beside it. */
interface Landed {
  version: Version;
  databaseUrl: string | undefined;
}

async function run(
  engine: 'PostgreSQL' | 'PGlite',
  databaseUrl: string | undefined,
  size: { exhibitors: number; badgesEach: number; auditPerDay: number },
  landed: Landed | null = null,
) {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-organiser-'));
  const app = await buildApp(loadConfig({}, { dataDir, databaseUrl, webDir: join(dataDir, 'none'), logLevel: 'silent' }), { logger: false, mailWorker: false, reminders: false });
  const dbTime = databaseUrl ? await databaseTime(databaseUrl) : null;
  const landedDir = landed ? mkdtempSync(join(tmpdir(), 'portal-bench-organiser-landed-')) : null;
  const landedApp =
    landed && landedDir
      ? await landed.version.buildApp(landed.version.loadConfig({}, { dataDir: landedDir, databaseUrl: landed.databaseUrl, webDir: join(landedDir, 'none'), logLevel: 'silent' }), {
          logger: false,
          mailWorker: false,
          reminders: false,
        })
      : null;
  const landedDbTime = landed?.databaseUrl ? await databaseTime(landed.databaseUrl) : null;
  try {
    const started = performance.now();
    const filled = await fill(app.db, size);
    if (landedApp) await fill(landedApp.db, size);
    console.log(
      `\n(${engine}: ${size.exhibitors} exhibitors × ${filled.forms} forms, ${filled.badges} badges, ${filled.audit} audit rows written in ${((performance.now() - started) / 1000).toFixed(1)} s; ${machineLoad()})`,
    );
    const login = await app.inject({ method: 'POST', url: '/oga/auth/login', payload: { account: 'organiser', password: 'Demo-pass-2026' } });
    const token = (login.json() as { data: { token: string } }).data.token;
    const get =
      (url: string, server: Pick<typeof app, 'inject'> = app, bearer = token) =>
      async () => {
        const answer = await server.inject({ method: 'GET', url, headers: { authorization: `Bearer ${bearer}` } });
        if (answer.statusCode !== 200) throw new Error(`${url}: HTTP ${answer.statusCode} ${answer.body.slice(0, 200)}`);
        return answer.rawPayload.length;
      };
    let landedToken = '';
    if (landedApp) {
      const landedLogin = await landedApp.inject({ method: 'POST', url: '/oga/auth/login', payload: { account: 'organiser', password: 'Demo-pass-2026' } });
      landedToken = (landedLogin.json() as { data: { token: string } }).data.token;
    }
    /** Each case on the landed server, then on this one (when BENCH_BEFORE names one). */
    const sideBySide = async (cases: ReadonlyArray<readonly [string, string]>, path: string, budget: number) => {
      for (const [label, query] of cases) {
        if (landedApp && landed) console.log(line(`${landed.version.label}: ${label}`, await measure(get(`${path}${query}`, landedApp, landedToken), landedDbTime), budget));
        console.log(line(`this branch: ${label}`, await measure(get(`${path}${query}`), dbTime), budget));
      }
    };
    const day = (offset: number) => new Date(filled.startsAt.getTime() - offset * 86_400_000).toISOString().slice(0, 10);
    const sides = [
      ['before', false],
      ['after', true],
    ] as const;

    if (CASES.has('list')) {
      console.log(`\n## Exhibitors list, ${size.exhibitors} exhibitors, ${engine} (p95 budget ${BUDGET.listP95Ms} ms)`);
      const cases = [
        ['first page', ''],
        ['search "mekong 12"', '?keyword=mekong%2012'],
        ['module Leads', '?module=Leads'],
        ['flag vip', '?flag=vip'],
        ['deactivated', '?status=disabled'],
        ['S04 pending approval', '?form=s04&formStatus=pendingApproval'],
        ['S01 draft, page 3 of 50', '?form=s01&formStatus=draft&page=3&limit=50'],
        ['S02 not started', '?form=s02&formStatus=notStarted'],
        ['S04 submitted + search "kopi"', '?form=s04&formStatus=submitted&keyword=kopi'],
        ['last page of 50', '?limit=50&page=100'],
        ['search "bench 4", page 5 of 50', '?keyword=bench%204&limit=50&page=5'],
        ['search "sdn. bhd." (all), page 60 of 50', '?keyword=sdn.%20bhd.&limit=50&page=60'],
      ] as const;
      if (landedApp) await sideBySide(cases, '/oga/organiser/exhibitors', BUDGET.listP95Ms);
      else
        for (const [side, indexes] of sides) {
          await setIndexes(app.db, indexes);
          for (const [label, query] of cases) console.log(line(`${side}: ${label}`, await measure(get(`/oga/organiser/exhibitors${query}`), dbTime), BUDGET.listP95Ms));
        }
    }

    const progressCases = [
      ['first page of 50', '?limit=50'],
      ['page 40 of 50', '?limit=50&page=40'],
      ['mandatory missing, page 2', '?missing=true&limit=50&page=2'],
      ['search "kopi"', '?keyword=kopi&limit=50'],
      ['S04 pending approval', '?form=s04&formStatus=pendingApproval&limit=50'],
      ['S01 draft, page 2', '?form=s01&formStatus=draft&limit=50&page=2'],
      ['any form draft + search "bench 1"', '?formStatus=draft&keyword=bench%201&limit=50'],
    ] as const;
    if (CASES.has('progress') && landedApp) {
      console.log(`\n## Progress matrix, ${size.exhibitors} exhibitors × ${filled.forms} forms, ${engine}, beside the landed version (p95 budget ${BUDGET.progressP95Ms} ms)`);
      await sideBySide(progressCases, '/oga/organiser/progress', BUDGET.progressP95Ms);
    } else if (CASES.has('progress')) {
      console.log(`\n## Progress matrix, ${size.exhibitors} exhibitors × ${filled.forms} forms, ${engine} (p95 budget ${BUDGET.progressP95Ms} ms)`);
      const definitions = app.forms.registry.definitions;
      // As landed: every exhibitor's row in one answer (the page filtered it in the browser).
      await setIndexes(app.db, false);
      const whole = async () => JSON.stringify(await progressMatrix(app, filled.eventId, definitions)).length;
      console.log(line('before: whole matrix, no organiser indexes', await measure(whole, dbTime), BUDGET.progressP95Ms));
      console.log(
        line(
          'before: missing, whole, no organiser indexes',
          await measure(async () => JSON.stringify(await progressMatrix(app, filled.eventId, definitions, { missingOnly: true })).length, dbTime),
          BUDGET.progressP95Ms,
        ),
      );
      await setIndexes(app.db, true);
      for (const [label, query] of progressCases) console.log(line(`after: ${label}`, await measure(get(`/oga/organiser/progress${query}`), dbTime), BUDGET.progressP95Ms));
    }

    if (CASES.has('audit')) {
      console.log(`\n## Audit log, ${filled.audit} rows, ${engine}${landedApp ? ', beside the landed version' : ''} (p95 budget ${BUDGET.auditP95Ms} ms)`);
      const cases = [
        ['first page, no filter', ''],
        ['one day', `?from=${day(10)}&to=${day(10)}`],
        ['one week', `?from=${day(20)}&to=${day(14)}`],
        ['action form.submit', '?action=form.submit'],
        ['action prefix "form."', '?action=form.'],
        ['who "tanaka 12"', '?who=tanaka%2012'],
        ['who "hiro tanaka 127", page 20', '?who=hiro%20tanaka%20127&page=20&limit=50'],
        ['who "nobody"', '?who=nobody'],
        ['who + action + a week', `?who=budi&action=form.&from=${day(20)}&to=${day(14)}`],
        ['who + one day', `?who=tanaka&from=${day(3)}&to=${day(3)}`],
        ['page 20, one day', `?from=${day(3)}&to=${day(3)}&page=20&limit=50`],
      ] as const;
      if (landedApp) await sideBySide(cases, '/oga/organiser/audit', BUDGET.auditP95Ms);
      else
        for (const [side, indexes] of sides) {
          await setIndexes(app.db, indexes);
          for (const [label, query] of cases) console.log(line(`${side}: ${label}`, await measure(get(`/oga/organiser/audit${query}`), dbTime), BUDGET.auditP95Ms));
        }
    }

    if (CASES.has('export')) {
      console.log(`\n## Badges export (S04), ${filled.badges} badges, ${engine} (budget ${BUDGET.exportSeconds} s, ${BUDGET.exportRssMb} MB above rest)`);
      await setIndexes(app.db, true);
      // Over real HTTP, the answer read and dropped as it arrives (as a browser saves it to disk).
      const address = await app.listen({ port: 0, host: '127.0.0.1' });
      global.gc?.();
      const rest = process.memoryUsage().rss;
      let peak = rest;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
      await dbTime?.reset();
      const measured = await withCpu(undefined, async () => {
        const exportStarted = performance.now();
        const bytes = await new Promise<number>((resolve, reject) => {
          httpGet(`${address}/oga/organiser/submissions/s04/export`, { headers: { authorization: `Bearer ${token}` } }, (response) => {
            let total = 0;
            response.on('data', (chunk: Buffer) => (total += chunk.length));
            response.on('end', () => (response.statusCode === 200 ? resolve(total) : reject(new Error(`HTTP ${response.statusCode}`))));
          }).on('error', reject);
        });
        return { bytes, seconds: (performance.now() - exportStarted) / 1000 };
      });
      clearInterval(sampler);
      const dbMs = dbTime ? await dbTime.read() : null;
      const { bytes, seconds } = measured.result;
      const above = (peak - rest) / 1024 / 1024;
      console.log(
        `  ${seconds.toFixed(2)} s, ${(bytes / 1024 / 1024).toFixed(1)} MB XLSX, rss peak +${above.toFixed(0)} MB above rest  CPU ${measured.cpuMs.toFixed(0)} ms${dbMs === null ? '' : `  DB ${dbMs.toFixed(0)} ms`}  ${measured.load} — ${seconds <= BUDGET.exportSeconds && above <= BUDGET.exportRssMb ? 'met' : 'NOT met'}`,
      );
    }
  } finally {
    await dbTime?.close();
    await landedDbTime?.close();
    await app.close();
    await landedApp?.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (landedDir) rmSync(landedDir, { recursive: true, force: true });
  }
}

export async function organiserBenchmarks() {
  const landed = await landedVersion();
  if (process.env.BENCH_ORGANISER_ENGINES !== 'pglite') {
    const postgres = await startPostgres({ statStatements: true });
    try {
      const url = await createDatabase(postgres.adminUrl, 'bench_organiser');
      const landedUrl = landed ? await createDatabase(postgres.adminUrl, 'bench_organiser_landed') : undefined;
      await run('PostgreSQL', url, { exhibitors: EXHIBITORS, badgesEach: BADGES_EACH, auditPerDay: AUDIT_PER_DAY }, landed ? { version: landed, databaseUrl: landedUrl } : null);
    } finally {
      await postgres.stop();
    }
  }
  // The embedded database on a slice: a tenth of the exhibitors and of the audit log.
  if (process.env.BENCH_ORGANISER_ENGINES !== 'postgres')
    await run(
      'PGlite',
      undefined,
      { exhibitors: Math.round(EXHIBITORS / 10), badgesEach: BADGES_EACH, auditPerDay: Math.round(AUDIT_PER_DAY / 10) },
      landed ? { version: landed, databaseUrl: undefined } : null,
    );
}
