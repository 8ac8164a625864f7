import { useCallback, useEffect, useRef, useState } from 'react';
import { currentLanguage } from '../../../lib/i18n';
import { openScannerDb, ScanQueue, type DeviceRecord, type QuotaInfo, type StoredScan, type SyncStatus } from './scan-queue';

// The page's view of the scan queue: one queue per page load, replayed when the page opens, when
// the browser is back online and when the app is shown again (Background Sync is not relied on:
// Safari and Firefox lack it).

let opened: Promise<ScanQueue> | null = null;

/** The one queue of this page load (two would send the same scans twice over). */
export function scanQueue(): Promise<ScanQueue> {
  opened ??= openScannerDb().then((db) => new ScanQueue({ db, fetch: (...args) => globalThis.fetch(...args), language: currentLanguage }));
  // A failed open (storage refused) is tried again next time rather than kept.
  opened.catch(() => {
    opened = null;
  });
  return opened;
}

export interface ScanQueueView {
  queue: ScanQueue | null;
  /** Storage could not be opened at all (private mode, blocked). */
  unavailable: boolean;
  recent: StoredScan[];
  waiting: number;
  /** Unsent scans of other users of this phone, kept until they sign in. */
  othersWaiting: number;
  today: number;
  quota: QuotaInfo | null;
  device: DeviceRecord | null;
  signedOut: boolean;
  clockSkewMs: number;
  status: SyncStatus;
  /** Read once the queue's state is loaded. */
  loaded: boolean;
}

const RECENT_SHOWN = 50;

function startOfToday(): number {
  const now = new Date();
  return new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
}

export function useScanQueue(userId: number | undefined, onAnswered?: (scan: StoredScan) => void): ScanQueueView {
  const [view, setView] = useState<ScanQueueView>({
    queue: null,
    unavailable: false,
    recent: [],
    waiting: 0,
    othersWaiting: 0,
    today: 0,
    quota: null,
    device: null,
    signedOut: false,
    clockSkewMs: 0,
    status: { kind: 'idle' },
    loaded: false,
  });
  const states = useRef(new Map<string, StoredScan['outcome']>());
  const answered = useRef(onAnswered);
  answered.current = onAnswered;

  const refresh = useCallback(async (queue: ScanQueue) => {
    const [recent, waiting, othersWaiting, today, quota, device, signedOut, clockSkewMs] = await Promise.all([
      queue.recent(RECENT_SHOWN),
      queue.waitingCount(),
      queue.othersWaitingCount(),
      queue.countSince(startOfToday()),
      queue.quota(),
      queue.device(),
      queue.signedOut(),
      queue.clockSkewMs(),
    ]);
    for (const scan of recent) {
      const before = states.current.get(scan.clientScanId);
      if (before === 'waiting' && scan.outcome !== 'waiting') answered.current?.(scan);
      states.current.set(scan.clientScanId, scan.outcome);
    }
    setView({ queue, unavailable: false, recent, waiting, othersWaiting, today, quota, device, signedOut, clockSkewMs, status: queue.syncStatus(), loaded: true });
  }, []);

  useEffect(() => {
    if (userId === undefined) return;
    let queue: ScanQueue | null = null;
    let unsubscribe = () => {};
    let pending = false;
    let cancelled = false;
    // Changes come in bursts (a batch answered): one refresh at a time, and one more after it.
    const schedule = () => {
      if (!queue || pending) return;
      pending = true;
      queueMicrotask(() => {
        pending = false;
        if (queue && !cancelled) void refresh(queue);
      });
    };
    const resend = () => {
      queue?.kick(true);
      void queue?.refreshDirectory();
    };
    const shown = () => {
      if (document.visibilityState === 'visible') queue?.kick(true);
    };
    scanQueue().then(
      (opened) => {
        if (cancelled) return;
        queue = opened;
        opened.forUser(userId);
        unsubscribe = opened.subscribe(schedule);
        void refresh(opened);
        opened.kick();
        void opened.refreshDirectory();
      },
      () => {
        if (!cancelled) setView((current) => ({ ...current, unavailable: true, loaded: true }));
      },
    );
    window.addEventListener('online', resend);
    document.addEventListener('visibilitychange', shown);
    return () => {
      cancelled = true;
      unsubscribe();
      window.removeEventListener('online', resend);
      document.removeEventListener('visibilitychange', shown);
    };
  }, [refresh, userId]);

  return view;
}
