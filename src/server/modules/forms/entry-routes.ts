import { fieldChanges } from '../../../engine/audit-changes';
import { API_BASE } from '../../../engine/constants';
import type { FormDefinition } from '../../../engine/forms/definitions';
import { withoutEmptyFiles } from '../../../engine/forms/files';
import { FORM_DATA_MAX_CHARS } from '../../../engine/forms/form-size';
import { closedTo, partsSent, prerequisitesOf, submissionOf } from '../../../engine/forms/lifecycle';
import { topField } from '../../../engine/forms/parts';
import type { ApiApp } from '../../lib/api-app';
import { AppError } from '../../lib/app-error';
import { contractorPart } from '../../lib/contractor-part';
import { envelope, NO_BODY } from '../../lib/schemas';
import { eventOf, requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import { uploadsForReferences, validateSubmission } from '../../plugins/forms/validate';
import type { AuthContext } from '../../plugins/sessions';
import { definitionFor, entriesFor, forEvent, formContext, formStateOf, mergeInherited, participationOf, withFixedParts } from './form-access';
import { dataBody, formIdParams, savedVersionAnswer } from './schemas';

// A form's entry as the user changes it (F3, F9, P1 F4, F10): save a draft, copy the previous
// event's entry, submit. Each request takes one form set (app.forms.current()) and passes it
// down: the lock, the parts, the validation and the size limit all read that set, so a change
// swapped in meanwhile never mixes with it. The entries are the form-entries service's; the
// rules are pure (engine/forms/lifecycle.ts).

/** The draft and submit routes' body limit: the largest form data, every character taken as 3 bytes of UTF-8. */
const FORM_BODY_LIMIT_BYTES = FORM_DATA_MAX_CHARS * 3 + 64 * 1024;

/** F3: the answer of POST /forms/{id}/inherit: the draft's new version and its data. */
const inheritAnswerProperties = { version: { type: 'integer' }, data: { type: 'object', additionalProperties: true } } as const;

const base = `${API_BASE}/forms`;

export default async function formEntryRoutes(app: ApiApp) {
  draftRoute(app);
  inheritRoute(app);
  submitRoute(app);
}

/**
 * What every change to a form's entry opens with: the signed-in user, one form set for the whole
 * request (a change swapped in meanwhile never mixes with it), the participation, the form as this
 * user may see it, and the entries. `refuse` turns the request away before the form's state is
 * read. A change to a closed form (submit-once, deadline, a part that is not the user's) is
 * refused; for a form with parts the answer holds the user's parts, as this form set has the form.
 */
async function openEntry(app: ApiApp, request: { auth: AuthContext | null; params: { id: string } }, refuse?: (definition: FormDefinition, auth: AuthContext) => void) {
  const auth = requireAuth(request);
  const forms = app.forms.current();
  const participation = participationOf(auth);
  const definition = definitionFor(request.params.id, auth, forms);
  refuse?.(definition, auth);
  const entries = await entriesFor(app, participation, definition);
  const entry = entries.get(definition.id);
  const now = new Date();
  const { deadline, submitOnce, parts } = await formStateOf(app, forms, definition, participation, auth, entry, now);
  const closed = closedTo(parts, submitOnce, entry, deadline, now);
  if (closed) throw new AppError(closed);
  return { auth, forms, participation, definition, entries, entry, parts };
}

/** What a draft save and a submit share: the form's data in, the saved version out. */
const formDataSchema = { tags: ['forms'], params: formIdParams, body: dataBody, response: { 200: envelope(savedVersionAnswer) } } as const;
const formDataRoute = {
  config: { screen: 'orderForms' },
  // A form's data may exceed the portal's usual body limit (a 2,000-badge list): the service holds each form to its own.
  bodyLimit: FORM_BODY_LIMIT_BYTES,
} as const;

function draftRoute(app: ApiApp) {
  app.put(
    `${base}/:id/draft`,
    {
      ...formDataRoute,
      schema: { ...formDataSchema, summary: 'F9: save a draft (not validated beyond its shape); refused when based on an older version' },
    },
    async (request) => {
      const { auth, forms, participation, definition, entry, parts } = await openEntry(app, request);
      const { schema } = forms.filesFor(definition.id, eventOf(auth).code);
      // An empty file value ({} of a file field nobody filled) is never stored.
      const data = withFixedParts(entry, parts, withoutEmptyFiles(schema, request.body.data));
      const version = await app.formEntries.save({
        participationId: participation.id,
        formId: definition.id,
        version: request.body.version,
        data,
        userId: auth.user.id,
        submission: null,
        schema,
      });
      return ok({ version });
    },
  );
}

function inheritRoute(app: ApiApp) {
  app.post(
    `${base}/:id/inherit`,
    {
      config: { screen: 'orderForms' },
      schema: {
        tags: ['forms'],
        summary: "F3: copy this form's entry from the exhibitor's most recent earlier event into the current draft",
        params: formIdParams,
        body: NO_BODY,
        response: {
          200: envelope({
            type: 'object',
            properties: inheritAnswerProperties,
            required: Object.keys(inheritAnswerProperties) as Array<keyof typeof inheritAnswerProperties>,
            additionalProperties: false,
          }),
        },
      },
    },
    async (request) => {
      const { auth, forms, participation, definition } = await openEntry(app, request, (definition, auth) => {
        if (!definition.inheritFromPreviousEvent || contractorPart(definition, auth.user.role)) throw new AppError('notFound');
      });
      const previous = await app.formEntries.previousEventData(participation.exhibitor_id, definition.id, new Date(eventOf(auth).starts_at));
      if (!previous) throw new AppError('nothingToInherit');
      const current = (await app.formEntries.ofForms(participation.id, [definition.id]))[0];
      const data = mergeInherited(current?.data ?? {}, previous);
      const version = await app.formEntries.save({
        participationId: participation.id,
        formId: definition.id,
        version: current?.version ?? 0,
        data,
        userId: auth.user.id,
        submission: null,
        schema: forms.filesFor(definition.id, eventOf(auth).code).schema,
      });
      return ok({ version, data });
    },
  );
}

function submitRoute(app: ApiApp) {
  app.post(
    `${base}/:id/submit`,
    {
      ...formDataRoute,
      schema: { ...formDataSchema, summary: 'F9: submit, validated with the same schema and keywords as the browser' },
    },
    async (request) => {
      // One form set from start to end: a change swapped in meanwhile does not mix with this one.
      const { auth, forms, participation, definition, entries, entry, parts } = await openEntry(app, request);
      const prerequisites = prerequisitesOf(definition, auth.deadlines, entries, (id) => forms.find(id), new Date());
      const supportEmail = eventOf(auth).support_email;
      // O1: the approval rule with the event's limit.
      const { approval } = await forEvent(app, definition, auth);
      if (prerequisites.closed.length > 0)
        throw new AppError('prerequisiteClosed', { forms: prerequisites.closed, supportEmail }, { forms: prerequisites.closed.join(', '), supportEmail });
      if (prerequisites.missing.length > 0) throw new AppError('submitFormsFirst', { forms: prerequisites.missing });
      const exhibitCode = eventOf(auth).code;
      const files = forms.filesFor(definition.id, exhibitCode);
      const data = withFixedParts(entry, parts, withoutEmptyFiles(files.schema, request.body.data));
      // P1 F4: the parts this submission sends: the user's own, and another it fills only when it filled it itself.
      const sending = parts ? partsSent(parts, data, entry) : null;
      if (sending && sending.length === 0) throw new AppError('submitOnce');
      const uploads = await uploadsForReferences(app.db, participation.exhibitor_id, data);
      const allErrors = validateSubmission(forms.validatorFor(definition.id, exhibitCode), data, { ...formContext(participation, auth), uploads });
      // A part is submitted on its own: what is wrong in a part not sent is not this submission's problem.
      const sentFields = sending ? new Set(sending.flatMap((part) => part.fields)) : null;
      const errors = sentFields ? allErrors.filter((error) => topField(error.path) === '' || sentFields.has(topField(error.path))) : allErrors;
      if (errors.length > 0) throw new AppError('validationFailed', { errors });
      const submission = submissionOf(data, entry, approval, parts && sending ? { parts, sending } : null, auth.user.id, new Date());
      const changes = fieldChanges(entry?.submitted_data ?? {}, submission.submittedData);
      const version = await app.formEntries.save({
        participationId: participation.id,
        formId: definition.id,
        version: request.body.version,
        data,
        userId: auth.user.id,
        submission,
        schema: files.schema,
      });
      await app.audit.record(
        {
          action: 'form.submit',
          subjectType: 'form',
          subjectId: definition.id,
          // What this submission changed against the previous one (every field on a first one).
          before: { fields: changes.before },
          after: { version, approval: submission.approval, parts: sending?.map((part) => part.id) ?? null, fields: changes.after },
        },
        { request },
      );
      await app.webhooks.emit({
        type: 'submission.submitted',
        eventId: eventOf(auth).id,
        data: { participationId: participation.id, formId: definition.id, version, approval: submission.approval, submittedBy: auth.user.id },
      });
      return ok({ version });
    },
  );
}
