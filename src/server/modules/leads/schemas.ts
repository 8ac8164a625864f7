import { LEAD_SYNC_BATCH_MAX, SCAN_BATCH_MAX, FOLLOW_UP_ACTIONS, LEAD_TEMPERATURES, LEAD_TYPES } from '../../../engine/leads';
import { leadConsentSchema } from '../../../engine/lead-consent';
import { EXPORT_FORMATS, KEYWORD_MAX, LEAD_NOTES_MAX, LEAD_SORTS, LEAD_TEXT_MAX, UNSET } from '../../../engine/leads-rules';
import { PAGINATION } from '../../../engine/constants';
import { scanSchema } from '../../../engine/schemas/scan';

export { scanBatchAnswer } from '../../../engine/schemas/scan';
import { tagDefinitionSchema } from '../../../engine/schemas/custom-tag';

// JSON Schemas of the leads API: they validate input and make the OpenAPI document a scanner-app
// developer can follow (/oga/openapi.json, tag "leads").

export const scanBatchBody = {
  type: 'object',
  required: ['scans'],
  additionalProperties: false,
  properties: { scans: { type: 'array', minItems: 1, maxItems: SCAN_BATCH_MAX, items: scanSchema } },
  examples: [
    {
      scans: [
        { clientScanId: '7f1c2a9e-4b1d-4c1e-9a52-0c8e1b7d3f10', badgeCode: 'AFHE2027-V0000042', scannedAt: '2027-03-17T02:15:00Z' },
        { clientScanId: '0b6f1d33-8e0a-4a8f-bf0e-5d2c7a9e6a21', badgeCode: 'AFHE2027-V0001234', scannedAt: '2027-03-17T02:16:30Z' },
        { clientScanId: 'c3d9e1a0-2f4b-4e7c-8a11-9b0d5e6f7a88', badgeCode: 'PAPER-BADGE-17', scannedAt: '2027-03-17T02:18:05Z' },
      ],
    },
  ],
} as const;

const nullableCode = (codes: readonly string[]) => ({ type: ['string', 'null'], enum: [...codes, null] }) as const;

const leadProperties = {
  id: { type: 'integer' },
  badgeCode: { type: 'string' },
  badgeKnown: { type: 'boolean' },
  visitorName: { type: 'string' },
  salutation: { type: 'string' },
  company: { type: 'string' },
  businessNature: { type: 'string' },
  jobTitle: { type: 'string' },
  country: {
    type: 'string',
    description:
      'Country/region as an ISO 3166-1 alpha-2 code ("SG"); show it with Intl.DisplayNames in the reader\'s language. A value older data held that names no country is kept as it was.',
  },
  mobile: { type: 'string' },
  email: { type: 'string' },
  phone: { type: 'string' },
  address: { type: 'string' },
  notes: { type: 'string' },
  leadType: { ...nullableCode(LEAD_TYPES), description: 'Code; label at locale key leads.type.<code>' },
  temperature: { ...nullableCode(LEAD_TEMPERATURES), description: 'Code; label at leads.temperature.<code>' },
  followUp: { ...nullableCode(FOLLOW_UP_ACTIONS), description: 'Code; label at leads.followUp.<code>' },
  scannedBy: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } }, required: ['id', 'name'], additionalProperties: false },
  scannedAt: { type: 'string', format: 'date-time', description: 'Date/time added (the first scan of this badge)' },
  scans: {
    type: 'object',
    description: "LD1: every scan of this visitor's badge by the exhibitor's people (one lead per visitor)",
    properties: {
      count: { type: 'integer', description: 'Scans of the badge, the first one included' },
      lastSeenAt: { type: 'string', format: 'date-time', description: 'The latest scan' },
      lastScannedBy: {
        type: 'object',
        properties: { id: { type: ['integer', 'null'] }, name: { type: 'string' } },
        required: ['id', 'name'],
        additionalProperties: false,
        description: 'Who made the latest scan',
      },
    },
    required: ['count', 'lastSeenAt', 'lastScannedBy'],
    additionalProperties: false,
  },
  updatedAt: { type: ['string', 'null'], format: 'date-time' },
  tagAnswers: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } }, description: 'Custom tag id → chosen choices' },
  interestedProducts: { type: 'array', items: { type: 'string' } },
  businessCard: {
    type: ['object', 'null'],
    properties: { id: { type: 'string' }, name: { type: 'string' }, size: { type: 'integer' }, type: { type: 'string' } },
    required: ['id', 'name', 'size', 'type'],
    additionalProperties: false,
    description: 'The business card image (download at GET /oga/uploads/{id})',
  },
  consent: leadConsentSchema,
} as const;

// Every field is always answered: each one is required (the names come from the properties, so
// no list repeats them).
export const leadSchema = {
  type: 'object',
  properties: leadProperties,
  required: Object.keys(leadProperties) as Array<keyof typeof leadProperties>,
  additionalProperties: false,
} as const;

export const tagSchema = tagDefinitionSchema;

const codeFilter = (codes: readonly string[], what: string) =>
  ({ type: 'string', enum: [...codes, UNSET], description: `${what} code, or "${UNSET}" for leads not qualified yet` }) as const;

