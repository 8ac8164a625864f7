import { sql } from 'kysely';
import type { ApiApp } from '../../lib/api-app';
import { toEventClock } from '../../../engine/time';
import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { API_BASE } from '../../../engine/constants';
import { filtersOf, parseLeadQuery } from '../../../engine/leads-rules';
import { AppError } from '../../lib/app-error';
import { contentDisposition } from '../../lib/content-disposition';
import { envelope } from '../../lib/schemas';
import { eventOf, requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import { pageQuerySchema, pageSchema } from '../../lib/paging';
import { exportsPage, visibleExports } from '../../lib/lead-exports-list';
import { writeExport } from './export';
import { leadsEraseAt } from '../../../engine/retention';
import { fileKey } from '../../plugins/storage';
import { exportRecordSchema } from '../../lib/lead-exports-list';
import { exportBody } from './schemas';
import { hiddenVisitorFieldsOf } from '../../lib/lead-fields';
import { exportMappingOf } from '../../lib/export-mapping';
import { mappingColumns, PRESET_COLUMNS } from '../../../engine/crm-export';
import { exportColumnSchema, exportMappingSchema } from '../../../engine/schemas/export-mapping';
import { ROLES, scopeOf, TAGS, tagsOf } from './shared';

// LD4: lead exports (CSV, XLSX) and the data download list.
/** Time of an export in event time, for its file name: 20270317-1015. */
function stamp(now: Date, offsetMinutes: number): string {
  return toEventClock(now, offsetMinutes).toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
}

export default async function leadExportRoutes(app: ApiApp) {
  const base = `${API_BASE}/leads`;

  // Export ids are `serial` (integer), unlike lead ids (bigint): bounded like every integer by the input guard.
  const exportIdParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const;

  // ---- LD4: exports and the data download list -------------------------------------------------

  app.post(
    `${base}/exports`,
    {
      config: { screen: 'leadReport', roles: [...ROLES] },
      schema: {
        tags: TAGS,
        summary: 'LD4: export the filtered leads as CSV or XLSX; the file is kept and listed in the data download list',
        description: "Headers and labels are in the caller's language (Language header), times in event time. Download the file with GET /oga/leads/exports/{id}/file.",
        body: exportBody,
        response: { 200: envelope(exportRecordSchema) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const scope = scopeOf(auth);
      const filters = filtersOf(parseLeadQuery(request.body.filters ?? {}));
      const { format } = request.body;
      const storageName = `${randomBytes(24).toString('base64url')}.${format}`;
      const key = fileKey.leadExport(storageName);
      const now = new Date();
      // Exports of the same minute are told apart by a counter (-2, -3, …) so downloads never overwrite.
      const baseName = `leads-${eventOf(auth).code}-${stamp(now, scope.offsetMinutes)}`;
      const sameMinute = await app.db
        .selectFrom('lead_exports')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('participation_id', '=', scope.participationId)
        .where('file_name', 'like', `${baseName}%`)
        .executeTakeFirstOrThrow();
      const fileName = `${baseName}${sameMinute.n > 0 ? `-${sameMinute.n + 1}` : ''}.${format}`;
      // The writer streams into the file store as it goes; the store keeps nothing unless whole.
      const output = new PassThrough();
      const stored = app.storage.put(key, output);
      // A store that fails first (full, unreachable) stops the writer instead of leaving it waiting.
      stored.catch((error: Error) => output.destroy(error));
      let rows: number;
      let size: number;
      // LD2: which leads the file holds, so a visitor's subject access answer names this export.
      const leadIds: number[] = [];
      try {
        rows = await writeExport({
          db: app.db,
          scope,
          filters,
          format,
          language: request.language,
          dateOrder: eventOf(auth).date_order,
          tags: await tagsOf(app.db, scope.participationId),
          hidden: await hiddenVisitorFieldsOf(app.db, eventOf(auth).id),
          mapping: (await exportMappingOf(app.db, scope.participationId)).columns,
          output,
          onLeads: (ids) => leadIds.push(...ids),
        });
        ({ size } = await stored);
      } catch (error) {
        output.destroy();
        await stored.catch(() => undefined);
        await app.storage.delete(key).catch(() => undefined);
        throw error;
      }
      let record: { id: number };
      try {
        record = await app.db
          .insertInto('lead_exports')
          .values({
            participation_id: scope.participationId,
            user_id: auth.user.id,
            file_name: fileName,
            format,
            filters: JSON.stringify(filters),
            rows,
            size,
            storage_name: storageName,
            created_at: now,
            lead_ids: JSON.stringify(leadIds),
          })
          .returning(['id'])
          .executeTakeFirstOrThrow();
      } catch (error) {
        await app.storage.delete(key).catch(() => undefined);
        throw error;
      }
      return ok({ id: record.id, fileName, format, rows, size, createdAt: now.toISOString(), user: auth.user.display_name });
    },
  );

  app.get(
    `${base}/exports`,
    {
      config: { screen: 'leadReport', roles: [...ROLES], apiKey: 'exports:read' },
      schema: {
        tags: TAGS,
        summary: 'LD4: the data download list (file name, download time, download user), newest first, paginated',
        querystring: pageQuerySchema,
        response: {
          200: envelope(
            pageSchema(exportRecordSchema, {
              utcOffsetMinutes: { type: 'integer' },
              eraseAt: { type: ['string', 'null'], description: 'When these leads and exports are erased; null = kept' },
            }),
          ),
        },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const scope = scopeOf(auth);
      return ok({
        ...(await exportsPage(app.db, scope, request.query)),
        utcOffsetMinutes: scope.offsetMinutes,
        eraseAt: leadsEraseAt(eventOf(auth))?.toISOString() ?? null,
      });
    },
  );

  app.get(
    `${base}/exports/:id/file`,
    {
      config: { screen: 'leadReport', roles: [...ROLES], apiKey: 'exports:read' },
      schema: {
        tags: TAGS,
        summary: 'LD4: download an export again (own participation only; others answer code 404)',
        params: exportIdParams,
        response: {
          200: {
            description: 'The file, as an attachment under its file name',
            content: {
              'text/csv': { schema: { type: 'string', format: 'binary' } },
              'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { schema: { type: 'string', format: 'binary' } },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(requireAuth(request));
      const row = await visibleExports(app.db, scope)
        .select(['lead_exports.storage_name', 'lead_exports.file_name', 'lead_exports.format'])
        .where('lead_exports.id', '=', request.params.id)
        .executeTakeFirst();
      if (!row) throw new AppError('notFound');
      const key = fileKey.leadExport(row.storage_name);
      const file = await app.storage.stat(key);
      const body = file ? await app.storage.get(key) : null;
      if (!file || !body) {
        request.log.error({ exportId: request.params.id, reqId: request.id }, 'export file missing from the file store');
        throw new AppError('notFound');
      }
      return reply
        .header('Content-Type', row.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('Content-Length', file.size)
        .header('Content-Disposition', contentDisposition('attachment', row.file_name))
        .header('X-Content-Type-Options', 'nosniff')
        .send(body);
    },
  );

  // ---- LD4: the exhibitor's CRM export mapping ---------------------------------------------------

  const columnSchema = exportColumnSchema;
  const mappingSchema = exportMappingSchema;
  const presetsSchema = {
    type: 'object',
    required: ['salesforce', 'hubspot'],
    additionalProperties: false,
    properties: { salesforce: { type: 'array', items: columnSchema }, hubspot: { type: 'array', items: columnSchema } },
  } as const;

  app.get(
    `${base}/export-mapping`,
    {
      config: { screen: 'leadReport', roles: [...ROLES], apiKey: 'exports:read' },
      schema: {
        tags: TAGS,
        summary: "LD4: the exhibitor's export mapping for its CRM (used by exports and webhook payloads), and the presets' columns",
        response: {
          200: envelope({ type: 'object', required: ['mapping', 'presets'], additionalProperties: false, properties: { mapping: mappingSchema, presets: presetsSchema } }),
        },
      },
    },
    async (request) => {
      const scope = scopeOf(requireAuth(request));
      return ok({ mapping: await exportMappingOf(app.db, scope.participationId), presets: { salesforce: [...PRESET_COLUMNS.salesforce], hubspot: [...PRESET_COLUMNS.hubspot] } });
    },
  );

  app.put(
    `${base}/export-mapping`,
    {
      config: { screen: 'leadReport', roles: ['exhibitor'] },
      schema: {
        tags: TAGS,
        summary: "LD4: set the exhibitor's export mapping (a preset, or its own columns); the next export uses it",
        description: 'A `custom` mapping needs at least one column (code 601 `validationFailed` otherwise).',
        body: mappingSchema,
        response: { 200: envelope(mappingSchema) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const scope = scopeOf(auth);
      const { preset } = request.body;
      const columns = preset === 'custom' ? request.body.columns.map((column) => ({ field: column.field, header: column.header.trim() })) : [];
      if (preset === 'custom' && (columns.length === 0 || columns.some((column) => !column.header))) {
        throw new AppError('validationFailed', { fields: { columns: 'leads.mapping.columnsRequired' } }, {}, 'leads.mapping.columnsRequired');
      }
      const before = await exportMappingOf(app.db, scope.participationId);
      await app.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('export_mappings')
          .values({ participation_id: scope.participationId, preset, columns: JSON.stringify(columns), updated_at: new Date(), updated_by: auth.user.id })
          .onConflict((conflict) => conflict.column('participation_id').doUpdateSet({ preset, columns: JSON.stringify(columns), updated_at: new Date(), updated_by: auth.user.id }))
          .execute();
        await app.audit.record(
          { action: 'leads.exportMapping', subjectType: 'participation', subjectId: scope.participationId, before, after: { preset, columns } },
          { request, db: trx },
        );
      });
      return ok({ preset, columns: mappingColumns(preset, columns) });
    },
  );
}
