// @vitest-environment node
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { notABadge, openScannerDb, ScanQueue, ScanStoreError, type ScannerDb } from './scan-queue';

// The queue against a small fake of the scan API that keeps the server's rules: a resent id is
// the same scan, one lead per badge, a team user's quota, scan times at most a day ahead.

interface SentScan {
  clientScanId: string;
  badgeCode: string;
  scannedAt: string;
  notes?: string;
}

function fakeServer(
  options: { quota?: number; serverNow?: () => number; directory?: { version: string; items: Array<{ badgeCode: string; name?: string; company?: string }> } } = {},
) {
  const directoryRequests: string[] = [];
  const leadsByBadge = new Map<string, number>();
  const leadByScanId = new Map<string, number>();
  const received: SentScan[][] = [];
  const patches: Array<{ id: number; body: unknown }> = [];
  let nextLead = 1;
  let revoked = false;
  /** Failures to play before answering: 'down' throws, 'lost' stores then throws, 502 answers a gateway error. */
  const failures: Array<'down' | 'lost' | 502> = [];
  const serverNow = options.serverNow ?? (() => Date.now());

  const answer = (code: number, data: unknown, status = 200) =>
    new Response(JSON.stringify({ code, data }), { status, headers: { 'content-type': 'application/json', date: new Date(serverNow()).toUTCString() } });

  const fetch = (async (url: string, init: RequestInit) => {
    if (url.includes('/leads/visitor-directory')) {
      directoryRequests.push(url);
      const directory = options.directory ?? { version: 'none', items: [] };
      const after = Number(new URL(url, 'http://x').searchParams.get('after') ?? 0);
      const page = directory.items.slice(after, after + 2);
      const next = after + 2 < directory.items.length ? String(after + 2) : null;
      return answer(200, { version: directory.version, fields: ['name', 'company'], items: page, next });
    }
    const failure = failures.shift();
    if (failure === 'down') throw new TypeError('Failed to fetch');
    if (failure === 502) return new Response('Bad gateway', { status: 502 });
    if (revoked) return answer(401, null);
    if (init.method === 'PATCH') {
      patches.push({ id: Number(url.split('/').pop()), body: JSON.parse(String(init.body)) });
      return answer(200, null);
    }
    const { scans } = JSON.parse(String(init.body)) as { scans: SentScan[] };
    received.push(scans);
    let created = 0;
    const results = scans.map((scan) => {
      const resent = leadByScanId.get(scan.clientScanId);
      if (resent) return { clientScanId: scan.clientScanId, status: 'duplicate', reason: 'resend', leadId: resent, badgeKnown: true, visitorName: 'V', company: 'C' };
      if (Date.parse(scan.scannedAt) > serverNow() + 24 * 3600_000) {
        return { clientScanId: scan.clientScanId, status: 'invalid', problem: 'future', leadId: null, badgeKnown: null, visitorName: null, company: null };
      }
      const known = leadsByBadge.get(scan.badgeCode);
      if (known) {
        leadByScanId.set(scan.clientScanId, known);
        return { clientScanId: scan.clientScanId, status: 'duplicate', reason: 'alreadyScanned', leadId: known, badgeKnown: true, visitorName: 'V', company: 'C' };
      }
      if (options.quota !== undefined && leadsByBadge.size >= options.quota) {
        return { clientScanId: scan.clientScanId, status: 'quotaNotEnough', leadId: null, badgeKnown: null, visitorName: null, company: null };
      }
      const id = nextLead++;
      created += 1;
      leadsByBadge.set(scan.badgeCode, id);
      leadByScanId.set(scan.clientScanId, id);
      return { clientScanId: scan.clientScanId, status: 'created', leadId: id, badgeKnown: true, visitorName: `Visitor ${scan.badgeCode}`, company: 'Co' };
    });
    if (failure === 'lost') throw new TypeError('Network connection lost');
    const remaining = options.quota === undefined ? null : options.quota - leadsByBadge.size;
    return answer(created === 0 && results.some((r) => r.status === 'quotaNotEnough') ? 601 : 200, {
      results,
      quota: options.quota ?? null,
      remaining,
    });
  }) as unknown as typeof globalThis.fetch;

  return {
    fetch,
    received,
    patches,
    failures,
    directoryRequests,
    leads: () => leadsByBadge.size,
    revoke: () => {
      revoked = true;
    },
  };
}

