import type { FastifyInstance } from 'fastify';
import { API_BASE } from '../../../engine/constants';
import type { FormContext } from '../../../engine/forms/context';
import { withoutEmptyFiles } from '../../../engine/forms/files';
import { formStatus, hasUnsubmittedChanges, needsApproval, type FormDefinition } from '../../../engine/forms/definitions';
import type { Participation } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { envelope } from '../../lib/schemas';
import { eventOf, requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import type { AuthContext } from '../auth/sessions';
import { contractorPart, contractorUi, contractorView, mergeContractorChange } from './contractor';
import type { FormRegistry } from './form-set';
import { validatorUrl } from './form-set-routes';
import { uploadsForReferences, validateSubmission } from './validate';

// The participation forms' life cycle (F1, F9, F10): list, open, save a draft, submit. Every
// save carries the version it was based on; an older version is refused, never overwritten.
// A draft save changes the working copy (`data`) only: once submitted, a form stays submitted,
// with its submitted copy, approval decision and documents, until a new submission replaces them.

/** Largest form data accepted, as JSON; a form holds file references, never file contents. */
const MAX_FORM_BYTES = 512 * 1024;

/** Lists of the previous event are appended to the current ones; other fields are kept as they are. */
export function mergeInherited(current: Record<string, unknown>, previous: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(previous)) {
    if (Array.isArray(value)) merged[key] = [...(Array.isArray(current[key]) ? (current[key] as unknown[]) : []), ...value];
    else if (merged[key] === undefined) merged[key] = value;
  }
  return merged;
}

/** The exhibitor's flags and its effective quotas by name (O2), as the form's rules see them. */
export function formContext(participation: Participation, auth: Pick<AuthContext, 'quotas'>): FormContext {
  return { flags: participation.flags ?? {}, quotas: auth.quotas };
}

/** O2: the effective deadline forms.yaml names for this form (the event's, or the exhibitor's override). */
function deadlineOf(definition: FormDefinition, auth: Pick<AuthContext, 'deadlines'>): Date | null {
  return auth.deadlines[definition.deadline] ?? null;
}

type Entries = Map<string, { status: 'draft' | 'submitted' }>;

/**
 * F10: the prerequisites not submitted yet, and those of them closed by their deadline: a dependent
 * form cannot be submitted until the organiser reopens them, and says so (never a silent deadlock).
 */
function prerequisitesOf(definition: FormDefinition, auth: Pick<AuthContext, 'deadlines'>, entries: Entries, registry: FormRegistry, now: Date) {
  const missing = (definition.prerequisites ?? []).filter((id) => entries.get(id)?.status !== 'submitted');
  const closed = missing.filter((id) => {
    const prerequisite = registry.find(id);
    const deadline = prerequisite ? deadlineOf(prerequisite, auth) : null;
    return deadline !== null && deadline.getTime() < now.getTime();
  });
  const code = (id: string) => registry.find(id)?.code ?? id;
  return { missing: missing.map(code), closed: closed.map(code) };
}

function visibleTo(definition: FormDefinition, auth: AuthContext): boolean {
  if (auth.user.role === 'contractor') return definition.audience === 'both';
  return auth.user.role === 'exhibitor' || auth.user.role === 'team_user';
}

const dataBody = {
  type: 'object',
  required: ['data', 'version'],
  properties: {
    data: { type: 'object', additionalProperties: true },
    version: { type: 'integer', minimum: 0, description: 'The version the change is based on (0 for a form never saved)' },
  },
  additionalProperties: false,
} as const;

