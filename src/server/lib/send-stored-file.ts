import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './app-error';
import { contentDisposition } from './content-disposition';
import type { FileStorage } from '../plugins/storage';

/** How one stored file is answered: under its original name, its recorded type, never sniffed. */
export interface StoredFileAnswer {
  key: string;
  name: string;
  contentType: string;
  disposition?: 'attachment' | 'inline';
  cacheControl?: string;
}

/**
 * Streams a file of app.storage. A file its row names but the store lacks answers "not found"
 * (the same as a file that does not exist) and is logged for the operator.
 */
export async function sendStoredFile(storage: FileStorage, request: FastifyRequest, reply: FastifyReply, file: StoredFileAnswer) {
  const stat = await storage.stat(file.key);
  const body = stat ? await storage.get(file.key) : null;
  if (!stat || !body) {
    request.log.error({ key: file.key, reqId: request.id }, 'stored file missing from the file store');
    throw new AppError('notFound');
  }
  reply
    .header('Content-Type', file.contentType)
    .header('Content-Length', stat.size)
    .header('Content-Disposition', contentDisposition(file.disposition ?? 'attachment', file.name))
    .header('X-Content-Type-Options', 'nosniff');
  if (file.cacheControl) reply.header('Cache-Control', file.cacheControl);
  return reply.send(body);
}
