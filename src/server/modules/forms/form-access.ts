import type { FormContext } from '../../../engine/forms/context';
import { deadlineOfForm, type FormDefinition } from '../../../engine/forms/definitions';
import { withEventSettings } from '../../../engine/forms/event-settings';
import type { UploadRules } from '../../../engine/forms/files';
import { fixedFields, isSubmitOnce, userParts, visibleToRole, type EntryState, type SubmitOnce, type UserParts } from '../../../engine/forms/lifecycle';
import type { Participation } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { mergePartChange } from '../../lib/contractor-part';
import type { ApiApp } from '../../lib/api-app';
import { eventOf } from '../../plugins/auth';
import type { FormEntryRow as EntryRow } from '../../plugins/form-entries';
import type { FormRegistry } from '../../plugins/forms/form-set';
import type { AuthContext } from '../../plugins/sessions';

// What the forms' routes share: the user's participation and form, the form as the user's event
// has it, and the life cycle's inputs read from the database and the one form set a request uses
// (the rules themselves are pure: engine/forms/lifecycle.ts).

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A form schema's top-level properties, as the rules about its parts and lists read them. */
export function withProperties(schema: unknown): { properties?: Record<string, unknown> } {
  return isRecord(schema) && isRecord(schema.properties) ? { properties: schema.properties } : {};
}

/** Lists of the previous event are appended to the current ones; other fields are kept as they are. */
export function mergeInherited(current: Record<string, unknown>, previous: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(previous)) {
    const own = current[key];
    if (Array.isArray(value)) merged[key] = [...(Array.isArray(own) ? own : []), ...value];
    else if (merged[key] === undefined) merged[key] = value;
  }
  return merged;
}

/** The exhibitor's flags and its effective quotas by name (O2), as the form's rules see them. */
export function formContext(participation: Participation, auth: Pick<AuthContext, 'quotas'>): FormContext {
  return { flags: participation.flags ?? {}, quotas: auth.quotas };
}

/** O2: the effective deadline forms.yaml names for this form (the event's, or the exhibitor's override). */
export function deadlineOf(definition: FormDefinition, auth: Pick<AuthContext, 'deadlines'>): Date | null {
  return deadlineOfForm(auth.deadlines, definition);
}

/** V2 V3: the upload rules of the purposes a schema's file fields name (`"file": "<purpose>"`). */
export function purposesOf(schema: unknown, rules: UploadRules): UploadRules {
  const named = new Set<string>();
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== 'object' || node === null) return;
    const file = 'file' in node ? node.file : undefined;
    if (typeof file === 'string') named.add(file);
    Object.values(node).forEach(visit);
  };
  visit(schema);
  return Object.fromEntries([...named].filter((purpose) => Object.hasOwn(rules, purpose)).map((purpose) => [purpose, rules[purpose]!]));
}

export function participationOf(auth: AuthContext): Participation {
  if (!auth.participation) throw new AppError('formNotOpen');
  return auth.participation;
}

/**
 * The entries a request about one form reads: its own and its prerequisites' (F10), by form id.
 * The other forms' entries (a 2,000-badge list among them) are neither read nor parsed.
 */
export async function entriesFor(app: ApiApp, participation: Participation, definition: FormDefinition): Promise<Map<string, EntryRow>> {
  const rows = await app.formEntries.ofForms(participation.id, [definition.id, ...(definition.prerequisites ?? [])]);
  return new Map(rows.map((row) => [row.form_id, row]));
}

/** The form of this id in the request's form set, when the user's role fills it; not found otherwise. */
export function definitionFor(id: string, auth: AuthContext, forms: FormRegistry): FormDefinition {
  const definition = forms.find(id);
  if (!definition || !visibleToRole(definition, auth.user.role)) throw new AppError('notFound');
  return definition;
}

/**
 * O2 F5 O1: the form as the user's event has it: the fee and approval limit the organiser set for
 * the event (forms.yaml `setting:`), forms.yaml's values where it set none.
 */
export async function forEvent(app: ApiApp, definition: FormDefinition, auth: AuthContext): Promise<FormDefinition> {
  const event = eventOf(auth);
  const rows = await app.db.selectFrom('event_settings').select(['name', 'value']).where('event_id', '=', event.id).execute();
  return withEventSettings(definition, { values: Object.fromEntries(rows.map((row) => [row.name, row.value])), currency: event.currency });
}

/** The form's submit-once state for this exhibitor (null = not submit-once for it). */
export async function submitOnceOf(app: ApiApp, definition: FormDefinition, participation: Participation, reopens?: ReadonlyMap<string, Date>): Promise<SubmitOnce> {
  if (!isSubmitOnce(definition, participation.flags)) return null;
  return { reopenedAt: reopens ? (reopens.get(definition.id) ?? null) : await app.formEntries.reopenedAt(participation.id, definition.id) };
}

/** The reopenings a list of forms reads (one read, and none when no form is submit-once for the exhibitor). */
export async function reopensFor(app: ApiApp, definitions: readonly FormDefinition[], participation: Participation): Promise<ReadonlyMap<string, Date>> {
  return definitions.some((definition) => isSubmitOnce(definition, participation.flags)) ? app.formEntries.reopensOf(participation.id) : new Map();
}

/** A form's life-cycle inputs for one user: its deadline, its submit-once state and, for a form with parts, the user's parts. */
export interface FormState {
  deadline: Date | null;
  submitOnce: SubmitOnce;
  parts: UserParts | null;
}

/** The form's life-cycle state for this user, the form's schema read from the request's form set (`reopens`: read for a whole list at once). */
export async function formStateOf(
  app: ApiApp,
  forms: FormRegistry,
  definition: FormDefinition,
  participation: Participation,
  auth: AuthContext,
  entry: EntryState | null | undefined,
  now: Date,
  reopens?: ReadonlyMap<string, Date>,
): Promise<FormState> {
  const schema = withProperties(forms.filesFor(definition.id, eventOf(auth).code).schema);
  const submitOnce = await submitOnceOf(app, definition, participation, reopens);
  const deadline = deadlineOf(definition, auth);
  return { deadline, submitOnce, parts: userParts(definition, schema, auth.user.role, entry, submitOnce, deadline, now) };
}

/**
 * P1 F4: what a save of a form with parts stores: the parts the user may change as sent, the
 * others (someone else's, or closed by their submit-once lock) as stored.
 */
export function withFixedParts(stored: EntryState | undefined, parts: UserParts | null, data: Record<string, unknown>): Record<string, unknown> {
  if (!parts) return data;
  const { fixed, locked } = fixedFields(parts);
  return mergePartChange(stored?.data ?? {}, data, fixed, locked);
}
