import type { ApiApp } from '../../lib/api-app';
import ExcelJS from 'exceljs';
import { API_BASE } from '../../../engine/constants';
import { formDisplayName } from '../../../engine/forms/definitions';
import { neutraliseCell } from '../../../engine/leads-rules';
import { contentDisposition } from '../../lib/content-disposition';
import { translate } from '../../lib/messages';
import { envelope, fileAnswer, MEDIA_TYPE } from '../../lib/schemas';
import { eventOf, requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import { pageQuerySchema } from '../../lib/paging';
import { progressFilterSchema, progressMatrix, progressMatrixPage, progressMatrixSchema } from '../../lib/progress-matrix';

// Progress: the organiser's matrix of its current event's exhibitors × forms, with
// counts per form (over every exhibitor), the "mandatory forms missing" filter, a search and a
// form-status filter, in pages (a big show has 5,000 exhibitors), and an XLSX of the whole view.

const querystring = {
  type: 'object',
  properties: { missing: { type: 'boolean', description: 'Only exhibitors with a mandatory form not submitted' } },
  additionalProperties: false,
} as const;

const pageQuerystring = {
  type: 'object',
  properties: {
    ...pageQuerySchema.properties,
    ...querystring.properties,
    ...progressFilterSchema.properties,
  },
  additionalProperties: false,
} as const;

const progressPageSchema = {
  ...progressMatrixSchema,
  properties: {
    ...progressMatrixSchema.properties,
    rows: { ...progressMatrixSchema.properties.rows, description: 'The page’s rows' },
    total: { type: 'integer', description: 'Rows the filters keep (over every page)' },
    page: { type: 'integer' },
    limit: { type: 'integer' },
    exhibitors: { type: 'integer', description: 'Active exhibitors of the event (what the counts are over)' },
  },
  required: [...progressMatrixSchema.required, 'total', 'page', 'limit', 'exhibitors'],
} as const;

export default async function progressRoutes(app: ApiApp) {
  const registry = app.forms.registry;
  const base = `${API_BASE}/organiser/progress`;
  /** The event's form schemas (patched per event), for the parts of shared forms. */
  const schemaOf = (exhibitCode: string) => (formId: string) => registry.filesFor(formId, exhibitCode).schema as { properties?: Record<string, unknown> };

  app.get(
    base,
    {
      config: { screen: 'organiserProgress' },
      schema: {
        tags: ['organiser'],
        summary: "Exhibitors × forms of the organiser's event with status and counts, filtered and paged",
        querystring: pageQuerystring,
        response: { 200: envelope(progressPageSchema) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const event = eventOf(auth);
      const q = request.query;
      return ok(
        await progressMatrixPage(app, event.id, registry.definitions, {
          missingOnly: q.missing === true,
          schemaOf: schemaOf(event.code),
          filter: { keyword: q.keyword, form: q.form, formStatus: q.formStatus },
          page: { page: q.page, limit: q.limit },
        }),
      );
    },
  );

  app.get(
    `${base}/export`,
    {
      config: { screen: 'organiserProgress' },
      schema: {
        tags: ['organiser'],
        summary: 'The progress matrix as XLSX, headers and statuses in the caller’s language',
        querystring,
        response: { 200: fileAnswer('The progress matrix as XLSX', [MEDIA_TYPE.xlsx]) },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const event = eventOf(auth);
      const matrix = await progressMatrix(app, event.id, registry.definitions, { missingOnly: request.query.missing === true, schemaOf: schemaOf(event.code) });
      const t = (key: string, params?: Record<string, string | number>) => translate(request.language, key, params);
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet(t('organiser.progress.title').slice(0, 31));
      sheet.columns = [
        { header: t('organiser.progress.exhibitor'), width: 32 },
        { header: t('organiser.progress.code'), width: 14 },
        { header: t('organiser.progress.booth'), width: 16 },
        ...matrix.forms.flatMap((form) => [
          { header: formDisplayName(form.code, t(form.title)), width: 22 },
          ...(form.parts ?? []).map((part) => ({ header: `${form.code} · ${t(part.title)}`, width: 22 })),
        ]),
        { header: t('organiser.progress.missingMandatory'), width: 24 },
        { header: t('organiser.progress.manuals'), width: 18 },
      ];
      sheet.getRow(1).font = { bold: true };
      sheet.views = [{ state: 'frozen', ySplit: 1, xSplit: 1 }];
      const codeOf = new Map(matrix.forms.map((f) => [f.id, f.code]));
      for (const row of matrix.rows) {
        sheet.addRow([
          neutraliseCell(row.exhibitor),
          neutraliseCell(row.code ?? ''),
          neutraliseCell(row.boothNum),
          ...matrix.forms.flatMap((form) => [
            t(`formRuntime.status.${row.statuses[form.id]}`),
            ...(form.parts ?? []).map((part) => t(`formRuntime.status.${row.parts[form.id]?.[part.id] ?? 'notStarted'}`)),
          ]),
          row.missingMandatory.map((id) => codeOf.get(id) ?? id).join(', '),
          t('organiser.progress.manualsCount', { acknowledged: row.manualsAcknowledged, total: matrix.manualsToAcknowledge }),
        ]);
      }
      const buffer = await workbook.xlsx.writeBuffer();
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', contentDisposition('attachment', `${event.code}-progress.xlsx`))
        .send(Buffer.from(buffer));
    },
  );
}
