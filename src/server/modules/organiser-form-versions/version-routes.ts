import type { ApiApp } from '../../lib/api-app';
import { API_BASE } from '../../../engine/constants';
import { AppError } from '../../lib/app-error';
import { organisationOf } from '../../lib/organiser-scope';
import { envelope } from '../../lib/schemas';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import { listVersions, readVersion } from '../../plugins/forms/versions';
import { FORM_EDITOR_SCREEN, problemSchema } from './editor-routes';
import { versionDifference, withEventsFrom } from './form-content';
import type { AuthContext } from '../../plugins/sessions';

// F11: the versions of the form set as one organisation sees them: those its organisers made and
// those implementers imported from files (no author), never another organisation's; the
// difference between any two of them (the gallery's difference list, per base form and per event
// of the organisation) and a rollback, which publishes as the next version the set in use with the
// organisation's events' patches and strings as they were in the older version (another
// organisation's version answers 404 alike).

const versionSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    number: { type: 'integer' },
    status: { type: 'string', enum: ['draft', 'published'] },
    source: { type: 'string', description: 'files (FORMS_DIR), editor, rollback, copy (event cloned) or import' },
    author: { type: 'string' },
    createdAt: { type: 'string', format: 'date-time' },
    comment: { type: 'string' },
    problems: { type: 'array', items: problemSchema },
    current: { type: 'boolean', description: 'The version in use' },
  },
  required: ['id', 'number', 'status', 'source', 'author', 'createdAt', 'comment', 'problems', 'current'],
} as const;

const changeSchema = {
  type: 'object',
  properties: {
    kind: { type: 'string', enum: ['added', 'removed', 'nowRequired', 'noLongerRequired', 'relabelled'] },
    path: { type: 'string' },
    title: { type: ['string', 'null'] },
    from: { type: ['string', 'null'] },
    to: { type: ['string', 'null'] },
  },
  required: ['kind', 'path'],
} as const;

const diffSchema = {
  type: 'object',
  properties: {
    from: { type: 'integer' },
    to: { type: 'integer' },
    files: {
      type: 'array',
      items: { type: 'object', properties: { file: { type: 'string' }, change: { type: 'string', enum: ['added', 'removed', 'changed'] } }, required: ['file', 'change'] },
    },
    forms: {
      type: 'array',
      description: "Per form: the base form's changes (exhibitCode null) and each of the organisation's events' changes",
      items: {
        type: 'object',
        properties: { formId: { type: 'string' }, exhibitCode: { type: ['string', 'null'] }, changes: { type: 'array', items: changeSchema } },
        required: ['formId', 'exhibitCode', 'changes'],
      },
    },
    strings: {
      type: 'array',
      items: {
        type: 'object',
        properties: { language: { type: 'string' }, key: { type: 'string' }, change: { type: 'string', enum: ['added', 'removed', 'changed'] } },
        required: ['language', 'key', 'change'],
      },
    },
  },
  required: ['from', 'to', 'files', 'forms', 'strings'],
} as const;

const versionNumber = { type: 'integer', minimum: 1 } as const;

