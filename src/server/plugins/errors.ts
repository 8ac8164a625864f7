import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_BASE } from '../../engine/constants';
import { ERRORS, type ErrorId } from '../../engine/errors';
import { languageFromHeader, type Language } from '../../engine/language';
import { AppError } from '../lib/app-error';
import { translate } from '../lib/messages';
import { NAME_FORMAT } from '../../engine/schemas/json-schema';
import { storageBoundOf } from './input';
import { isStorageFull } from './storage';

declare module 'fastify' {
  interface FastifyRequest {
    language: Language;
  }
}

/** The success envelope of spec §8. */
export function ok<T>(data: T) {
  return { code: 200, msg: 'ok', data };
}

interface ErrorReplyOptions {
  data?: unknown;
  params?: Record<string, string | number>;
  /** A locale key to answer instead of the table's message (the id and code stay the table's). */
  messageKey?: string;
  /** HTTP status when it must differ from the table's (an unknown API path is a real 404). */
  status?: number;
}

/** The body code whose message the browser shows as (sanitised) HTML (E1): its values are text, escaped. */
const HTML_MESSAGE_CODE = ERRORS.internal.code;
const escapeHtml = (value: string | number) => String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function sendError(request: FastifyRequest, reply: FastifyReply, id: ErrorId, { data = null, params = {}, messageKey, status }: ErrorReplyOptions = {}) {
  const definition = ERRORS[id];
  // Markup is written by the locale tables only: a value put into an HTML message (an id, a name
  // someone typed) can never add a tag, an event handler or a link to it.
  if (definition.code === HTML_MESSAGE_CODE) params = Object.fromEntries(Object.entries(params).map(([key, value]) => [key, escapeHtml(value)]));
  return (
    reply
      .status(status ?? ('http' in definition ? definition.http : 200))
      // The route's response schema describes its success; an error's data must not be filtered by it.
      .serializer(JSON.stringify)
      .type('application/json; charset=utf-8')
      .send({ code: definition.code, msg: translate(request.language, messageKey ?? definition.message, params), data, error: id })
  );
}

/**
 * What the multipart parser (busboy) throws for a body it cannot read — no boundary, a part or
 * the whole body cut off, a broken part header — and the plugin's error for a client that closed
 * the request mid-body. The parser's errors carry no code, only these messages.
 */
const BROKEN_MULTIPART_MESSAGE =
  /^(?:Multipart: Boundary not found|Boundary required|Unexpected end of multipart data|\w+ terminated early due to unexpected end of multipart data|Malformed part header)/;

function isBrokenMultipart(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === 'FST_MP_PREMATURE_CLOSE' || (typeof message === 'string' && BROKEN_MULTIPART_MESSAGE.test(message));
}

/** A multipart Content-Type must name a non-empty boundary; without one the parts cannot be found. */
function lacksBoundary(contentType: string | undefined): boolean {
  if (!contentType || !/^\s*multipart\//i.test(contentType)) return false;
  return !/;\s*boundary\s*=\s*(?:"[^"]+"|[^\s;"]+)/i.test(contentType);
}

/**
 * Coded errors answer in the caller's language. Anything unexpected is logged with the request
 * id and answered with a generic message: internals never reach the user.
 */
export default fp(
  async (app) => {
    app.decorateRequest('language', 'en');
    app.addHook('onRequest', async (request) => {
      request.language = languageFromHeader(request.headers.language ?? request.headers['accept-language']?.slice(0, 2));
    });

    // A multipart body is read by the route handler as a stream; one that cannot be read (a
    // header without boundary, a body cut off) is the client's broken request, never a 500.
    app.addHook('preValidation', async (request) => {
      if (lacksBoundary(request.headers['content-type'])) throw new AppError('multipartBroken');
    });

    // A full disk (the database's or DATA_DIR's) is the operator's emergency: said once, loudly,
    // then at most once a minute with the count of refusals since, so a busy show floor does not
    // flood a log that may sit on the same full disk. Callers get the coded "storage full".
    const storageFullLog = { lastAt: 0, since: 0 };
    const STORAGE_FULL_LOG_EVERY_MS = 60_000;
    const logStorageFull = (request: FastifyRequest, error: unknown) => {
      const now = Date.now();
      if (storageFullLog.lastAt !== 0 && now - storageFullLog.lastAt < STORAGE_FULL_LOG_EVERY_MS) {
        storageFullLog.since += 1;
        return;
      }
      const refusedSince = storageFullLog.since;
      storageFullLog.lastAt = now;
      storageFullLog.since = 0;
      const { code, message } = error as { code?: unknown; message?: unknown };
      request.log.fatal(
        { error: 'storageFull', code, cause: message, reqId: request.id, url: request.url, refusedSinceLastLine: refusedSince },
        'STORAGE IS FULL: the disk under the database or DATA_DIR has no space left; writes are refused (HTTP 507) until space is freed',
      );
    };

    app.setErrorHandler((error, request, reply) => {
      if (error instanceof AppError) return sendError(request, reply, error.id, { data: error.data, params: error.params, messageKey: error.messageKey });
      const fastifyError = error as { validation?: unknown; statusCode?: number; code?: string };
      if (fastifyError.validation) {
        const issues = fastifyError.validation as Array<{ keyword?: string; params?: { limit?: unknown; format?: unknown } }>;
        const bound = issues.map(storageBoundOf).find((limit) => limit !== null);
        if (bound !== undefined && bound !== null) {
          return sendError(request, reply, 'numberTooLarge', { data: { issues }, params: { limit: new Intl.NumberFormat('en-US').format(Math.abs(bound)) } });
        }
        if (issues.some((issue) => issue.keyword === 'format' && issue.params?.format === NAME_FORMAT)) {
          return sendError(request, reply, 'nameInvalidCharacters', { data: { issues } });
        }
        return sendError(request, reply, 'badRequest', { data: { issues: fastifyError.validation } });
      }
      if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendError(request, reply, 'payloadTooLarge');
      if (isBrokenMultipart(error)) return sendError(request, reply, 'multipartBroken');
      if (isStorageFull(error)) {
        logStorageFull(request, error);
        return sendError(request, reply, 'storageFull', { messageKey: 'errors.storageFullNothingSaved' });
      }
      if (fastifyError.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
        return sendError(request, reply, 'badRequest');
      }
      request.log.error({ err: error, reqId: request.id }, 'unexpected error');
      return sendError(request, reply, 'internal', { data: { requestId: request.id }, params: { requestId: request.id } });
    });

    app.setNotFoundHandler((request, reply) => {
      if (request.url.startsWith(API_BASE) || request.method !== 'GET') {
        return sendError(request, reply, 'notFound', { status: 404 });
      }
      // The web app's routes are resolved in the browser (see the static plugin).
      return reply.status(404).type('text/plain').send('Not found');
    });
  },
  { name: 'errors' },
);
