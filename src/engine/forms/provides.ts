import type { FromSchema } from 'json-schema-to-ts';
import type { FORM_DEFINITION_SCHEMA } from './form-list-schema';

// A form provides a list to another feature as forms.yaml declares it (`provides:`): S02's products
// are what a visitor scanned at the booth may be interested in (LD2/LD3's lead interests). The
// feature asks for the list by the provider name; no form or field is named in code.

type Node = Record<string, unknown>;
const isObject = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A list of the form's data offered to a feature: the list property, and the item field read as each entry's label. */
export type ProvidedList = FromSchema<typeof FORM_DEFINITION_SCHEMA.properties.provides.properties.leadInterests>;

/** The lists a feature may take from a form (one key per consuming feature). */
export const PROVIDER_NAMES = ['leadInterests'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];
export type Provides = Partial<Record<ProviderName, ProvidedList>>;

/** What these functions read of a form's forms.yaml entry (FormDefinition, without importing it: no cycle). */
interface Provider {
  id: string;
  provides?: Provides;
}

/**
 * forms.yaml mistakes, reported by `npm run check` and refused when the forms are read. The list
 * and label fields are resolved against each form, base and patched, by field-references.ts.
 */
export function providesProblems(definition: Provider): string[] {
  const declared = definition.provides;
  if (declared === undefined) return [];
  const where = `schemas/forms/forms.yaml (${definition.id}) provides`;
  if (!isObject(declared)) return [`${where}: must be a map of ${PROVIDER_NAMES.join(', ')}`];
  const problems: string[] = [];
  for (const [name, entry] of Object.entries(declared)) {
    if (!(PROVIDER_NAMES as readonly string[]).includes(name)) {
      problems.push(`${where}.${name}: unknown (known: ${PROVIDER_NAMES.join(', ')})`);
      continue;
    }
    if (!isObject(entry) || typeof entry.list !== 'string' || typeof entry.label !== 'string') {
      problems.push(`${where}.${name}: must be { list: <list property>, label: <item field> }`);
    }
  }
  return problems;
}

/** Across the forms: each provider name is provided by one form at most (two would be ambiguous). */
export function providerProblems(definitions: readonly Provider[]): string[] {
  const problems: string[] = [];
  for (const name of PROVIDER_NAMES) {
    const providers = definitions.filter((definition) => isObject(definition.provides) && definition.provides[name] !== undefined).map((definition) => definition.id);
    if (providers.length > 1) problems.push(`schemas/forms/forms.yaml provides.${name}: provided by more than one form (${providers.join(', ')})`);
  }
  return problems;
}

/** The form that provides this list, with its declaration; none when no form does. */
export function providerOf<Form extends Provider>(definitions: readonly Form[], name: ProviderName): { form: Form; provided: ProvidedList } | null {
  for (const form of definitions) {
    const provided = form.provides?.[name];
    if (provided) return { form, provided };
  }
  return null;
}

/** The distinct, non-blank labels of the provided list's items, in the order of the data. */
export function providedLabels(provided: ProvidedList, data: unknown): string[] {
  const items = isObject(data) ? data[provided.list] : undefined;
  if (!Array.isArray(items)) return [];
  const labels = items.map((item) => (isObject(item) ? item[provided.label] : undefined)).filter((label): label is string => typeof label === 'string' && label.trim() !== '');
  return [...new Set(labels)];
}
