import { fieldChanges } from '../../../engine/audit-changes';
import type { ApiApp } from '../../lib/api-app';
import { API_BASE } from '../../../engine/constants';
import type { FormContext } from '../../../engine/forms/context';
import { withEventSettings } from '../../../engine/forms/event-settings';
import { FORM_DATA_MAX_CHARS, formDataLimit } from '../../../engine/forms/form-size';
import { withoutEmptyFiles, type UploadRules } from '../../../engine/forms/files';
import { deadlineOfForm, FORM_STATUSES, formStatus, hasUnsubmittedChanges, needsApproval, partStatus, type FormDefinition } from '../../../engine/forms/definitions';
import {
  approvalPart,
  partChanged,
  partsFilledBy,
  partsToSubmit,
  partsOf,
  partStates,
  sideOf,
  topField,
  withPartsFrom,
  type FormPart,
  type PartStates,
} from '../../../engine/forms/parts';
import type { Participation } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { envelope, NO_BODY } from '../../lib/schemas';
import { eventOf, requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import type { AuthContext } from '../../plugins/sessions';
import { contractorPart, contractorUi, contractorView, mergePartChange } from '../../lib/contractor-part';
import type { FormRegistry } from '../../plugins/forms/form-set';
import { validatorUrl } from '../../plugins/forms/service';
import { formContextAnswerSchema, formDefinitionAnswerSchema, formStringsAnswerSchema, uploadRulesAnswerSchema } from '../../../engine/schemas/form-payload';
import { uploadsForReferences, validateSubmission } from '../../plugins/forms/validate';

// The participation forms' life cycle (F1, F9, F10): list, open, save a draft, submit. Every
// save carries the version it was based on; an older version is refused, never overwritten.
// A draft save changes the working copy (`data`) only: once submitted, a form stays submitted,
// with its submitted copy, approval decision and documents, until a new submission replaces them.

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
  return deadlineOfForm(auth.deadlines, definition);
}

/** V2 V3: the upload rules of the purposes a schema's file fields name (`"file": "<purpose>"`). */
function purposesOf(schema: unknown, rules: UploadRules): UploadRules {
  const named = new Set<string>();
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== 'object' || node === null) return;
    const file = (node as { file?: unknown }).file;
    if (typeof file === 'string') named.add(file);
    Object.values(node).forEach(visit);
  };
  visit(schema);
  return Object.fromEntries([...named].filter((purpose) => Object.hasOwn(rules, purpose)).map((purpose) => [purpose, rules[purpose]!]));
}

/** The draft and submit routes' body limit: the largest form data, every character taken as 3 bytes of UTF-8. */
const FORM_BODY_LIMIT_BYTES = FORM_DATA_MAX_CHARS * 3 + 64 * 1024;

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

/** Whether a user's role fills this form at all (a contractor only the forms shared with it). */
export function visibleTo(definition: FormDefinition, auth: AuthContext): boolean {
  if (auth.user.role === 'contractor') return definition.audience === 'both';
  return auth.user.role === 'exhibitor' || auth.user.role === 'team_user';
}

/** An object the form set defines (a schema, a UI schema, a form's data): passed on as it is. */
const openObject = (description: string) => ({ type: 'object', additionalProperties: true, description }) as const;
const nullableOpenObject = (description: string) => ({ type: ['object', 'null'], additionalProperties: true, description }) as const;

const formStatusField = { type: 'string', enum: FORM_STATUSES, description: 'Locale key forms.status.<status>' } as const;

/** P1 F4: one part of a shared form as the user meets it. */
const partViewSchema = {
  type: 'object',
  required: ['id', 'title', 'mine', 'own', 'status', 'submittedAt', 'locked', 'changesNotSubmitted'],
  additionalProperties: false,
  properties: {
    id: { type: 'string' },
    title: { type: 'string', description: 'Locale key of its title' },
    mine: { type: 'boolean', description: 'The user fills this part' },
    own: { type: 'boolean', description: "The user's own part: sent with each of its submissions (another part it fills only when it entered something there)" },
    status: formStatusField,
    submittedAt: { type: ['string', 'null'], format: 'date-time' },
    locked: { type: 'boolean', description: 'Closed by its own submit-once lock' },
    changesNotSubmitted: { type: 'boolean' },
  },
} as const;
const partsField = { type: ['array', 'null'], items: partViewSchema, description: 'The parts of a shared form; null for a form of one part' } as const;
const prerequisiteFields = {
  missingPrerequisites: { type: 'array', items: { type: 'string' }, description: 'Codes of forms to submit first' },
  closedPrerequisites: { type: 'array', items: { type: 'string' }, description: 'Of those, the ones past their deadline' },
} as const;