/** Timers the test runs by hand, so backoff is checked without waiting. */
function manualTimers() {
  const pending: Array<{ run: () => void; ms: number }> = [];
  return {
    pending,
    setTimer: (run: () => void, ms: number) => {
      const timer = { run, ms };
      pending.push(timer);
      return timer;
    },
    clearTimer: (timer: unknown) => {
      const index = pending.indexOf(timer as { run: () => void; ms: number });
      if (index >= 0) pending.splice(index, 1);
    },
    async fire(queue: ScanQueue) {
      const timer = pending.shift();
      timer?.run();
      await queue.sync();
    },
  };
}

let counter = 0;
const dbs: ScannerDb[] = [];
async function freshDb(name = `scanner-test-${++counter}`) {
  const db = await openScannerDb(name);
  dbs.push(db);
  return db;
}

function queueOf(db: ScannerDb, server: ReturnType<typeof fakeServer>, timers = manualTimers(), now?: () => number) {
  let id = 0;
  return new ScanQueue({
    db,
    fetch: server.fetch,
    setTimer: timers.setTimer,
    clearTimer: timers.clearTimer,
    random: () => 0.5,
    newId: () => `scan-${counter}-${++id}`,
    now,
    userId: device.userId,
  });
}

const device = { id: 1, name: 'Booth phone', token: 'device-token', userId: 7 };

afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
});

