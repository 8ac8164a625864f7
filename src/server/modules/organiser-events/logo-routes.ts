import type { ApiApp } from '../../lib/api-app';
import { createHash, randomBytes } from 'node:crypto';
import { API_BASE } from '../../../engine/constants';
import { checkFile, detectType, FILE_TYPE_MIME } from '../../../engine/forms/files';
import { EVENT_LOGO_PATH, EVENT_LOGO_PURPOSE, EVENT_LOGO_RULE } from '../../../engine/organiser-events';
import { AppError } from '../../lib/app-error';
import { inspectContent } from '../../lib/inspect-upload';
import { organiserEvent } from '../../lib/organiser-scope';
import { envelope } from '../../lib/schemas';
import { sendStoredFile } from '../../lib/send-stored-file';
import { readSingleUpload } from '../../lib/single-upload';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import { fileKey } from '../../plugins/storage';

// O2, CT4: an event's logo uploaded by its organiser. The content policy shows only images the
// portal serves itself (img-src 'self'), so a logo on the organiser's own website is never
// displayed; an uploaded one is stored like every upload (app.storage, checked by its content)
// and served from the portal's own address, to everyone — the login page shows it before login.

const fileIdPattern = '^[A-Za-z0-9_-]{43}$';

export default async function eventLogoRoutes(app: ApiApp) {
  app.post(
    `${API_BASE}/organiser/events/:id/logo`,
    {
      config: { screen: 'organiserEventEdit' },
      // The multipart plugin streams the parts; the handler checks them itself.
      validatorCompiler: () => () => true,
      schema: {
        tags: ['organiser'],
        summary: "Upload an event's logo (JPEG or PNG up to 2 MB, checked by its content); it becomes the event's logo at once",
        consumes: ['multipart/form-data'],
        params: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
        body: { content: { 'multipart/form-data': { schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } }, required: ['file'] } } } },
        response: { 200: envelope({ type: 'object', properties: { logoUrl: { type: 'string' } }, required: ['logoUrl'], additionalProperties: false }) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const event = await organiserEvent(app.db, auth, Number((request.params as { id: number }).id));
      const received = await readSingleUpload(request, EVENT_LOGO_RULE.maxBytes + 1);
      if (!received || Object.keys(received.fields).length > 0) throw new AppError('badRequest', { expected: ['file'] });
      const { file } = received;
      const problems = checkFile(EVENT_LOGO_RULE, file);
      const type = detectType(file.bytes);
      if (problems.length === 0 && type) problems.push(...(await inspectContent(file.bytes, type)));
      if (problems.length > 0 || !type) {
        const [first] = problems;
        throw new AppError('fileRejected', { problems }, first?.params ?? {}, first?.key);
      }
      const id = randomBytes(32).toString('base64url');
      const key = fileKey.upload(id);
      const logoUrl = `${EVENT_LOGO_PATH}${id}`;
      await app.storage.put(key, file.bytes);
      try {
        await app.db.transaction().execute(async (trx) => {
          await trx
            .insertInto('uploads')
            .values({
              id,
              participation_id: null,
              event_id: event.id,
              user_id: auth.user.id,
              purpose: EVENT_LOGO_PURPOSE,
              original_name: file.name,
              content_type: FILE_TYPE_MIME[type],
              size: file.bytes.length,
              dpi: null,
              sha256: createHash('sha256').update(file.bytes).digest('hex'),
            })
            .execute();
          await trx.updateTable('events').set({ logo_url: logoUrl }).where('id', '=', event.id).execute();
          await app.audit.record(
            {
              action: 'event.logo',
              eventId: event.id,
              organisationId: event.organisation_id,
              subjectType: 'event',
              subjectId: event.id,
              before: { logoUrl: event.logo_url },
              after: { logoUrl },
            },
            { request, db: trx },
          );
        });
      } catch (error) {
        await app.storage.delete(key).catch(() => undefined);
        throw error;
      }
      return ok({ logoUrl });
    },
  );

  app.get(
    `${EVENT_LOGO_PATH}:fileId`,
    {
      // Public: the branded login page shows the logo before anyone logs in. The address names a
      // random, never reused file, so it may be cached for good.
      config: { public: true, immutable: true },
      schema: {
        tags: ['project'],
        summary: "An event's uploaded logo (public, as the login page shows it)",
        security: [],
        params: { type: 'object', properties: { fileId: { type: 'string', pattern: fileIdPattern } }, required: ['fileId'] },
        response: {
          200: {
            description: 'The image',
            content: { 'image/png': { schema: { type: 'string', format: 'binary' } }, 'image/jpeg': { schema: { type: 'string', format: 'binary' } } },
          },
        },
      },
    },
    async (request, reply) => {
      const { fileId } = request.params as { fileId: string };
      const row = await app.db
        .selectFrom('uploads')
        .select(['id', 'original_name', 'content_type'])
        .where('id', '=', fileId)
        .where('purpose', '=', EVENT_LOGO_PURPOSE)
        .executeTakeFirst();
      if (!row) throw new AppError('notFound');
      return sendStoredFile(app.storage, request, reply, {
        key: fileKey.upload(row.id),
        name: row.original_name,
        contentType: row.content_type,
        disposition: 'inline',
        cacheControl: 'public, max-age=31536000, immutable',
      });
    },
  );
}
