import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { API_BASE } from '../../../engine/constants';
import { BUSINESS_CARD_PURPOSE, BUSINESS_CARD_RULE, checkFile } from '../../../engine/forms/files';
import { BADGE_CODE_PATTERN } from '../../../engine/leads-rules';
import type { ScanResult } from '../../../engine/schemas/scan';
import type { ApiEnvelope } from '../../../engine/schemas/envelope';
import type { DirectoryVisitor } from '../../../engine/schemas/directory-visitor';

// LD1: the scanner's offline-first queue. A scan is written to the device (IndexedDB) before
// anything else, with the id the device made for it and the device's time of reading; it is then
// sent with the idempotent batch API, oldest first, and resent until the server gives it a clear
// answer. Because the server answers a resent id as the same scan, a scan whose answer was lost
// (reload, tab closed, server restart) is simply sent again: nothing is lost and nothing doubled.
// No React here: the page subscribes to changes.

/** The qualification a scan may carry (the scan API stores it with the lead). */
export interface ScanQualification {
  leadType?: string;
  temperature?: string;
  followUp?: string;
  notes?: string;
  tagAnswers?: Record<string, string[]>;
}

/**
 * waiting: on the device, not answered yet. sent: a new lead. duplicate: the badge already was a
 * lead. quota: refused for the team user's quota (kept; resent when asked). refused: the server
 * (or the device, for a code that cannot be a badge) said it cannot be stored; `problem` says why.
 */
export type ScanState = 'waiting' | 'sent' | 'duplicate' | 'quota' | 'refused';

export interface StoredScan {
  /** Order of reading (IndexedDB key). */
  seq?: number;
  /** The portal user who read it: sent only with that user's device token. */
  userId?: number;
  clientScanId: string;
  badgeCode: string;
  /** The device clock when the badge was read (kept as read, whatever is sent). */
  readAt: string;
  outcome: ScanState;
  problem?: string;
  leadId?: number | null;
  badgeKnown?: boolean | null;
  visitorName?: string;
  company?: string;
  qualification?: ScanQualification;
  /** LD2: the code was typed in by hand (the lead's consent source); absent = read by the camera. */
  typed?: boolean;
  /** A qualification given after the scan was sent: to be saved on its lead. */
  qualificationPending?: boolean;
  /** The scan's time was corrected once for a device clock the server found wrong. */
  clockCorrected?: boolean;
  /** A photo of the badge or business card, kept with the scan until it is the lead's business card. */
  photo?: ScanPhoto;
}

/**
 * waiting: on the device, sent once the scan has a lead. attached: the lead's business card (the
 * bytes are dropped). refused: the upload rules refused it (`problem`, a locale key, and its
 * params say why); it stays on the device until removed.
 */
export interface ScanPhoto {
  name: string;
  /** The bytes (an ArrayBuffer rather than a Blob: every browser's IndexedDB keeps it). */
  bytes?: ArrayBuffer;
  state: 'waiting' | 'attached' | 'refused';
  problem?: string;
  params?: Record<string, string | number>;
  /** The server's reason, already in the user's language, when it gave no locale key. */
  message?: string;
}

/** The device registration the scanner sends its scans with. */
export interface DeviceRecord {
  id: number;
  name: string;
  token: string;
  userId: number;
}

interface ScannerSchema extends DBSchema {
  scans: { key: number; value: StoredScan; indexes: { byClientScanId: string; byState: string } };
  meta: { key: string; value: unknown };
  visitors: { key: string; value: DirectoryVisitor };
}

export type ScannerDb = IDBPDatabase<ScannerSchema>;

export const SCANNER_DB_NAME = 'leadgrab-scanner';
/** Scans per request: well inside the API's limit, small enough to answer fast on venue Wi-Fi. */
export const SEND_BATCH = 100;
const BACKOFF_FIRST_MS = 1000;
const BACKOFF_MAX_MS = 60_000;
/** A device clock further off than this from the server's is corrected when sending. */
const CLOCK_TOLERANCE_MS = 10 * 60 * 1000;

