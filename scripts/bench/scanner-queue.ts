// IndexedDB in node, as in the queue's unit tests (nothing else of the bench uses IndexedDB).
import 'fake-indexeddb/auto';
import { openScannerDb, ScanQueue } from '../../src/features/leads/scanner/scan-queue';
import { loginToken, startPortal } from './support';

// LD1: the scanner's own offline queue (the module the scanner page runs) holding 2,000 scans
// made with no network, synced when the network comes back, against a portal on the embedded
// database (PGlite): the time from reconnection to every scan answered, and the requests it took.

const SCANS = Number(process.env.BENCH_OFFLINE_SCANS ?? 2000);
const BUDGET_SECONDS = 10;

export async function scannerQueueBenchmarks() {
  const portal = await startPortal();
  try {
    const token = await loginToken(portal.url);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const user = (await (await fetch(`${portal.url}/oga/user/info`, { headers })).json()) as { data: { id: number } };
    const registered = (await (await fetch(`${portal.url}/oga/leads/devices`, { method: 'POST', headers, body: JSON.stringify({ name: 'Bench phone' }) })).json()) as {
      data: { id: number; name: string; token: string };
    };
    let online = false;
    let requests = 0;
    const db = await openScannerDb(`bench-scanner-${Date.now()}`);
    const queue = new ScanQueue({
      db,
      userId: user.data.id,
      fetch: (async (path: string, init?: RequestInit) => {
        if (!online) throw new TypeError('Failed to fetch');
        requests += 1;
        return fetch(`${portal.url}${path}`, init);
      }) as typeof fetch,
      // Offline, the retry timer would only fail again: the reconnection sends.
      setTimer: () => null,
      clearTimer: () => undefined,
    });
    await queue.setDevice({ id: registered.data.id, name: registered.data.name, token: registered.data.token, userId: user.data.id });
    const run = Date.now().toString(36).toUpperCase();
    for (let i = 0; i < SCANS; i += 1) await queue.add(`BENCH-${run}-${String(i).padStart(5, '0')}`);
    await queue.sync();

    online = true;
    requests = 0;
    const started = performance.now();
    queue.kick(true);
    while ((await queue.waitingCount()) > 0) await queue.sync();
    const seconds = (performance.now() - started) / 1000;
    const scans = await queue.all();
    const sent = scans.filter((scan) => scan.outcome === 'sent').length;
    console.log(`\n## Scanner offline queue (LD1), embedded database`);
    console.log(
      `  ${SCANS.toLocaleString('en')} scans made offline, synced on reconnect  ${seconds.toFixed(1).padStart(6)} s  ${requests} requests  ${sent.toLocaleString('en')} leads  budget ${BUDGET_SECONDS} s: ${seconds <= BUDGET_SECONDS && sent === SCANS ? 'ok' : 'OVER'}`,
    );
    db.close();
  } finally {
    await portal.close();
  }
}