const formListItemSchema = {
  type: 'object',
  required: [
    'id',
    'code',
    'title',
    'screen',
    'mandatory',
    'deadline',
    'status',
    'changesNotSubmitted',
    'submittedAt',
    'submitOnce',
    'missingPrerequisites',
    'closedPrerequisites',
    'parts',
  ],
  additionalProperties: false,
  properties: {
    id: { type: 'string' },
    code: { type: 'string' },
    title: { type: 'string', description: 'Locale key of its title' },
    screen: { type: ['string', 'null'], description: 'Its screen in the catalogue' },
    mandatory: { type: 'boolean' },
    deadline: { type: ['string', 'null'], format: 'date-time' },
    status: formStatusField,
    changesNotSubmitted: { type: 'boolean' },
    submittedAt: { type: ['string', 'null'], format: 'date-time' },
    submitOnce: { type: 'boolean' },
    ...prerequisiteFields,
    parts: partsField,
  },
} as const;

const formPageSchema = {
  type: 'object',
  required: [
    'definition',
    'formsVersion',
    'validator',
    'strings',
    'schema',
    'ui',
    'context',
    'uploads',
    'deadline',
    'status',
    'changesNotSubmitted',
    'locked',
    'parts',
    'closed',
    'missingPrerequisites',
    'closedPrerequisites',
    'entry',
  ],
  additionalProperties: false,
  properties: {
    definition: formDefinitionAnswerSchema,
    formsVersion: { type: 'string', description: 'The form set version it belongs to' },
    validator: {
      type: 'object',
      required: ['url', 'rootKey'],
      additionalProperties: false,
      properties: { url: { type: 'string', description: 'The compiled validators module' }, rootKey: { type: 'string' } },
    },
    strings: formStringsAnswerSchema,
    schema: openObject('Its JSON Schema (event patch applied)'),
    ui: openObject('Its UI schema (a contractor: its part only)'),
    context: formContextAnswerSchema,
    uploads: uploadRulesAnswerSchema,
    deadline: { type: ['string', 'null'], format: 'date-time' },
    status: formStatusField,
    changesNotSubmitted: { type: 'boolean' },
    locked: { type: 'boolean' },
    parts: partsField,
    closed: { type: 'boolean', description: 'Past its deadline' },
    ...prerequisiteFields,
    entry: {
      type: ['object', 'null'],
      required: ['data', 'version', 'status', 'submittedData', 'submittedAt', 'approval'],
      additionalProperties: false,
      description: 'The saved entry; null before the first save',
      properties: {
        data: nullableOpenObject('The draft (a contractor: its part only)'),
        version: { type: 'integer' },
        status: { type: 'string', enum: ['draft', 'submitted'] },
        submittedData: nullableOpenObject('The submitted copy'),
        submittedAt: { type: ['string', 'null'], format: 'date-time' },
        approval: {
          type: ['object', 'null'],
          required: ['status', 'comment', 'decidedAt'],
          additionalProperties: false,
          properties: {
            status: { type: 'string', enum: ['pending', 'approved', 'rejected'] },
            comment: { type: ['string', 'null'] },
            decidedAt: { type: ['string', 'null'], format: 'date-time' },
          },
        },
      },
    },
  },
} as const;

/** A form's id in the path (forms.yaml ids are short). */
const formIdParams = { type: 'object', properties: { id: { type: 'string', maxLength: 40 } }, required: ['id'] } as const;
/** F9: the answer of a saved draft or a submission: the entry's new version. */
const savedVersionProperties = { version: { type: 'integer' } } as const;
const savedVersionAnswer = {
  type: 'object',
  properties: savedVersionProperties,
  required: Object.keys(savedVersionProperties) as Array<keyof typeof savedVersionProperties>,
  additionalProperties: false,
} as const;

const dataBody = {
  type: 'object',
  required: ['data', 'version'],
  properties: {
    data: { type: 'object', additionalProperties: true },
    version: { type: 'integer', minimum: 0, description: 'The version the change is based on (0 for a form never saved)' },
  },
  additionalProperties: false,
} as const;