describe('scan queue', () => {
  test('scans are written before sending and sent oldest first, in batches', async () => {
    const server = fakeServer();
    const db = await freshDb();
    const queue = queueOf(db, server);
    for (let i = 0; i < 130; i += 1) await queue.add(`BADGE-${i}`);
    // No device yet: everything waits on the device.
    await queue.sync();
    expect(server.received).toHaveLength(0);
    expect(await queue.waitingCount()).toBe(130);
    await queue.setDevice(device);
    await queue.sync();
    expect(server.received.map((batch) => batch.length)).toEqual([100, 30]);
    expect(server.received.flat().map((scan) => scan.badgeCode)).toEqual(Array.from({ length: 130 }, (_, i) => `BADGE-${i}`));
    expect(await queue.waitingCount()).toBe(0);
    expect(server.leads()).toBe(130);
    const [latest] = await queue.recent(1);
    expect(latest).toMatchObject({ badgeCode: 'BADGE-129', outcome: 'sent', visitorName: 'Visitor BADGE-129' });
  });

  test("a badge code typed in by hand is sent as a manual entry (the lead's consent source); a camera read is not marked", async () => {
    const server = fakeServer();
    const queue = queueOf(await freshDb(), server);
    await queue.setDevice(device);
    await queue.add('BADGE-TYPED', undefined, true);
    await queue.add('BADGE-READ');
    await queue.sync();
    const sent = server.received.flat() as Array<{ badgeCode: string; source?: string }>;
    expect(sent.map((scan) => [scan.badgeCode, scan.source])).toEqual([
      ['BADGE-TYPED', 'manualEntry'],
      ['BADGE-READ', undefined],
    ]);
  });

  test('a failed send waits longer each time, then sends when the network is back', async () => {
    const server = fakeServer();
    const timers = manualTimers();
    const queue = queueOf(await freshDb(), server, timers);
    await queue.setDevice(device);
    server.failures.push('down', 502, 'down');
    await queue.add('BADGE-A');
    await queue.sync();
    expect(queue.syncStatus()).toMatchObject({ kind: 'retrying', attempt: 1 });
    const delays = [timers.pending[0]!.ms];
    await timers.fire(queue);
    delays.push(timers.pending[0]!.ms);
    await timers.fire(queue);
    delays.push(timers.pending[0]!.ms);
    expect(delays[1]).toBeGreaterThan(delays[0]!);
    expect(delays[2]).toBeGreaterThan(delays[1]!);
    await timers.fire(queue);
    expect(queue.syncStatus()).toEqual({ kind: 'idle' });
    expect((await queue.recent())[0]).toMatchObject({ outcome: 'sent' });
  });

  test('an answer lost after the server stored the scans: resent, never a second lead', async () => {
    const server = fakeServer();
    const timers = manualTimers();
    const db = await freshDb();
    const queue = queueOf(db, server, timers);
    server.failures.push('lost');
    await queue.add('BADGE-1');
    await queue.add('BADGE-2');
    await queue.setDevice(device);
    await queue.sync();
    expect(server.leads()).toBe(2);
    expect(await queue.waitingCount()).toBe(2);
    // A reload: a new queue on the same database picks the scans up.
    queue.stop();
    const reloaded = queueOf(db, server, timers);
    await reloaded.sync();
    expect(server.received).toHaveLength(2);
    expect(server.received[1]!.map((s) => s.clientScanId)).toEqual(server.received[0]!.map((s) => s.clientScanId));
    expect(server.leads()).toBe(2);
    expect((await reloaded.all()).map((scan) => scan.outcome)).toEqual(['sent', 'sent']);
  });

  test('a batch partly refused: each scan keeps its own answer', async () => {
    const server = fakeServer({ quota: 2 });
    const queue = queueOf(await freshDb(), server);
    for (const code of ['B1', 'B2', 'B1', 'B3']) await queue.add(code);
    await queue.setDevice(device);
    await queue.sync();
    expect((await queue.all()).map((scan) => scan.outcome)).toEqual(['sent', 'sent', 'duplicate', 'quota']);
    expect(await queue.quota()).toEqual({ quota: 2, remaining: 0 });
    // Not resent by itself: the quota refusal is a clear answer. Resent when asked.
    await queue.sync();
    expect(server.received).toHaveLength(1);
    await queue.retryQuota();
    await queue.sync();
    expect(server.received.map((batch) => batch.map((scan) => scan.badgeCode))).toEqual([['B1', 'B2', 'B1', 'B3'], ['B3']]);
  });

  test('a revoked device stops sending and keeps its unsent scans; a new registration sends them', async () => {
    const server = fakeServer();
    const queue = queueOf(await freshDb(), server);
    await queue.setDevice(device);
    server.revoke();
    await queue.add('B1');
    await queue.add('B2');
    await queue.sync();
    expect(queue.syncStatus()).toEqual({ kind: 'signedOut' });
    expect(await queue.signedOut()).toBe(true);
    expect(await queue.device()).toBeNull();
    expect(await queue.waitingCount()).toBe(2);

    const again = fakeServer();
    const next = queueOf(queue.db, again);
    await next.setDevice({ ...device, id: 2, token: 'new-token' });
    await next.sync();
    expect(await next.signedOut()).toBe(false);
    expect(again.leads()).toBe(2);
  });

  test('a device clock years ahead: scans are sent on the server time, the time read is kept', async () => {
    const yearsAhead = Date.parse('2031-05-01T10:00:00Z');
    const serverNow = () => Date.parse('2027-03-17T02:00:00Z');
    const server = fakeServer({ serverNow });
    const queue = queueOf(await freshDb(), server, manualTimers(), () => yearsAhead);
    await queue.setDevice(device);
    await queue.add('B1');
    await queue.sync();
    const [scan] = await queue.all();
    expect(scan).toMatchObject({ outcome: 'sent', readAt: '2031-05-01T10:00:00.000Z', clockCorrected: true });
    expect(server.received[1]![0]!.scannedAt).toBe('2027-03-17T02:00:00.000Z');
    expect(await queue.clockSkewMs()).toBe(serverNow() - yearsAhead);
  });

  test('a qualification given before sending travels with the scan; after sending it is saved on the lead', async () => {
    const server = fakeServer();
    const queue = queueOf(await freshDb(), server);
    const first = await queue.add('B1');
    await queue.qualify(first.clientScanId, { temperature: 'hot', notes: 'Wants samples' });
    await queue.setDevice(device);
    await queue.sync();
    expect(server.received[0]![0]).toMatchObject({ badgeCode: 'B1', temperature: 'hot', notes: 'Wants samples' });
    await queue.qualify(first.clientScanId, { temperature: 'warm', followUp: 'call' });
    await queue.sync();
    expect(server.patches).toEqual([{ id: 1, body: { temperature: 'warm', followUp: 'call' } }]);
    expect((await queue.all())[0]).toMatchObject({ qualificationPending: false });
  });

  test('a read that cannot be a badge is kept and refused on the device', async () => {
    expect(notABadge('https://example.com/x')).toBe(true);
    expect(notABadge('hello world')).toBe(true);
    expect(notABadge('AFHE2027-V0000042')).toBe(false);
    const server = fakeServer();
    const queue = queueOf(await freshDb(), server);
    await queue.setDevice(device);
    await queue.add('https://example.com/promo');
    await queue.sync();
    expect(server.received).toHaveLength(0);
    expect((await queue.all())[0]).toMatchObject({ outcome: 'refused', problem: 'notABadge' });
  });

  test('the visitor directory: downloaded page by page, names a known badge at once, downloaded again only when its version changes', async () => {
    const items = [
      { badgeCode: 'V1', name: 'Wei Ming Tan', company: 'Golden Harvest' },
      { badgeCode: 'V2', name: 'Siti Hassan', company: 'Lotus Trading' },
      { badgeCode: 'V3', name: 'Ana Cruz', company: 'Manila Foods' },
    ];
    const server = fakeServer({ directory: { version: 'v1', items } });
    const db = await freshDb();
    const queue = queueOf(db, server);
    await queue.add('X0');
    await queue.setDevice(device);
    await queue.refreshDirectory();
    expect(server.directoryRequests.length).toBeGreaterThanOrEqual(2);
    expect(await queue.visitor('V3')).toEqual(items[2]);
    // Offline, a known badge shows who it is before any answer; an unknown one waits for it.
    server.revoke();
    const known = await queue.add('V2');
    expect(known).toMatchObject({ visitorName: 'Siti Hassan', company: 'Lotus Trading', outcome: 'waiting' });
    expect((await queue.add('UNKNOWN-1')).visitorName).toBeUndefined();
    const again = fakeServer({ directory: { version: 'v1', items } });
    const next = queueOf(db, again);
    await next.setDevice(device);
    await next.refreshDirectory();
    // Same version: one request, no download.
    expect(again.directoryRequests.every((url) => !url.includes('after='))).toBe(true);
  });

  test('storage full: the read is refused with its reason and nothing already kept is touched', async () => {
    const server = fakeServer();
    const db = await freshDb();
    const queue = queueOf(db, server);
    await queue.add('B1');
    const add = vi.spyOn(db, 'add').mockRejectedValueOnce(new DOMException('The quota has been exceeded.', 'QuotaExceededError'));
    const failure = await queue.add('B2').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ScanStoreError);
    expect((failure as ScanStoreError).reason).toBe('storageFull');
    add.mockRestore();
    expect((await queue.all()).map((scan) => scan.badgeCode)).toEqual(['B1']);
  });

  test("a phone passed to another user: the first user's unsent scans are never sent with the second user's token, wait for them, and go when they sign in again", async () => {
    const server = fakeServer();
    const tokens: string[] = [];
    const spy = (async (url: string, init: RequestInit) => {
      if (url.endsWith('/leads/scans')) tokens.push(String((init.headers as Record<string, string>).authorization));
      return server.fetch(url, init);
    }) as unknown as typeof globalThis.fetch;
    const db = await freshDb();
    const alice = { id: 1, name: 'Booth phone', token: 'alice-token', userId: 7 };
    const bob = { id: 2, name: 'Booth phone', token: 'bob-token', userId: 8 };
    // Alice scans offline (no device yet), then her session ends without a sign-out.
    const first = new ScanQueue({ db, fetch: spy, random: () => 0.5, setTimer: manualTimers().setTimer, clearTimer: () => undefined, userId: alice.userId });
    await first.add('A1');
    await first.add('A2');
    await db.put('meta', alice, `device:${alice.userId}`);
    // Bob signs in on the same phone (a new page load).
    const second = new ScanQueue({ db, fetch: spy, random: () => 0.5, setTimer: manualTimers().setTimer, clearTimer: () => undefined, userId: bob.userId });
    await second.setDevice(bob);
    await second.add('B1');
    await second.sync();
    expect(tokens).toEqual(['Bearer bob-token']);
    expect(server.received.flat().map((scan) => scan.badgeCode)).toEqual(['B1']);
    expect((await second.recent()).map((scan) => scan.badgeCode)).toEqual(['B1']);
    expect(await second.waitingCount()).toBe(0);
    expect(await second.othersWaitingCount()).toBe(2);
    // Bob signs out: his scans and device leave the phone, Alice's stay.
    expect(await second.forgetUser()).toEqual(bob);
    expect(await db.get('meta', `device:${bob.userId}`)).toBeUndefined();
    expect((await db.getAll('scans')).map((scan) => scan.badgeCode)).toEqual(['A1', 'A2']);
    expect(await db.get('meta', `device:${alice.userId}`)).toEqual(alice);
    // Alice signs in again: hers are sent with her own token.
    second.forUser(alice.userId);
    await second.sync();
    expect(tokens).toEqual(['Bearer bob-token', 'Bearer alice-token']);
    expect(await second.waitingCount()).toBe(0);
    expect(await second.othersWaitingCount()).toBe(0);
    // The last user signs out: the visitors' names leave the phone too.
    await db.put('visitors', { badgeCode: 'V1', name: 'Wei Ming Tan' });
    await second.forgetUser();
    expect(await db.count('visitors')).toBe(0);
    expect(await db.count('scans')).toBe(0);
  });

  describe('a photo of the badge or business card', () => {
    /** The smallest JPEG the upload rules accept by content (SOI, JFIF APP0, EOI). */
    const jpeg = () => new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xff, 0xd9]).buffer;

    /** The scan API's fake with the upload API in front: uploads are recorded and answered with an id. */
    function withUploads(server: ReturnType<typeof fakeServer>) {
      const uploads: Array<{ purpose: string; name: string; size: number; token: string }> = [];
      const network = { offline: false };
      const fetch = (async (url: string, init: RequestInit) => {
        if (network.offline) throw new TypeError('Failed to fetch');
        if (url.endsWith('/uploads')) {
          const form = init.body as FormData;
          const file = form.get('file') as File;
          uploads.push({ purpose: String(form.get('purpose')), name: file.name, size: file.size, token: String((init.headers as Record<string, string>).authorization) });
          return new Response(JSON.stringify({ code: 200, data: { id: `upload-${uploads.length}`, name: file.name, size: file.size, type: 'jpeg', dpi: null } }), {
            headers: { 'content-type': 'application/json' },
          });
        }
        return server.fetch(url, init);
      }) as unknown as typeof globalThis.fetch;
      return { ...server, fetch, uploads, network };
    }

    test('is kept on the device with its scan (offline, across a reopen), sent after the scan as its lead business card, and not sent twice', async () => {
      const server = withUploads(fakeServer());
      server.network.offline = true;
      const name = `photo-${++counter}`;
      const db = await freshDb(name);
      const queue = queueOf(db, server);
      await queue.setDevice(device);
      const scan = await queue.add('BADGE-PHOTO-1');
      await queue.sync();
      expect(await queue.addPhoto(scan.clientScanId, 'card.jpg', jpeg())).toMatchObject({ state: 'waiting' });
      await queue.sync();
      expect(server.uploads).toEqual([]);
      queue.stop();
      db.close();

      // The app reopened, back online: the photo is still there, and goes after its scan.
      server.network.offline = false;
      const reopened = await freshDb(name);
      const again = queueOf(reopened, server);
      const [kept] = await again.recent();
      expect(kept!.photo).toMatchObject({ name: 'card.jpg', state: 'waiting' });
      expect(kept!.photo!.bytes!.byteLength).toBe(jpeg().byteLength);
      again.kick(true);
      await again.sync();
      expect(server.received.flat().map((s) => s.badgeCode)).toEqual(['BADGE-PHOTO-1']);
      expect(server.uploads).toEqual([{ purpose: 'businessCard', name: 'card.jpg', size: jpeg().byteLength, token: 'Bearer device-token' }]);
      expect(server.patches).toEqual([{ id: 1, body: { businessCard: 'upload-1' } }]);
      const [sent] = await again.recent();
      expect(sent!.photo).toEqual({ name: 'card.jpg', state: 'attached' });

      again.kick(true);
      await again.sync();
      expect(server.uploads).toHaveLength(1);
      expect(server.patches).toHaveLength(1);
    });

    test('a photo and a qualification given while the scan is on its way are kept, and reach its lead after the answer', async () => {
      const server = withUploads(fakeServer());
      let onTheWay!: () => void;
      let answer!: () => void;
      const sending = new Promise<void>((resolve) => {
        onTheWay = resolve;
      });
      const answered = new Promise<void>((resolve) => {
        answer = resolve;
      });
      const fetch = (async (url: string, init: RequestInit) => {
        if (url.endsWith('/leads/scans')) {
          onTheWay();
          await answered;
        }
        return server.fetch(url, init);
      }) as unknown as typeof globalThis.fetch;
      const queue = queueOf(await freshDb(), { ...server, fetch });
      await queue.setDevice(device);
      const scan = await queue.add('BADGE-PHOTO-3');
      const round = queue.sync();
      await sending;
      await queue.addPhoto(scan.clientScanId, 'card.jpg', jpeg());
      await queue.qualify(scan.clientScanId, { temperature: 'hot' });
      answer();
      await round;
      await queue.sync();
      expect(server.received.flat().map((sent) => sent.badgeCode)).toEqual(['BADGE-PHOTO-3']);
      expect(server.uploads).toHaveLength(1);
      expect(server.patches).toEqual(
        expect.arrayContaining([
          { id: 1, body: { businessCard: 'upload-1' } },
          { id: 1, body: { temperature: 'hot' } },
        ]),
      );
      const [kept] = await queue.recent();
      expect(kept).toMatchObject({ outcome: 'sent', leadId: 1, photo: { name: 'card.jpg', state: 'attached' }, qualification: { temperature: 'hot' } });
      expect(kept!.qualificationPending).toBeFalsy();
    });

    test('a photo the upload rules refuse (not an image by its content) is kept, marked with the reason, never sent, until removed', async () => {
      const server = withUploads(fakeServer());
      const queue = queueOf(await freshDb(), server);
      await queue.setDevice(device);
      const scan = await queue.add('BADGE-PHOTO-2');
      const text = new TextEncoder().encode('not a photo').buffer;
      expect(await queue.addPhoto(scan.clientScanId, 'card.jpg', text)).toMatchObject({ state: 'refused', problem: 'validation.file.type' });
      await queue.sync();
      expect(server.received.flat()).toHaveLength(1);
      expect(server.uploads).toEqual([]);
      expect((await queue.recent())[0]!.photo).toMatchObject({ state: 'refused' });
      await queue.removePhoto(scan.clientScanId);
      expect((await queue.recent())[0]!.photo).toBeUndefined();
    });
  });
});
