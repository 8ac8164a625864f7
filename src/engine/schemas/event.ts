import type { FromSchema } from 'json-schema-to-ts';
import { LANGUAGES } from '../language';
import { DATE_ORDERS } from '../locale-format';
import { stringMap } from './json-schema';

// O2: an event as the organiser sets it up. This schema is the only description of it: the
// server validates requests with it and documents it in the OpenAPI document, the engine's rules
// (organiser-events.ts) and the console's edit page read the types derived from it. Times: show
// days and opening hours are in event time (UTC + offset); deadlines are instants (ISO 8601).

export const showDaySchema = {
  type: 'object',
  required: ['date', 'opens', 'closes'],
  properties: {
    date: { type: 'string', maxLength: 10, description: 'YYYY-MM-DD in event time' },
    opens: { type: 'string', maxLength: 5, description: 'HH:MM in event time' },
    closes: { type: 'string', maxLength: 5, description: 'HH:MM in event time' },
  },
  additionalProperties: false,
} as const;

export const eventInputSchema = {
  type: 'object',
  required: [
    'code',
    'names',
    'defaultLanguage',
    'showDays',
    'utcOffsetMinutes',
    'venue',
    'logoUrl',
    'url',
    'termsUrl',
    'supportEmail',
    'currency',
    'settings',
    'deadlines',
    'defaultModules',
    'defaultFlags',
    'defaultQuotas',
    'reminderDays',
  ],
  properties: {
    code: { type: 'string', maxLength: 64 },
    names: { ...stringMap({ type: 'string', maxLength: 200 }), description: "The event's name per language; the default language's is required" },
    defaultLanguage: { type: 'string', enum: [...LANGUAGES] },
    showDays: { type: 'array', maxItems: 31, items: showDaySchema },
    utcOffsetMinutes: { type: 'integer' },
    dateOrder: {
      type: 'string',
      enum: [...DATE_ORDERS],
      description:
        "How the event writes dates, whatever the reader's language: `dmy` 26/03/2027, `mdy` 03/26/2027, `ymd` 2027/03/26, `language` as the reader's language does (English 03/26/2027, Vietnamese 26/03/2027). The language keeps its month names and separators. Not sent: `language` for a new event, unchanged for an existing one",
    },
    venue: { type: 'string', maxLength: 300 },
    logoUrl: { type: 'string', maxLength: 2000 },
    url: { type: 'string', maxLength: 2000 },
    termsUrl: { type: 'string', maxLength: 2000 },
    supportEmail: { type: 'string', maxLength: 254 },
    currency: { type: 'string', maxLength: 3, description: "The event's currency: the prices the event sets (settings of kind money) are in it" },
    settings: {
      ...stringMap({ type: 'string', maxLength: 20 }),
      description: 'O2: setting name (forms.yaml `setting:` of a fee or an approval limit) → a decimal; a missing name keeps forms.yaml’s default',
    },
    deadlines: { ...stringMap({ type: 'string', maxLength: 40 }), description: 'Deadline name (forms.yaml) → ISO 8601 instant' },
    defaultModules: { type: 'array', items: { type: 'string' }, maxItems: 100 },
    defaultFlags: stringMap({ type: 'boolean' }),
    defaultQuotas: { ...stringMap({ type: 'integer' }), description: "Quota name → value for the event's exhibitors (unless overridden)" },
    reminderDays: { type: 'array', items: { type: 'integer' }, maxItems: 10 },
  },
  additionalProperties: false,
} as const;

export type ShowDayInput = FromSchema<typeof showDaySchema>;
export type EventInput = FromSchema<typeof eventInputSchema>;

/** The flag groups as the console shows them, each in forms.yaml's order, no name twice (participation-flags.ts). */
export const flagGroupsSchema = {
  type: 'object',
  description: 'The flags by group as the console shows them: the portal’s features, then the forms’ (forms.yaml sectionFlags, languageFlag, submitOnceFlag)',
  properties: {
    feature: { type: 'array', items: { type: 'string' } },
    section: { type: 'array', items: { type: 'string' } },
    language: { type: 'array', items: { type: 'string' } },
    submitOnce: { type: 'array', items: { type: 'string' } },
  },
  required: ['feature', 'section', 'language', 'submitOnce'],
  additionalProperties: false,
} as const;

/** O2 F5 O1: one setting forms.yaml names (forms/event-settings.ts), with its default and the forms that use it. */
export const eventSettingNameSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    kind: { type: 'string', enum: ['money', 'number'], description: "What it holds: a price (in the event's currency, at most 2 decimals) or a number (a limit)" },
    default: { type: 'string', description: "forms.yaml's value, used where the event sets none (a decimal string)" },
    currency: { type: 'string', description: "Currency of a money setting's default" },
    forms: { type: 'array', items: { type: 'string' } },
  },
  required: ['name', 'kind', 'default', 'forms'],
  additionalProperties: false,
} as const;

export type FlagGroups = FromSchema<typeof flagGroupsSchema>;
export type EventSettingName = FromSchema<typeof eventSettingNameSchema>;
export type EventSettingKind = EventSettingName['kind'];