export default async function formRoutes(app: FastifyInstance, { registry }: { registry: FormRegistry }) {
  const base = `${API_BASE}/forms`;

  async function participationOf(auth: AuthContext): Promise<Participation> {
    if (!auth.participation) throw new AppError('formNotOpen');
    return auth.participation;
  }

  function definitionFor(id: string, auth: AuthContext, forms: FormRegistry = registry): FormDefinition {
    const definition = forms.find(id);
    if (!definition || !visibleTo(definition, auth)) throw new AppError('notFound');
    return definition;
  }

  /**
   * A submit-once form closes with its submission, unless the organiser reopened it for this
   * exhibitor after that submission (issue 9, spec §8 "contact support"): the next submission
   * is newer than the reopening and closes it again.
   */
  async function lockedBySubmitOnce(definition: FormDefinition, participation: Participation, entry: { status: string; submitted_at: Date | null } | undefined | null): Promise<boolean> {
    if (!definition.submitOnceFlag || participation.flags[definition.submitOnceFlag] !== true || entry?.status !== 'submitted') return false;
    const reopen = await app.db
      .selectFrom('form_reopens')
      .select('reopened_at')
      .where('participation_id', '=', participation.id)
      .where('form_id', '=', definition.id)
      .executeTakeFirst();
    return !reopen || !entry.submitted_at || new Date(entry.submitted_at).getTime() > new Date(reopen.reopened_at).getTime();
  }

  async function entriesOf(participationId: number) {
    const rows = await app.db.selectFrom('form_entries').selectAll().where('participation_id', '=', participationId).execute();
    return new Map(rows.map((row) => [row.form_id, row]));
  }

  app.get(
    base,
    {
      config: { screen: 'orderForms' },
      schema: { tags: ['forms'], summary: 'F1: mandatory and optional forms with deadline, status and missing prerequisites' },
    },
    async (request) => {
      const auth = requireAuth(request);
      const participation = await participationOf(auth);
      const entries = await entriesOf(participation.id);
      const now = new Date();
      const forms = registry.definitions
        .filter((definition) => visibleTo(definition, auth))
        .map((definition) => {
          const entry = entries.get(definition.id) ?? null;
          const deadline = deadlineOf(definition, auth);
          const prerequisites = prerequisitesOf(definition, auth, entries, registry, now);
          return {
            id: definition.id,
            code: definition.code,
            title: definition.title,
            screen: definition.screen,
            mandatory: definition.mandatory,
            deadline: deadline?.toISOString() ?? null,
            status: formStatus(entry, deadline, now),
            changesNotSubmitted: hasUnsubmittedChanges(entry),
            submitOnce: definition.submitOnceFlag ? participation.flags[definition.submitOnceFlag] === true : false,
            missingPrerequisites: prerequisites.missing,
            closedPrerequisites: prerequisites.closed,
            submittedAt: entry?.submitted_at ? new Date(entry.submitted_at).toISOString() : null,
          };
        });
      return ok(forms);
    },
  );

  app.get<{ Params: { id: string } }>(
    `${base}/:id`,
    {
      config: { screen: 'orderForms' },
      schema: {
        tags: ['forms'],
        summary: 'One form for this exhibitor: schema and UI schema (event patch applied), context, saved entry',
        params: { type: 'object', properties: { id: { type: 'string', maxLength: 40 } }, required: ['id'] },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const participation = await participationOf(auth);
      // The schema, UI schema and validator of one form set.
      const forms = app.forms.current();
      const definition = definitionFor(request.params.id, auth, forms);
      const files = forms.filesFor(definition.id, eventOf(auth).code);
      const validator = forms.validatorFor(definition.id, eventOf(auth).code);
      const entries = await entriesOf(participation.id);
      const entry = entries.get(definition.id) ?? null;
      const deadline = deadlineOf(definition, auth);
      const now = new Date();
      const submitOnce = definition.submitOnceFlag ? participation.flags[definition.submitOnceFlag] === true : false;
      const prerequisites = prerequisitesOf(definition, auth, entries, forms, now);
      // P1: a contractor sees its part of the form only (the schema stays as precompiled).
      const part = contractorPart(definition, auth.user.role);
      const visible = (data: Record<string, unknown> | null) => (part ? contractorView(data, part) : data);
      return ok({
        definition,
        formsVersion: forms.version,
        validator: { url: validatorUrl(validator.hash), rootKey: validator.rootKey },
        // The form's labels as the set in use has them (a label added or changed with the form).
        strings: forms.stringsFor(definition.id),
        schema: files.schema,
        ui: part ? contractorUi(files.ui, files.schema as { properties?: Record<string, unknown> }, part) : files.ui,
        context: formContext(participation, auth),
        deadline: deadline?.toISOString() ?? null,
        status: formStatus(entry, deadline, now),
        changesNotSubmitted: hasUnsubmittedChanges(entry),
        locked: submitOnce && (await lockedBySubmitOnce(definition, participation, entry)),
        closed: deadline !== null && deadline.getTime() < now.getTime(),
        missingPrerequisites: prerequisites.missing,
        closedPrerequisites: prerequisites.closed,
        entry: entry
          ? {
              data: visible(entry.data),
              version: entry.version,
              status: entry.status,
              submittedData: visible(entry.submitted_data),
              submittedAt: entry.submitted_at ? new Date(entry.submitted_at).toISOString() : null,
              approval: entry.approval_status
                ? { status: entry.approval_status, comment: entry.approval_comment, decidedAt: entry.decided_at ? new Date(entry.decided_at).toISOString() : null }
                : null,
            }
          : null,
      });
    },
  );

  /** Writes the entry if it is still at `version`; answers the new version or refuses. */
  async function write(participationId: number, formId: string, version: number, data: Record<string, unknown>, userId: number, submitted: boolean, approval: 'pending' | null = null): Promise<number> {
    const now = new Date();
    const json = JSON.stringify(data);
    if (json.length > MAX_FORM_BYTES) throw new AppError('payloadTooLarge');
    const status = submitted ? ('submitted' as const) : ('draft' as const);
    if (version === 0) {
      const inserted = await app.db
        .insertInto('form_entries')
        .values({ participation_id: participationId, form_id: formId, data: json, status, updated_by: userId, updated_at: now, submitted_data: submitted ? json : null, submitted_at: submitted ? now : null, submitted_by: submitted ? userId : null, approval_status: submitted ? approval : null })
        .onConflict((oc) => oc.columns(['participation_id', 'form_id']).doNothing())
        .returning('version')
        .executeTakeFirst();
      if (!inserted) throw new AppError('staleVersion');
      return inserted.version;
    }
    const updated = await app.db
      .updateTable('form_entries')
      .set((eb) => ({
        data: json,
        // A draft never withdraws a submission: the status follows submissions only.
        ...(submitted ? { status } : {}),
        version: eb('version', '+', 1),
        updated_at: now,
        updated_by: userId,
        // A new submission replaces the decision on the previous one.
        ...(submitted ? { submitted_data: json, submitted_at: now, submitted_by: userId, approval_status: approval, approval_comment: null, decided_at: null, decided_by: null } : {}),
      }))
      .where('participation_id', '=', participationId)
      .where('form_id', '=', formId)
      .where('version', '=', version)
      .returning('version')
      .executeTakeFirst();
    if (!updated) throw new AppError('staleVersion');
    return updated.version;
  }

  async function guard(definition: FormDefinition, participation: Participation, auth: AuthContext) {
    const entries = await entriesOf(participation.id);
    const entry = entries.get(definition.id);
    const deadline = deadlineOf(definition, auth);
    if (await lockedBySubmitOnce(definition, participation, entry)) throw new AppError('submitOnce');
    if (deadline && deadline.getTime() < Date.now()) throw new AppError('deadlinePassed');
    return entries;
  }

  /** P1: what a contractor's save stores: its part as sent, the exhibitor's part as stored. */
  function asContractor(definition: FormDefinition, auth: AuthContext, entries: Awaited<ReturnType<typeof entriesOf>>, data: Record<string, unknown>) {
    const part = contractorPart(definition, auth.user.role);
    return part ? mergeContractorChange(entries.get(definition.id)?.data ?? {}, data, part) : data;
  }

  app.put<{ Params: { id: string }; Body: { data: Record<string, unknown>; version: number } }>(
    `${base}/:id/draft`,
    {
      config: { screen: 'orderForms' },
      schema: { tags: ['forms'], summary: 'F9: save a draft (not validated beyond its shape); refused when based on an older version', body: dataBody, response: { 200: envelope({ type: 'object', properties: { version: { type: 'integer' } } }) } },
    },
    async (request) => {
      const auth = requireAuth(request);
      const participation = await participationOf(auth);
      const definition = definitionFor(request.params.id, auth);
      const entries = await guard(definition, participation, auth);
      // An empty file value ({} of a file field nobody filled) is never stored.
      const data = withoutEmptyFiles(registry.filesFor(definition.id, eventOf(auth).code).schema, asContractor(definition, auth, entries, request.body.data));
      const version = await write(participation.id, definition.id, request.body.version, data, auth.user.id, false);
      return ok({ version });
    },
  );

  app.post<{ Params: { id: string } }>(
    `${base}/:id/inherit`,
    {
      config: { screen: 'orderForms' },
      schema: {
        tags: ['forms'],
        summary: "F3: copy this form's entry from the exhibitor's most recent earlier event into the current draft",
        response: { 200: envelope({ type: 'object', properties: { version: { type: 'integer' }, data: { type: 'object', additionalProperties: true } } }) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const participation = await participationOf(auth);
      const definition = definitionFor(request.params.id, auth);
      if (!definition.inheritFromPreviousEvent || contractorPart(definition, auth.user.role)) throw new AppError('notFound');
      await guard(definition, participation, auth);
      const previous = await app.db
        .selectFrom('form_entries')
        .innerJoin('participations', 'participations.id', 'form_entries.participation_id')
        .innerJoin('events', 'events.id', 'participations.event_id')
        .select(['form_entries.data'])
        .where('participations.exhibitor_id', '=', participation.exhibitor_id)
        .where('form_entries.form_id', '=', definition.id)
        .where('events.starts_at', '<', eventOf(auth).starts_at)
        .orderBy('events.starts_at', 'desc')
        .executeTakeFirst();
      if (!previous) throw new AppError('nothingToInherit');
      const entries = await entriesOf(participation.id);
      const current = entries.get(definition.id);
      const data = mergeInherited(current?.data ?? {}, previous.data);
      const version = await write(participation.id, definition.id, current?.version ?? 0, data, auth.user.id, false);
      return ok({ version, data });
    },
  );

  app.post<{ Params: { id: string }; Body: { data: Record<string, unknown>; version: number } }>(
    `${base}/:id/submit`,
    {
      config: { screen: 'orderForms' },
      schema: { tags: ['forms'], summary: 'F9: submit, validated with the same schema and keywords as the browser', body: dataBody, response: { 200: envelope({ type: 'object', properties: { version: { type: 'integer' } } }) } },
    },
    async (request) => {
      const auth = requireAuth(request);
      // One form set from start to end: a change swapped in meanwhile does not mix with this one.
      const forms = app.forms.current();
      const participation = await participationOf(auth);
      const definition = definitionFor(request.params.id, auth, forms);
      const entries = await guard(definition, participation, auth);
      const prerequisites = prerequisitesOf(definition, auth, entries, forms, new Date());
      const supportEmail = eventOf(auth).support_email;
      if (prerequisites.closed.length > 0) throw new AppError('prerequisiteClosed', { forms: prerequisites.closed, supportEmail }, { forms: prerequisites.closed.join(', '), supportEmail });
      if (prerequisites.missing.length > 0) throw new AppError('submitFormsFirst', { forms: prerequisites.missing });
      const exhibitCode = eventOf(auth).code;
      const files = forms.filesFor(definition.id, exhibitCode);
      const data = withoutEmptyFiles(files.schema, asContractor(definition, auth, entries, request.body.data));
      const uploads = await uploadsForReferences(app.db, participation.exhibitor_id, data);
      const errors = validateSubmission(forms.validatorFor(definition.id, exhibitCode), data, { ...formContext(participation, auth), uploads });
      if (errors.length > 0) throw new AppError('validationFailed', { errors });
      const approval = needsApproval(definition.approval, data) ? ('pending' as const) : null;
      const version = await write(participation.id, definition.id, request.body.version, data, auth.user.id, true, approval);
      await app.audit.record({ action: 'form.submit', subjectType: 'form', subjectId: definition.id, after: { version, approval } }, { request });
      return ok({ version });
    },
  );
}