export function openScannerDb(name = SCANNER_DB_NAME): Promise<ScannerDb> {
  return openDB<ScannerSchema>(name, 1, {
    upgrade(db) {
      const scans = db.createObjectStore('scans', { keyPath: 'seq', autoIncrement: true });
      scans.createIndex('byClientScanId', 'clientScanId', { unique: true });
      scans.createIndex('byState', 'outcome');
      db.createObjectStore('meta');
      db.createObjectStore('visitors', { keyPath: 'badgeCode' });
    },
  });
}

/** Why a scan could not even be written: the device's storage is full, or storage is unavailable. */
export class ScanStoreError extends Error {
  constructor(
    readonly reason: 'storageFull' | 'storageUnavailable',
    cause?: unknown,
  ) {
    super(reason, { cause });
  }
}

const badgePattern = new RegExp(BADGE_CODE_PATTERN);
/** A read that cannot be a badge code of an event: a web address, a space, or too long. */
export function notABadge(code: string): boolean {
  return !badgePattern.test(code) || /^[a-z][a-z0-9+.-]*:\/\//i.test(code) || /^www\./i.test(code);
}

/** What the queue is doing, for the page. */
export type SyncStatus =
  | { kind: 'idle' }
  | { kind: 'sending' }
  | { kind: 'retrying'; inMs: number; attempt: number }
  | { kind: 'noDevice' }
  /** The device token was refused: revoked, or its user deactivated. */
  | { kind: 'signedOut' }
  /** The account may not scan (no Leadgrab module). */
  | { kind: 'forbidden' };

export interface QueueDeps {
  db: ScannerDb;
  fetch: typeof fetch;
  now?: () => number;
  newId?: () => string;
  language?: () => string;
  /** Sleep scheduling, injectable for tests. */
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
  random?: () => number;
  /** The user signed in when the queue opens (else set by forUser). */
  userId?: number;
}

/** What the scanner reads of the answers' data (a batch's results and quota, a registered device's id, a refusal's problems). */
interface ScannerAnswer {
  results?: ScanResult[];
  quota?: number | null;
  remaining?: number | null;
  id?: string;
  problems?: { key: string; params?: Record<string, string | number> }[];
}
type Envelope = ApiEnvelope<ScannerAnswer | null | undefined>;

type RoundOutcome = 'done' | 'empty' | 'retry' | 'signedOut' | 'forbidden' | 'noDevice';

// A phone may pass from hand to hand: each user has their own device registration, and their
// scans are sent only with it (never under the next user's token).
const metaDevice = (userId: number) => `device:${userId}`;
const metaSignedOut = (userId: number) => `signedOut:${userId}`;
const META_QUOTA = 'quota';
const META_CLOCK_SKEW = 'clockSkewMs';
const META_DIRECTORY_VERSION = 'directoryVersion';
/** Visitors per directory page: a few requests for a large show. */
const DIRECTORY_PAGE = 2000;

export interface QuotaInfo {
  quota: number | null;
  remaining: number | null;
}

export class ScanQueue {
  readonly db: ScannerDb;
  private readonly deps: Required<Omit<QueueDeps, 'db' | 'userId'>>;
  private listeners = new Set<() => void>();
  private status: SyncStatus = { kind: 'idle' };
  private running: Promise<void> | null = null;
  private again = false;
  private timer: unknown = null;
  private attempt = 0;
  private stopped = false;
  /** The signed-in user: the queue shows and sends only their scans. */
  private userId: number | null = null;

