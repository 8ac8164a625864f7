// For a fast first page (Lighthouse): the index.html the server answers for a screen's path
// names the modules that screen needs (<link rel="modulepreload">), so the browser fetches them beside the entry.
// The build writes the list per path (scripts/vite-route-preloads.ts); the server adds it.

/** Where the build writes the list, inside the web app's directory (a dot folder: never served). */
export const ROUTE_PRELOADS_FILE = '.vite/route-preloads.json';

/** Module URLs to preload, by screen path. */
export type RoutePreloads = Record<string, string[]>;

/** The screen path of a requested URL: no query or fragment, no trailing slash; `/` is Home (the router's redirect). */
export function screenPathOf(url: string): string {
  const path = url.split(/[?#]/, 1)[0] ?? '/';
  const clean = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return clean === '/' || clean === '' ? '/home' : clean;
}

/** index.html with a modulepreload link per URL, at the end of its head (after the entry's own). */
export function withModulePreloads(html: string, urls: readonly string[]): string {
  const safe = urls.filter((url) => /^\/[\w./-]+\.js$/.test(url));
  if (safe.length === 0 || !html.includes('</head>')) return html;
  const links = safe.map((url) => `    <link rel="modulepreload" crossorigin href="${url}">\n`).join('');
  return html.replace('</head>', `${links}  </head>`);
}
