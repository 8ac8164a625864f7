import { API_BASE } from '../../../engine/constants';
import { isSubmitOnce, lockedForUser, prerequisitesOf, statusForUser, visibleToRole } from '../../../engine/forms/lifecycle';
import { contractorPart, contractorUi, contractorView } from '../../lib/contractor-part';
import type { ApiApp } from '../../lib/api-app';
import { envelope } from '../../lib/schemas';
import { eventOf, requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import { validatorUrl } from '../../plugins/forms/service';
import { definitionFor, entriesFor, forEvent, formContext, formStateOf, participationOf, purposesOf, reopensFor, withProperties } from './form-access';
import { formIdParams, formListItemSchema, formPageSchema } from './schemas';

// The participation forms as a user meets them (F1, F4, F10): the list with each form's status,
// deadline and missing prerequisites, and one form's page with its schema, rules and entry. Each
// request reads one form set (app.forms.current()) from start to end.

const base = `${API_BASE}/forms`;

export default async function formRoutes(app: ApiApp) {
  listRoute(app);
  pageRoute(app);
}

/** F1: the forms the user fills, each with its status as the user sees it. */
function listRoute(app: ApiApp) {
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
      const participation = participationOf(auth);
      const forms = app.forms.current();
      const visible = forms.definitions.filter((definition) => visibleToRole(definition, auth.user.role));
      const [entries, reopens] = await Promise.all([app.formEntries.ofParticipation(participation.id), reopensFor(app, visible, participation)]);
      const now = new Date();
      const list = await Promise.all(
        visible.map(async (definition) => {
          const entry = entries.get(definition.id) ?? null;
          const { deadline, parts } = await formStateOf(app, forms, definition, participation, auth, entry, now, reopens);
          const prerequisites = prerequisitesOf(definition, auth.deadlines, entries, (id) => forms.find(id), now);
          return {
            id: definition.id,
            code: definition.code,
            title: definition.title,
            screen: definition.screen,
            mandatory: definition.mandatory,
            deadline: deadline?.toISOString() ?? null,
            // P1 F4: a form with parts reads as the user's own part, each part listed beside it.
            ...statusForUser(entry, deadline, now, parts),
            submitOnce: isSubmitOnce(definition, participation.flags),
            missingPrerequisites: prerequisites.missing,
            closedPrerequisites: prerequisites.closed,
            parts: parts?.view ?? null,
          };
        }),
      );
      return ok(list);
    },
  );
}

/** One form's page: what the form runtime renders and validates by, and the saved entry. */
function pageRoute(app: ApiApp) {
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
      const participation = participationOf(auth);
      // The schema, UI schema and validator of one form set.
      const forms = app.forms.current();
      const definition = definitionFor(request.params.id, auth, forms);
      const files = forms.filesFor(definition.id, eventOf(auth).code);
      const validator = forms.validatorFor(definition.id, eventOf(auth).code);
      const entries = await entriesFor(app, participation, definition);
      const entry = entries.get(definition.id) ?? null;
      const now = new Date();
      const { deadline, submitOnce, parts } = await formStateOf(app, forms, definition, participation, auth, entry, now);
      const prerequisites = prerequisitesOf(definition, auth.deadlines, entries, (id) => forms.find(id), now);
      // P1: a contractor sees its part of the form only (the schema stays as precompiled).
      const part = contractorPart(definition, auth.user.role);
      const visible = (data: Record<string, unknown> | null) => (part ? contractorView(data, part) : data);
      const status = statusForUser(entry, deadline, now, parts);
      // The approval decision is the part's that the approval rule reads: shown to those who fill it.
      const approvalShown = !parts || parts.mine.some((mine) => mine.id === parts.approvalId);
      return ok({
        // The help texts' values and the fee total the browser shows are the event's.
        definition: await forEvent(app, definition, auth),
        formsVersion: forms.version,
        validator: { url: validatorUrl(validator.hash), rootKey: validator.rootKey },
        // The form's labels as the set in use has them (a label added or changed with the form).
        strings: forms.stringsFor(definition.id),
        schema: files.schema,
        ui: part ? contractorUi(files.ui, withProperties(files.schema), part) : files.ui,
        context: formContext(participation, auth),
        // V2 V3: the rules of the purposes its file fields name, for the browser's check before an upload.
        uploads: purposesOf(files.schema, forms.uploads),
        deadline: deadline?.toISOString() ?? null,
        status: status.status,
        changesNotSubmitted: status.changesNotSubmitted,
        // A form with parts is locked for a user once every part it fills is.
        locked: lockedForUser(parts, submitOnce, entry),
        parts: parts?.view ?? null,
        closed: deadline !== null && deadline.getTime() < now.getTime(),
        askAgain: await app.formEntries.reopenedFor(participation.id, definition.id),
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
}
