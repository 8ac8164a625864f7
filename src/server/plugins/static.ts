import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { API_BASE } from '../../engine/constants';
import { ROUTE_PRELOADS_FILE, screenPathOf, withModulePreloads, type RoutePreloads } from '../../engine/route-preloads';

/** Files of the installable app whose name does not change with their content (or their compressed twins). */
const SERVICE_WORKER_FILES = /(?:^|[\\/])(?:sw\.js|manifest\.webmanifest)(?:\.br|\.gz)?$/;

/** The build's module list per screen path (none when the web app was built without it). */
function readRoutePreloads(webDir: string): RoutePreloads {
  try {
    return JSON.parse(readFileSync(join(webDir, ROUTE_PRELOADS_FILE), 'utf8')) as RoutePreloads;
  } catch {
    return {};
  }
}

/**
 * Serves the built web app. Paths without a file fall back to index.html so the browser's
 * router resolves them (its catalogue decides between a page and /404).
 */
export default fp<{ webDir: string }>(
  async (app, { webDir }) => {
    const indexFile = join(webDir, 'index.html');
    if (!existsSync(indexFile)) {
      app.log.warn(`No built web app at ${webDir}: run \`npm run build\`. The API still works.`);
      return;
    }
    const indexHtml = readFileSync(indexFile);
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: false,
      // Each file's .br / .gz twin (written at build by scripts/vite-precompress.ts) is
      // sent to clients that accept it, with Vary: Accept-Encoding; the plain file otherwise.
      preCompressed: true,
      setHeaders(reply, path) {
        if (path.includes(`${join('assets', '')}`)) reply.header('Cache-Control', 'public, max-age=31536000, immutable');
        // The scanner's service worker and manifest keep their names across builds: the browser
        // asks every time, so a new version is found on the app's next start.
        else if (SERVICE_WORKER_FILES.test(path)) reply.header('Cache-Control', 'no-cache');
      },
    });
    // For a fast first page: each screen's index.html names the modules that screen needs
    // (built once per path).
    const preloads = readRoutePreloads(webDir);
    const pages = new Map<string, Buffer>();
    const indexFor = (url: string) => {
      const path = screenPathOf(url);
      const urls = preloads[path];
      if (!urls) return indexHtml;
      let page = pages.get(path);
      if (!page) {
        page = Buffer.from(withModulePreloads(indexHtml.toString('utf8'), urls));
        pages.set(path, page);
      }
      return page;
    };
    const sendIndex = (request: import('fastify').FastifyRequest, reply: import('fastify').FastifyReply) =>
      reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(indexFor(request.url));
    app.get('/', sendIndex);
    app.get('/*', async (request, reply) => {
      if (request.url.startsWith(`${API_BASE}/`) || request.url === API_BASE) return reply.callNotFound();
      // A missing file with an extension is a real 404, not a page.
      if (/\.[a-z0-9]{1,8}$/i.test(request.url.split('?')[0] ?? '')) return reply.status(404).type('text/plain').send('Not found');
      return sendIndex(request, reply);
    });
  },
  { name: 'web' },
);
