import type { ApiApp } from '../../lib/api-app';
import type { FastifyMultipartBaseOptions } from '@fastify/multipart';
import { API_BASE } from '../../../engine/constants';
import { AppError } from '../../lib/app-error';
import { contentDisposition } from '../../lib/content-disposition';
import { currentOrganiserEvent, organisationOf } from '../../lib/organiser-scope';
import { envelope, fileAnswer, MEDIA_TYPE } from '../../lib/schemas';
import { settingNames } from '../../lib/setting-names';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import { columnHeaders, importExhibitors, importReportSchema } from './import';
import { readSheet, writeTemplate } from '../../lib/spreadsheet';
import { refreshExhibitorSearchTexts } from './search-texts';

// The exhibitor import — template download, dry run with a report per row, commit of
// the good rows in one transaction (recorded in the audit log when it changed something: an
// unchanged file writes nothing).

const SCREEN = { screen: 'organiserImport' } as const;
/** More rows than this are refused before reading them (a show has at most a few thousand). */
export const IMPORT_MAX_ROWS = 10_000;

/**
 * Two imports (or an import and the console) storing the same code, booth or account ID at once:
 * the database's unique index refuses the later one, whose transaction is undone whole. The
 * organiser is told to check again (the next dry run reports the rows as taken), not shown a 500.
 */
async function storeOnce<T>(store: () => Promise<T>): Promise<T> {
  try {
    return await store();
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === '23505') throw new AppError('importConcurrentChange');
    throw error;
  }
}

export default async function organiserImportRoutes(app: ApiApp) {
  const registry = app.forms.registry;
  const base = `${API_BASE}/organiser/exhibitors/import`;
  // The names the set in use declares.
  const names = () => settingNames(registry);

  app.get(
    `${base}/template`,
    {
      config: SCREEN,
      schema: {
        tags: ['organiser'],
        summary: "The import template: one header row in the caller's language (XLSX or CSV)",
        querystring: { type: 'object', properties: { format: { type: 'string', enum: ['xlsx', 'csv'], default: 'xlsx' } }, additionalProperties: false },
        response: { 200: fileAnswer('The template, as an attachment', [MEDIA_TYPE.xlsx, MEDIA_TYPE.csv]) },
      },
    },
    async (request, reply) => {
      requireAuth(request);
      const format = request.query.format ?? 'xlsx';
      const headers = columnHeaders(request.language, names().quotaNames).map(([, header]) => header);
      const bytes = await writeTemplate(headers, format);
      return reply
        .header('Content-Type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('Content-Disposition', contentDisposition('attachment', `exhibitors-template.${format}`))
        .send(bytes);
    },
  );

  app.post(
    base,
    {
      config: SCREEN,
      // The multipart plugin streams the body (nothing parsed to validate); the handler checks it.
      validatorCompiler: () => () => true,
      schema: {
        tags: ['organiser'],
        summary: 'Import exhibitors from XLSX or CSV (multipart field `file`): a dry run by default, `?commit=true` stores the good rows in one transaction',
        description:
          'Every row is checked and reported (row, column, problem in the caller\'s language): unknown module, duplicate booth, code or account ID (in the file or the event), bad e-mail, missing name, a cell starting with "=". Nothing of a bad row is stored. A code the event already has updates that exhibitor; empty optional cells keep stored values.',
        consumes: ['multipart/form-data'],
        body: {
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                properties: { file: { type: 'string', format: 'binary', description: 'The filled template (XLSX or CSV)' } },
                required: ['file'],
              },
            },
          },
        },
        querystring: { type: 'object', properties: { commit: { type: 'boolean', default: false } } },
        response: { 200: envelope(importReportSchema) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const organisationId = organisationOf(auth);
      const event = await currentOrganiserEvent(app.db, auth);
      // Not coerced (the validator is off for the multipart body): the query value is still text.
      const commit = String(request.query.commit) === 'true';
      let bytes: Buffer | undefined;
      let fileName = '';
      const options = { throwFileSizeLimit: false } as FastifyMultipartBaseOptions as Parameters<typeof request.parts>[0];
      for await (const part of request.parts(options)) {
        if (part.type === 'file') {
          const content = await part.toBuffer();
          if (part.fieldname === 'file' && bytes === undefined) {
            bytes = content;
            fileName = part.filename;
          }
        }
      }
      if (!bytes || bytes.length === 0) throw new AppError('importFileUnreadable');
      let rows: Awaited<ReturnType<typeof readSheet>>;
      try {
        rows = await readSheet(bytes);
      } catch {
        throw new AppError('importFileUnreadable');
      }
      if (rows.length - 1 > IMPORT_MAX_ROWS) throw new AppError('importTooManyRows', null, { limit: IMPORT_MAX_ROWS });
      const vocabulary = names();
      const run = (db: typeof app.db) => importExhibitors(db, { organisationId, event, vocabulary, language: request.language, rows, commit });
      const result = commit
        ? await storeOnce(async () =>
            app.db.transaction().execute(async (trx) => {
              const outcome = await run(trx);
              if (outcome.stored.length > 0) {
                await app.audit.record(
                  {
                    action: 'exhibitor.import',
                    eventId: event.id,
                    participationId: null,
                    organisationId: event.organisation_id,
                    subjectType: 'event',
                    subjectId: event.id,
                    after: {
                      file: fileName,
                      created: outcome.stored.filter((s) => s.created).map((s) => s.code),
                      updated: outcome.stored.filter((s) => !s.created).map((s) => s.code),
                      unchanged: outcome.unchanged,
                      refusedRows: [...new Set(outcome.problems.map((p) => p.row))],
                    },
                  },
                  { request, db: trx },
                );
                const created = outcome.stored.filter((s) => s.created).map((s) => ({ participationId: s.participationId, code: s.code }));
                await app.webhooks.emitEach({ type: 'exhibitor.created', eventId: event.id, data: created }, trx);
              }
              return outcome;
            }),
          )
        : await run(app.db);
      // The stored exhibitors' searched texts folded now rather than on the list's next search
      // (up to 5,000 at once; the rows the file left unchanged are not written); should it fail,
      // that search folds them.
      if (commit && result.stored.length > 0)
        await refreshExhibitorSearchTexts(
          app.db,
          event.id,
          result.stored.map((stored) => stored.participationId),
        ).catch((error: unknown) => request.log.warn({ err: error }, 'exhibitor search texts not folded after the import'));
      const { stored: _stored, ...report } = result;
      return ok({ dryRun: !commit, ...report });
    },
  );
}
