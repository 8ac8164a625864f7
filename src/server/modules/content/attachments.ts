import type { ApiApp } from '../../lib/api-app';
import type { FromSchema } from 'json-schema-to-ts';
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_BASE } from '../../../engine/constants';
import { MANUAL_ATTACHMENT_PURPOSE, MANUAL_ATTACHMENT_RULE } from '../../../engine/content-attachments';
import { storedFileIdSchema } from '../../../engine/schemas/content';
import { checkFile, detectType, FILE_TYPE_MIME, type FileType } from '../../../engine/forms/files';
import type { Database } from '../../db/schema';
import { demoAttachments } from '../../db/seed-content';
import { AppError } from '../../lib/app-error';
import { sendStoredFile } from '../../lib/send-stored-file';
import { envelope } from '../../lib/schemas';
import { readSingleUpload } from '../../lib/single-upload';
import { eventOf, requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import { fileKey } from '../../plugins/storage';
import { inspectContent } from '../../lib/inspect-upload';
import type { Kysely } from 'kysely';

// CT1: a manual's attachments. The organiser uploads a file (checked by its content
// like every upload), the manual names it, and whoever may read the manual downloads it through
// the manual (the browser's download helper, C3). The bytes live in app.storage like uploads.

/** The types a manual attachment may have (MANUAL_ATTACHMENT_RULE accepts these). */
const ATTACHMENT_TYPES = ['pdf', 'jpeg', 'png'] as const satisfies readonly FileType[];
const isAttachmentType = (type: FileType): type is (typeof ATTACHMENT_TYPES)[number] => (ATTACHMENT_TYPES as readonly FileType[]).includes(type);

export const attachmentSchema = {
  type: 'object',
  properties: { id: { type: 'string' }, name: { type: 'string' }, size: { type: 'integer' }, type: { type: 'string', enum: ATTACHMENT_TYPES } },
  required: ['id', 'name', 'size', 'type'],
} as const;
export type Attachment = FromSchema<typeof attachmentSchema>;

export const fileIdParam = storedFileIdSchema;
export const fileResponse = {
  200: { description: 'The file, as an attachment under its original name', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
} as const;

/** The attachments an organiser names, as the server recorded them; a file of another event or purpose is refused. */
export async function recordedAttachments(db: Kysely<Database>, eventId: number, ids: readonly string[]): Promise<Attachment[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('uploads')
    .select(['id', 'original_name', 'size', 'content_type'])
    .where('id', 'in', [...ids])
    .where('event_id', '=', eventId)
    .where('purpose', '=', MANUAL_ATTACHMENT_PURPOSE)
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return [...new Set(ids)].map((id) => {
    const row = byId.get(id);
    if (!row) throw new AppError('notFound', { attachment: id });
    const type = ATTACHMENT_TYPES.find((known) => FILE_TYPE_MIME[known] === row.content_type) ?? 'pdf';
    return { id: row.id, name: row.original_name, size: row.size, type };
  });
}

/** Sends a stored attachment; a missing file answers "not found" (and is logged). */
export async function sendAttachment(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, eventId: number, id: string) {
  const row = await app.db
    .selectFrom('uploads')
    .select(['id', 'original_name', 'content_type'])
    .where('id', '=', id)
    .where('event_id', '=', eventId)
    .where('purpose', '=', MANUAL_ATTACHMENT_PURPOSE)
    .executeTakeFirst();
  if (!row) throw new AppError('notFound');
  return sendStoredFile(app.storage, request, reply, { key: fileKey.upload(row.id), name: row.original_name, contentType: row.content_type });
}

/**
 * The demo's attachments are rows made by the seed; their bytes are written once the file store is
 * up. Instances starting together on one shared store may both find a file missing and both write
 * it: the one that loses the race (its row's key taken while the other is still writing) carries
 * on, since a demo file is no reason to refuse starting.
 */
async function storeDemoAttachments(app: FastifyInstance) {
  for (const { id, bytes } of await demoAttachments()) {
    const key = fileKey.upload(id);
    const row = await app.db.selectFrom('uploads').select('id').where('id', '=', id).executeTakeFirst();
    if (!row || (await app.storage.stat(key))) continue;
    try {
      await app.storage.put(key, bytes);
    } catch (error) {
      app.log.warn({ err: error, key }, 'demo attachment not stored here: another instance is writing it, or the store refused it');
    }
  }
}

export default async function attachmentRoutes(app: ApiApp) {
  const base = `${API_BASE}/organiser/content/attachments`;
  const config = { screen: 'organiserContent' } as const;
  app.addHook('onReady', async () => storeDemoAttachments(app));

  app.post(
    base,
    {
      config,
      // The multipart plugin streams the parts; the handler checks them itself.
      validatorCompiler: () => () => true,
      schema: {
        tags: ['content'],
        summary: "Upload a file to attach to a manual (PDF, JPEG or PNG up to 10 MB, checked by its content); answers the attachment to name in the manual's `attachments`",
        consumes: ['multipart/form-data'],
        body: { content: { 'multipart/form-data': { schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } }, required: ['file'] } } } },
        response: { 200: envelope(attachmentSchema) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const received = await readSingleUpload(request);
      if (!received || Object.keys(received.fields).length > 0) throw new AppError('badRequest', { expected: ['file'] });
      const { file } = received;
      const problems = checkFile(MANUAL_ATTACHMENT_RULE, file);
      const type = detectType(file.bytes);
      if (problems.length === 0 && type) problems.push(...(await inspectContent(file.bytes, type)));
      if (problems.length > 0 || !type || !isAttachmentType(type)) {
        const [first] = problems;
        throw new AppError('fileRejected', { problems }, first?.params ?? {}, first?.key);
      }
      const attachment: Attachment = { id: randomBytes(32).toString('base64url'), name: file.name, size: file.bytes.length, type };
      const key = fileKey.upload(attachment.id);
      await app.storage.put(key, file.bytes);
      try {
        await app.db
          .insertInto('uploads')
          .values({
            id: attachment.id,
            participation_id: null,
            event_id: eventOf(auth).id,
            user_id: auth.user.id,
            purpose: MANUAL_ATTACHMENT_PURPOSE,
            original_name: attachment.name,
            content_type: FILE_TYPE_MIME[type],
            size: attachment.size,
            dpi: null,
            sha256: createHash('sha256').update(file.bytes).digest('hex'),
          })
          .execute();
      } catch (error) {
        await app.storage.delete(key).catch(() => undefined);
        throw error;
      }
      return ok(attachment);
    },
  );

  app.get(
    `${base}/:fileId`,
    {
      config,
      schema: {
        tags: ['content'],
        summary: 'Download an attachment of the current event (the organiser previews it)',
        params: { type: 'object', required: ['fileId'], properties: { fileId: fileIdParam } },
        response: fileResponse,
      },
    },
    async (request, reply) => sendAttachment(app, request, reply, eventOf(requireAuth(request)).id, request.params.fileId),
  );
}
