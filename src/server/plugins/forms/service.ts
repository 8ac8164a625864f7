import { existsSync, readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import fp from 'fastify-plugin';
import type { Catalogue } from '../../../engine/catalogue';
import { API_BASE } from '../../../engine/constants';
import { readFormSet, type FormRegistry, type FormSet, type FormSetProblem } from './form-set';
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
  loadedAt: Date;
  /** The last change refused, while no valid change has followed it. */
  refused: { at: Date; problems: FormSetProblem[] } | null;
}

export interface FormService {
  /** The set in use: take it once per request. */
  current(): FormSet;
  /** A view that always reads the set in use, for modules that look forms up now and then. */
  registry: FormRegistry;
  /** The screens as the set in use has them (the auth hook's screen checks). */
  catalogue(): Catalogue;
  /** Reads FORMS_DIR again: swaps a valid change in, refuses an invalid one. */
  reload(reason: string): { version: string; changed: boolean; problems: FormSetProblem[] };
  status(): FormSetStatus;
  /** A served validator module by its content hash (this set's or a recent one's). */
  validatorModule(hash: string): string | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    forms: FormService;
  }
}

export default fp<{ dir: string; watch?: boolean }>(
  async (app, { dir, watch: watching = true }) => {
    const first = readFormSet(dir);
    if (!first.set) throw new Error(`The forms in ${dir} have problems:\n${first.problems.map((p) => `  - ${p.file} ${p.path}: ${p.message}`).join('\n')}`);
    let current: FormSet = first.set;
    let refused: FormSetStatus['refused'] = null;
    const modules = new Map(current.modules);

    /** Reads the set, or says why it could not (a file removed while being read, a folder gone). */
    const read = (): ReturnType<typeof readFormSet> => {
      try {
        return readFormSet(dir);
      } catch (error) {
        return { set: null, problems: [{ file: '', path: '', message: (error as Error).message }] };
      }
    };

    const reload = (reason: string) => {
      const { set, problems } = read();
      if (!set) {
        refused = { at: new Date(), problems };
        app.log.error({ reason, problems }, `Form change refused (${problems.length} problem(s)); still serving forms version ${current.version}`);
        return { version: current.version, changed: false, problems };
      }
      refused = null;
      if (set.version === current.version) return { version: current.version, changed: false, problems: [] };
      for (const [hash, text] of set.modules) modules.set(hash, text);
      for (const hash of modules.keys()) if (modules.size > KEPT_MODULES && !set.modules.has(hash)) modules.delete(hash);
      const previous = current.version;
      current = set;
      app.log.info({ reason, previous, version: set.version }, `Forms version ${set.version} in use`);
      return { version: set.version, changed: true, problems: [] };
    };

    const service: FormService = {
      current: () => current,
      catalogue: () => current.catalogue,
      registry: {
        get definitions() {
          return current.definitions;
        },
        get showroom() {
          return current.showroom;
        },
        get uploads() {
          return current.uploads;
        },
        get deadlines() {
          return current.deadlines;
        },
        find: (id) => current.find(id),
        filesFor: (id, exhibitCode) => current.filesFor(id, exhibitCode),
      },
      reload,
      status: () => ({ dir, version: current.version, loadedAt: current.loadedAt, refused }),
      validatorModule: (hash) => modules.get(hash),
    };
    app.decorate('forms', service);
    if (!watching) return;

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
  { name: 'forms' },
);
