import { createHash } from 'node:crypto';
import { formFilesSchema, formPatchSchema } from '../../../engine/schemas/form-patch';
import { formProblemSchema } from '../../../engine/schemas/form-problem';
import type { ApiApp } from '../../lib/api-app';
import { API_BASE } from '../../../engine/constants';
import { LANGUAGES } from '../../../engine/language';
import { AppError } from '../../lib/app-error';
import { organiserEvent } from '../../lib/organiser-scope';
import { envelope, NO_BODY } from '../../lib/schemas';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import type { FormSet, FormSetProblem, FormSetSource } from '../../plugins/forms/form-set';
import { validatorUrl } from '../../plugins/forms/service';
import { formFilesOf, formStrings, patchOf, stringKeyPattern, versionDifference, withDraft } from './form-content';
import { uniqueListings } from '../../../engine/forms/patch-editor-listings';
import { type OptionalListing, optionalListingsSchema } from '../../../engine/schemas/optional-listing';
import { dropRemovedAnswers, impactOf, mailReopened, reopenAffected } from './impact';

// F11: the organiser's form editor works on one event's patch of one form, never on the base
// form other events share. A draft (the whole patch and the form's strings) is saved with the
// checks' problems, even when it has some; publishing makes it the next version of the form set,
// refused when the draft has problems or when another version was published since it was begun.

/** The screen's modules and roles (organiser, Organiser Console) are checked by the auth hook. */
export const FORM_EDITOR_SCREEN = { screen: 'organiserFormEditor' } as const;

/** How many checked draft contents are kept (a few organisers editing at once). */
const CHECKED_KEPT = 8;

/** The most a draft (patch and strings, as JSON) may hold. */
const DRAFT_MAX_BYTES = 512 * 1024;

const json = { type: 'object', additionalProperties: true } as const;
const flatStrings = { type: 'object', additionalProperties: { type: 'string', maxLength: 4000 }, maxProperties: 2000 } as const;
const stringsByLanguage = {
  type: 'object',
  properties: { en: flatStrings, cn: flatStrings, ja: flatStrings, vi: flatStrings },
  additionalProperties: false,
  description: "The form's strings by language, as flat dotted keys (forms.<formId>.…)",
} as const;
const fullStrings = { ...stringsByLanguage, required: ['en', 'cn', 'ja', 'vi'] } as const;
export const problemSchema = formProblemSchema;
const patchSchema = formPatchSchema;
const versionRef = { type: 'object', properties: { id: { type: 'integer' }, number: { type: 'integer' } }, required: ['id', 'number'] } as const;

const draftSchema = {
  type: ['object', 'null'],
  properties: {
    patch: { ...patchSchema, type: ['object', 'null'] },
    strings: fullStrings,
    basedOn: { type: 'integer', description: 'The version number the draft was begun on' },
    listings: optionalListingsSchema,
    savedAt: { type: 'string', format: 'date-time' },
    author: { type: 'string' },
    problems: { type: 'array', items: problemSchema },
  },
  required: ['patch', 'strings', 'basedOn', 'listings', 'savedAt', 'author', 'problems'],
} as const;

const editorSchema = {
  type: 'object',
  properties: {
    exhibitCode: { type: 'string' },
    formId: { type: 'string' },
    version: versionRef,
    base: formFilesSchema,
    patch: { ...patchSchema, type: ['object', 'null'] },
    strings: fullStrings,
    draft: draftSchema,
    uploadPurposes: {
      type: 'array',
      items: { type: 'string' },
      description: 'The upload purposes forms.yaml declares (`uploads:`), in its order: the purposes a file question may take',
    },
  },
  required: ['exhibitCode', 'formId', 'version', 'base', 'patch', 'strings', 'draft', 'uploadPurposes'],
} as const;

const previewSchema = {
  type: 'object',
  description: 'The patched form as the gallery renders it',
  properties: {
    schema: json,
    ui: json,
    strings: { type: 'object', additionalProperties: json, description: "The form's strings (forms.<id>) by language, nested" },
    validator: {
      type: ['object', 'null'],
      properties: { url: { type: 'string' }, rootKey: { type: 'string' } },
      required: ['url', 'rootKey'],
      description: 'The compiled validator; null while the draft has problems',
    },
  },
  required: ['schema', 'ui', 'strings', 'validator'],
} as const;

