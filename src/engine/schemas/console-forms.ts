import { contentItemSchema } from './content';
import { eventInputSchema } from './event';
import { exhibitorInputSchema } from './exhibitor';
import { reminderDaysSchema } from './reminder';

// The entity schemas the organiser console edits through the form runtime. `npm run generate`
// compiles each into src/generated/entity-validators.ts (one function per name here), which the
// edit page validates with: the same schema the server's route checks the request with.

/**
 * A schema as the console's form renders and validates it: without its `description`s, which
 * document the API (OpenAPI) in English and would otherwise be shown under the fields (a property named
 * `description` stays). Texts
 * come from the page's UI schema (locale keys).
 */
export function consoleFormSchema(schema: object): Record<string, unknown> {
  const strip = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(strip);
    if (typeof node !== 'object' || node === null) return node;
    return Object.fromEntries(Object.entries(node).flatMap(([key, value]) => (key === 'description' && typeof value === 'string' ? [] : [[key, strip(value)]])));
  };
  const stripped = strip(schema);
  return typeof stripped === 'object' && stripped !== null && !Array.isArray(stripped) ? Object.fromEntries(Object.entries(stripped)) : {};
}

export const CONSOLE_FORM_SCHEMAS = {
  eventValidators: eventInputSchema,
  exhibitorValidators: exhibitorInputSchema,
  reminderDaysValidators: reminderDaysSchema,
  contentItemValidators: contentItemSchema,
} as const;
