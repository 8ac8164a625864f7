import type { FromSchema } from 'json-schema-to-ts';
import { stringMap } from './json-schema';

// O2 (spec §3): an exhibitor's account as the organiser sets it, in the console and in an import
// row alike. This schema is the only description of it: the server validates with it, the engine's
// rules (organiser-exhibitors.ts) and the console read the type derived from it.

export const exhibitorInputSchema = {
  type: 'object',
  required: ['code', 'name', 'legalName', 'boothNum', 'logoUrl', 'account', 'email', 'contactName', 'modules', 'flags', 'quotas', 'deadlines'],
  properties: {
    code: { type: 'string', maxLength: 64, description: "The organiser's code for the company (imports update by it)" },
    name: { type: 'string', maxLength: 400 },
    legalName: { type: 'string', maxLength: 400 },
    boothNum: { type: 'string', maxLength: 80 },
    logoUrl: { type: 'string', maxLength: 2000 },
    account: { type: 'string', maxLength: 64, description: "The main account's ID" },
    email: { type: 'string', maxLength: 254 },
    contactName: { type: 'string', maxLength: 200 },
    modules: { type: 'array', items: { type: 'string' }, maxItems: 100 },
    flags: stringMap({ type: 'boolean' }),
    quotas: { ...stringMap({ type: 'integer' }), description: "Overrides of the event's quotas by name" },
    deadlines: { ...stringMap({ type: 'string', maxLength: 40 }), description: "Overrides of the event's deadlines by name (ISO 8601)" },
  },
  additionalProperties: false,
} as const;

export type ExhibitorInput = FromSchema<typeof exhibitorInputSchema>;
