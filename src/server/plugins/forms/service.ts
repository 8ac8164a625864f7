import { existsSync, readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import fp from 'fastify-plugin';
import type { Catalogue } from '../../../engine/catalogue';
import { API_BASE } from '../../../engine/constants';
import type { Transaction } from 'kysely';
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/schema';
import {
  readFormSetFrom,
  readFormSource,
  sourceHash,
  type FormRegistry,
  type FormSet,
  type FormSetProblem,
  type FormSetReading,
  type FormSetSource,
  type ServedValidator,
} from './form-set';
import { currentNumber, publishVersion, readVersion, VERSION_CHANNEL, type PublishOutcome, type VersionAuthor, type VersionSource, type VersionSummary } from './versions';
import { CATALOGUE_FILE } from './live-catalogue';

// The live form set: the forms in FORMS_DIR, read and checked as a whole at start and
// again on every change (file watching, SIGHUP, the organiser's reload action). A valid change is
// swapped in at once; an invalid one is refused whole and the forms in use keep serving. A
// request that takes `current()` once works with one set from start to end.

/** How long the files must stay still before a change is read (an editor saves in several writes). */
const SETTLE_MS = 250;
/** Served validator modules kept from earlier sets, for pages opened before a change. */
const KEPT_MODULES = 200;

/** Where the set's compiled validators are served, as same-origin modules named by content hash. */
export const VALIDATORS_PATH = `${API_BASE}/forms/validators`;

/** Where the browser loads a form's compiled validators from. */
export function validatorUrl(hash: string): string {
  return `${VALIDATORS_PATH}/${hash}.js`;
}

export interface FormSetStatus {
  dir: string;
  version: string;
  /** F11: the number of the version in use (the database's versions; 0 before the first is stored). */
  number: number;
  loadedAt: Date;
  /** The last change refused, while no valid change has followed it. */
  refused: { at: Date; problems: FormSetProblem[] } | null;
}

/** A change to publish as the next version of the form set. */
export interface FormSetChange {
  source: FormSetSource;
  kind: VersionSource;
  author: VersionAuthor;
  comment: string;
  /** The version the change was made on; null: publish whatever came in between. */
  basedOn: number | null;
}

export type FormSetPublishOutcome = PublishOutcome | { kind: 'problems'; problems: FormSetProblem[] };

export interface FormService {
  /** The set in use: take it once per request. */
  current(): FormSet;
  /** The set in use with its version number, taken together. */
  currentVersion(): { set: FormSet; number: number };
  /** A view that always reads the set in use, for modules that look forms up now and then. */
  registry: FormRegistry;
  /** The screens as the set in use has them (the auth hook's screen checks). */
  catalogue(): Catalogue;
  /**
   * Reads FORMS_DIR again: swaps a valid change in at once (and stores it as a new version in the
   * background, see settled()), refuses an invalid one.
   */
  reload(reason: string): { version: string; changed: boolean; problems: FormSetProblem[] };
  status(): FormSetStatus;
  /** A served validator module by its content hash (this set's or a recent one's). */
  validatorModule(hash: string): string | undefined;
  /** Serves a validator module of a checked set that is not in use (an editor's preview). */
  servePreview(served: ServedValidator): void;
  /** Checks a form set's content as `npm run check` and the live reload do. */
  check(source: FormSetSource): FormSetReading;
  /**
   * Checks and publishes a change as the next version: refused with its problems, or as stale when
   * another version was published since `basedOn`. `during` runs in the publishing transaction.
   */
  publish(change: FormSetChange, during?: (trx: Transaction<Database>, version: VersionSummary) => Promise<void>): Promise<FormSetPublishOutcome>;
  /** Serves the current published version now if it is not the one in use (what the poll does). */
  refresh(): Promise<void>;
  /** Resolves once the FORMS_DIR changes read so far are stored as versions. */
  settled(): Promise<void>;
  /** A new published version in which the event `toExhibitCode` has the patches of `fromExhibitCode` (cloning an event). */
  copyEventPatches(fromExhibitCode: string, toExhibitCode: string, actor: VersionAuthor & { role?: string }): Promise<VersionSummary | null>;
}

declare module 'fastify' {
  interface FastifyInstance {
    forms: FormService;
  }
}

/** How often an instance asks for the current version number (PGlite, and PostgreSQL besides NOTIFY). */
const POLL_MS = 1000;

/** The patches of an event in a set's content: events/<code>/<form>.patch.json. */
const patchPrefix = (exhibitCode: string) => `events/${exhibitCode}/`;

export default fp<{ dir: string; watch?: boolean }>(
  async (app, { dir, watch: watching = true }) => {
    const files = readSafely(dir);
    const fromFiles = files.source ? readFormSetFrom(files.source, dir) : ({ set: null, problems: files.problems } as const);
    // F11: FORMS_DIR is imported as a new version when it changed since the current version and
    // since it was last imported (a restart with unchanged files keeps an organiser's publish).
    // Instances starting together take the writers' lock in turn: one imports, the others see it.
    if (fromFiles.set && files.source)
      await publishVersion(app.db, { source: files.source, kind: 'files', author: { id: null, name: '' }, comment: 'FORMS_DIR', basedOn: null, onlyIfNew: true });
    const stored = await readVersion(app.db);
    let refused: FormSetStatus['refused'] = fromFiles.set ? null : { at: new Date(), problems: fromFiles.problems };
    let current: { set: FormSet; number: number };
    if (stored && (!fromFiles.set || stored.contentHash !== sourceHash(files.source!))) {
      const reading = readFormSetFrom(stored.content, dir);
      if (reading.set) current = { set: reading.set, number: stored.number };
      else if (fromFiles.set) {
        // The stored version no longer passes this build's checks (a screen or keyword it names is gone).
        app.log.error({ number: stored.number, problems: reading.problems }, `Forms version ${stored.number} has problems with this build; serving FORMS_DIR`);
        current = { set: fromFiles.set, number: stored.number };
      } else throw new Error(`The forms in ${dir} have problems:\n${fromFiles.problems.map((p) => `  - ${p.file} ${p.path}: ${p.message}`).join('\n')}`);
    } else if (fromFiles.set) current = { set: fromFiles.set, number: stored?.number ?? 0 };
    else throw new Error(`The forms in ${dir} have problems:\n${fromFiles.problems.map((p) => `  - ${p.file} ${p.path}: ${p.message}`).join('\n')}`);
    if (!fromFiles.set) app.log.error({ problems: fromFiles.problems }, `The forms in ${dir} have problems; serving forms version ${current.number}`);
    const modules = new Map(current.set.modules);

    /** Puts a checked set in use. */
    const adopt = (set: FormSet, number: number, reason: string) => {
      for (const [hash, text] of set.modules) modules.set(hash, text);
      for (const hash of modules.keys()) if (modules.size > KEPT_MODULES && !set.modules.has(hash)) modules.delete(hash);
      const previous = current.set.version;
      current = { set, number };
      app.log.info({ reason, previous, version: set.version, number }, `Forms version ${set.version} (${number}) in use`);
    };

    // FORMS_DIR changes are stored one after another, in the order they were read.
    let storing: Promise<void> = Promise.resolve();
    let unstored = 0;
    const store = (source: FormSetSource, set: FormSet) => {
      unstored++;
      storing = storing
        .then(async () => {
          const outcome = await publishVersion(app.db, { source, kind: 'files', author: { id: null, name: '' }, comment: 'FORMS_DIR', basedOn: null });
          if (outcome.kind === 'published' && current.set === set) current = { set, number: outcome.version.number };
        })
        .catch((error: unknown) => app.log.error({ err: error }, 'Storing the forms of FORMS_DIR as a version failed; this instance serves them, the others keep theirs'))
        .finally(() => unstored--);
    };

    const reload = (reason: string) => {
      const read = readSafely(dir);
      const { set, problems } = read.source ? readFormSetFrom(read.source, dir) : { set: null, problems: read.problems };
      if (!set) {
        refused = { at: new Date(), problems };
        app.log.error({ reason, problems }, `Form change refused (${problems.length} problem(s)); still serving forms version ${current.set.version}`);
        return { version: current.set.version, changed: false, problems };
      }
      refused = null;
      if (set.version === current.set.version) return { version: current.set.version, changed: false, problems: [] };
      adopt(set, current.number, reason);
      store(read.source!, set);
      return { version: set.version, changed: true, problems: [] };
    };

    // Another instance's publish: the current number is read cheaply; the content only when it moved.
    let refreshing: Promise<void> | null = null;
    const refresh = (): Promise<void> => {
      refreshing ??= (async () => {
        try {
          // While this instance's own FORMS_DIR changes are being stored, theirs are the newest.
          if (unstored > 0) return;
          const number = await currentNumber(app.db);
          if (number === 0 || number === current.number) return;
          const stored = await readVersion(app.db, number);
          if (!stored || unstored > 0) return;
          if (stored.contentHash === sourceHash(current.set.source)) {
            current = { set: current.set, number };
            return;
          }
          const reading = readFormSetFrom(stored.content, dir);
          if (reading.set) adopt(reading.set, number, 'published');
          else {
            // Published versions were checked; a build that refuses one keeps serving what it has.
            app.log.error({ number, problems: reading.problems }, `Forms version ${number} has problems with this build; still serving ${current.number}`);
            current = { set: current.set, number };
          }
        } catch (error) {
          app.log.warn({ err: error }, 'Reading the current forms version failed');
        } finally {
          refreshing = null;
        }
      })();
      return refreshing;
    };

    const publish: FormService['publish'] = async (change, during) => {
      const reading = readFormSetFrom(change.source, dir);
      if (!reading.set) return { kind: 'problems', problems: reading.problems };
      const outcome = await publishVersion(app.db, { ...change, onlyIfNew: false }, during);
      if (outcome.kind === 'published') {
        await storing;
        if (outcome.version.number > current.number) adopt(reading.set, outcome.version.number, change.kind);
      }
      return outcome;
    };

    const service: FormService = {
      current: () => current.set,
      currentVersion: () => current,
      catalogue: () => current.set.catalogue,
      registry: {
        get definitions() {
          return current.set.definitions;
        },
        get showroom() {
          return current.set.showroom;
        },
        get uploads() {
          return current.set.uploads;
        },
        get deadlines() {
          return current.set.deadlines;
        },
        find: (id) => current.set.find(id),
        filesFor: (id, exhibitCode) => current.set.filesFor(id, exhibitCode),
      },
      reload,
      status: () => ({ dir, version: current.set.version, number: current.number, loadedAt: current.set.loadedAt, refused }),
      validatorModule: (hash) => modules.get(hash),
      check: (source) => readFormSetFrom(source, dir),
      servePreview(served) {
        if (modules.has(served.hash)) return;
        modules.set(served.hash, served.module);
        for (const hash of modules.keys()) if (modules.size > KEPT_MODULES && !current.set.modules.has(hash)) modules.delete(hash);
      },
      publish,
      refresh,
      settled: () => storing,
      async copyEventPatches(fromExhibitCode, toExhibitCode, actor) {
        for (let attempt = 0; attempt < 3; attempt++) {
          const { set, number } = current;
          const source = set.source;
          const copied = Object.fromEntries(Object.entries(source.files).filter(([file]) => !file.startsWith(patchPrefix(toExhibitCode))));
          for (const [file, text] of Object.entries(source.files))
            if (file.startsWith(patchPrefix(fromExhibitCode))) copied[`${patchPrefix(toExhibitCode)}${file.slice(patchPrefix(fromExhibitCode).length)}`] = text;
          const outcome = await publish(
            { source: { files: copied, strings: source.strings }, kind: 'copy', author: actor, comment: `${fromExhibitCode} → ${toExhibitCode}`, basedOn: number },
            async (trx, version) => {
              await app.audit.record(
                {
                  action: 'forms.copyEventPatches',
                  subjectType: 'formSetVersion',
                  subjectId: version.number,
                  before: { version: number, patches: patchFiles(source, toExhibitCode) },
                  after: { version: version.number, patches: patchFiles({ files: copied, strings: {} }, toExhibitCode), from: fromExhibitCode },
                  actor: { id: actor.id, name: actor.name, role: actor.role ?? 'organiser' },
                },
                { db: trx },
              );
            },
          );
          if (outcome.kind === 'published') return outcome.version;
          if (outcome.kind === 'problems') throw new Error(outcome.problems.map((p) => `${p.file} ${p.path}: ${p.message}`).join('\n'));
          await refresh();
        }
        return null;
      },
    };
    app.decorate('forms', service);
    if (!watching) return;

    // F11: another instance's publish is served within about a second: PostgreSQL announces it
    // (LISTEN/NOTIFY); the poll of the current number covers PGlite and a lost connection.
    const poll = setInterval(() => void refresh(), POLL_MS);
    poll.unref();
    const listener = app.dbEngine === 'postgres' && app.config?.databaseUrl ? await listen(app.config.databaseUrl, () => void refresh(), app.log) : null;
    app.addHook('onClose', async () => {
      clearInterval(poll);
      await listener?.end().catch(() => undefined);
      await refreshing;
      await storing;
    });

    // Every instance watches the same FORMS_DIR (and the strings beside it): each picks a change up.
    let timer: NodeJS.Timeout | undefined;
    const changed = () => {
      clearTimeout(timer);
      timer = setTimeout(() => reload('file change'), SETTLE_MS);
    };
    // One watcher per folder (Node 20's recursive watching misses changes on Linux): FORMS_DIR,
    // forms/, events/ and each event's folder, and the strings beside them; a new event folder
    // is watched from the change that adds it.
    const watchers = new Map<string, FSWatcher>();
    const watchFolders = () => {
      const events = join(dir, 'events');
      const folders = [dir, join(dir, 'forms'), events, join(dir, '..', 'locales')];
      if (existsSync(events)) for (const name of readdirSync(events)) folders.push(join(events, name));
      for (const folder of folders) {
        if (watchers.has(folder) || !existsSync(folder) || !statSync(folder).isDirectory()) continue;
        const watcher = watch(folder, () => {
          watchFolders();
          changed();
        });
        watcher.on('error', (error) => {
          watchers.delete(folder);
          app.log.warn({ err: error, folder }, 'Watching a forms folder failed; SIGHUP or the reload action still work');
        });
        watchers.set(folder, watcher);
      }
    };
    watchFolders();
    // screens.yaml lives beside FORMS_DIR, in a folder where much else changes: only its own changes count.
    const catalogueFolder = join(dir, '..');
    if (existsSync(catalogueFolder)) {
      const watcher = watch(catalogueFolder, (_event, name) => {
        if (name === CATALOGUE_FILE) changed();
      });
      watcher.on('error', (error) => app.log.warn({ err: error }, 'Watching screens.yaml failed; SIGHUP or the reload action still work'));
      watchers.set(`${catalogueFolder}/${CATALOGUE_FILE}`, watcher);
    }
    const hangUp = () => reload('SIGHUP');
    process.on('SIGHUP', hangUp);
    app.addHook('onClose', async () => {
      clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      process.off('SIGHUP', hangUp);
    });
  },
  { name: 'forms', dependencies: ['database', 'audit'] },
);

/** Reads FORMS_DIR, or says why it could not (a file removed while being read, a folder gone). */
function readSafely(dir: string): { source: FormSetSource; problems: [] } | { source: null; problems: FormSetProblem[] } {
  try {
    return { source: readFormSource(dir), problems: [] };
  } catch (error) {
    return { source: null, problems: [{ file: '', path: '', message: (error as Error).message }] };
  }
}

/** The patch files of one event in a set's content, by file name. */
function patchFiles(source: FormSetSource, exhibitCode: string): string[] {
  return Object.keys(source.files).filter((file) => file.startsWith(patchPrefix(exhibitCode)));
}

/** A connection listening for published versions; null when it cannot be opened (the poll remains). */
async function listen(databaseUrl: string, onVersion: () => void, log: FastifyBaseLogger): Promise<pg.Client | null> {
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on('error', (error) => log.warn({ err: error }, 'The forms version listener lost its connection; polling continues'));
  client.on('notification', (message) => {
    if (message.channel === VERSION_CHANNEL) onVersion();
  });
  try {
    await client.connect();
    await client.query(`LISTEN ${VERSION_CHANNEL}`);
    return client;
  } catch (error) {
    log.warn({ err: error }, 'Listening for forms versions failed; polling continues');
    await client.end().catch(() => undefined);
    return null;
  }
}
