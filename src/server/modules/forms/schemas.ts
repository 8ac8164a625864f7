import { formStatusField, partViewSchema } from '../../../engine/schemas/part-view';
import { formContextAnswerSchema, formDefinitionAnswerSchema, formStringsAnswerSchema, uploadRulesAnswerSchema } from '../../../engine/schemas/form-payload';

// The participation forms' route schemas (F1, F4, F9, F10): the list, one form's page, and the
// draft and submit bodies and answers.

/** An object the form set defines (a schema, a UI schema, a form's data): passed on as it is. */
const openObject = (description: string) => ({ type: 'object', additionalProperties: true, description }) as const;
const nullableOpenObject = (description: string) => ({ type: ['object', 'null'], additionalProperties: true, description }) as const;

const partsField = { type: ['array', 'null'], items: partViewSchema, description: 'The parts of a shared form; null for a form of one part' } as const;
const prerequisiteFields = {
  missingPrerequisites: { type: 'array', items: { type: 'string' }, description: 'Codes of forms to submit first' },
  closedPrerequisites: { type: 'array', items: { type: 'string' }, description: 'Of those, the ones past their deadline' },
} as const;

export const formListItemSchema = {
  type: 'object',
  required: [
    'id',
    'code',
    'title',
    'screen',
    'mandatory',
    'deadline',
    'status',
    'changesNotSubmitted',
    'submittedAt',
    'submitOnce',
    'missingPrerequisites',
    'closedPrerequisites',
    'parts',
  ],
  additionalProperties: false,
  properties: {
    id: { type: 'string' },
    code: { type: 'string' },
    title: { type: 'string', description: 'Locale key of its title' },
    screen: { type: ['string', 'null'], description: 'Its screen in the catalogue' },
    mandatory: { type: 'boolean' },
    deadline: { type: ['string', 'null'], format: 'date-time' },
    status: formStatusField,
    changesNotSubmitted: { type: 'boolean' },
    submittedAt: { type: ['string', 'null'], format: 'date-time' },
    submitOnce: { type: 'boolean' },
    ...prerequisiteFields,
    parts: partsField,
  },
} as const;

export const formPageSchema = {
  type: 'object',
  required: [
    'definition',
    'formsVersion',
    'validator',
    'strings',
    'schema',
    'ui',
    'context',
    'uploads',
    'deadline',
    'status',
    'changesNotSubmitted',
    'locked',
    'parts',
    'closed',
    'missingPrerequisites',
    'closedPrerequisites',
    'entry',
  ],
  additionalProperties: false,
  properties: {
    definition: formDefinitionAnswerSchema,
    formsVersion: { type: 'string', description: 'The form set version it belongs to' },
    validator: {
      type: 'object',
      required: ['url', 'rootKey'],
      additionalProperties: false,
      properties: { url: { type: 'string', description: 'The compiled validators module' }, rootKey: { type: 'string' } },
    },
    strings: formStringsAnswerSchema,
    schema: openObject('Its JSON Schema (event patch applied)'),
    ui: openObject('Its UI schema (a contractor: its part only)'),
    context: formContextAnswerSchema,
    uploads: uploadRulesAnswerSchema,
    deadline: { type: ['string', 'null'], format: 'date-time' },
    status: formStatusField,
    changesNotSubmitted: { type: 'boolean' },
    locked: { type: 'boolean' },
    parts: partsField,
    closed: { type: 'boolean', description: 'Past its deadline' },
    askAgain: {
      type: ['array', 'null'],
      items: { type: 'string' },
      description: 'F11: the questions (dotted paths, list items as `list[].field`) the organiser reopened the submission for after changing the form; null when not reopened so',
    },
    ...prerequisiteFields,
    entry: {
      type: ['object', 'null'],
      required: ['data', 'version', 'status', 'submittedData', 'submittedAt', 'approval'],
      additionalProperties: false,
      description: 'The saved entry; null before the first save',
      properties: {
        data: nullableOpenObject('The draft (a contractor: its part only)'),
        version: { type: 'integer' },
        status: { type: 'string', enum: ['draft', 'submitted'] },
        submittedData: nullableOpenObject('The submitted copy'),
        submittedAt: { type: ['string', 'null'], format: 'date-time' },
        approval: {
          type: ['object', 'null'],
          required: ['status', 'comment', 'decidedAt'],
          additionalProperties: false,
          properties: {
            status: { type: 'string', enum: ['pending', 'approved', 'rejected'] },
            comment: { type: ['string', 'null'] },
            decidedAt: { type: ['string', 'null'], format: 'date-time' },
          },
        },
      },
    },
  },
} as const;

/** A form's id in the path (forms.yaml ids are short). */
export const formIdParams = { type: 'object', properties: { id: { type: 'string', maxLength: 40 } }, required: ['id'] } as const;
/** F9: the answer of a saved draft or a submission: the entry's new version. */
const savedVersionProperties = { version: { type: 'integer' } } as const;
export const savedVersionAnswer = {
  type: 'object',
  properties: savedVersionProperties,
  required: Object.keys(savedVersionProperties) as Array<keyof typeof savedVersionProperties>,
  additionalProperties: false,
} as const;

export const dataBody = {
  type: 'object',
  required: ['data', 'version'],
  properties: {
    data: { type: 'object', additionalProperties: true },
    version: { type: 'integer', minimum: 0, description: 'The version the change is based on (0 for a form never saved)' },
  },
  additionalProperties: false,
} as const;
