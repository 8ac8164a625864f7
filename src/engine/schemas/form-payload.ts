import { filePurposeRuleSchema } from './file';
import { FORM_DEFINITION_SCHEMA } from '../forms/form-list-schema';
import { stringMap } from './json-schema';

// The parts of a form's answer (GET /forms/{id}) that are the engine's own data: its forms.yaml
// entry, the context its rules read and the upload rules of its file fields. Described here once,
// so the OpenAPI document, and from it the browser's typed client, carry their shapes.

/** Its forms.yaml entry, as forms.yaml's JSON Schema describes it (the event's settings applied). */
export const formDefinitionAnswerSchema = { ...FORM_DEFINITION_SCHEMA, description: 'Its forms.yaml entry (the event’s settings applied)' } as const;

/** What the form's rules read of the exhibitor (engine/forms/context.ts): participation flags and quotas by name. */
export const formContextAnswerSchema = {
  type: 'object',
  description: 'Exhibitor flags and quotas the rules read',
  properties: { flags: stringMap({ type: 'boolean' }), quotas: stringMap({ type: 'integer' }) },
  required: ['flags', 'quotas'],
  additionalProperties: false,
} as const;

/** V2 V3: the rule of each upload purpose its file fields name. */
export const uploadRulesAnswerSchema = {
  ...stringMap(filePurposeRuleSchema),
  description: 'V2 V3: the rules (types, maxBytes, minDpi) of the upload purposes its file fields name, by purpose',
} as const;

/** Its labels (`forms.<id>` of the locales) by language, as the server has them now. */
export const formStringsAnswerSchema = { ...stringMap({ type: 'object', additionalProperties: true }), description: 'Its labels per language' } as const;
