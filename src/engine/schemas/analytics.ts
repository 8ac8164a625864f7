import type { FromSchema } from 'json-schema-to-ts';
import { nameText, sameProperties } from './json-schema';

// LA1-LA5: the lead dashboard and the invitation recipients. These schemas are the only
// description of them: the server validates and documents its answers with them, the engine's
// rules (analytics.ts) and the browser read the types derived from them.

/** Leads per key of a breakdown (country, lead type, temperature). */
export const countByKeySchema = {
  type: 'object',
  properties: { key: { type: 'string' }, leads: { type: 'integer' } },
  required: ['key', 'leads'],
  additionalProperties: false,
} as const;

export const userCountSchema = {
  type: 'object',
  properties: { userId: { type: 'integer' }, name: { type: 'string' }, leads: { type: 'integer' } },
  required: ['userId', 'name', 'leads'],
  additionalProperties: false,
} as const;

export const leaderboardRowSchema = {
  ...userCountSchema,
  properties: { ...userCountSchema.properties, rank: { type: 'integer', description: 'Dense rank (1, 2, 2, 3) by leads' } },
  required: [...userCountSchema.required, 'rank'],
} as const;

export const trendPointSchema = {
  type: 'object',
  properties: {
    bucket: { type: 'integer', description: 'Event hour or event day (since 1970-01-01 in event time)' },
    label: { type: 'string', description: '"YYYY-MM-DD" or "HH:00", in event time' },
    leads: { type: 'integer' },
  },
  required: ['bucket', 'label', 'leads'],
  additionalProperties: false,
} as const;

export const showTrendSchema = {
  type: 'object',
  properties: {
    granularity: { type: 'string', enum: ['day', 'hour'] },
    showDays: { type: 'array', items: { type: 'string', format: 'date' }, description: 'The show days (event time)' },
    day: { type: ['string', 'null'], description: 'Hourly: the day shown (YYYY-MM-DD, event time)' },
    points: { type: 'array', items: trendPointSchema },
  },
  required: ['granularity', 'showDays', 'day', 'points'],
  additionalProperties: false,
} as const;

const SUMMARY_FIGURES = ['total', 'today', 'hot', 'qualified', 'unqualified', 'unknownBadges', 'activeTeamUsers', 'scanningUsers'] as const;

export const dashboardSchema = {
  type: 'object',
  properties: {
    offsetMinutes: { type: 'integer' },
    offsetLabel: { type: 'string', description: '"UTC+08:00"' },
    today: { type: 'string', description: 'Today in event time, YYYY-MM-DD' },
    summary: {
      type: 'object',
      description: 'activeTeamUsers: activated team user accounts; scanningUsers: users (exhibitor or team) with at least one lead',
      properties: sameProperties(SUMMARY_FIGURES, { type: 'integer' }),
      required: SUMMARY_FIGURES,
      additionalProperties: false,
    },
    trend: showTrendSchema,
    countries: { type: 'array', items: countByKeySchema },
    users: { type: 'array', items: userCountSchema },
    types: { type: 'array', items: countByKeySchema },
    temperatures: { type: 'array', items: countByKeySchema },
    leaderboard: { type: 'array', items: leaderboardRowSchema },
  },
  required: ['offsetMinutes', 'offsetLabel', 'today', 'summary', 'trend', 'countries', 'users', 'types', 'temperatures', 'leaderboard'],
  additionalProperties: false,
} as const;

/** LA5: one client invited by e-mail. */
export const invitationRecipientSchema = {
  type: 'object',
  required: ['name', 'email'],
  properties: { name: nameText(400), email: { type: 'string', maxLength: 400 } },
  additionalProperties: false,
} as const;

export type CountByKey = FromSchema<typeof countByKeySchema>;
export type UserCount = FromSchema<typeof userCountSchema>;
export type LeaderboardRow = FromSchema<typeof leaderboardRowSchema>;
export type TrendPoint = FromSchema<typeof trendPointSchema>;
export type ShowTrend = FromSchema<typeof showTrendSchema>;
export type TrendGranularity = ShowTrend['granularity'];
export type Dashboard = FromSchema<typeof dashboardSchema>;
export type InvitationRecipient = FromSchema<typeof invitationRecipientSchema>;
