import type { ApiApp } from '../../lib/api-app';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_BASE } from '../../../engine/constants';
import { AppError } from '../../lib/app-error';
import { contentDisposition } from '../../lib/content-disposition';
import { envelope, fileAnswer, MEDIA_TYPE } from '../../lib/schemas';
import { eventOf, requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import { writeSubmissionsExport } from './export';

// Submissions export: the forms with how many exhibitors submitted each, and one
// form's submissions across the organiser's current event as XLSX (badges for printing…).

export default async function submissionRoutes(app: ApiApp) {
  const config = app.config;
  const registry = app.forms.registry;
  const base = `${API_BASE}/organiser/submissions`;

  app.get(
    base,
    {
      config: { screen: 'organiserSubmissions' },
      schema: {
        tags: ['organiser'],
        summary: "The forms of the organiser's event with their number of current submissions",
        response: {
          200: envelope({
            type: 'array',
            items: {
              type: 'object',
              properties: { id: { type: 'string' }, code: { type: 'string' }, title: { type: 'string', description: 'Locale key' }, submissions: { type: 'integer' } },
              required: ['id', 'code', 'title', 'submissions'],
              additionalProperties: false,
            },
          }),
        },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const countOf = await app.formEntries.submissionCounts(eventOf(auth).id);
      return ok(registry.definitions.map((d) => ({ id: d.id, code: d.code, title: d.title, submissions: countOf.get(d.id) ?? 0 })));
    },
  );

  app.get(
    `${base}/:formId/export`,
    {
      config: { screen: 'organiserSubmissions' },
      schema: {
        tags: ['organiser'],
        summary: 'One form’s current submissions as XLSX, one row per list item (badge, vehicle, applicant, product…)',
        params: { type: 'object', properties: { formId: { type: 'string', maxLength: 64 } }, required: ['formId'] },
        response: { 200: fileAnswer('The submissions as XLSX', [MEDIA_TYPE.xlsx]) },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const event = eventOf(auth);
      const forms = app.forms.current();
      const definition = forms.find(request.params.formId);
      if (!definition) throw new AppError('notFound');
      const dir = await mkdtemp(join(tmpdir(), 'portal-submissions-'));
      const path = join(dir, 'export.xlsx');
      try {
        await writeSubmissionsExport({
          entries: app.formEntries,
          eventId: event.id,
          utcOffsetMinutes: event.utc_offset_minutes,
          dateOrder: event.date_order,
          formId: definition.id,
          // The schema and its strings from one form set (the one in use).
          schema: forms.filesFor(definition.id, event.code).schema,
          strings: forms.stringsFor(definition.id),
          language: request.language,
          publicUrl: config.publicUrl,
          path,
        });
      } catch (error) {
        await rm(dir, { recursive: true, force: true });
        throw error;
      }
      const stream = createReadStream(path);
      // The file lives until the answer is sent (or the client goes away).
      stream.once('close', () => void rm(dir, { recursive: true, force: true }));
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', contentDisposition('attachment', `${event.code}-${definition.code}.xlsx`))
        .send(stream);
    },
  );
}
