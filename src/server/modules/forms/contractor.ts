import { canonicalJson as canonical } from '../../../engine/forms/canonical';
import type { FormDefinition } from '../../../engine/forms/definitions';
import { AppError } from '../../lib/app-error';

// P1: a contractor fills only its part of a shared form. forms.yaml names that part
// (`contractorFields`: top-level properties of the form); the rest is the exhibitor's. The
// server hides the rest from the contractor (UI schema and data), refuses a contractor's change to
// it and keeps it as the exhibitor left it when the contractor saves or submits. The schema
// itself is never changed, so the precompiled validator still applies.

type Data = Record<string, unknown>;

/** The properties a contractor may fill, or null when the whole form is theirs (or the user is no contractor). */
export function contractorPart(definition: FormDefinition, role: string): string[] | null {
  if (role !== 'contractor') return null;
  return definition.contractorFields ?? null;
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
 * The data to store when a contractor saves: the exhibitor's properties as stored, the
 * contractor's part as sent. A property outside the part that the contractor sent with another
 * value than stored is refused (nothing is stored); sent unchanged, it is accepted.
 */
export function mergeContractorChange(stored: Data, sent: Data, fields: string[]): Data {
  const refused = Object.keys(sent).filter((key) => !fields.includes(key) && canonical(sent[key]) !== canonical(stored[key]));
  if (refused.length > 0) throw new AppError('contractorFieldForbidden', { fields: refused });
  const merged: Data = {};
  for (const [key, value] of Object.entries(stored)) if (!fields.includes(key)) merged[key] = value;
  for (const key of fields) if (sent[key] !== undefined) merged[key] = sent[key];
  return merged;
}
