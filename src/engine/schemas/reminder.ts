import type { FromSchema } from 'json-schema-to-ts';

// O2: the days before each deadline on which exhibitors with mandatory forms missing are reminded,
// as the organiser sets them. This schema is the only description: the server's route validates
// the request with it and the console's reminders page edits it through the form runtime.

export const reminderDaysSchema = {
  type: 'object',
  required: ['days'],
  properties: { days: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 365 }, maxItems: 10, uniqueItems: true } },
  additionalProperties: false,
} as const;

export type ReminderDays = FromSchema<typeof reminderDaysSchema>;