  constructor(deps: QueueDeps) {
    this.db = deps.db;
    this.userId = deps.userId ?? null;
    this.deps = {
      fetch: deps.fetch,
      now: deps.now ?? (() => Date.now()),
      newId: deps.newId ?? (() => crypto.randomUUID()),
      language: deps.language ?? (() => 'en'),
      setTimer: deps.setTimer ?? ((run, ms) => setTimeout(run, ms)),
      clearTimer: deps.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>)),
      random: deps.random ?? Math.random,
    };
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed() {
    for (const listener of [...this.listeners]) listener();
  }

  syncStatus(): SyncStatus {
    return this.status;
  }

  private setStatus(status: SyncStatus) {
    this.status = status;
    this.changed();
  }

  // ---- user and device ----------------------------------------------------------------------

  /** The user signed in on this phone: from now on their scans are read, shown and sent. */
  forUser(userId: number): void {
    if (this.userId === userId) return;
    this.userId = userId;
    this.changed();
    this.kick(true);
  }

  private mine(scan: StoredScan): boolean {
    return this.userId !== null && scan.userId === this.userId;
  }

  async device(): Promise<DeviceRecord | null> {
    if (this.userId === null) return null;
    return ((await this.db.get('meta', metaDevice(this.userId))) as DeviceRecord | undefined) ?? null;
  }

  async setDevice(device: DeviceRecord): Promise<void> {
    const tx = this.db.transaction('meta', 'readwrite');
    await tx.store.put(device, metaDevice(device.userId));
    await tx.store.delete(metaSignedOut(device.userId));
    await tx.done;
    this.userId ??= device.userId;
    this.changed();
    this.kick();
    void this.refreshDirectory();
  }

  /** The device token was refused: it is forgotten, the unsent scans stay. */
  async signedOut(): Promise<boolean> {
    if (this.userId === null) return false;
    return (await this.db.get('meta', metaSignedOut(this.userId))) === true;
  }

  /** The signed-in user's scans that still have something to send (the scan, its qualification or its photo). */
  async unsentCount(): Promise<number> {
    return (await this.db.getAll('scans')).filter(
      (scan) =>
        this.mine(scan) && (scan.outcome === 'waiting' || scan.qualificationPending || (scan.photo?.state === 'waiting' && scan.outcome !== 'refused' && scan.outcome !== 'quota')),
    ).length;
  }

  /** Unsent scans read by other users of this phone: kept for them, sent when they sign in. */
  async othersWaitingCount(): Promise<number> {
    return (await this.db.getAllFromIndex('scans', 'byState', 'waiting')).filter((scan) => scan.userId !== this.userId).length;
  }

  /**
   * Signing out: the signed-in user's scans (sent or, once the user accepted to lose them, not)
   * and their device registration leave the phone. Other users' scans stay.
   */
  async forgetUser(): Promise<DeviceRecord | null> {
    const userId = this.userId;
    if (userId === null) return null;
    const device = await this.device();
    this.userId = null;
    if (this.timer !== null) this.deps.clearTimer(this.timer);
    this.timer = null;
    const tx = this.db.transaction(['scans', 'meta', 'visitors'], 'readwrite');
    const scans = tx.objectStore('scans');
    let cursor = await scans.openCursor();
    while (cursor) {
      if (cursor.value.userId === userId) await cursor.delete();
      cursor = await cursor.continue();
    }
    const meta = tx.objectStore('meta');
    await meta.delete(metaDevice(userId));
    await meta.delete(metaSignedOut(userId));
    // The visitors' names stay on the phone only while someone may still scan with it.
    const devicesLeft = (await meta.getAllKeys()).some((key) => key.startsWith('device:'));
    if (!devicesLeft) {
      await tx.objectStore('visitors').clear();
      await meta.delete(META_DIRECTORY_VERSION);
    }
    await tx.done;
    this.setStatus({ kind: 'idle' });
    return device;
  }

  async quota(): Promise<QuotaInfo | null> {
    return ((await this.db.get('meta', META_QUOTA)) as QuotaInfo | undefined) ?? null;
  }

  /** The server's clock minus the device's, when they differ by more than a few minutes; else 0. */
  async clockSkewMs(): Promise<number> {
    return ((await this.db.get('meta', META_CLOCK_SKEW)) as number | undefined) ?? 0;
  }

  // ---- scans --------------------------------------------------------------------------------

  /** Writes a scan to the device first; the answer comes later through sync(). */
  async add(badgeCode: string, qualification?: ScanQualification, typed = false): Promise<StoredScan> {
    const code = badgeCode.trim();
    const known = notABadge(code) ? undefined : await this.db.get('visitors', code).catch(() => undefined);
    const scan: StoredScan = {
      ...(this.userId === null ? {} : { userId: this.userId }),
      clientScanId: this.deps.newId(),
      badgeCode: code,
      readAt: new Date(this.deps.now()).toISOString(),
      outcome: notABadge(code) ? 'refused' : 'waiting',
      ...(notABadge(code) ? { problem: 'notABadge' } : {}),
      ...(qualification ? { qualification } : {}),
      ...(typed ? { typed: true } : {}),
      // Who it is, at once, from the visitor directory on the phone (the server's answer follows).
      ...(known?.name ? { visitorName: known.name } : {}),
      ...(known?.company ? { company: known.company } : {}),
    };
    try {
      scan.seq = await this.db.add('scans', scan);
    } catch (error) {
      throw new ScanStoreError(isQuotaError(error) ? 'storageFull' : 'storageUnavailable', error);
    }
    this.changed();
    if (scan.outcome === 'waiting') this.kick();
    return scan;
  }

  /** The latest scans first. */
  async recent(limit = 50): Promise<StoredScan[]> {
    const found: StoredScan[] = [];
    let cursor = await this.db.transaction('scans').store.openCursor(null, 'prev');
    while (cursor && found.length < limit) {
      if (this.mine(cursor.value)) found.push(cursor.value);
      cursor = await cursor.continue();
    }
    return found;
  }

  async all(): Promise<StoredScan[]> {
    return (await this.db.getAll('scans')).filter((scan) => this.mine(scan));
  }

  async waitingCount(): Promise<number> {
    return (await this.db.getAllFromIndex('scans', 'byState', 'waiting')).filter((scan) => this.mine(scan)).length;
  }

  /** Scans read since the given instant (the day's count), refused reads left out. */
  async countSince(since: number): Promise<number> {
    let count = 0;
    let cursor = await this.db.transaction('scans').store.openCursor(null, 'prev');
    while (cursor) {
      if (Date.parse(cursor.value.readAt) < since) break;
      if (cursor.value.outcome !== 'refused' && this.mine(cursor.value)) count += 1;
      cursor = await cursor.continue();
    }
    return count;
  }

  /** Adds or replaces a scan's qualification: sent with the scan, or saved on its lead once sent. */
  async qualify(clientScanId: string, qualification: ScanQualification): Promise<void> {
    const tx = this.db.transaction('scans', 'readwrite');
    const scan = await tx.store.index('byClientScanId').get(clientScanId);
    if (!scan) return;
    scan.qualification = qualification;
    if (scan.outcome !== 'waiting' && scan.leadId) scan.qualificationPending = true;
    await tx.store.put(scan);
    await tx.done;
    this.changed();
    this.kick();
  }

  /**
   * Keeps a photo with its scan on the device; it is uploaded as the lead's business card once the
   * scan has a lead. A photo the upload rules refuse is kept, marked refused, until removed.
   */
  async addPhoto(clientScanId: string, name: string, bytes: ArrayBuffer): Promise<ScanPhoto | null> {
    const problems = checkFile(BUSINESS_CARD_RULE, { name, bytes: new Uint8Array(bytes) });
    const photo: ScanPhoto =
      problems.length > 0 ? { name, bytes, state: 'refused', problem: problems[0]!.key, params: problems[0]!.params ?? {} } : { name, bytes, state: 'waiting' };
    const tx = this.db.transaction('scans', 'readwrite');
    const scan = await tx.store.index('byClientScanId').get(clientScanId);
    if (!scan) return null;
    try {
      await tx.store.put({ ...scan, photo });
      await tx.done;
    } catch (error) {
      throw new ScanStoreError(isQuotaError(error) ? 'storageFull' : 'storageUnavailable', error);
    }
    this.changed();
    this.kick();
    return photo;
  }

  /** Removes a scan's photo from the device (one refused, or not wanted any more). */
  async removePhoto(clientScanId: string): Promise<void> {
    const tx = this.db.transaction('scans', 'readwrite');
    const scan = await tx.store.index('byClientScanId').get(clientScanId);
    if (!scan?.photo) return;
    const { photo: _removed, ...rest } = scan;
    await tx.store.put(rest);
    await tx.done;
    this.changed();
  }

  /** Scans refused for the quota are tried again (after the exhibitor raised it). */
  async retryQuota(): Promise<void> {
    const tx = this.db.transaction('scans', 'readwrite');
    for (const scan of await tx.store.index('byState').getAll('quota')) if (this.mine(scan)) await tx.store.put({ ...scan, outcome: 'waiting' });
    await tx.done;
    this.changed();
    this.kick();
  }

  // ---- visitor directory --------------------------------------------------------------------

  /**
   * Downloads the event's visitor directory when its version changed since the last download
   * (nothing when it did not). Best effort: a failure leaves the previous copy, tried again on
   * the next start or reconnection.
   */
  async refreshDirectory(): Promise<void> {
    const device = await this.device();
    if (!device) return;
    const stored = await this.db.get('meta', META_DIRECTORY_VERSION);
    let after: string | null = null;
    let version: string | null = null;
    let first = true;
    do {
      let response: Response;
      try {
        response = await this.deps.fetch(`${API_BASE}/leads/visitor-directory?limit=${DIRECTORY_PAGE}${after ? `&after=${after}` : ''}`, {
          headers: { authorization: `Bearer ${device.token}`, 'accept-language': this.deps.language() },
        });
      } catch {
        return;
      }
      const envelope = (await response.json().catch(() => null)) as { code: number; data?: { version: string; items: DirectoryVisitor[]; next: string | null } } | null;
      if (envelope?.code !== 200 || !envelope.data) return;
      const page = envelope.data;
      if (first) {
        if (page.version === stored) return;
        version = page.version;
        await this.db.clear('visitors');
        first = false;
      } else if (page.version !== version) {
        // The directory changed during the download: the next refresh starts over.
        return;
      }
      const tx = this.db.transaction('visitors', 'readwrite');
      for (const visitor of page.items) await tx.store.put(visitor);
      await tx.done;
      after = page.next;
    } while (after);
    await this.db.put('meta', version, META_DIRECTORY_VERSION);
  }

  async visitor(badgeCode: string): Promise<DirectoryVisitor | null> {
    return (await this.db.get('visitors', badgeCode)) ?? null;
  }

  // ---- sending ------------------------------------------------------------------------------

  /**
   * Sends now (a new scan, back online, the app shown again): any wait for a retry is cut short.
   * `fresh`: the network is back, so the backoff starts again from its shortest wait.
   */
  kick(fresh = false): void {
    if (this.stopped) return;
    if (fresh) this.attempt = 0;
    if (this.timer !== null) {
      this.deps.clearTimer(this.timer);
      this.timer = null;
    }
    void this.sync();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) this.deps.clearTimer(this.timer);
    this.timer = null;
  }

  /** Sends everything waiting, batch after batch, oldest first; resolves when done or waiting to retry. */
  sync(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.drain();
        } while (this.again && !this.stopped && this.timer === null);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  private async drain(): Promise<void> {
    for (;;) {
      let outcome: RoundOutcome;
      try {
        outcome = await this.round();
      } catch {
        outcome = 'retry';
      }
      if (outcome === 'done') {
        this.attempt = 0;
        continue;
      }
      if (outcome === 'empty') {
        this.attempt = 0;
        this.setStatus({ kind: 'idle' });
        return;
      }
      if (outcome === 'retry') {
        const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** this.attempt) * (0.75 + this.deps.random() / 2);
        this.attempt += 1;
        if (!this.stopped) {
          this.timer = this.deps.setTimer(() => {
            this.timer = null;
            void this.sync();
          }, delay);
        }
        this.setStatus({ kind: 'retrying', inMs: Math.round(delay), attempt: this.attempt });
        return;
      }
      this.setStatus({ kind: outcome });
      return;
    }
  }

  private async round(): Promise<RoundOutcome> {
    const device = await this.device();
    if (!device) return (await this.signedOut()) ? 'signedOut' : 'noDevice';
    const waiting = (await this.db.getAllFromIndex('scans', 'byState', 'waiting')).filter((scan) => scan.userId === device.userId);
    waiting.sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
    if (waiting.length > 0) {
      this.setStatus({ kind: 'sending' });
      return this.sendBatch(device, waiting.slice(0, SEND_BATCH));
    }
    const pending = (await this.db.getAll('scans')).find((scan) => scan.qualificationPending && scan.leadId && scan.userId === device.userId);
    if (pending) {
      this.setStatus({ kind: 'sending' });
      return this.sendQualification(device, pending);
    }
    const photo = (await this.db.getAll('scans')).find((scan) => scan.photo?.state === 'waiting' && scan.leadId && scan.outcome !== 'waiting' && scan.userId === device.userId);
    if (photo) {
      this.setStatus({ kind: 'sending' });
      return this.sendPhoto(device, photo);
    }
    return 'empty';
  }

  private async request(device: DeviceRecord, method: string, path: string, body: unknown): Promise<{ status: number; envelope: Envelope | null } | null> {
    let response: Response;
    try {
      response = await this.deps.fetch(`${API_BASE}${path}`, {
        method,
        headers: { authorization: `Bearer ${device.token}`, 'content-type': 'application/json', 'accept-language': this.deps.language() },
        body: JSON.stringify(body),
      });
    } catch {
      return null;
    }
    await this.noteServerClock(response.headers.get('date'));
    let envelope: Envelope | null = null;
    try {
      envelope = (await response.json()) as Envelope;
    } catch {
      envelope = null;
    }
    return { status: response.status, envelope };
  }

  /** What the answer's code means for the queue, when it is not a set of per-scan results. */
  private async refusal(device: DeviceRecord, answer: { status: number; envelope: Envelope | null } | null): Promise<RoundOutcome | null> {
    if (!answer?.envelope || typeof answer.envelope.code !== 'number') return 'retry';
    const { code } = answer.envelope;
    if (code === 401) {
      await this.forgetDevice(device.userId);
      return 'signedOut';
    }
    if (code === 403) return 'forbidden';
    // A malformed request (HTTP 400) is answered per scan by the caller.
    if (code === 200 || code === 601 || answer.status === 400) return null;
    return 'retry';
  }

  private async forgetDevice(userId: number) {
    const tx = this.db.transaction('meta', 'readwrite');
    await tx.store.delete(metaDevice(userId));
    await tx.store.put(true, metaSignedOut(userId));
    await tx.done;
  }

  private async sendBatch(device: DeviceRecord, scans: StoredScan[]): Promise<RoundOutcome> {
    const skew = await this.clockSkewMs();
    const body = { scans: scans.map((scan) => wireScan(scan, skew)) };
    const answer = await this.request(device, 'POST', '/leads/scans', body);
    const refusal = await this.refusal(device, answer);
    if (refusal) return refusal;
    const envelope = answer!.envelope!;
    if (answer!.status === 400) {
      // The request as a whole was refused (a scan the device should not have let through):
      // each scan is sent alone so that only the malformed one is refused.
      if (scans.length === 1) {
        await this.update([[scans[0]!.clientScanId, (current) => ({ ...current, outcome: 'refused', problem: 'format' })]]);
        return 'done';
      }
      for (const scan of scans) {
        const outcome = await this.sendBatch(device, [scan]);
        if (outcome !== 'done') return outcome;
      }
      return 'done';
    }
    const results = envelope.data?.results;
    if (!Array.isArray(results)) return 'retry';
    const byId = new Map(results.map((result) => [result.clientScanId, result]));
    const newSkew = await this.clockSkewMs();
    const updates: ScanUpdate[] = [];
    for (const scan of scans) {
      const result = byId.get(scan.clientScanId);
      if (!result) continue;
      updates.push([
        scan.clientScanId,
        (current) => {
          const answered = applyAnswer(current, result, newSkew !== 0);
          // A qualification given while the scan was on its way was not in it: it goes to the lead next.
          const givenMeanwhile = !sameJson(current.qualification, scan.qualification);
          return givenMeanwhile && answered.outcome !== 'waiting' && answered.leadId ? { ...answered, qualificationPending: true } : answered;
        },
      ]);
    }
    await this.update(updates);
    if (envelope.data && 'quota' in envelope.data) {
      await this.db.put('meta', { quota: envelope.data.quota ?? null, remaining: envelope.data.remaining ?? null } satisfies QuotaInfo, META_QUOTA);
    }
    return 'done';
  }

  private async sendQualification(device: DeviceRecord, scan: StoredScan): Promise<RoundOutcome> {
    const q = scan.qualification ?? {};
    const body = {
      ...(q.leadType ? { leadType: q.leadType } : {}),
      ...(q.temperature ? { temperature: q.temperature } : {}),
      ...(q.followUp ? { followUp: q.followUp } : {}),
      ...(q.notes !== undefined ? { notes: q.notes } : {}),
      ...(q.tagAnswers ? { tagAnswers: q.tagAnswers } : {}),
    };
    const answer = await this.request(device, 'PATCH', `/leads/${scan.leadId}`, body);
    const refusal = await this.refusal(device, answer);
    if (refusal) return refusal;
    // Saved, or refused for good (the lead was deleted, an answer no longer allowed): either way
    // it is not sent again; a refusal is shown on the scan.
    const saved = answer!.envelope!.code === 200;
    await this.update([
      [
        scan.clientScanId,
        // A qualification changed again meanwhile stays pending: the newer one is sent next.
        (current) => (sameJson(current.qualification, scan.qualification) ? { ...current, qualificationPending: false, ...(saved ? {} : { problem: 'qualification' }) } : current),
      ],
    ]);
    return 'done';
  }

  /**
   * Uploads a scan's photo with the upload rules (purpose businessCard) and makes it its lead's
   * business card. An upload whose attachment failed is uploaded again: an unattached upload is
   * an orphan the server sweeps, while a photo is never lost.
   */
  private async sendPhoto(device: DeviceRecord, scan: StoredScan): Promise<RoundOutcome> {
    const photo = scan.photo!;
    const body = new FormData();
    body.append('purpose', BUSINESS_CARD_PURPOSE);
    body.append('file', new Blob([photo.bytes ?? new ArrayBuffer(0)]), photo.name);
    let response: Response;
    try {
      response = await this.deps.fetch(`${API_BASE}/uploads`, {
        method: 'POST',
        headers: { authorization: `Bearer ${device.token}`, 'accept-language': this.deps.language() },
        body,
      });
    } catch {
      return 'retry';
    }
    let envelope: Envelope | null = null;
    try {
      envelope = (await response.json()) as Envelope;
    } catch {
      envelope = null;
    }
    const uploaded = { status: response.status, envelope };
    if (envelope?.code === 601) {
      // Refused by the upload rules (type by content, size, the exhibitor's storage quota): kept on the phone.
      const first = envelope.data?.problems?.[0];
      await this.updatePhoto(scan, photo, { ...photo, state: 'refused', ...(first ? { problem: first.key, params: first.params ?? {} } : { message: envelope.msg ?? '' }) });
      return 'done';
    }
    if (envelope?.code === 400 || (envelope?.code === 403 && envelope.error === 'deviceTokenScope')) {
      await this.updatePhoto(scan, photo, { ...photo, state: 'refused', message: envelope.msg ?? '' });
      return 'done';
    }
    const refusal = await this.refusal(device, uploaded);
    if (refusal) return refusal;
    const id = envelope?.data?.id;
    if (!id) return 'retry';
    const attached = await this.request(device, 'PATCH', `/leads/${scan.leadId}`, { businessCard: id });
    const attachRefusal = await this.refusal(device, attached);
    if (attachRefusal) return attachRefusal;
    if (attached!.envelope!.code !== 200) {
      await this.updatePhoto(scan, photo, { ...photo, state: 'refused', message: attached!.envelope!.msg ?? '' });
      return 'done';
    }
    const { bytes: _sent, ...kept } = photo;
    await this.updatePhoto(scan, photo, { ...kept, state: 'attached' });
    return 'done';
  }

  /**
   * Writes what a round learnt onto each scan as it is now, read in the same transaction: a photo,
   * a qualification or a removal made on the device while the round was away is kept, not
   * overwritten by the copy the round started from.
   */
  private async update(updates: readonly ScanUpdate[]) {
    if (updates.length === 0) return;
    const tx = this.db.transaction('scans', 'readwrite');
    for (const [clientScanId, change] of updates) {
      const current = await tx.store.index('byClientScanId').get(clientScanId);
      if (current) await tx.store.put(change(current));
    }
    await tx.done;
    this.changed();
  }

  /** A photo's new state, if the scan still holds the photo that was sent (not removed or replaced meanwhile). */
  private updatePhoto(scan: StoredScan, sent: ScanPhoto, next: ScanPhoto) {
    const same = (photo: ScanPhoto | undefined) => photo?.name === sent.name && photo.state === sent.state && photo.bytes?.byteLength === sent.bytes?.byteLength;
    return this.update([[scan.clientScanId, (current) => (same(current.photo) ? { ...current, photo: next } : current)]]);
  }

  private async noteServerClock(dateHeader: string | null) {
    const server = dateHeader ? Date.parse(dateHeader) : Number.NaN;
    if (Number.isNaN(server)) return;
    const skew = server - this.deps.now();
    const kept = Math.abs(skew) > CLOCK_TOLERANCE_MS ? skew : 0;
    if (kept !== (await this.clockSkewMs())) await this.db.put('meta', kept, META_CLOCK_SKEW);
  }
}

