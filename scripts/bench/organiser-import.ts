import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { startPostgres } from '../../tests/support/postgres';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';

// O2 benchmark: importing 2,000 exhibitors from XLSX — the dry run, the commit, and a second
// import of the same file (every row an update) — on the embedded database and on PostgreSQL.
// The portal runs in this process; requests go through app.inject (the server's own time).

const EXHIBITORS = Number(process.env.BENCH_IMPORT_EXHIBITORS ?? 2000);
const HEADERS = ['Exhibitor code', 'Exhibitor name', 'Legal name', 'Booth', 'E-mail', 'Contact name', 'Modules', 'Quota: Exhibitor badges'];

async function workbook(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Exhibitors');
  sheet.addRow(HEADERS);
  for (let i = 1; i <= EXHIBITORS; i++) {
    const code = `BX${String(i).padStart(5, '0')}`;
    sheet.addRow([
      code,
      `Bench Exhibitor ${i}`,
      `Bench Exhibitor ${i} Sdn Bhd`,
      `Hall ${1 + (i % 8)} · ${code}`,
      `${code.toLowerCase()}@bench.example`,
      `Contact ${i}`,
      'Forms;Support;Manuals',
      5,
    ]);
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function importOnce(app: FastifyInstance, token: string, bytes: Buffer, commit: boolean) {
  const boundary = `----bench-${randomBytes(6).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="exhibitors.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const started = performance.now();
  const response = await app.inject({
    method: 'POST',
    url: `/oga/organiser/exhibitors/import${commit ? '?commit=true' : ''}`,
    payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${token}` },
  });
  const ms = performance.now() - started;
  const body = response.json() as { code: number; data: { good: number; created: number; updated: number; problems: unknown[] } };
  if (body.code !== 200 || body.data.good !== EXHIBITORS) throw new Error(`import failed: ${JSON.stringify(body).slice(0, 400)}`);
  return { ms, created: body.data.created, updated: body.data.updated };
}

async function measure(label: string, databaseUrl: string | undefined, bytes: Buffer) {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-import-'));
  const app = await buildApp(loadConfig({}, { dataDir, databaseUrl, webDir: join(dataDir, 'none'), logLevel: 'silent' }), { logger: false, mailWorker: false });
  try {
    await app.ready();
    const login = await app.inject({ method: 'POST', url: '/oga/auth/login', payload: { account: 'organiser', password: 'Demo-pass-2026' } });
    const token = (login.json() as { data: { token: string } }).data.token;
    const dry = await importOnce(app, token, bytes, false);
    const commit = await importOnce(app, token, bytes, true);
    const again = await importOnce(app, token, bytes, true);
    const memory = process.memoryUsage().rss / 1024 / 1024;
    console.log(
      `  ${label.padEnd(11)} dry run ${(dry.ms / 1000).toFixed(2).padStart(6)} s   commit (${commit.created} new) ${(commit.ms / 1000).toFixed(2).padStart(6)} s   re-import (${again.updated} updates) ${(again.ms / 1000).toFixed(2).padStart(6)} s   rss ${memory.toFixed(0)} MB`,
    );
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function organiserImportBenchmarks() {
  console.log(`\n## Exhibitor import: ${EXHIBITORS} exhibitors from XLSX (dry run, commit, re-import), measured side by side`);
  const bytes = await workbook();
  console.log(`  file ${(bytes.length / 1024).toFixed(0)} kB`);
  await measure('PGlite', undefined, bytes);
  const postgres = await startPostgres();
  try {
    const admin = new pg.Client({ connectionString: postgres.adminUrl });
    await admin.connect();
    await admin.query('CREATE DATABASE bench_import');
    await admin.end();
    const url = new URL(postgres.adminUrl);
    url.pathname = '/bench_import';
    await measure('PostgreSQL', url.toString(), bytes);
  } finally {
    await postgres.stop();
  }
}
