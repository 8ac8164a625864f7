import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { createDatabase, startPostgres } from '../../tests/support/postgres';
import { startWebhookReceiver, type WebhookReceiver } from '../../tests/support/webhook-receiver';
import { DEMO_ACCOUNT } from './support';
import { leadsSyncBenchmarks } from './leads-sync';

// LD webhooks: deliveries per second from one instance to a receiver on this machine (budget
// ≥ 500/s), and the delay from a scan to its lead.created delivery with the worker running as in
// production (p95 budget 2 s). The portal runs in this process on PostgreSQL and the embedded database.

const MESSAGES = Number(process.env.BENCH_WEBHOOK_MESSAGES ?? 2000);
const SCANS = Number(process.env.BENCH_WEBHOOK_SCANS ?? 100);
const RATE_BUDGET = 500;
const DELAY_BUDGET_MS = 2000;

async function token(app: FastifyInstance): Promise<string> {
  const login = await app.inject({ method: 'POST', url: '/oga/auth/login', payload: DEMO_ACCOUNT });
  return (login.json() as { data: { token: string } }).data.token;
}

async function addEndpoint(app: FastifyInstance, bearer: string, receiver: WebhookReceiver) {
  const answer = await app.inject({
    method: 'POST',
    url: '/oga/webhooks/endpoints',
    headers: { authorization: `Bearer ${bearer}` },
    payload: { url: receiver.url, events: ['lead.created', 'lead.updated'] },
  });
  if (answer.statusCode !== 200 || (answer.json() as { code: number }).code !== 200) throw new Error(`endpoint refused: ${answer.body}`);
}

async function throughput(app: FastifyInstance, receiver: WebhookReceiver, label: string) {
  const leads = await app.db
    .selectFrom('leads')
    .innerJoin('users', 'users.participation_id', 'leads.participation_id')
    .select('leads.id')
    .where('users.login', '=', 'demo')
    .execute();
  const ids = leads.map((lead) => lead.id);
  let queued = 0;
  while (queued < MESSAGES) queued += await app.webhooks.emit({ type: 'lead.updated', leadIds: ids.slice(0, Math.min(ids.length, MESSAGES - queued)) });
  const started = performance.now();
  const sent = await app.webhooks.deliverDue();
  const seconds = (performance.now() - started) / 1000;
  const rate = sent / seconds;
  console.log(
    `  ${label}: ${sent} messages in ${seconds.toFixed(2)} s = ${rate.toFixed(0)} deliveries/s (budget ≥ ${RATE_BUDGET}) — ${rate >= RATE_BUDGET ? 'met' : 'NOT met'}; received ${receiver.received.length}`,
  );
}

async function scanDelay(app: FastifyInstance, bearer: string, receiver: WebhookReceiver, label: string) {
  const user = await app.db.selectFrom('users').select(['participation_id', 'event_id']).where('login', '=', 'demo').executeTakeFirstOrThrow();
  const badges = await app.db
    .selectFrom('visitors')
    .select('badge_code')
    .where('event_id', '=', user.event_id!)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('leads').select('leads.id').whereRef('leads.badge_code', '=', 'visitors.badge_code').where('leads.participation_id', '=', user.participation_id!))),
    )
    .limit(SCANS)
    .execute();
  const arrived = new Map<number, number>();
  const scannedAt = new Map<number, number>();
  const record = receiver.received.push.bind(receiver.received);
  receiver.received.push = (...requests) => {
    for (const request of requests) {
      const message = JSON.parse(request.body) as { type: string; data: { id: number } };
      if (message.type === 'lead.created') arrived.set(message.data.id, performance.now());
    }
    return record(...requests);
  };
  for (const [index, { badge_code }] of badges.entries()) {
    const started = performance.now();
    const answer = await app.inject({
      method: 'POST',
      url: '/oga/leads/scan',
      headers: { authorization: `Bearer ${bearer}` },
      payload: { clientScanId: `bench-${Date.now()}-${index}`, badgeCode: badge_code, scannedAt: new Date(Date.now() - 60_000).toISOString() },
    });
    const leadId = (answer.json() as { data: { results: Array<{ leadId: number }> } }).data.results[0]!.leadId;
    scannedAt.set(leadId, started);
    // About one scan every 50 ms: a busy booth with several phones.
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const deadline = performance.now() + 30_000;
  while (arrived.size < scannedAt.size && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  const delays = [...scannedAt].map(([id, at]) => (arrived.get(id) ?? Number.POSITIVE_INFINITY) - at).sort((a, b) => a - b);
  const p95 = delays[Math.floor(delays.length * 0.95)] ?? Number.POSITIVE_INFINITY;
  console.log(
    `  ${label}: ${arrived.size}/${scannedAt.size} scans delivered, median ${delays[Math.floor(delays.length / 2)]!.toFixed(0)} ms, p95 ${p95.toFixed(0)} ms (budget ${DELAY_BUDGET_MS} ms) — ${p95 <= DELAY_BUDGET_MS ? 'met' : 'NOT met'}`,
  );
}

async function run(databaseUrl: string | undefined, label: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-webhooks-'));
  const receiver = await startWebhookReceiver();
  // The queue is driven by hand for the rate; the worker runs (as in production) for the delay.
  const config = loadConfig({}, { dataDir, databaseUrl, webDir: join(dataDir, 'none'), logLevel: 'silent' });
  const manual = await buildApp({ ...config, webhooks: { ...config.webhooks, localTargets: true, worker: false } }, { logger: false, mailWorker: false });
  try {
    const bearer = await token(manual);
    await addEndpoint(manual, bearer, receiver);
    await throughput(manual, receiver, label);
  } finally {
    await manual.close();
  }
  const working = await buildApp({ ...config, webhooks: { ...config.webhooks, localTargets: true, worker: true } }, { logger: false });
  try {
    await working.ready();
    await scanDelay(working, await token(working), receiver, label);
  } finally {
    await working.close();
    await receiver.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function webhooksBenchmarks() {
  console.log(`\n## Webhooks: ${MESSAGES} deliveries from one instance to a local receiver; ${SCANS} scans to their lead.created delivery`);
  const postgres = await startPostgres();
  try {
    await run(await createDatabase(postgres.adminUrl, 'bench_webhooks'), 'PostgreSQL');
  } finally {
    await postgres.stop();
  }
  await run(undefined, 'embedded PGlite');
  await leadsSyncBenchmarks();
}