/** The scan as sent: its time moved onto the server's clock when the device's is known to be off. */
function wireScan(scan: StoredScan, skewMs: number) {
  const q = scan.qualification ?? {};
  return {
    clientScanId: scan.clientScanId,
    badgeCode: scan.badgeCode,
    scannedAt: skewMs === 0 ? scan.readAt : new Date(Date.parse(scan.readAt) + skewMs).toISOString(),
    ...(q.leadType ? { leadType: q.leadType } : {}),
    ...(q.temperature ? { temperature: q.temperature } : {}),
    ...(q.followUp ? { followUp: q.followUp } : {}),
    ...(q.notes?.trim() ? { notes: q.notes } : {}),
    ...(q.tagAnswers && Object.keys(q.tagAnswers).length > 0 ? { tagAnswers: q.tagAnswers } : {}),
    ...(scan.typed ? { source: 'manualEntry' as const } : {}),
  };
}

/** A scan's id and the change a round makes to it. */
type ScanUpdate = readonly [clientScanId: string, change: (current: StoredScan) => StoredScan];

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function applyAnswer(scan: StoredScan, result: ScanResult, clockKnownOff: boolean): StoredScan {
  const known = {
    leadId: result.leadId,
    badgeKnown: result.badgeKnown,
    visitorName: result.visitorName ?? scan.visitorName,
    company: result.company ?? scan.company,
  };
  switch (result.status) {
    case 'created':
      return { ...scan, ...known, outcome: 'sent', problem: undefined };
    case 'duplicate':
      // A resend answers the first send's lead: this device made it.
      return { ...scan, ...known, outcome: result.reason === 'alreadyScanned' ? 'duplicate' : 'sent', problem: undefined };
    case 'quotaNotEnough':
      return { ...scan, outcome: 'quota' };
    default: {
      const clockProblem = result.problem === 'future' || result.problem === 'past';
      // The device clock is off and this answer told by how much: sent again once, on the server's time.
      if (clockProblem && clockKnownOff && !scan.clockCorrected) return { ...scan, clockCorrected: true };
      return { ...scan, outcome: 'refused', problem: result.problem ?? 'invalid' };
    }
  }
}

function isQuotaError(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name ?? '';
  const inner = ((error as { inner?: { name?: string } } | null)?.inner?.name ?? '') as string;
  return name === 'QuotaExceededError' || inner === 'QuotaExceededError';
}
