import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyMultipartBaseOptions } from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { API_BASE } from '../../../engine/constants';
import { checkFile, detectType, FILE_PURPOSE_IDS, FILE_TYPE_MIME, isFilePurpose, readDpi, type FileReference } from '../../../engine/forms/files';
import type { Config } from '../../config';
import { AppError } from '../../lib/app-error';
import { envelope } from '../../lib/schemas';
import { eventOf, requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import type { AuthContext } from '../auth/sessions';
import { contentDisposition } from '../../lib/content-disposition';

// Uploads (V2/V3): a form never holds file contents, only a reference made here. The bytes are
// checked with the engine's rules (the same the browser applied before sending), stored under a
// random server-made name and served back only to the participation that owns them and to the
// organisers of its event.

/** 32 random bytes, base64url: the stored file's name and the reference's id. */
const ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const fileReferenceSchema = {
  type: 'object',
  description: 'The reference a form holds for an uploaded file',
  properties: {
    id: { type: 'string' },
    name: { type: 'string', description: 'The original file name' },
    size: { type: 'integer', description: 'Bytes' },
    type: { type: 'string', enum: ['jpeg', 'png', 'pdf', 'gif', 'webp'], description: 'Detected from the content' },
    dpi: { type: ['integer', 'null'], description: 'Resolution the image records; null when it records none' },
  },
  required: ['id', 'name', 'size', 'type', 'dpi'],
} as const;

/** Same participation (exhibitor, its team users and contractors), an organiser of the event, or the uploader. */
function mayRead(auth: AuthContext, row: { participation_id: number | null; event_id: number; user_id: number }): boolean {
  if (row.participation_id !== null && auth.participation?.id === row.participation_id) return true;
  if (auth.user.role === 'organiser' && eventOf(auth).id === row.event_id) return true;
  return row.user_id === auth.user.id;
}

export default async function uploadRoutes(app: FastifyInstance, { config }: { config: Config }) {
  const base = `${API_BASE}/uploads`;
  const dir = join(config.dataDir, 'uploads');
  await mkdir(dir, { recursive: true, mode: 0o700 });

  app.post(
    base,
    {
      // Organisers approve uploads; they do not make them.
      config: { roles: ['exhibitor', 'team_user', 'contractor'] },
      // The body schema documents the parts; the multipart plugin streams them (there is no parsed
      // body to validate) and the handler checks them itself.
      validatorCompiler: () => () => true,
      schema: {
        tags: ['uploads'],
        summary: 'Upload a file for a form (V2/V3): the field `purpose` first, then `file`; answers the file reference',
        description:
          'The file is checked by its content against the purpose\'s rules: not empty, a safe name, an accepted type, the size limit and, for logo and product image, at least 300 dpi recorded in the file. A rejected file answers error `fileRejected` (code 601) with `data.problems` (locale keys and their placeholders) and `msg` the first problem; nothing is stored.',
        consumes: ['multipart/form-data'],
        body: {
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                properties: {
                  purpose: { type: 'string', enum: FILE_PURPOSE_IDS },
                  file: { type: 'string', format: 'binary' },
                },
                required: ['purpose', 'file'],
              },
            },
          },
        },
        response: { 200: envelope(fileReferenceSchema) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      let purpose: string | undefined;
      let upload: { name: string; bytes: Buffer } | undefined;
      let malformed = false;
      // Read every part to the end, so a request we refuse is still consumed cleanly. The plugin's
      // fileSize limit is one byte over the largest purpose's: a truncated file is then over every
      // limit and checkFile reports it as too large.
      // (The plugin reads throwFileSizeLimit per call too; its types list it only for file().)
      const options = { throwFileSizeLimit: false } as FastifyMultipartBaseOptions as Parameters<typeof request.parts>[0];
      for await (const part of request.parts(options)) {
        if (part.type === 'field') {
          if (part.fieldname === 'purpose' && purpose === undefined && upload === undefined) purpose = String(part.value);
          else malformed = true;
          continue;
        }
        const bytes = await part.toBuffer();
        if (part.fieldname !== 'file' || purpose === undefined || upload !== undefined) malformed = true;
        else upload = { name: part.filename, bytes };
      }
      if (malformed || !upload || !isFilePurpose(purpose)) throw new AppError('badRequest', { expected: ['purpose', 'file'] });

      const problems = checkFile(purpose, upload);
      if (problems.length > 0) {
        const [first] = problems;
        throw new AppError('fileRejected', { problems }, first!.params ?? {}, first!.key);
      }

      const type = detectType(upload.bytes)!;
      const reference: FileReference = { id: randomBytes(32).toString('base64url'), name: upload.name, size: upload.bytes.length, type, dpi: readDpi(upload.bytes, type) };
      const path = join(dir, reference.id);
      await writeFile(path, upload.bytes, { flag: 'wx', mode: 0o600 });
      try {
        await app.db
          .insertInto('uploads')
          .values({
            id: reference.id,
            participation_id: auth.participation?.id ?? null,
            event_id: eventOf(auth).id,
            user_id: auth.user.id,
            purpose,
            original_name: reference.name,
            content_type: FILE_TYPE_MIME[type],
            size: reference.size,
            dpi: reference.dpi,
            sha256: createHash('sha256').update(upload.bytes).digest('hex'),
          })
          .execute();
      } catch (error) {
        await unlink(path).catch(() => undefined);
        throw error;
      }
      return ok(reference);
    },
  );

  app.get<{ Params: { id: string } }>(
    `${base}/:id`,
    {
      schema: {
        tags: ['uploads'],
        summary: 'Download an uploaded file: its own participation and the organisers of its event only (others get code 404)',
        params: { type: 'object', required: ['id'], properties: { id: { type: 'string', maxLength: 64 } } },
        response: {
          200: {
            description: 'The file, as an attachment under its original name',
            content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
          },
        },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const { id } = request.params;
      // Not found, not yours and malformed all answer the same: existence is never revealed.
      if (!ID_PATTERN.test(id)) throw new AppError('notFound');
      const row = await app.db
        .selectFrom('uploads')
        .select(['id', 'participation_id', 'event_id', 'user_id', 'original_name', 'content_type', 'size'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row || !mayRead(auth, row)) throw new AppError('notFound');
      const path = join(dir, row.id);
      const file = await stat(path).catch(() => null);
      if (!file?.isFile()) {
        request.log.error({ uploadId: row.id, reqId: request.id }, 'uploaded file missing on disk');
        throw new AppError('notFound');
      }
      return reply
        .header('Content-Type', row.content_type)
        .header('Content-Length', file.size)
        .header('Content-Disposition', contentDisposition('attachment', row.original_name))
        .header('X-Content-Type-Options', 'nosniff')
        .send(createReadStream(path));
    },
  );
}
