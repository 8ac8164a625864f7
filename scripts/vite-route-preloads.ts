import { join, resolve } from 'node:path';
import type { Plugin, Rolldown } from 'vite';
import { ROUTE_PRELOADS_FILE, type RoutePreloads } from '../src/engine/route-preloads';
import { loadCatalogue, pagePath, ROOT } from './catalogue-source';

// A fast first screen (Lighthouse): the modules each screen needs, by its path, for the server to name in the
// index.html it answers for that path (<link rel="modulepreload">). The browser then fetches the
// signed-in frame, the page (or the form runtime) and their shared chunks while it fetches the
// entry, instead of discovering each one after the code before it has run. Computed from the
// bundle and screens.yaml; chunks the entry already loads are left out.

/** Where the generated pages come from: the frame of signed-in screens, the form runtime, each page file. */
const FRAME_SOURCE = join(ROOT, 'src', 'app', 'layout', 'SignedInFrame.tsx');
const FORM_RUNTIME_SOURCE = join(ROOT, 'src', 'features', 'forms', 'components', 'FormRuntime.tsx');

export function routePreloads(): Plugin {
  return {
    name: 'portal-route-preloads',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((output): output is Rolldown.OutputChunk => output.type === 'chunk');
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const bySource = new Map(chunks.filter((chunk) => chunk.facadeModuleId).map((chunk) => [resolve(chunk.facadeModuleId!), chunk]));
      /** A chunk and every chunk it imports statically (what loading it needs). */
      const closure = (file: string, into = new Set<string>()): Set<string> => {
        if (into.has(file)) return into;
        into.add(file);
        for (const dependency of byFile.get(file)?.imports ?? []) closure(dependency, into);
        return into;
      };
      const entry = chunks.find((chunk) => chunk.isEntry);
      if (!entry) return;
      const loadedByEntry = closure(entry.fileName);
      const filesOf = (source: string) => {
        const chunk = bySource.get(resolve(source));
        return chunk ? [...closure(chunk.fileName)] : [];
      };
      const frame = filesOf(FRAME_SOURCE);
      const formRuntime = filesOf(FORM_RUNTIME_SOURCE);
      const routes: RoutePreloads = {};
      for (const screen of loadCatalogue().catalogue.screens) {
        const files = new Set([...(screen.layout === 'public' ? [] : frame), ...(screen.form ? formRuntime : screen.page ? filesOf(pagePath(screen.page)) : [])]);
        const urls = [...files].filter((file) => !loadedByEntry.has(file)).map((file) => `/${file}`);
        if (urls.length > 0) routes[screen.path] = urls;
      }
      this.emitFile({ type: 'asset', fileName: ROUTE_PRELOADS_FILE, source: `${JSON.stringify(routes, null, 1)}\n` });
    },
  };
}
