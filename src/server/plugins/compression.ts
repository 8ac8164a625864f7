import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import fp from 'fastify-plugin';

// Answers the server builds in memory (JSON, the web app's index.html) are compressed
// on the way out when they pass COMPRESS_MIN_BYTES and the client accepts brotli or gzip. The
// web app's files are compressed once at build (scripts/vite-precompress.ts) and picked by
// @fastify/static (preCompressed); downloads are streams and go out as they are (a stream is
// never buffered here, and files that are already compressed — XLSX, PDF, images — gain nothing).

/** Below this an answer fits in a packet or two: compressing costs more than it saves. */
export const COMPRESS_MIN_BYTES = 1024;

const COMPRESSIBLE = /^(?:application\/(?:json|[\w.+-]+\+json)|text\/html)\b/i;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export type Encoding = 'br' | 'gzip';

/**
 * The encoding to use for an Accept-Encoding header: brotli, else gzip, each unless refused
 * with q=0 (a "*" counts for both); null when the client accepts neither.
 */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (name: string) => weights.get(name) ?? weights.get('*') ?? 0;
  const br = weightOf('br');
  const gz = Math.max(weightOf('gzip'), weights.get('x-gzip') ?? 0);
  if (br > 0 && br >= gz) return 'br';
  if (gz > 0) return 'gzip';
  return null;
}

function addVary(current: unknown): string {
  const value = Array.isArray(current) ? current.join(', ') : typeof current === 'string' ? current : '';
  if (!value) return 'Accept-Encoding';
  if (value.trim() === '*' || /(^|,)\s*accept-encoding\s*(,|$)/i.test(value)) return value;
  return `${value}, Accept-Encoding`;
}

export default fp(
  async (app) => {
    app.addHook('onSend', async (request, reply, payload) => {
      if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
      if (request.method === 'HEAD' || reply.statusCode === 204 || reply.statusCode === 304) return payload;
      if (reply.hasHeader('content-encoding')) return payload;
      const type = reply.getHeader('content-type');
      if (typeof type !== 'string' || !COMPRESSIBLE.test(type)) return payload;
      const size = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
      if (size < COMPRESS_MIN_BYTES) return payload;
      // The answer depends on Accept-Encoding from here on, whether or not this client gets it compressed.
      reply.header('Vary', addVary(reply.getHeader('vary')));
      const encoding = chooseEncoding(request.headers['accept-encoding']);
      if (!encoding) return payload;
      const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
      // Brotli quality 4 compresses about as well as gzip -6 at gzip's speed; 11 is for build time.
      const compressed =
        encoding === 'br' ? await brotli(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 4, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }) : await gzipAsync(body, { level: 6 });
      reply.header('Content-Encoding', encoding);
      reply.removeHeader('content-length');
      return compressed;
    });
  },
  { name: 'compression' },
);
