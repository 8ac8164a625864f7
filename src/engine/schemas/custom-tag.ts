import type { FromSchema } from 'json-schema-to-ts';
import { CUSTOM_TAG_CHOICE_MAX_LENGTH, CUSTOM_TAG_CHOICES_MAX, CUSTOM_TAG_NAME_MAX_LENGTH } from '../constants';

// LD6/V5: an exhibitor's custom tag, as the custom tag page sends it and as leads and scans read
// it. These schemas are the only description of it: the server validates and documents with them,
// the engine's rules (custom-tags.ts, leads-rules.ts) and the pages read the types derived from them.

/** A tag as written: its name and choices. Lengths are the engine's business (its message); the schema only bounds the input. */
export const customTagInputSchema = {
  type: 'object',
  required: ['name', 'choices'],
  properties: {
    name: { type: 'string', maxLength: CUSTOM_TAG_NAME_MAX_LENGTH * 4 },
    choices: { type: 'array', maxItems: CUSTOM_TAG_CHOICES_MAX * 4, items: { type: 'string', maxLength: CUSTOM_TAG_CHOICE_MAX_LENGTH * 4 } },
  },
  additionalProperties: false,
} as const;

/** A stored tag as a lead's qualification offers it. */
export const tagDefinitionSchema = {
  type: 'object',
  properties: { id: { type: 'integer' }, name: { type: 'string' }, choices: { type: 'array', items: { type: 'string' } } },
  required: ['id', 'name', 'choices'],
  additionalProperties: false,
} as const;

export type CustomTagInput = FromSchema<typeof customTagInputSchema>;
export type TagDefinition = FromSchema<typeof tagDefinitionSchema>;
