import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { startPostgres } from '../../tests/support/postgres';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { createPglite } from '../../src/server/db/connection';
import { createAccount, updateAccount } from '../../src/server/modules/organiser-exhibitors/accounts';
import type { ExhibitorInput } from '../../src/engine/schemas/exhibitor';
import { databaseTime, machineLoad, perOperation, withCpu, type DatabaseTime } from './work';

// O2 benchmark: importing 5,000 exhibitors from XLSX — the dry run, the commit (set-based), a
// second import of the same file (nothing changed: nothing written) and one with 1,000 rows
// changed — on the embedded database and on PostgreSQL, each with the statements it sent, CPU ms
// and PostgreSQL's own execution time. Side by side, the landed way of storing (createAccount /
// updateAccount per row, kept only here) stores the same rows, new and then again as updates (on
// the first BENCH_IMPORT_LANDED_ROWS rows, 1,000 by default: its time grows with the rows).
// The portal runs in this process; requests go through app.inject (the server's own time).

const EXHIBITORS = Number(process.env.BENCH_IMPORT_EXHIBITORS ?? 5000);
const CHANGED = Math.floor(EXHIBITORS / 5);
/** Rows the landed per-row store is timed on (it is linear in rows: its figures are per row). */
const LANDED_ROWS = Math.min(EXHIBITORS, Number(process.env.BENCH_IMPORT_LANDED_ROWS ?? 1000));
const HEADERS = ['Exhibitor code', 'Exhibitor name', 'Legal name', 'Booth', 'E-mail', 'Contact name', 'Modules', 'Quota: Exhibitor badges'];

const code = (i: number) => `BX${String(i).padStart(5, '0')}`;
const row = (i: number, renamed: boolean) => [
  code(i),
  `Bench Exhibitor ${i}${renamed ? ' (renamed)' : ''}`,
  `Bench Exhibitor ${i} Sdn Bhd`,
  `Hall ${1 + (i % 8)} · ${code(i)}`,
  `${code(i).toLowerCase()}@bench.example`,
  `Contact ${i}`,
  'Forms;Support;Manuals',
  5,
];

async function workbook(changed: number): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Exhibitors');
  sheet.addRow(HEADERS);
  for (let i = 1; i <= EXHIBITORS; i++) sheet.addRow(row(i, i <= changed));
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** Statements sent to the database: PostgreSQL's pg_stat_statements calls, or every query of an embedded database counted as it is sent. */
interface Statements {
  read(): Promise<number>;
}

function countPgliteStatements(pglite: PGlite): Statements {
  let sent = 0;
  const counted = <T extends { query: PGlite['query'] }>(target: T) => {
    const query = target.query.bind(target);
    target.query = ((...args: Parameters<PGlite['query']>) => {
      sent++;
      return query(...args);
    }) as PGlite['query'];
    return target;
  };
  counted(pglite);
  const transaction = pglite.transaction.bind(pglite);
  pglite.transaction = ((work: Parameters<PGlite['transaction']>[0]) => transaction((tx) => work(counted(tx)))) as PGlite['transaction'];
  return { read: async () => sent };
}

function countPostgresStatements(client: pg.Client): Statements {
  return {
    read: async () => {
      const result = await client.query<{ calls: string | null }>(
        `select sum(calls)::text as calls from pg_stat_statements
          where dbid = (select oid from pg_database where datname = current_database()) and query not ilike '%pg_stat_statements%'`,
      );
      return Number(result.rows[0]?.calls ?? 0);
    },
  };
}

interface Engine {
  label: string;
  open(): Promise<{ app: FastifyInstance; statements: Statements; dbTime: DatabaseTime | null; close(): Promise<void> }>;
}

async function openApp(databaseUrl: string | undefined, pglite: PGlite | undefined) {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-import-'));
  const app = await buildApp(loadConfig({}, { dataDir, databaseUrl, webDir: join(dataDir, 'none'), logLevel: 'silent' }), { logger: false, mailWorker: false, pglite });
  await app.ready();
  return {
    app,
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function importOnce(app: FastifyInstance, token: string, bytes: Buffer, commit: boolean) {
  const boundary = `----bench-${randomBytes(6).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="exhibitors.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const response = await app.inject({
    method: 'POST',
    url: `/oga/organiser/exhibitors/import${commit ? '?commit=true' : ''}`,
    payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${token}` },
  });
  const body = response.json() as { code: number; data: { good: number; created: number; updated: number; unchanged: number } };
  if (body.code !== 200 || body.data.good !== EXHIBITORS) throw new Error(`import failed: ${JSON.stringify(body).slice(0, 400)}`);
  return `${body.data.created} new, ${body.data.updated} updated, ${body.data.unchanged} unchanged`;
}

/** Runs one case and prints its wall time, statements, CPU and database time. */
async function measured(label: string, engine: { statements: Statements; dbTime: DatabaseTime | null }, work: () => Promise<string>, rows = EXHIBITORS) {
  const statementsBefore = await engine.statements.read();
  await engine.dbTime?.reset();
  const started = performance.now();
  const { result, cpuMs, load } = await withCpu(undefined, work);
  const ms = performance.now() - started;
  // pg_stat_statements was reset: its calls count from zero again.
  const statements = (await engine.statements.read()) - (engine.dbTime ? 0 : statementsBefore);
  const dbMs = engine.dbTime ? await engine.dbTime.read() : null;
  console.log(
    `    ${label.padEnd(44)} ${(ms / 1000).toFixed(2).padStart(7)} s  ${String(statements).padStart(6)} statements (${((statements * 1000) / rows).toFixed(1).padStart(6)} per 1,000 rows)  ${perOperation(rows, cpuMs, dbMs)} (per row)  ${load}   ${result}`,
  );
}

