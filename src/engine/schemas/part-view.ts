import type { FromSchema } from 'json-schema-to-ts';
import { FORM_STATUSES } from '../forms/definitions';

// P1 F4: one part of a shared form as a user meets it (the form page's and the list's `parts`),
// as the engine's lifecycle rules (forms/lifecycle.ts) make it and the forms routes answer it.
// This schema is the only description of it.

export const formStatusField = { type: 'string', enum: FORM_STATUSES, description: 'Locale key forms.status.<status>' } as const;

export const partViewSchema = {
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

export type PartView = FromSchema<typeof partViewSchema>;
