import type { ApiApp } from '../../lib/api-app';
import { createHash, randomBytes } from 'node:crypto';
import { API_BASE } from '../../../engine/constants';
import { BUSINESS_CARD_PURPOSE, BUSINESS_CARD_RULE, checkFile, detectType, FILE_TYPE_MIME, purposeRule, readDpi, type UploadRules } from '../../../engine/forms/files';
import { fileReferenceSchema, type FileReference } from '../../../engine/schemas/file';
import { AppError } from '../../lib/app-error';
import { envelope } from '../../lib/schemas';
import { eventOf, requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import type { AuthContext } from '../../plugins/sessions';
import { sendStoredFile } from '../../lib/send-stored-file';
import { sql } from 'kysely';
import { inspectContent } from '../../lib/inspect-upload';
import { contractorPart, contractorView } from '../../lib/contractor-part';
import { fileKey } from '../../plugins/storage';
import { readSingleUpload } from '../../lib/single-upload';

// Uploads (V2/V3): a form never holds file contents, only a reference made here. The bytes are
// checked with the engine's rules (the same the browser applied before sending), stored under a
// random server-made name and served back only to the participation that owns them and to the
// organisers of its event. The bytes go through app.storage (key uploads/<id>); a participation
// keeps at most UPLOAD_QUOTA_MB of uploads.

/** 32 random bytes, base64url: the stored file's name and the reference's id. */
const ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The largest file any purpose accepts, in bytes. */
const largestUpload = (rules: UploadRules) => Math.max(BUSINESS_CARD_RULE.maxBytes, ...Object.values(rules).map((rule) => rule.maxBytes));

type UploadRow = { id: string; participation_id: number | null; event_id: number; user_id: number };

/** The file's id appears among the form data (a file reference holds it as "id"). */
const mentions = (data: unknown, id: string) => data !== null && data !== undefined && JSON.stringify(data).includes(`"${id}"`);

export default async function uploadRoutes(app: ApiApp) {
  const config = app.config;
  const registry = app.forms.registry;
  /**
   * Who reads an uploaded file. The uploader always; the exhibitor every file of its
   * participation; a team user also the business cards of the leads it scanned; a contractor also
   * the files its own part of the shared forms holds; an organiser the files of its event's
   * exhibitors (for approvals). Anyone else is answered "not found".
   */
  async function mayRead(auth: AuthContext, row: UploadRow): Promise<boolean> {
    if (row.user_id === auth.user.id) return true;
    const sameParticipation = row.participation_id !== null && auth.participation?.id === row.participation_id;
    switch (auth.user.role) {
      case 'organiser':
        return eventOf(auth).id === row.event_id;
      case 'exhibitor':
        return sameParticipation;
      case 'team_user': {
        if (!sameParticipation) return false;
        const lead = await app.db
          .selectFrom('leads')
          .select('id')
          .where('business_card', '=', row.id)
          .where('scanned_by', '=', auth.user.id)
          .where('participation_id', '=', row.participation_id!)
          .executeTakeFirst();
        return lead !== undefined;
      }
      case 'contractor': {
        if (!sameParticipation) return false;
        const shared = registry.definitions.filter((definition) => definition.audience === 'both');
        if (shared.length === 0) return false;
        const entries = await app.formEntries.ofForms(
          row.participation_id!,
          shared.map((definition) => definition.id),
        );
        return entries.some((entry) => {
          const part = contractorPart(registry.find(entry.form_id)!, 'contractor');
          const visible = (data: unknown) => (part ? contractorView(data as Record<string, unknown> | null, part) : data);
          return mentions(visible(entry.data), row.id) || mentions(visible(entry.submitted_data), row.id);
        });
      }
      default:
        return false;
    }
  }

  const base = `${API_BASE}/uploads`;
  const quotaBytes = config.uploadQuotaBytes;
  const megabytes = (bytes: number) => Math.round((bytes / (1024 * 1024)) * 10) / 10;

  /** Bytes the participation's uploads take. */
  const usedBytes = async (db: typeof app.db, participationId: number) => {
    const row = await db.selectFrom('uploads').select(sql<string>`coalesce(sum(size), 0)::bigint`.as('used')).where('participation_id', '=', participationId).executeTakeFirst();
    return Number(row?.used ?? 0);
  };
  const refuseOverQuota = (used: number, size: number) => {
    if (used + size > quotaBytes) throw new AppError('uploadQuotaExceeded', { used, limit: quotaBytes }, { used: megabytes(used), limit: megabytes(quotaBytes) });
  };

  app.post(
    base,
    {
      // Organisers approve uploads; they do not make them. A scanning device may send the photo of
      // a badge or business card for its leads, and nothing else (checked in the handler).
      config: { roles: ['exhibitor', 'team_user', 'contractor'], device: true },
      // The body schema documents the parts; the multipart plugin streams them (there is no parsed
      // body to validate) and the handler checks them itself.
      validatorCompiler: () => () => true,
      schema: {
        tags: ['uploads'],
        summary: 'Upload a file for a form (V2/V3): the field `purpose` first, then `file`; answers the file reference',
        description:
          "The file is checked by its content against the purpose's rules (forms.yaml `uploads:`, and `businessCard` for a lead's card): not empty, a safe name, an accepted type, the size limit and, where the purpose sets one, the least dpi recorded in the file. A rejected file answers error `fileRejected` (code 601) with `data.problems` (locale keys and their placeholders) and `msg` the first problem; nothing is stored. A scanning device's token (the scanner's photo of a badge or business card) may upload only `businessCard`: another purpose answers 403 `deviceTokenScope`.",
        consumes: ['multipart/form-data'],
        body: {
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                properties: {
                  purpose: { type: 'string', description: 'A purpose declared in forms.yaml `uploads:` (logo, brochure…) or businessCard' },
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
      // The purposes of the forms in use (live: a purpose added to forms.yaml is accepted at once).
      const rules = registry.uploads;
      const received = await readSingleUpload(request, largestUpload(rules));
      const purpose = received?.fields.purpose;
      const upload = received?.file;
      const rule = purposeRule(rules, purpose);
      if (!received || Object.keys(received.fields).length !== 1 || !upload || !rule || !purpose) throw new AppError('badRequest', { expected: ['purpose', 'file'] });
      if (auth.device && purpose !== BUSINESS_CARD_PURPOSE) throw new AppError('deviceTokenScope');

      const problems = checkFile(rule, upload);
      if (problems.length > 0) {
        const [first] = problems;
        throw new AppError('fileRejected', { problems }, first!.params ?? {}, first!.key);
      }

      const type = detectType(upload.bytes)!;
      const contentProblems = await inspectContent(upload.bytes, type);
      if (contentProblems.length > 0) {
        const [first] = contentProblems;
        throw new AppError('fileRejected', { problems: contentProblems }, first!.params ?? {}, first!.key);
      }
      const participationId = auth.participation?.id ?? null;
      // Refused early when plainly over, and checked again under a lock with the row's insert, so
      // parallel uploads cannot pass the quota together.
      if (participationId !== null) refuseOverQuota(await usedBytes(app.db, participationId), upload.bytes.length);

      const reference = { id: randomBytes(32).toString('base64url'), name: upload.name, size: upload.bytes.length, type, dpi: readDpi(upload.bytes, type) } satisfies FileReference;
      const key = fileKey.upload(reference.id);
      await app.storage.put(key, upload.bytes);
      try {
        await app.db.transaction().execute(async (trx) => {
          if (participationId !== null) {
            await sql`select pg_advisory_xact_lock(14, ${participationId}::int)`.execute(trx);
            refuseOverQuota(await usedBytes(trx, participationId), reference.size);
          }
          await trx
            .insertInto('uploads')
            .values({
              id: reference.id,
              participation_id: participationId,
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
        });
      } catch (error) {
        await app.storage.delete(key).catch(() => undefined);
        throw error;
      }
      return ok(reference);
    },
  );

  app.get(
    `${base}/:id`,
    {
      schema: {
        tags: ['uploads'],
        summary:
          "Download an uploaded file (others get code 404): the uploader, the exhibitor (its participation's files), a team user (the business cards of its own leads), a contractor (the files of its part of the shared forms), the organisers of the event",
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
      if (!row || !(await mayRead(auth, row))) throw new AppError('notFound');
      return sendStoredFile(app.storage, request, reply, { key: fileKey.upload(row.id), name: row.original_name, contentType: row.content_type });
    },
  );
}
