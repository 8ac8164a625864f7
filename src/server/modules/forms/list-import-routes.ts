import type { ApiApp } from '../../lib/api-app';
import { API_BASE, SHEET_MAX_BYTES, SHEET_MAX_ROWS } from '../../../engine/constants';
import type { FormDefinition } from '../../../engine/forms/definitions';
import { checkListRows, columnHeader, HEADER_SEPARATOR, importableLists, NO_LABEL, readListSheet, YES_LABEL, type ImportableList } from '../../../engine/forms/list-import';
import { interpolate, lookup } from '../../../engine/i18n';
import { LANGUAGES } from '../../../engine/language';
import { AppError } from '../../lib/app-error';
import { contentDisposition } from '../../lib/content-disposition';
import { localeTables } from '../../lib/messages';
import { envelope, fileAnswer, MEDIA_TYPE } from '../../lib/schemas';
import { readSingleUpload } from '../../lib/single-upload';
import { looksLikeSheet, readSheet, writeTemplate } from '../../lib/spreadsheet';
import { eventOf, requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import type { AuthContext } from '../../plugins/sessions';
import { contractorPart } from '../../lib/contractor-part';
import type { FormSet } from '../../plugins/forms/form-set';
import { visibleToRole } from '../../../engine/forms/lifecycle';
import { formContext, isRecord, withProperties } from './form-access';
import { validateSubmission } from '../../plugins/forms/validate';

// A form's list filled from a spreadsheet. The template is made from the list's
// item schema (headers in the caller's language, drop-down lists for choices); an uploaded XLSX or
// CSV is parsed here (exceljs, already the server's; the browser bundle stays without it), each row
// checked with the validator the form page runs, and answered as the rows that may be added plus
// the problems of the others, in the caller's language. Nothing is stored: the exhibitor adds the
// valid rows to the form and saves it as any other change.

const params = {
  type: 'object',
  properties: { id: { type: 'string', maxLength: 40 }, list: { type: 'string', maxLength: 100 } },
  required: ['id', 'list'],
  additionalProperties: false,
} as const;

const reportSchema = {
  type: 'object',
  properties: {
    list: { type: 'string' },
    rows: { type: 'integer', description: 'Data rows read (empty rows skipped)' },
    columns: {
      type: 'array',
      description: "The sheet's headers and the list field each fills (null: not a field of the list, ignored)",
      items: { type: 'object', properties: { header: { type: 'string' }, property: { type: ['string', 'null'] } }, required: ['header', 'property'] },
    },
    skipped: {
      type: 'array',
      description: "Lists inside the list's items, by their titles in the caller's language: a sheet cannot fill them (the form page does)",
      items: { type: 'string' },
    },
    valid: {
      type: 'array',
      description: 'Rows that may be added to the list, as list items',
      items: { type: 'object', properties: { row: { type: 'integer' }, item: { type: 'object', additionalProperties: true } }, required: ['row', 'item'] },
    },
    problems: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          row: { type: 'integer', description: "The sheet's row number (1 = the headers)" },
          column: { type: 'string', description: "The list field ('' = the row as a whole)" },
          header: { type: 'string', description: "The field's title in the caller's language" },
          key: { type: 'string' },
          message: { type: 'string' },
        },
        required: ['row', 'column', 'header', 'key', 'message'],
      },
    },
  },
  required: ['list', 'rows', 'columns', 'valid', 'problems'],
} as const;

/** A form's texts: its own strings as the set in use has them (live), the rest from the locale tables. */
function formTexts(forms: FormSet, formId: string) {
  const own = forms.stringsFor(formId);
  const prefix = `forms.${formId}.`;
  const text = (language: string, key: string): string | undefined =>
    (key.startsWith(prefix) ? lookup(own[language] ?? {}, key.slice(prefix.length)) : undefined) ?? lookup(localeTables[language] ?? {}, key);
  return {
    /** In the caller's language (English, then the key itself, when missing). */
    one: (language: string, key: string, values?: Record<string, string | number>) => interpolate(text(language, key) ?? text('en', key) ?? key, values),
    /** In every language: headers and choices are recognised in any of them. */
    all: (key: string) => LANGUAGES.map((language) => text(language, key)).filter((value): value is string => value !== undefined),
  };
}

