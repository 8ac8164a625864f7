import type { FromSchema } from 'json-schema-to-ts';
import { FOLLOW_UP_ACTIONS, LEAD_TEMPERATURES, LEAD_TYPES } from '../leads';
import { BADGE_CODE_PATTERN, CLIENT_SCAN_ID_PATTERN, LEAD_NOTES_MAX } from '../leads-rules';

// LD1: one scan as the scanning app sends it, with the qualification it may capture offline. This
// schema is the only description of it: the server validates and documents it (the OpenAPI
// document a scanner-app developer follows) and stores the type derived from it; likewise what
// becomes of each scan (the portal's own scanner reads the same types).

export const scanSchema = {
  type: 'object',
  required: ['clientScanId', 'badgeCode', 'scannedAt'],
  additionalProperties: false,
  properties: {
    clientScanId: {
      type: 'string',
      pattern: CLIENT_SCAN_ID_PATTERN,
      description:
        "The app's own id of this scan, made once on the device when the badge is read (a UUID is ideal). Resending the same id never makes a second lead. 1-64 characters of A-Z a-z 0-9 . _ : -",
    },
    badgeCode: { type: 'string', pattern: BADGE_CODE_PATTERN, description: "The code read from the visitor's badge (1-64 printable characters, no spaces)" },
    scannedAt: {
      type: 'string',
      maxLength: 40,
      description:
        "When the badge was read (the device clock), ISO 8601 with a zone (e.g. 2027-03-17T02:15:00Z or 2027-03-17T10:15:00+08:00). At most 24 hours ahead of the server clock: send the real time of the scan (the examples' dates are illustrative).",
    },
    leadType: { type: 'string', enum: [...LEAD_TYPES], description: 'Optional qualification captured with the scan (code, see GET /oga/leads/{id})' },
    temperature: { type: 'string', enum: [...LEAD_TEMPERATURES], description: 'Optional: cold, warm or hot' },
    followUp: { type: 'string', enum: [...FOLLOW_UP_ACTIONS], description: 'Optional follow-up action code' },
    notes: { type: 'string', maxLength: LEAD_NOTES_MAX, description: 'Optional notes taken at the booth' },
    source: {
      type: 'string',
      enum: ['badgeScan', 'manualEntry'],
      description: "Optional: how the badge code was read: `badgeScan` (camera or scanner, the default) or `manualEntry` (typed in by hand). Kept as the lead's consent source.",
    },
    tagAnswers: {
      type: 'object',
      maxProperties: 20,
      additionalProperties: { type: 'array', maxItems: 20, items: { type: 'string', maxLength: 200 } },
      description:
        "Optional custom tag id → chosen choices (GET /oga/leads/options lists the tags). A choice that is not one of the tag's answers the scan `invalid` with problem `tagAnswers` (not stored).",
    },
  },
  examples: [
    { clientScanId: '7f1c2a9e-4b1d-4c1e-9a52-0c8e1b7d3f10', badgeCode: 'AFHE2027-V0000042', scannedAt: '2027-03-17T02:15:00Z' },
    {
      clientScanId: '2c4e6a80-1b3d-4f5a-9c7e-0d2f4b6a8c10',
      badgeCode: 'AFHE2027-V0000043',
      scannedAt: '2027-03-17T02:17:40Z',
      temperature: 'hot',
      notes: 'Wants samples of the honey.',
      tagAnswers: { '3': ['Honey'] },
    },
  ],
} as const;

/** What became of one scan sent (the scanning app and the portal's scanner read it). */
export const scanResultSchema = {
  type: 'object',
  required: ['clientScanId', 'status', 'leadId', 'badgeKnown', 'visitorName', 'company'],
  properties: {
    clientScanId: { type: 'string' },
    status: {
      type: 'string',
      enum: ['created', 'duplicate', 'quotaNotEnough', 'invalid'],
      description:
        "`created`: stored now, a new lead. `duplicate`: no new lead, `leadId` is the stored one, `reason` says why: `resend` (this clientScanId was already stored: nothing changed) or `alreadyScanned` (this badge already is a lead of the exhibitor, scanned by anyone of it: the scan is recorded on that lead — count, last seen, who — and not counted again in totals, lists or exports). `quotaNotEnough`: not stored, the team user's lead quota is used up (drop it or ask the exhibitor to raise the quota, then resend). `invalid`: not stored, see `problem`; resending it unchanged fails again.",
    },
    leadId: { type: ['integer', 'null'] },
    badgeKnown: {
      type: ['boolean', 'null'],
      description: 'false: the badge code matches no visitor of the event; the lead is kept and flagged, name and company are then completed when qualifying',
    },
    visitorName: { type: ['string', 'null'] },
    company: { type: ['string', 'null'] },
    reason: { type: 'string', enum: ['resend', 'alreadyScanned'], description: 'Only for `duplicate`: see `status`' },
    problem: {
      type: 'string',
      enum: ['format', 'future', 'past', 'tagAnswers'],
      description: "Only for `invalid`: scannedAt is not an ISO instant, is more than 24 h ahead, or before 2000; or a tag answer is not a choice of the exhibitor's custom tags",
    },
  },
  additionalProperties: false,
} as const;

/** The answer to a batch of scans: one result per scan, the counts, and the scanner's quota. */
export const scanBatchAnswer = {
  type: 'object',
  required: ['results', 'created', 'duplicates', 'refusedForQuota', 'invalid', 'quota', 'remaining'],
  properties: {
    results: { type: 'array', items: scanResultSchema, description: 'One result per scan sent, in the same order' },
    created: { type: 'integer' },
    duplicates: { type: 'integer' },
    refusedForQuota: { type: 'integer' },
    invalid: { type: 'integer' },
    quota: { type: ['integer', 'null'], description: "The team user's lead quota; null = no limit (exhibitors)" },
    remaining: { type: ['integer', 'null'], description: 'Leads this user may still scan; null = no limit' },
  },
  additionalProperties: false,
} as const;

export type ScanInput = FromSchema<typeof scanSchema>;
export type ScanResult = FromSchema<typeof scanResultSchema>;
export type ScanOutcome = FromSchema<typeof scanBatchAnswer>;
/** The qualification a scan may carry (qualify offline, one round trip). */
export type ScanQualification = Omit<ScanInput, 'clientScanId' | 'badgeCode' | 'scannedAt' | 'source'>;