/** The landed way of storing, kept only in this benchmark: 6–8 statements per row, in one transaction. */
async function storePerRow(app: FastifyInstance, inputs: ExhibitorInput[]) {
  const organiser = await app.db.selectFrom('users').select('event_id').where('login_key', '=', 'organiser').executeTakeFirstOrThrow();
  const event = await app.db.selectFrom('events').selectAll().where('id', '=', organiser.event_id!).executeTakeFirstOrThrow();
  let created = 0;
  await app.db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom('participations')
      .innerJoin('exhibitors', 'exhibitors.id', 'participations.exhibitor_id')
      .select(['participations.id', 'exhibitors.code'])
      .where('participations.event_id', '=', event.id)
      .execute();
    const byCode = new Map(existing.map((row) => [row.code, row.id]));
    for (const input of inputs) {
      const participationId = byCode.get(input.code);
      if (participationId !== undefined) await updateAccount(trx, event, participationId, input);
      else {
        const stored = await createAccount(trx, event.organisation_id!, event, input);
        await app.webhooks.emit({ type: 'exhibitor.created', eventId: event.id, data: { participationId: stored.participationId, code: input.code } }, trx);
        created++;
      }
    }
  });
  return `${created} new, ${inputs.length - created} updated`;
}

const inputOf = (i: number): ExhibitorInput => {
  const [rowCode, name, legalName, boothNum, email, contactName] = row(i, false) as string[];
  return {
    code: rowCode!,
    name: name!,
    legalName: legalName!,
    boothNum: boothNum!,
    logoUrl: '',
    account: email!,
    email: email!,
    contactName: contactName!,
    modules: ['Forms', 'Support', 'Manuals'],
    flags: {},
    quotas: { badges: 5 },
    deadlines: {},
  };
};

async function measureEngine(engine: Engine, file: Buffer, changedFile: Buffer) {
  console.log(`  ${engine.label}`);
  const opened = await engine.open();
  try {
    const { app } = opened;
    const login = await app.inject({ method: 'POST', url: '/oga/auth/login', payload: { account: 'organiser', password: 'Demo-pass-2026' } });
    const token = (login.json() as { data: { token: string } }).data.token;
    await measured('dry run (all new)', opened, () => importOnce(app, token, file, false));
    await measured('commit, set-based', opened, () => importOnce(app, token, file, true));
    await measured('re-import of the unchanged file', opened, () => importOnce(app, token, file, true));
    await measured(`re-import with ${CHANGED} rows changed`, opened, () => importOnce(app, token, changedFile, true));
  } finally {
    await opened.close();
  }
  const landed = await engine.open();
  try {
    const inputs = Array.from({ length: LANDED_ROWS }, (_, i) => inputOf(i + 1));
    await measured(`landed per-row store: ${LANDED_ROWS} new rows`, landed, () => storePerRow(landed.app, inputs), LANDED_ROWS);
    await measured(`landed per-row store: ${LANDED_ROWS} rows again`, landed, () => storePerRow(landed.app, inputs), LANDED_ROWS);
  } finally {
    await landed.close();
  }
}

export async function organiserImportBenchmarks() {
  console.log(`\n## Exhibitor import: ${EXHIBITORS} exhibitors from XLSX, measured side by side with the landed per-row store (${machineLoad()} at the start)`);
  const file = await workbook(0);
  const changedFile = await workbook(CHANGED);
  console.log(`  file ${(file.length / 1024).toFixed(0)} kB; CPU is this process's (server and benchmark), DB is PostgreSQL's own execution time`);
  await measureEngine(
    {
      label: 'PGlite',
      open: async () => {
        const pglite = createPglite();
        await pglite.waitReady;
        const statements = countPgliteStatements(pglite);
        const { app, close } = await openApp(undefined, pglite);
        return {
          app,
          statements,
          dbTime: null,
          close: async () => {
            await close();
            await pglite.close().catch(() => undefined);
          },
        };
      },
    },
    file,
    changedFile,
  );
  const postgres = await startPostgres({ statStatements: true });
  let databases = 0;
  try {
    await measureEngine(
      {
        label: 'PostgreSQL',
        open: async () => {
          const admin = new pg.Client({ connectionString: postgres.adminUrl });
          await admin.connect();
          const name = `bench_import_${++databases}`;
          await admin.query(`CREATE DATABASE ${name}`);
          await admin.end();
          const url = new URL(postgres.adminUrl);
          url.pathname = `/${name}`;
          const { app, close } = await openApp(url.toString(), undefined);
          const dbTime = await databaseTime(url.toString());
          const client = new pg.Client({ connectionString: url.toString() });
          await client.connect();
          return {
            app,
            statements: countPostgresStatements(client),
            dbTime,
            close: async () => {
              await client.end();
              await dbTime?.close();
              await close();
            },
          };
        },
      },
      file,
      changedFile,
    );
  } finally {
    await postgres.stop();
  }
}
