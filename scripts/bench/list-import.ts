import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { multipart } from '../../tests/support/multipart';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';

// F5 benchmark: S04's badge list filled from a sheet of 5,000 rows (one bad row in a
// hundred), XLSX and CSV side by side, through app.inject on the embedded database (the server's
// own time: upload, parse, map, validate). Once with a quota that takes every row, once with the
// demo's quota of 5 (the list-limit search refuses almost every row).

const ROWS = Number(process.env.BENCH_LIST_ROWS ?? 5000);
const HEADERS = ['First name', 'Last name', 'Gender', 'Email'];

function rows(): string[][] {
  return Array.from({ length: ROWS }, (_, i) => [
    `Guest ${String.fromCharCode(65 + (i % 26))}`,
    'Bench',
    i % 2 ? 'Male' : '女性',
    i % 100 === 7 ? `bad-${i}` : `guest${i}@bench.example`,
  ]);
}

async function sheets() {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Badges');
  sheet.addRow(HEADERS);
  for (const row of rows()) sheet.addRow(row);
  const xlsx = Buffer.from(await book.xlsx.writeBuffer());
  const csv = Buffer.from(`\uFEFF${[HEADERS, ...rows()].map((row) => row.join(';')).join('\r\n')}`);
  return { xlsx, csv };
}

async function importOnce(app: FastifyInstance, token: string, bytes: Buffer, filename: string) {
  const { payload, contentType } = multipart([
    { name: 'data', value: '{}' },
    { name: 'file', filename, bytes },
  ]);
  const started = performance.now();
  const response = await app.inject({
    method: 'POST',
    url: '/oga/forms/s04/lists/badges/import',
    payload,
    headers: { 'content-type': contentType, authorization: `Bearer ${token}` },
  });
  const ms = performance.now() - started;
  const body = response.json() as { code: number; data: { rows: number; valid: unknown[]; problems: unknown[] } };
  if (body.code !== 200 || body.data.rows !== ROWS) throw new Error(`import failed: ${JSON.stringify(body).slice(0, 400)}`);
  return { ms, valid: body.data.valid.length, problems: body.data.problems.length };
}

export async function listImportBenchmarks() {
  console.log(`\n## A form's list from a spreadsheet: ${ROWS} S04 badge rows (1 in 100 bad), XLSX and CSV side by side, PGlite`);
  const files = await sheets();
  console.log(`  files: XLSX ${(files.xlsx.length / 1024).toFixed(0)} kB, CSV ${(files.csv.length / 1024).toFixed(0)} kB`);
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-list-import-'));
  const app = await buildApp(loadConfig({}, { dataDir, webDir: join(dataDir, 'none'), logLevel: 'silent' }), { logger: false, mailWorker: false });
  try {
    await app.ready();
    const login = await app.inject({ method: 'POST', url: '/oga/auth/login', payload: { account: 'demo', password: 'Demo-pass-2026' } });
    const token = (login.json() as { data: { token: string } }).data.token;
    const demo = await app.db
      .selectFrom('participations')
      .innerJoin('users', 'users.participation_id', 'participations.id')
      .select(['participations.id', 'participations.event_id'])
      .where('users.login', '=', 'demo')
      .executeTakeFirstOrThrow();
    for (const quota of [ROWS * 2, 5]) {
      await app.db.deleteFrom('quotas').where('participation_id', '=', demo.id).where('name', '=', 'badges').execute();
      await app.db.insertInto('quotas').values({ event_id: demo.event_id, participation_id: demo.id, name: 'badges', value: quota }).execute();
      for (const [format, bytes] of [
        ['XLSX', files.xlsx],
        ['CSV', files.csv],
      ] as const) {
        await importOnce(app, token, bytes, `badges.${format.toLowerCase()}`); // warm
        const result = await importOnce(app, token, bytes, `badges.${format.toLowerCase()}`);
        console.log(
          `  quota ${String(quota).padStart(5)}  ${format.padEnd(4)} ${(result.ms / 1000).toFixed(2).padStart(6)} s   ${result.valid} valid, ${result.problems} problems   rss ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB`,
        );
      }
    }
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
