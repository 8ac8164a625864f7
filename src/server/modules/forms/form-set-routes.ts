import type { ApiApp } from '../../lib/api-app';
import { API_BASE } from '../../../engine/constants';
import { screenSchema } from '../../../engine/schemas/screen';
import { formProblemSchema } from '../../../engine/schemas/form-problem';
import { lookup } from '../../../engine/i18n';
import { envelope, NO_BODY } from '../../lib/schemas';
import { ok } from '../../plugins/errors';
import { VALIDATORS_PATH, type FormSetStatus } from '../../plugins/forms/service';

// The live form set as a resource. Its compiled validators, served to the browser as
// same-origin ES modules named by their content hash (so cacheable for good, and the CSP needs no
// eval), and the organiser's view of the set in use: its version, when it was loaded, the problems
// of the last refused change, and a reload action.

const statusSchema = {
  type: 'object',
  properties: {
    version: { type: 'string' },
    loadedAt: { type: 'string', format: 'date-time' },
    forms: { type: 'integer', description: 'How many forms the set in use holds' },
    refused: {
      type: ['object', 'null'],
      properties: { at: { type: 'string', format: 'date-time' }, problems: { type: 'array', items: formProblemSchema } },
      required: ['at', 'problems'],
    },
  },
  required: ['version', 'loadedAt', 'forms', 'refused'],
} as const;

export default async function formSetRoutes(app: ApiApp) {
  const statusOf = (status: FormSetStatus) => ({
    version: status.version,
    loadedAt: status.loadedAt.toISOString(),
    forms: app.forms.current().definitions.length,
    refused: status.refused ? { at: status.refused.at.toISOString(), problems: status.refused.problems } : null,
  });

  app.get(
    `${VALIDATORS_PATH}/:hash.js`,
    {
      // Public: the browser imports it as a module, which carries no bearer token. It holds a
      // form's schema (no one's data), and its name is a hash of its content.
      config: { public: true, immutable: true },
      schema: {
        tags: ['forms'],
        summary: "A form's compiled validators as an ES module (content-hashed, immutable)",
        params: { type: 'object', properties: { hash: { type: 'string', pattern: '^[0-9a-f]{20}$' } }, required: ['hash'] },
        response: {
          200: { description: 'The ES module', content: { 'text/javascript': { schema: { type: 'string' } } } },
          404: { description: 'No such module (plain text: a module import wants an HTTP status)', content: { 'text/plain': { schema: { type: 'string' } } } },
        },
      },
    },
    async (request, reply) => {
      const module = app.forms.validatorModule(request.params.hash);
      // A module import wants an HTTP status, not an envelope.
      if (!module) return reply.status(404).type('text/plain; charset=utf-8').send('Not found');
      return reply.type('text/javascript; charset=utf-8').header('Cache-Control', 'public, max-age=31536000, immutable').send(module);
    },
  );

  app.get(
    `${API_BASE}/catalogue`,
    {
      // Public: the web app builds its routes and menu from it before anyone signs in.
      config: { public: true },
      schema: {
        tags: ['forms'],
        summary: "The screen catalogue in use (screens.yaml beside FORMS_DIR, live) and its titles in the caller's language",
        response: {
          200: envelope({
            type: 'object',
            properties: {
              version: { type: 'string', description: 'The form set version it belongs to' },
              modules: { type: 'array', items: { type: 'string' } },
              screens: { type: 'array', items: screenSchema },
              strings: {
                type: 'object',
                additionalProperties: { type: 'object', additionalProperties: { type: 'string' } },
                description: "Under the caller's language: the text of each title, menu label and form title key",
              },
            },
            required: ['version', 'modules', 'screens', 'strings'],
          }),
          304: { description: 'Not modified since the version the caller has (ETag)', type: 'null' },
        },
      },
    },
    async (request, reply) => {
      const set = app.forms.current();
      const language = request.language;
      const strings: Record<string, string> = { ...(set.catalogueStrings[language] ?? set.catalogueStrings.en) };
      // A form's title comes with its strings (a form added while the portal runs has no built ones).
      for (const definition of set.definitions) {
        const prefix = `forms.${definition.id}.`;
        if (!definition.title.startsWith(prefix)) continue;
        const rest = definition.title.slice(prefix.length);
        const text = lookup(set.stringsFor(definition.id)[language] ?? {}, rest) ?? lookup(set.stringsFor(definition.id).en ?? {}, rest);
        if (text !== undefined) strings[definition.title] = text;
      }
      const tag = `"${set.version}-${language}"`;
      reply.header('ETag', tag).header('Cache-Control', 'no-cache');
      if (request.headers['if-none-match'] === tag) return reply.status(304).send(null);
      return ok({ version: set.version, modules: set.catalogue.modules, screens: set.catalogue.screens, strings: { [language]: strings } });
    },
  );

  app.get(
    `${API_BASE}/organiser/forms`,
    {
      config: { screen: 'organiserForms' },
      schema: { tags: ['organiser'], summary: 'The form set in use and the problems of the last refused change', response: { 200: envelope(statusSchema) } },
    },
    async () => ok(statusOf(app.forms.status())),
  );

  app.post(
    `${API_BASE}/organiser/forms/reload`,
    {
      config: { screen: 'organiserForms' },
      schema: {
        tags: ['organiser'],
        summary: 'Read FORMS_DIR again now; a valid change is swapped in, an invalid one refused whole',
        body: NO_BODY,
        response: { 200: envelope({ type: 'object', properties: { changed: { type: 'boolean' }, status: statusSchema }, required: ['changed', 'status'] }) },
      },
    },
    async (request) => {
      const result = app.forms.reload('organiser');
      await app.audit.record(
        { action: 'forms.reload', subjectType: 'forms', subjectId: result.version, after: { changed: result.changed, problems: result.problems.length } },
        { request },
      );
      return ok({ changed: result.changed, status: statusOf(app.forms.status()) });
    },
  );
}
