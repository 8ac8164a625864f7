import { canonicalJson as canonical } from '../../engine/forms/canonical';
import type { FormDefinition } from '../../engine/forms/definitions';
import { AppError } from './app-error';

// P1: a contractor fills only its parts of a shared form (forms.yaml `parts`, filledBy
// contractor); the rest is the exhibitor's. The server hides the rest from the contractor (UI
// schema and data), refuses a contractor's change to it and keeps it as the exhibitor left it when
// the contractor saves or submits. The schema itself is never changed, so the precompiled
// validator still applies.

type Data = Record<string, unknown>;

/** The properties a contractor may see and fill, or null when the user is no contractor (or the form has no parts). */
export function contractorPart(definition: FormDefinition, role: string): string[] | null {
  if (role !== 'contractor' || !definition.parts) return null;
  return definition.parts.filter((part) => part.filledBy.includes('contractor')).flatMap((part) => part.fields);
}

/** The UI schema a contractor gets: every property outside its part rendered by no one. */
export function contractorUi(ui: Data, schema: { properties?: Record<string, unknown> }, fields: string[]): Data {
  const result: Data = { ...ui };
  for (const property of Object.keys(schema.properties ?? {})) {
    if (!fields.includes(property)) result[property] = { 'ui:field': 'hidden' };
  }
  return result;
}

/** The contractor's part of the data only. */
export function contractorView(data: Data | null, fields: string[]): Data | null {
  if (!data) return data;
  return Object.fromEntries(Object.entries(data).filter(([key]) => fields.includes(key)));
}

/**
 * The data to store when a user saves a form with parts: what was sent, with the properties the
 * user may not change (`fixed`: someone else's part, or a part closed by its submit-once lock) as
 * stored. A fixed property sent with another value than stored is refused (nothing is stored) — as
 * closed by submit-once when `locked` names it, as someone else's part otherwise; sent unchanged or
 * left out, it is kept as stored.
 */
export function mergePartChange(stored: Data, sent: Data, fixed: string[], locked: string[] = []): Data {
  const refused = fixed.filter((key) => key in sent && canonical(sent[key]) !== canonical(stored[key]));
  if (refused.some((key) => locked.includes(key))) throw new AppError('submitOnce', { fields: refused });
  if (refused.length > 0) throw new AppError('contractorFieldForbidden', { fields: refused });
  const merged: Data = {};
  for (const [key, value] of Object.entries(sent)) if (!fixed.includes(key) && value !== undefined) merged[key] = value;
  for (const key of fixed) if (stored[key] !== undefined) merged[key] = stored[key];
  return merged;
}