const params = {
  type: 'object',
  properties: { eventId: { type: 'integer', minimum: 1 }, formId: { type: 'string', pattern: '^[a-z0-9]{1,40}$' } },
  required: ['eventId', 'formId'],
} as const;

interface DraftRow {
  based_on: number;
  patch: Record<string, unknown> | null;
  strings: Record<string, Record<string, string>>;
  problems: FormSetProblem[];
  listings: OptionalListing[];
  saved_at: Date | string;
  author_name: string;
}

export default async function formEditorRoutes(app: ApiApp) {
  const base = `${API_BASE}/organiser/form-editor/:eventId/:formId`;

  /**
   * The checks' verdict on a draft's content, kept for the last few contents: reading a whole set
   * (every form's checks and the strings) is most of what the impact view costs, and the draft was
   * checked when it was saved. The same content always gets the same verdict (the set's
   * surroundings do not change while the server runs).
   */
  const readings = new Map<string, ReturnType<typeof app.forms.check>>();
  const checked = (source: FormSetSource) => {
    const key = createHash('sha256').update(JSON.stringify(source)).digest('hex');
    const known = readings.get(key);
    if (known) return known;
    const reading = app.forms.check(source);
    readings.set(key, reading);
    if (readings.size > CHECKED_KEPT) readings.delete(readings.keys().next().value!);
    return reading;
  };

  /** The organiser's event and the form, in the set in use (404 for another organisation's event or an unknown form). */
  const target = async (request: Parameters<typeof requireAuth>[0], eventId: number, formId: string) => {
    const auth = requireAuth(request);
    const event = await organiserEvent(app.db, auth, eventId);
    const current = app.forms.currentVersion();
    if (!current.set.find(formId)) throw new AppError('notFound');
    return { auth, event, ...current };
  };

  const readDraft = async (eventId: number, formId: string): Promise<DraftRow | null> =>
    ((await app.db
      .selectFrom('form_drafts')
      .select(['based_on', 'patch', 'strings', 'problems', 'listings', 'saved_at', 'author_name'])
      .where('event_id', '=', eventId)
      .where('form_id', '=', formId)
      .executeTakeFirst()) as DraftRow | undefined) ?? null;

  const draftAnswer = (draft: DraftRow | null) =>
    draft && {
      patch: draft.patch as { schema?: Record<string, unknown>; ui?: Record<string, unknown> } | null,
      strings: draft.strings as { en: Record<string, string>; cn: Record<string, string>; ja: Record<string, string>; vi: Record<string, string> },
      basedOn: draft.based_on,
      listings: draft.listings ?? [],
      savedAt: new Date(draft.saved_at).toISOString(),
      author: draft.author_name,
      problems: draft.problems,
    };

  app.get(
    base,
    {
      config: FORM_EDITOR_SCREEN,
      schema: {
        tags: ['organiser'],
        summary: "A form for the editor: the base form, the event's patch and the form's strings in the version in use, and the saved draft",
        params,
        response: { 200: envelope(editorSchema) },
      },
    },
    async (request) => {
      const { event, set, number } = await target(request, request.params.eventId, request.params.formId);
      const formId = request.params.formId;
      const row = await app.db.selectFrom('form_set_versions').select('id').where('number', '=', number).executeTakeFirst();
      return ok({
        exhibitCode: event.code,
        formId,
        version: { id: row ? Number(row.id) : 0, number },
        base: set.baseFilesFor(formId),
        patch: patchOf(set.source, event.code, formId),
        strings: formStrings(set.source, formId) as { en: Record<string, string>; cn: Record<string, string>; ja: Record<string, string>; vi: Record<string, string> },
        draft: draftAnswer(await readDraft(event.id, formId)),
        uploadPurposes: Object.keys(set.uploads),
      });
    },
  );

  app.put(
    `${base}/draft`,
    {
      config: FORM_EDITOR_SCREEN,
      schema: {
        tags: ['organiser'],
        summary: "Save the event's draft of a form (its whole patch and the form's strings): answers the checks' problems and the patched form's preview",
        params,
        body: {
          type: 'object',
          properties: {
            basedOn: { type: 'integer', minimum: 0, description: 'The version number the editor was opened on' },
            patch: { ...patchSchema, type: ['object', 'null'], description: "The event's whole patch of the form; null: no patch" },
            strings: { ...stringsByLanguage, description: "The form's strings in full per language (flat keys); a language left out keeps the version's" },
            listings: { ...optionalListingsSchema, description: `${optionalListingsSchema.description}; left out: none` },
          },
          required: ['basedOn', 'patch', 'strings'],
          additionalProperties: false,
        },
        response: {
          200: envelope({ type: 'object', properties: { problems: { type: 'array', items: problemSchema }, preview: previewSchema }, required: ['problems', 'preview'] }),
        },
      },
    },
    async (request) => {
      const { auth, event, set } = await target(request, request.params.eventId, request.params.formId);
      const formId = request.params.formId;
      const { basedOn, patch } = request.body;
      const listings = uniqueListings(request.body.listings ?? []);
      const strings = request.body.strings as Partial<Record<string, Record<string, string>>>;
      const size = Buffer.byteLength(JSON.stringify({ patch, strings }));
      if (size > DRAFT_MAX_BYTES) throw new AppError('formPatchTooLarge', null, { limit: DRAFT_MAX_BYTES / 1024 });
      const keyPattern = stringKeyPattern(formId);
      for (const language of LANGUAGES)
        for (const key of Object.keys(strings[language] ?? {}))
          if (!keyPattern.test(key)) throw new AppError('formPatchInvalid', null, { detail: `${language} ${key.slice(0, 120)}` });
      const source = withDraft(set.source, event.code, formId, (patch ?? null) as Record<string, unknown> | null, strings, listings);
      if (!source) throw new AppError('formPatchInvalid', null, { detail: listings.map((listing) => `${listing.entry} ${listing.name}`).join(', ') });
      const reading = checked(source);
      const problems = reading.problems;
      const full = Object.fromEntries(LANGUAGES.map((language) => [language, strings[language] ?? formStrings(set.source, formId)[language]!]));
      const before = await readDraft(event.id, formId);
      await app.db.transaction().execute(async (trx) => {
        const values = {
          based_on: basedOn,
          patch: patch ? JSON.stringify(patch) : null,
          strings: JSON.stringify(full),
          problems: JSON.stringify(problems),
          listings: JSON.stringify(listings),
          saved_at: new Date(),
          author_user_id: auth.user.id,
          author_name: auth.user.display_name,
        };
        await trx
          .insertInto('form_drafts')
          .values({ event_id: event.id, form_id: formId, ...values })
          .onConflict((oc) => oc.columns(['event_id', 'form_id']).doUpdateSet(values))
          .execute();
        await app.audit.record(
          {
            action: 'formDraft.save',
            subjectType: 'form',
            subjectId: formId,
            eventId: event.id,
            before: before && { basedOn: before.based_on, patch: before.patch, strings: before.strings, listings: before.listings },
            after: { basedOn, patch: patch ?? null, strings: full, listings, problems: problems.length },
          },
          { request, db: trx },
        );
      });
      return ok({ problems, preview: previewOf(reading.set, source, formId, event.code, (served) => app.forms.servePreview(served)) });
    },
  );

  app.delete(
    `${base}/draft`,
    {
      config: FORM_EDITOR_SCREEN,
      schema: { tags: ['organiser'], summary: "Discard the event's draft of a form", params, body: NO_BODY, response: { 200: envelope() } },
    },
    async (request) => {
      const { event } = await target(request, request.params.eventId, request.params.formId);
      const formId = request.params.formId;
      await app.db.transaction().execute(async (trx) => {
        const removed = await trx
          .deleteFrom('form_drafts')
          .where('event_id', '=', event.id)
          .where('form_id', '=', formId)
          .returning(['based_on', 'patch', 'strings'])
          .executeTakeFirst();
        if (removed)
          await app.audit.record(
            {
              action: 'formDraft.discard',
              subjectType: 'form',
              subjectId: formId,
              eventId: event.id,
              before: { basedOn: removed.based_on, patch: removed.patch, strings: removed.strings },
              after: null,
            },
            { request, db: trx },
          );
      });
      return ok(null);
    },
  );

  /** The draft's content on the version in use, checked; 409 without a draft. */
  const draftContent = async (set: FormSet, eventId: number, exhibitCode: string, formId: string) => {
    const draft = await readDraft(eventId, formId);
    if (!draft) throw new AppError('formDraftMissing');
    // A listing that no longer fits the version in use is a problem of the draft, never a half-applied change.
    const source = withDraft(set.source, exhibitCode, formId, draft.patch, draft.strings, draft.listings ?? []);
    if (!source) throw new AppError('formPatchInvalid', null, { detail: (draft.listings ?? []).map((listing) => `${listing.entry} ${listing.name}`).join(', ') });
    return { draft, source, reading: checked(source) };
  };

  const questionSchema = {
    type: 'object',
    properties: { path: { type: 'string' }, kind: { type: 'string', enum: ['added', 'changed'] }, title: { type: ['string', 'null'] } },
    required: ['path', 'kind', 'title'],
  } as const;
  const impactSchema = {
    type: 'object',
    properties: {
      drafts: { type: 'integer', description: 'Exhibitors with an unsubmitted draft of the form' },
      submissions: { type: 'integer', description: 'Exhibitors who submitted the form' },
      dropped: {
        type: 'array',
        description: 'Questions removed, with how many entries hold an answer to each',
        items: {
          type: 'object',
          properties: { path: { type: 'string' }, title: { type: ['string', 'null'] }, answers: { type: 'integer' } },
          required: ['path', 'title', 'answers'],
        },
      },
      invalid: {
        type: 'array',
        description: 'Submissions the changed form would refuse',
        items: {
          type: 'object',
          properties: {
            participationId: { type: 'integer' },
            exhibitor: { type: 'string', description: 'Exhibitor code' },
            company: { type: 'string' },
            fields: { type: 'array', items: { type: 'string' }, description: 'JSON pointers of the failing fields' },
          },
          required: ['participationId', 'exhibitor', 'company', 'fields'],
        },
      },
      invalidCount: { type: 'integer' },
      questions: { type: 'array', items: questionSchema, description: 'New or changed questions: what a reopened submission asks for' },
    },
    required: ['drafts', 'submissions', 'dropped', 'invalid', 'invalidCount', 'questions'],
  } as const;

  app.get(
    `${base}/impact`,
    {
      config: FORM_EDITOR_SCREEN,
      schema: {
        tags: ['organiser'],
        summary: "What publishing the draft does to the event's exhibitors: drafts and submissions, answers dropped, submissions no longer valid, questions new or changed",
        params,
        response: { 200: envelope(impactSchema) },
      },
    },
    async (request) => {
      const { event, set } = await target(request, request.params.eventId, request.params.formId);
      const formId = request.params.formId;
      const { reading } = await draftContent(set, event.id, event.code, formId);
      if (!reading.set) throw new AppError('formVersionProblems', { problems: reading.problems });
      return ok(await impactOf(app.db, { event, formId, before: set, after: reading.set, limit: 500 }));
    },
  );

  app.post(
    `${base}/publish`,
    {
      config: FORM_EDITOR_SCREEN,
      schema: {
        tags: ['organiser'],
        summary: 'Publish the draft as the next version of the forms; refused when it has problems or another version was published since basedOn',
        params,
        body: {
          type: 'object',
          properties: {
            basedOn: { type: 'integer', minimum: 0 },
            comment: { type: 'string', maxLength: 2000 },
            submissions: {
              type: 'string',
              enum: ['keep', 'reopen'],
              description: 'Keep the submissions the change makes invalid, or reopen them for the new and changed questions',
            },
          },
          required: ['basedOn', 'comment', 'submissions'],
          additionalProperties: false,
        },
        response: {
          200: envelope({
            type: 'object',
            properties: { version: versionRef, reopened: { type: 'integer', description: 'Submissions reopened' } },
            required: ['version', 'reopened'],
          }),
        },
      },
    },
    async (request) => {
      const { auth, event, set, number } = await target(request, request.params.eventId, request.params.formId);
      const formId = request.params.formId;
      const { basedOn, comment, submissions } = request.body;
      if (basedOn !== number) await refuseStale(basedOn, number, set.source);
      const { draft, source, reading } = await draftContent(set, event.id, event.code, formId);
      if (!reading.set) throw new AppError('formVersionProblems', { problems: reading.problems });
      const after = reading.set;
      let reopened: number[] = [];
      const outcome = await app.forms.publish({ source, kind: 'editor', author: { id: auth.user.id, name: auth.user.display_name }, comment, basedOn }, async (trx, version) => {
        if (submissions === 'reopen') reopened = await reopenAffected(app, trx, { event, formId, before: set, after, by: auth.user.id });
        const dropped = await dropRemovedAnswers(app, trx, { event, formId, before: set, after, by: auth.user.id });
        await trx.deleteFrom('form_drafts').where('event_id', '=', event.id).where('form_id', '=', formId).execute();
        // The organisation's receivers hear of the new version with the version itself (same transaction).
        await app.webhooks.emit(
          { type: 'form.published', eventId: event.id, data: { formId, exhibitCode: event.code, version: version.number, comment, submissions, reopened: reopened.length } },
          trx,
        );
        await app.audit.record(
          {
            action: 'forms.publish',
            subjectType: 'formSetVersion',
            subjectId: version.number,
            eventId: event.id,
            before: { version: number, form: formId, patch: patchOf(set.source, event.code, formId), strings: formStrings(set.source, formId) },
            after: {
              version: version.number,
              form: formId,
              patch: draft.patch,
              strings: draft.strings,
              listings: draft.listings ?? [],
              comment,
              submissions,
              reopened: reopened.length,
              answersDropped: dropped,
            },
          },
          { request, db: trx },
        );
      });
      if (outcome.kind === 'problems') throw new AppError('formVersionProblems', { problems: outcome.problems });
      if (outcome.kind === 'stale' || outcome.kind === 'unchanged') return refuseStale(basedOn, outcome.current, set.source);
      // The e-mails go once the version is stored (the outbox is not part of its transaction).
      await mailReopened(app, event, { event, formId, before: set, after }, reopened, outcome.version.number);
      return ok({ version: { id: outcome.version.id, number: outcome.version.number }, reopened: reopened.length });
    },
  );

  /** 409: another version was published since `basedOn`: who, when, and which files changed. */
  async function refuseStale(basedOn: number, current: number, currentSource: FormSetSource): Promise<never> {
    const since = await app.db
      .selectFrom('form_set_versions')
      .select(['number', 'author_name', 'created_at', 'comment'])
      .where('status', '=', 'published')
      .where('number', '>', basedOn)
      .orderBy('number')
      .execute();
    const old = await app.db.selectFrom('form_set_versions').select('content').where('number', '=', basedOn).executeTakeFirst();
    const files = old ? versionDifference(JSON.parse(old.content) as FormSetSource, currentSource, null).files : [];
    throw new AppError(
      'formVersionStale',
      {
        current,
        since: since.map((row) => ({ number: Number(row.number), author: row.author_name, at: new Date(row.created_at).toISOString(), comment: row.comment })),
        files,
      },
      { current },
    );
  }
}

/** The preview of the draft's form: the patched form, its strings and (when the draft has no problems) its served validator. */
function previewOf(set: FormSet | null, source: FormSetSource, formId: string, exhibitCode: string, serve: (served: ReturnType<FormSet['validatorFor']>) => void) {
  const strings = Object.fromEntries(LANGUAGES.map((language) => [language, ((source.strings[language] ?? {}) as Record<string, unknown>)[formId] ?? {}])) as Record<
    string,
    Record<string, unknown>
  >;
  if (set) {
    const served = set.validatorFor(formId, exhibitCode);
    serve(served);
    return { ...set.filesFor(formId, exhibitCode), strings, validator: { url: validatorUrl(served.hash), rootKey: served.rootKey } };
  }
  const files = formFilesOf(source, formId, exhibitCode) ?? formFilesOf(source, formId, null) ?? { schema: {}, ui: {} };
  return { ...files, strings, validator: null };
}