export default async function formRoutes(app: ApiApp, { registry }: { registry: FormRegistry }) {
  const base = `${API_BASE}/forms`;

  async function participationOf(auth: AuthContext): Promise<Participation> {
    if (!auth.participation) throw new AppError('formNotOpen');
    return auth.participation;
  }

  /**
   * O2 F5 O1: the form as the user's event has it: the fee and approval limit the organiser set for
   * the event (forms.yaml `setting:`), forms.yaml's values where it set none.
   */
  async function forEvent(definition: FormDefinition, auth: AuthContext): Promise<FormDefinition> {
    const event = eventOf(auth);
    const rows = await app.db.selectFrom('event_settings').select(['name', 'value']).where('event_id', '=', event.id).execute();
    return withEventSettings(definition, { values: Object.fromEntries(rows.map((row) => [row.name, row.value])), currency: event.currency });
  }

  function definitionFor(id: string, auth: AuthContext, forms: FormRegistry = registry): FormDefinition {
    const definition = forms.find(id);
    if (!definition || !visibleTo(definition, auth)) throw new AppError('notFound');
    return definition;
  }

  /**
   * A submit-once form closes with its submission, unless the organiser reopened it for this
   * exhibitor after that submission (issue 9, spec §8 "contact support"): the next submission
   * is newer than the reopening and closes it again. `null` = the form is not submit-once for
   * this exhibitor; otherwise when it was last reopened (null = never).
   */
  async function submitOnceOf(definition: FormDefinition, participation: Participation): Promise<{ reopenedAt: Date | null } | null> {
    if (!definition.submitOnceFlag || participation.flags[definition.submitOnceFlag] !== true) return null;
    const reopen = await app.db
      .selectFrom('form_reopens')
      .select('reopened_at')
      .where('participation_id', '=', participation.id)
      .where('form_id', '=', definition.id)
      .executeTakeFirst();
    return { reopenedAt: reopen ? new Date(reopen.reopened_at) : null };
  }

  /** Whether a submission made at `submittedAt` (null = none) closes the form (or its part). */
  function lockedSince(submitOnce: { reopenedAt: Date | null } | null, submitted: boolean, submittedAt: Date | string | null | undefined): boolean {
    if (!submitOnce || !submitted) return false;
    return !submitOnce.reopenedAt || !submittedAt || new Date(submittedAt).getTime() > submitOnce.reopenedAt.getTime();
  }

  async function lockedBySubmitOnce(
    definition: FormDefinition,
    participation: Participation,
    entry: { status: string; submitted_at: Date | null } | undefined | null,
  ): Promise<boolean> {
    return lockedSince(await submitOnceOf(definition, participation), entry?.status === 'submitted', entry?.submitted_at);
  }

  type Entry = Awaited<ReturnType<typeof entriesOf>> extends Map<string, infer E> ? E : never;

  /**
   * P1 F4: a form with parts as one user meets it: every part with its status, which of them the
   * user fills, and which are closed by their own submit-once lock. Null for a form of one part.
   */
  async function partsFor(definition: FormDefinition, participation: Participation, auth: AuthContext, entry: Entry | null | undefined, now: Date) {
    const parts = partsOf(definition, registry.filesFor(definition.id, eventOf(auth).code).schema as { properties?: Record<string, unknown> });
    if (!parts) return null;
    const states = partStates(entry, parts);
    const submitOnce = await submitOnceOf(definition, participation);
    const deadline = deadlineOf(definition, auth);
    const approvalId = approvalPart(parts, definition.approval)?.id;
    const side = sideOf(auth.user.role);
    const mine = partsFilledBy(parts, side);
    const locked = parts.filter((part) => lockedSince(submitOnce, states[part.id] !== undefined, states[part.id]?.submittedAt)).map((part) => part.id);
    return {
      parts,
      states,
      mine,
      /** The user's own parts: those it submits with every submission (the first side filledBy names). */
      own: mine.filter((part) => part.filledBy[0] === side),
      locked,
      approvalId,
      view: parts.map((part) => ({
        id: part.id,
        title: `forms.parts.${part.id}`,
        mine: mine.includes(part),
        own: mine.includes(part) && part.filledBy[0] === side,
        status: partStatus(part, states, entry ?? null, approvalId, deadline, now),
        submittedAt: states[part.id]?.submittedAt ?? null,
        locked: locked.includes(part.id),
        changesNotSubmitted: states[part.id] !== undefined && partChanged(part, entry?.data, entry?.submitted_data),
      })),
    };
  }

  async function entriesOf(participationId: number) {
    const rows = await app.db.selectFrom('form_entries').selectAll().where('participation_id', '=', participationId).execute();
    return new Map(rows.map((row) => [row.form_id, row]));
  }

  /** The status, unsubmitted changes and submission time a user is shown: its own part's for a form with parts. */
  function statusFor(entry: Entry | null, deadline: Date | null, now: Date, parts: Awaited<ReturnType<typeof partsFor>>) {
    if (!parts || parts.own.length === 0) {
      return {
        status: formStatus(entry, deadline, now),
        changesNotSubmitted: hasUnsubmittedChanges(entry),
        submittedAt: entry?.submitted_at ? new Date(entry.submitted_at).toISOString() : null,
      };
    }
    const own = parts.view.find((part) => part.id === parts.own[0]!.id)!;
    return { status: own.status, changesNotSubmitted: parts.view.some((part) => part.mine && part.changesNotSubmitted), submittedAt: own.submittedAt };
  }

  app.get(
    base,
    {
      config: { screen: 'orderForms' },
      schema: {
        tags: ['forms'],
        summary: 'F1: mandatory and optional forms with deadline, status and missing prerequisites',
        response: { 200: envelope({ type: 'array', items: formListItemSchema }) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const participation = await participationOf(auth);
      const entries = await entriesOf(participation.id);
      const now = new Date();
      const forms = await Promise.all(
        registry.definitions
          .filter((definition) => visibleTo(definition, auth))
          .map(async (definition) => {
            const entry = entries.get(definition.id) ?? null;
            const deadline = deadlineOf(definition, auth);
            const prerequisites = prerequisitesOf(definition, auth, entries, registry, now);
            const parts = await partsFor(definition, participation, auth, entry, now);
            return {
              id: definition.id,
              code: definition.code,
              title: definition.title,
              screen: definition.screen,
              mandatory: definition.mandatory,
              deadline: deadline?.toISOString() ?? null,
              // P1 F4: a form with parts reads as the user's own part, each part listed beside it.
              ...statusFor(entry, deadline, now, parts),
              submitOnce: definition.submitOnceFlag ? participation.flags[definition.submitOnceFlag] === true : false,
              missingPrerequisites: prerequisites.missing,
              closedPrerequisites: prerequisites.closed,
              parts: parts?.view ?? null,
            };
          }),
      );
      return ok(forms);
    },
  );

  app.get(
    `${base}/:id`,
    {
      config: { screen: 'orderForms' },
      schema: {
        tags: ['forms'],
        summary: 'One form for this exhibitor: schema and UI schema (event patch applied), context, saved entry',
        params: formIdParams,
        response: { 200: envelope(formPageSchema) },
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
      const parts = await partsFor(definition, participation, auth, entry, now);
      const status = statusFor(entry, deadline, now, parts);
      // The approval decision is the part's that the approval rule reads: shown to those who fill it.
      const approvalShown = !parts || parts.mine.some((mine) => mine.id === parts.approvalId);
      return ok({
        // The help texts' values and the fee total the browser shows are the event's.
        definition: await forEvent(definition, auth),
        formsVersion: forms.version,
        validator: { url: validatorUrl(validator.hash), rootKey: validator.rootKey },
        // The form's labels as the set in use has them (a label added or changed with the form).
        strings: forms.stringsFor(definition.id),
        schema: files.schema,
        ui: part ? contractorUi(files.ui, files.schema as { properties?: Record<string, unknown> }, part) : files.ui,
        context: formContext(participation, auth),
        // V2 V3: the rules of the purposes its file fields name, for the browser's check before an upload.
        uploads: purposesOf(files.schema, forms.uploads),
        deadline: deadline?.toISOString() ?? null,
        status: status.status,
        changesNotSubmitted: status.changesNotSubmitted,
        // A form with parts is locked for a user once every part it fills is.
        locked: parts ? parts.mine.every((mine) => parts.locked.includes(mine.id)) : submitOnce && (await lockedBySubmitOnce(definition, participation, entry)),
        parts: parts?.view ?? null,
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
              approval:
                entry.approval_status && approvalShown
                  ? { status: entry.approval_status, comment: entry.approval_comment, decidedAt: entry.decided_at ? new Date(entry.decided_at).toISOString() : null }
                  : null,
            }
          : null,
      });
    },
  );

  /**
   * What a submission records: the submitted copy, the approval it needs ('keep' = the decision on
   * the previous submission stays: a part that the approval rule does not read was submitted) and
   * each part's submission (null for a form of one part).
   */
  interface Submission {
    submittedData: Record<string, unknown>;
    approval: 'pending' | null | 'keep';
    parts: PartStates | null;
  }

  /**
   * Writes the entry if it is still at `version`; answers the new version or refuses. The data may
   * be as large as the form's schema allows (formDataLimit: its lists' declared maximum of items at
   * their largest), never more.
   */
  async function write(
    participationId: number,
    formId: string,
    version: number,
    data: Record<string, unknown>,
    userId: number,
    submission: Submission | null,
    schema: unknown,
  ): Promise<number> {
    const now = new Date();
    const json = JSON.stringify(data);
    const limit = formDataLimit(schema);
    if (json.length > limit) throw new AppError('formDataTooLarge', { limit }, { limit: Math.round((limit / (1024 * 1024)) * 10) / 10 });
    const submitted = submission !== null;
    const status = submitted ? ('submitted' as const) : ('draft' as const);
    const submittedJson = submission ? JSON.stringify(submission.submittedData) : null;
    const partsJson = submission?.parts ? JSON.stringify(submission.parts) : null;
    const approval = submission && submission.approval !== 'keep' ? submission.approval : null;
    if (version === 0) {
      const inserted = await app.db
        .insertInto('form_entries')
        .values({
          participation_id: participationId,
          form_id: formId,
          data: json,
          status,
          updated_by: userId,
          updated_at: now,
          submitted_data: submittedJson,
          submitted_at: submitted ? now : null,
          submitted_by: submitted ? userId : null,
          approval_status: approval,
          parts: partsJson,
        })
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
        ...(submission ? { submitted_data: submittedJson, submitted_at: now, submitted_by: userId, ...(partsJson ? { parts: partsJson } : {}) } : {}),
        // A new submission replaces the decision on the previous one (of the part the rule reads).
        ...(submission && submission.approval !== 'keep' ? { approval_status: approval, approval_comment: null, decided_at: null, decided_by: null } : {}),
      }))
      .where('participation_id', '=', participationId)
      .where('form_id', '=', formId)
      .where('version', '=', version)
      .returning('version')
      .executeTakeFirst();
    if (!updated) throw new AppError('staleVersion');
    return updated.version;
  }

  /**
   * Refuses a change to a closed form (deadline, submit-once) and answers the entries and, for a
   * form with parts, the user's parts. A form with parts is closed by submit-once only when every
   * part the user fills is.
   */
  async function guard(definition: FormDefinition, participation: Participation, auth: AuthContext) {
    const entries = await entriesOf(participation.id);
    const entry = entries.get(definition.id);
    const deadline = deadlineOf(definition, auth);
    const parts = await partsFor(definition, participation, auth, entry, new Date());
    const locked = parts ? parts.mine.every((mine) => parts.locked.includes(mine.id)) : await lockedBySubmitOnce(definition, participation, entry);
    if (locked) throw new AppError('submitOnce');
    if (deadline && deadline.getTime() < Date.now()) throw new AppError('deadlinePassed');
    return { entries, parts };
  }

  /**
   * P1 F4: what a save of a form with parts stores: the parts the user may change as sent, the
   * others (someone else's, or closed by their submit-once lock) as stored.
   */
  function withFixedParts(definition: FormDefinition, entries: Awaited<ReturnType<typeof entriesOf>>, parts: Awaited<ReturnType<typeof partsFor>>, data: Record<string, unknown>) {
    if (!parts) return data;
    const changeable = parts.mine.filter((part) => !parts.locked.includes(part.id));
    const fixedParts = parts.parts.filter((part) => !changeable.includes(part));
    const lockedFields = parts.parts.filter((part) => parts.locked.includes(part.id) && parts.mine.includes(part)).flatMap((part) => part.fields);
    return mergePartChange(
      entries.get(definition.id)?.data ?? {},
      data,
      fixedParts.flatMap((part) => part.fields),
      lockedFields,
    );
  }

  /** P1 F4: the parts a submission sends (partsToSubmit: the same rule the browser validates by). */
  function partsSent(parts: NonNullable<Awaited<ReturnType<typeof partsFor>>>, data: Record<string, unknown>, entry: Entry | undefined): FormPart[] {
    return partsToSubmit({ mine: parts.mine, own: parts.own, locked: parts.locked, submitted: Object.keys(parts.states) }, data, entry?.submitted_data);
  }

  app.put(
    `${base}/:id/draft`,
    {
      config: { screen: 'orderForms' },
      // A form's data may exceed the portal's usual body limit (a 2,000-badge list): write() holds each form to its own.
      bodyLimit: FORM_BODY_LIMIT_BYTES,
      schema: {
        tags: ['forms'],
        summary: 'F9: save a draft (not validated beyond its shape); refused when based on an older version',
        params: formIdParams,
        body: dataBody,
        response: { 200: envelope(savedVersionAnswer) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const participation = await participationOf(auth);
      const definition = definitionFor(request.params.id, auth);
      const { entries, parts } = await guard(definition, participation, auth);
      const { schema } = registry.filesFor(definition.id, eventOf(auth).code);
      // An empty file value ({} of a file field nobody filled) is never stored.
      const data = withFixedParts(definition, entries, parts, withoutEmptyFiles(schema, request.body.data));
      const version = await write(participation.id, definition.id, request.body.version, data, auth.user.id, null, schema);
      return ok({ version });
    },
  );

  /** F3: the answer of POST /forms/{id}/inherit: the draft's new version and its data. */
  const inheritAnswerProperties = { version: { type: 'integer' }, data: { type: 'object', additionalProperties: true } } as const;

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
      const version = await write(participation.id, definition.id, current?.version ?? 0, data, auth.user.id, null, registry.filesFor(definition.id, eventOf(auth).code).schema);
      return ok({ version, data });
    },
  );

  app.post(
    `${base}/:id/submit`,
    {
      config: { screen: 'orderForms' },
      // A form's data may exceed the portal's usual body limit (a 2,000-badge list): write() holds each form to its own.
      bodyLimit: FORM_BODY_LIMIT_BYTES,
      schema: {
        tags: ['forms'],
        summary: 'F9: submit, validated with the same schema and keywords as the browser',
        params: formIdParams,
        body: dataBody,
        response: { 200: envelope(savedVersionAnswer) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      // One form set from start to end: a change swapped in meanwhile does not mix with this one.
      const forms = app.forms.current();
      const participation = await participationOf(auth);
      const definition = definitionFor(request.params.id, auth, forms);
      const { entries, parts } = await guard(definition, participation, auth);
      const prerequisites = prerequisitesOf(definition, auth, entries, forms, new Date());
      const supportEmail = eventOf(auth).support_email;
      // O1: the approval rule with the event's limit.
      const { approval } = await forEvent(definition, auth);
      if (prerequisites.closed.length > 0)
        throw new AppError('prerequisiteClosed', { forms: prerequisites.closed, supportEmail }, { forms: prerequisites.closed.join(', '), supportEmail });
      if (prerequisites.missing.length > 0) throw new AppError('submitFormsFirst', { forms: prerequisites.missing });
      const exhibitCode = eventOf(auth).code;
      const files = forms.filesFor(definition.id, exhibitCode);
      const data = withFixedParts(definition, entries, parts, withoutEmptyFiles(files.schema, request.body.data));
      const entry = entries.get(definition.id);
      // P1 F4: the parts this submission sends: the user's own, and another it fills only when it filled it itself.
      const sending = parts ? partsSent(parts, data, entry) : null;
      if (sending && sending.length === 0) throw new AppError('submitOnce');
      const uploads = await uploadsForReferences(app.db, participation.exhibitor_id, data);
      const allErrors = validateSubmission(forms.validatorFor(definition.id, exhibitCode), data, { ...formContext(participation, auth), uploads });
      // A part is submitted on its own: what is wrong in a part not sent is not this submission's problem.
      const sentFields = sending ? new Set(sending.flatMap((part) => part.fields)) : null;
      const errors = sentFields ? allErrors.filter((error) => topField(error.path) === '' || sentFields.has(topField(error.path))) : allErrors;
      if (errors.length > 0) throw new AppError('validationFailed', { errors });
      const submission: Submission =
        sending && parts
          ? (() => {
              const submittedData = withPartsFrom(entry?.submitted_data ?? {}, data, sending);
              const at = new Date().toISOString();
              const states: PartStates = { ...parts.states, ...Object.fromEntries(sending.map((part) => [part.id, { submittedAt: at, submittedBy: auth.user.id }])) };
              const readsApproval = approval !== undefined && sending.some((part) => part.id === parts.approvalId);
              return { submittedData, parts: states, approval: readsApproval ? (needsApproval(approval, submittedData) ? 'pending' : null) : 'keep' };
            })()
          : { submittedData: data, parts: null, approval: needsApproval(approval, data) ? 'pending' : null };
      const changes = fieldChanges(entry?.submitted_data ?? {}, submission.submittedData);
      const version = await write(participation.id, definition.id, request.body.version, data, auth.user.id, submission, files.schema);
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
      return ok({ version });
    },
  );
}