export default async function formVersionRoutes(app: ApiApp) {
  const base = `${API_BASE}/organiser/form-versions`;

  /** The versions the organiser's organisation sees: its organisers' and the implementers' (no author), newest first. */
  async function organisationVersions(auth: AuthContext) {
    const organisationId = organisationOf(auth);
    const versions = await listVersions(app.db);
    const authors = [...new Set(versions.flatMap((version) => (version.authorUserId === null ? [] : [version.authorUserId])))];
    const own = new Set(
      authors.length === 0
        ? []
        : (await app.db.selectFrom('users').select('id').where('id', 'in', authors).where('organisation_id', '=', organisationId).execute()).map((row) => row.id),
    );
    return versions.filter((version) => version.authorUserId === null || own.has(version.authorUserId));
  }

  /** One version the organisation sees, with its content; 404 for another organisation's or an unknown one. */
  async function organisationVersion(auth: AuthContext, number: number) {
    const organisationId = organisationOf(auth);
    const version = await readVersion(app.db, number);
    if (!version) throw new AppError('notFound');
    if (version.authorUserId !== null) {
      const author = await app.db.selectFrom('users').select('organisation_id').where('id', '=', version.authorUserId).executeTakeFirst();
      if (author?.organisation_id !== organisationId) throw new AppError('notFound');
    }
    return version;
  }

  const organisationEventCodes = async (auth: AuthContext) =>
    new Set((await app.db.selectFrom('events').select('code').where('organisation_id', '=', organisationOf(auth)).execute()).map((event) => event.code));

  app.get(
    base,
    {
      config: FORM_EDITOR_SCREEN,
      schema: { tags: ['organiser'], summary: 'The versions of the forms, newest first', response: { 200: envelope({ type: 'array', items: versionSchema }) } },
    },
    async (request) => {
      const current = app.forms.currentVersion().number;
      const versions = await organisationVersions(requireAuth(request));
      return ok(
        versions.map((version) => ({
          id: version.id,
          number: version.number,
          status: version.status,
          source: version.source,
          author: version.authorName,
          createdAt: version.createdAt.toISOString(),
          comment: version.comment,
          problems: version.problems,
          current: version.number === current,
        })),
      );
    },
  );

  app.get(
    `${base}/:a/diff/:b`,
    {
      config: FORM_EDITOR_SCREEN,
      schema: {
        tags: ['organiser'],
        summary: "What changed from version a to version b: files, each form's and each event's fields, strings",
        params: { type: 'object', properties: { a: versionNumber, b: versionNumber }, required: ['a', 'b'] },
        response: { 200: envelope(diffSchema) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const [a, b] = await Promise.all([organisationVersion(auth, request.params.a), organisationVersion(auth, request.params.b)]);
      // Another organisation's events' patches are not shown.
      const difference = versionDifference(a.content, b.content, await organisationEventCodes(auth));
      return ok({ from: a.number, to: b.number, ...difference });
    },
  );

  app.post(
    `${base}/:number/rollback`,
    {
      config: FORM_EDITOR_SCREEN,
      schema: {
        tags: ['organiser'],
        summary: "Publish an earlier version's content as the next version",
        params: { type: 'object', properties: { number: versionNumber }, required: ['number'] },
        body: {
          type: 'object',
          properties: {
            basedOn: { type: 'integer', minimum: 0, description: 'The version the organiser saw as current; refused (409) when another was published since' },
            comment: { type: 'string', maxLength: 2000 },
          },
          required: ['basedOn'],
          additionalProperties: false,
        },
        response: { 200: envelope({ type: 'object', properties: { id: { type: 'integer' }, number: { type: 'integer' } }, required: ['id', 'number'] }) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const target = await organisationVersion(auth, request.params.number);
      if (target.status !== 'published') throw new AppError('notFound');
      const { set, number } = app.forms.currentVersion();
      const { basedOn } = request.body;
      const comment = request.body.comment ?? '';
      const source = withEventsFrom(set.source, target.content, await organisationEventCodes(auth));
      const outcome = await app.forms.publish({ source, kind: 'rollback', author: { id: auth.user.id, name: auth.user.display_name }, comment, basedOn }, async (trx, version) => {
        const difference = versionDifference(set.source, source, null);
        await app.audit.record(
          {
            action: 'forms.rollback',
            subjectType: 'formSetVersion',
            subjectId: version.number,
            before: { version: number, files: difference.files.map((entry) => entry.file), strings: difference.strings.length },
            after: { version: version.number, contentOf: target.number, comment },
          },
          { request, db: trx },
        );
      });
      if (outcome.kind === 'problems') throw new AppError('formVersionProblems', { problems: outcome.problems });
      if (outcome.kind !== 'published') {
        const current = outcome.current;
        const since = await organisationVersions(auth);
        throw new AppError(
          'formVersionStale',
          {
            current,
            since: since
              .filter((version) => version.status === 'published' && version.number > basedOn)
              .reverse()
              .map((version) => ({ number: version.number, author: version.authorName, at: version.createdAt.toISOString(), comment: version.comment })),
            files: [],
          },
          { current },
        );
      }
      return ok({ id: outcome.version.id, number: outcome.version.number });
    },
  );
}
