import type { FromSchema } from 'json-schema-to-ts';

// F11: one name listed under `optional:` of one approval summary entry or document of forms.yaml,
// the fix the form editor offers when a change removes a question that entry names. The draft
// carries these listings; this schema is the only description of one (route and engine alike).

const OPTIONAL_LISTINGS_MAX = 50;

export const optionalListingSchema = {
  type: 'object',
  properties: {
    entry: {
      type: 'string',
      pattern: '^/forms/([0-9]{1,4})/(approvalSummary|documents)/([0-9]{1,4})$',
      description: "The entry's JSON pointer in forms.yaml: the form's position, the list, the entry's position",
    },
    name: {
      type: 'string',
      pattern: '^[A-Za-z][A-Za-z0-9_]{0,79}$',
      description: 'The name the entry names (a show:/summary:/particulars: name, or the summary field: a field id)',
    },
  },
  required: ['entry', 'name'],
  additionalProperties: false,
} as const;

export const optionalListingsSchema = {
  type: 'array',
  maxItems: OPTIONAL_LISTINGS_MAX,
  description:
    "Names the draft lists under forms.yaml entries' optional: (an approval summary entry or a document of this form), so the patch may remove them: the fix for a removed question forms.yaml names",
  items: optionalListingSchema,
} as const;

export type OptionalListing = FromSchema<typeof optionalListingSchema>;
