import { SCANNER_DB_NAME } from './scan-queue';
import { scanQueue } from './useScanQueue';

// Signing out of a phone that scanned: the user's scans leave the phone only once sent, or once
// the user was told how many are not and chose to lose them. Loaded by the sign-out dialog only
// when it opens, so pages without the scanner do not carry it.

/** Whether this browser ever opened the scanner (opening the database would create it). */
async function scannerUsed(): Promise<boolean> {
  if (typeof indexedDB === 'undefined') return false;
  if (typeof indexedDB.databases !== 'function') return true;
  try {
    return (await indexedDB.databases()).some((db) => db.name === SCANNER_DB_NAME);
  } catch {
    return true;
  }
}

/** The user's scans on this phone that are not sent yet (0 without a scanner). */
export async function unsentScans(userId: number): Promise<number> {
  if (!(await scannerUsed())) return 0;
  const queue = await scanQueue();
  queue.forUser(userId);
  return queue.unsentCount();
}

/** Sends now, telling the unsent count as it falls; returns the unsubscribe. */
export async function sendUnsent(userId: number, onCount: (count: number) => void): Promise<() => void> {
  const queue = await scanQueue();
  queue.forUser(userId);
  const unsubscribe = queue.subscribe(() => {
    void queue.unsentCount().then(onCount);
  });
  queue.kick(true);
  onCount(await queue.unsentCount());
  return unsubscribe;
}

/** Removes the user's scans and device registration from the phone; returns the device id to revoke. */
export async function forgetScans(userId: number): Promise<number | null> {
  if (!(await scannerUsed())) return null;
  const queue = await scanQueue();
  queue.forUser(userId);
  const device = await queue.forgetUser();
  return device?.id ?? null;
}