export const leadFilterProperties = {
  leadType: codeFilter(LEAD_TYPES, 'Lead type'),
  temperature: codeFilter(LEAD_TEMPERATURES, 'Lead temperature'),
  followUp: codeFilter(FOLLOW_UP_ACTIONS, 'Follow-up action'),
  scannedBy: { type: 'integer', minimum: 1, description: 'User id (see /leads/options)' },
  from: { type: 'string', format: 'date', description: 'First event day (YYYY-MM-DD, event time)' },
  to: { type: 'string', format: 'date', description: 'Last event day, inclusive' },
  country: {
    type: 'string',
    maxLength: LEAD_TEXT_MAX,
    description:
      'Country/region: its ISO 3166-1 alpha-2 code as listed by /leads/options ("JP"); a name in English or a portal language ("Japan", "日本") is accepted and read as its code. A stored value that names no country is matched as it is.',
  },
  keyword: { type: 'string', maxLength: KEYWORD_MAX, description: 'Part of the visitor name, company, email or badge code (case-insensitive)' },
} as const;

export const listQuerystring = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...leadFilterProperties,
    page: { type: 'integer', minimum: 1, default: PAGINATION.defaultPage },
    limit: { type: 'integer', enum: [...PAGINATION.pageSizes], default: PAGINATION.defaultLimit },
    after: {
      type: 'string',
      maxLength: 1500,
      description:
        'Keyset paging: the `next` of the previous page (same filters, sort and order); the page after it, unaffected by leads added meanwhile and as fast at any depth (`page` is not used). A cursor of another sort or order answers HTTP 400 `leadCursorInvalid`.',
    },
    sort: { type: 'string', enum: [...LEAD_SORTS], default: 'scannedAt' },
    order: { type: 'string', enum: ['asc', 'desc'], default: 'desc' },
    exactTotal: {
      type: 'boolean',
      default: false,
      description:
        "Count every match (slower with many leads); by default several filters together are estimated and a keyword's matches are counted up to 1,000 (`totalIsEstimate` says so)",
    },
    updatedSince: {
      type: 'string',
      maxLength: 64,
      description:
        'Incremental sync: only leads created or changed at or after this instant (ISO 8601 with its offset, e.g. `2027-03-17T02:15:00Z`; anything else answers HTTP 400 `updatedSinceInvalid`). Turns on sync mode (see the route).',
    },
    cursor: {
      type: 'string',
      maxLength: 200,
      description: 'Incremental sync: the `next` of the previous answer (an unknown cursor answers HTTP 400 `leadCursorInvalid`). Turns on sync mode (see the route).',
    },
    batchSize: { type: 'integer', minimum: 1, maximum: LEAD_SYNC_BATCH_MAX, default: 500, description: 'Sync mode: leads per answer' },
  },
} as const;

export const qualificationBody = {
  type: 'object',
  additionalProperties: false,
  description: 'Every field is optional: a field left out keeps its stored value.',
  properties: {
    // The codes are checked by the qualification rules (a coded message per field), not here.
    leadType: { type: ['string', 'null'], 'x-codes': [...LEAD_TYPES, null], description: 'Code; label at leads.type.<code>' },
    temperature: { type: ['string', 'null'], 'x-codes': [...LEAD_TEMPERATURES, null], description: 'Code; label at leads.temperature.<code>' },
    followUp: { type: ['string', 'null'], 'x-codes': [...FOLLOW_UP_ACTIONS, null], description: 'Code; label at leads.followUp.<code>' },
    notes: { type: 'string', maxLength: LEAD_NOTES_MAX * 2 },
    tagAnswers: {
      type: 'object',
      maxProperties: 20,
      additionalProperties: { type: 'array', maxItems: 20, items: { type: 'string', maxLength: 200 } },
      description: 'Custom tag id → chosen choices, merged per tag: tags left out keep their answers, [] clears a tag',
    },
    businessCard: {
      type: ['string', 'null'],
      maxLength: 64,
      description: 'Upload id from POST /oga/uploads with purpose businessCard; null removes it (the card and its file are deleted)',
    },
    interestedProducts: { type: 'array', maxItems: 20, items: { type: 'string', maxLength: 200 } },
    visitorName: { type: 'string', maxLength: LEAD_TEXT_MAX * 2, description: 'Only read when the badge was unknown (then required)' },
    company: { type: 'string', maxLength: LEAD_TEXT_MAX * 2, description: 'Only read when the badge was unknown (then required)' },
  },
  examples: [
    { leadType: 'potentialCustomer', temperature: 'hot', followUp: 'sendQuotation', notes: 'Wants 200 kg monthly.', tagAnswers: { '3': ['Honey'] } },
    { temperature: 'warm' },
  ],
} as const;

export const exportBody = {
  type: 'object',
  additionalProperties: false,
  required: ['format'],
  properties: {
    format: { type: 'string', enum: [...EXPORT_FORMATS] },
    filters: { type: 'object', additionalProperties: false, properties: leadFilterProperties },
  },
} as const;
