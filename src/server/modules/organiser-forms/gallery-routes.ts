import type { ApiApp } from '../../lib/api-app';
import { API_BASE } from '../../../engine/constants';
import { formDifference } from '../../../engine/forms/gallery';
import { formDefinitionAnswerSchema } from '../../../engine/schemas/form-payload';
import { AppError } from '../../lib/app-error';
import { organisationOf } from '../../lib/organiser-scope';
import { envelope } from '../../lib/schemas';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import { validatorUrl } from '../../plugins/forms/service';

// The organiser's form gallery. Every form of the set in use, as an exhibitor of
// one of the organiser's events meets it (the event's patch applied, its validator, its strings in
// every language, the event's default flags and quotas), and what that event's patch changes in
// the base form. Another organisation's events are never listed and answer 404 like unknown ones.

/** The screen's modules and roles (organiser only, screens.yaml) are checked by the auth hook. */
const SCREEN = { screen: 'organiserFormGallery' } as const;

const json = { type: 'object', additionalProperties: true } as const;
const nullableText = { type: ['string', 'null'] } as const;

const changeSchema = {
  type: 'object',
  properties: {
    kind: { type: 'string', enum: ['added', 'removed', 'nowRequired', 'noLongerRequired', 'relabelled'] },
    path: { type: 'string', description: "Dotted path of the field; a list item's field as `list[].field`" },
    title: { ...nullableText, description: "Locale key of the field's title (the patched form's; the base form's for a removed field)" },
    from: { ...nullableText, description: 'relabelled: the base title key' },
    to: { ...nullableText, description: 'relabelled: the patched title key' },
  },
  required: ['kind', 'path'],
} as const;

const galleryIndexSchema = {
  type: 'object',
  properties: {
    version: { type: 'string', description: 'The form set version in use' },
    forms: {
      type: 'array',
      items: { type: 'object', properties: { id: { type: 'string' }, code: { type: 'string' }, title: { type: 'string' } }, required: ['id', 'code', 'title'] },
    },
    events: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          code: { type: 'string' },
          name: { type: 'string', description: "In the caller's language when the event has it" },
          current: { type: 'boolean', description: "The organiser's current event" },
          patched: { type: 'array', items: { type: 'string' }, description: 'Ids of the forms this event patches' },
        },
        required: ['code', 'name', 'current', 'patched'],
      },
    },
  },
  required: ['version', 'forms', 'events'],
} as const;

const previewSchema = {
  type: 'object',
  properties: {
    formsVersion: { type: 'string' },
    definition: formDefinitionAnswerSchema,
    event: { type: 'object', properties: { code: { type: 'string' }, name: { type: 'string' } }, required: ['code', 'name'] },
    patched: { type: 'boolean', description: 'The event has a patch of this form' },
    schema: json,
    ui: json,
    validator: { type: 'object', properties: { url: { type: 'string' }, rootKey: { type: 'string' } }, required: ['url', 'rootKey'] },
    strings: { type: 'object', additionalProperties: json, description: "The form's strings (forms.<id>) by language" },
    context: {
      type: 'object',
      description: "What a new exhibitor of the event has: the event's default flags and quotas",
      properties: { flags: { type: 'object', additionalProperties: { type: 'boolean' } }, quotas: { type: 'object', additionalProperties: { type: 'number' } } },
      required: ['flags', 'quotas'],
    },
    changes: { type: 'array', items: changeSchema, description: 'What the patch changes in the base form (empty without a patch)' },
  },
  required: ['formsVersion', 'definition', 'event', 'patched', 'schema', 'ui', 'validator', 'strings', 'context', 'changes'],
} as const;

const eventName = (row: { name: string; names: unknown }, language: string): string => {
  const names = (row.names ?? {}) as Record<string, unknown>;
  const named = names[language];
  return typeof named === 'string' && named !== '' ? named : row.name;
};

export default async function formGalleryRoutes(app: ApiApp) {
  const base = `${API_BASE}/organiser/forms/gallery`;

  app.get(
    base,
    {
      config: SCREEN,
      schema: {
        tags: ['organiser'],
        summary: "The forms in use and the organisation's events, with the forms each event patches",
        response: { 200: envelope(galleryIndexSchema) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const forms = app.forms.current();
      const events = await app.db
        .selectFrom('events')
        .select(['id', 'code', 'name', 'names'])
        .where('organisation_id', '=', organisationOf(auth))
        .orderBy('starts_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return ok({
        version: forms.version,
        forms: forms.definitions.map((definition) => ({ id: definition.id, code: definition.code, title: definition.title })),
        events: events.map((event) => ({
          code: event.code,
          name: eventName(event, request.language),
          current: event.id === auth.user.event_id,
          patched: forms.definitions.filter((definition) => forms.hasPatch(definition.id, event.code)).map((definition) => definition.id),
        })),
      });
    },
  );

  app.get(
    `${base}/:id`,
    {
      config: SCREEN,
      schema: {
        tags: ['organiser'],
        summary: "One form as an event's exhibitors meet it (patch applied, validator, strings) and the patch's difference from the base form",
        params: { type: 'object', properties: { id: { type: 'string', pattern: '^[a-z0-9]{1,40}$' } }, required: ['id'] },
        querystring: {
          type: 'object',
          properties: { event: { type: 'string', minLength: 1, maxLength: 40, description: 'Exhibit code of one of the organisation’s events' } },
          required: ['event'],
          additionalProperties: false,
        },
        response: { 200: envelope(previewSchema) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const event = await app.db
        .selectFrom('events')
        .select(['id', 'code', 'name', 'names', 'default_flags'])
        .where('code', '=', request.query.event)
        .where('organisation_id', '=', organisationOf(auth))
        .executeTakeFirst();
      if (!event) throw new AppError('notFound');
      // One form set throughout: the schema, its validator and its strings belong together.
      const forms = app.forms.current();
      const definition = forms.find(request.params.id);
      if (!definition) throw new AppError('notFound');
      const files = forms.filesFor(definition.id, event.code);
      const validator = forms.validatorFor(definition.id, event.code);
      const patched = forms.hasPatch(definition.id, event.code);
      const quotas = await app.db.selectFrom('quotas').select(['name', 'value']).where('event_id', '=', event.id).where('participation_id', 'is', null).execute();
      return ok({
        formsVersion: forms.version,
        definition,
        event: { code: event.code, name: eventName(event, request.language) },
        patched,
        schema: files.schema,
        ui: files.ui,
        validator: { url: validatorUrl(validator.hash), rootKey: validator.rootKey },
        strings: forms.stringsFor(definition.id),
        context: { flags: event.default_flags ?? {}, quotas: Object.fromEntries(quotas.map((quota) => [quota.name, Number(quota.value)])) },
        changes: patched ? formDifference(forms.baseFilesFor(definition.id), files) : [],
      });
    },
  );
}