export default async function listImportRoutes(app: ApiApp) {
  const base = `${API_BASE}/forms/:id/lists/:list`;

  /** The form and list a user may fill from a sheet, with the set they come from (one set per request). */
  function listFor(auth: AuthContext, id: string, property: string) {
    if (!auth.participation) throw new AppError('formNotOpen');
    const forms = app.forms.current();
    const definition: FormDefinition | undefined = forms.find(id);
    if (!definition || !visibleToRole(definition, auth.user.role)) throw new AppError('notFound');
    const part = contractorPart(definition, auth.user.role);
    if (part && !part.includes(property)) throw new AppError('notFound');
    const { schema } = forms.filesFor(definition.id, eventOf(auth).code);
    const list = importableLists(definition.id, schema, auth.participation.flags ?? {}).find((candidate) => candidate.property === property);
    if (!list) throw new AppError('notFound');
    return { forms, definition, schema, list, participation: auth.participation };
  }

  const headersOf = (list: ImportableList, one: (language: string, key: string) => string, language: string) =>
    list.columns.map((column) => columnHeader(column, (key) => one(language, key)));
  /** The lists inside the items a sheet cannot fill, named as the form names them ("Contact › History"). */
  const skippedOf = (list: ImportableList, one: (language: string, key: string) => string, language: string) =>
    list.skipped.map((titles) => titles.map((key) => one(language, key)).join(HEADER_SEPARATOR));

  app.get(
    `${base}/template`,
    {
      config: { screen: 'orderForms' },
      schema: {
        tags: ['forms'],
        summary: "A list's spreadsheet template: one header row of its fields in the caller's language (XLSX with drop-down lists for choices, or CSV)",
        params,
        querystring: { type: 'object', properties: { format: { type: 'string', enum: ['xlsx', 'csv'], default: 'xlsx' } }, additionalProperties: false },
        response: { 200: fileAnswer('The template, as an attachment', [MEDIA_TYPE.xlsx, MEDIA_TYPE.csv]) },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const { forms, definition, list } = listFor(auth, request.params.id, request.params.list);
      const format = request.query.format ?? 'xlsx';
      const texts = formTexts(forms, definition.id);
      const language = request.language;
      const choices = list.columns.map((column) =>
        column.kind === 'choice'
          ? column.labels!.map((key) => texts.one(language, key))
          : column.kind === 'yesNo'
            ? [texts.one(language, YES_LABEL), texts.one(language, NO_LABEL)]
            : undefined,
      );
      const skipped = skippedOf(list, texts.one, language);
      const bytes = await writeTemplate(headersOf(list, texts.one, language), format, {
        sheetName: texts.one(language, list.title),
        choices,
        rows: SHEET_MAX_ROWS,
        // A list inside the items has no cells: the sheet says where to fill it.
        note: skipped.length > 0 ? texts.one(language, 'listImport.notInSheet', { lists: skipped.join(', ') }) : undefined,
      });
      const name = `${definition.code}-${list.property}.${format}`;
      return reply
        .header('Content-Type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('Content-Disposition', contentDisposition('attachment', name))
        .send(bytes);
    },
  );

  app.post(
    `${base}/import`,
    {
      config: { screen: 'orderForms' },
      // The multipart plugin streams the parts (there is no parsed body to validate); the handler checks them.
      validatorCompiler: () => () => true,
      schema: {
        tags: ['forms'],
        summary: 'Check a spreadsheet (XLSX or CSV) as rows of a list: the rows that may be added and the problems of the others. Nothing is stored.',
        description:
          "Multipart: the field `data` (the form as the page holds it, JSON: the rows are checked as items added to its list, with its quotas and unique fields) then `file`. Headers and choices are recognised in any of the portal's languages; empty rows are skipped; each row is validated with the form's validator. Problems name the sheet row and the field, in the caller's language.",
        params,
        consumes: ['multipart/form-data'],
        body: {
          content: {
            'multipart/form-data': {
              schema: { type: 'object', properties: { data: { type: 'string', description: 'JSON object' }, file: { type: 'string', format: 'binary' } }, required: ['file'] },
            },
          },
        },
        response: { 200: envelope(reportSchema) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { forms, definition, schema, list, participation } = listFor(auth, request.params.id, request.params.list);
      const received = await readSingleUpload(request);
      const extraFields = received ? Object.keys(received.fields).filter((name) => name !== 'data') : [];
      let data: Record<string, unknown> | null = {};
      if (received?.fields.data) {
        try {
          const parsed: unknown = JSON.parse(received.fields.data);
          data = isRecord(parsed) ? parsed : null;
        } catch {
          data = null;
        }
      }
      if (!received || extraFields.length > 0 || !data) throw new AppError('badRequest', { expected: ['data', 'file'] });
      const { file } = received;
      if (file.bytes.length > SHEET_MAX_BYTES) throw new AppError('importFileTooLarge', null, { limit: Math.round(SHEET_MAX_BYTES / (1024 * 1024)) });
      if (file.bytes.length === 0 || !looksLikeSheet(file.bytes)) throw new AppError('importFileUnreadable');
      let sheet: string[][];
      try {
        sheet = await readSheet(file.bytes);
      } catch {
        throw new AppError('importFileUnreadable');
      }
      if (sheet.length - 1 > SHEET_MAX_ROWS) throw new AppError('importTooManyRows', null, { limit: SHEET_MAX_ROWS });

      const texts = formTexts(forms, definition.id);
      const read = readListSheet(sheet, list, texts.all);
      const served = forms.validatorFor(definition.id, eventOf(auth).code);
      const context = formContext(participation, auth);
      const listSchema = withProperties(schema).properties?.[list.property];
      if (!isRecord(listSchema)) throw new AppError('notFound');
      const checked = checkListRows((candidate) => validateSubmission(served, candidate, context), data, list.property, listSchema, read);
      const language = request.language;
      const titles = new Map(list.columns.map((column) => [column.property, columnHeader(column, (key) => texts.one(language, key))]));
      return ok({
        list: list.property,
        rows: read.rows.length,
        columns: read.headers,
        skipped: skippedOf(list, texts.one, language),
        valid: checked.valid,
        problems: checked.problems.map((problem) => ({
          row: problem.row,
          column: problem.column,
          header: titles.get(problem.column) ?? problem.column,
          key: problem.key,
          message: texts.one(language, problem.key, problem.params),
        })),
      });
    },
  );
}
