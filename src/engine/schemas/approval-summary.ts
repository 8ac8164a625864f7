import type { FromSchema } from 'json-schema-to-ts';

// O1: what the organiser decides on beside a waiting submission, as forms.yaml's
// `approvalSummary` declares it (forms/approval-summary.ts builds it). This schema is the only
// description of it: the approvals route documents its answer with it, the engine's rule and the
// console read the types derived from it.

export const summaryItemSchema = {
  type: 'object',
  properties: { text: { type: 'string' }, flagged: { type: 'boolean', description: 'The item the approval rule waits for (an extra badge)' } },
  required: ['text', 'flagged'],
  additionalProperties: false,
} as const;

export const summaryEntrySchema = {
  type: 'object',
  properties: {
    field: { type: 'string' },
    title: { type: 'string', description: 'Locale key' },
    kind: { type: 'string', enum: ['value', 'file', 'items'] },
    value: { type: ['string', 'number', 'boolean', 'null'] },
    label: { type: 'string', description: 'Locale key of an enum value' },
    file: {
      type: ['object', 'null'],
      properties: { id: { type: 'string' }, name: { type: 'string' }, type: { type: 'string' } },
      required: ['id', 'name', 'type'],
      additionalProperties: false,
    },
    items: { type: 'array', items: summaryItemSchema },
  },
  required: ['field', 'title', 'kind'],
  additionalProperties: false,
} as const;

export type SummaryItem = FromSchema<typeof summaryItemSchema>;
export type SummaryEntry = FromSchema<typeof summaryEntrySchema>;
