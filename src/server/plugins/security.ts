import fp from 'fastify-plugin';
import { API_BASE } from '../../engine/constants';

// Security headers on every response; the API is never cached.
// The scanner (LD1) needs: 'wasm-unsafe-eval' to compile its WebAssembly barcode reader (the
// portal's own file; no JavaScript eval is allowed), its service worker from the portal itself,
// the web app manifest, and the camera on the portal's own pages.
const CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export default fp<{ publicUrl: string }>(
  async (app, { publicUrl }) => {
    // HSTS only where the portal is reached over https: browsers ignore it on http, and sending
    // it from a plain-http development server would be a promise the server cannot keep.
    const hsts = publicUrl.startsWith('https://');
    app.addHook('onSend', async (request, reply, payload) => {
      reply.header('Content-Security-Policy', CSP);
      reply.header('X-Content-Type-Options', 'nosniff');
      reply.header('X-Frame-Options', 'DENY');
      reply.header('Referrer-Policy', 'strict-origin-when-cross-origin');
      reply.header('Cross-Origin-Opener-Policy', 'same-origin');
      reply.header('Permissions-Policy', 'camera=(self), microphone=(), geolocation=()');
      if (hsts) reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
      // API answers are never cached, except content-addressed ones (their URL changes with their content).
      if (request.url.startsWith(API_BASE) && !request.routeOptions.config?.immutable) reply.header('Cache-Control', 'no-store');
      return payload;
    });
  },
  { name: 'security' },
);
