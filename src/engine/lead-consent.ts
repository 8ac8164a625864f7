import type { FromSchema } from 'json-schema-to-ts';

// LD2: consent kept with every lead. The organiser records, per event, the consent text visitors
// agreed to at registration and the legal basis of keeping their data; each lead carries how it
// was made (its source) and whether the visitor has withdrawn. A withdrawn lead keeps the
// exhibitor's own data (badge code, qualification, notes, scans) but no visitor field: they are
// emptied in the stored lead itself, so every later answer, export, API read and webhook payload
// goes without them, the same way the hidden-field filter empties a hidden field.

/** Legal bases (GDPR art. 6(1) and the like), as codes; labels are `privacy.consent.basis.<code>`. */
export const CONSENT_BASES = ['consent', 'legitimateInterest', 'contract', 'legalObligation'] as const;
export type ConsentBasis = (typeof CONSENT_BASES)[number];

/**
 * How a lead was made: the badge read by the camera or scanner (`badgeScan`), its code typed in
 * by hand (`manualEntry`), or a visitor without a known badge taken from a business card photo
 * (`businessCard`). Labels are `leads.consent.source.<code>`.
 */
export const CONSENT_SOURCES = ['badgeScan', 'manualEntry', 'businessCard'] as const;
export type ConsentSource = (typeof CONSENT_SOURCES)[number];

export const CONSENT_TEXT_MAX = 4000;

/** A lead's consent as every way out shows it. */
export const leadConsentSchema = {
  type: 'object',
  description:
    "LD2: the visitor's consent. `withdrawn`: the visitor withdrew it through the organiser (the visitor fields are then empty for good); `source`: how the lead was made (label at leads.consent.source.<code>)",
  properties: {
    state: { type: 'string', enum: ['given', 'withdrawn'] },
    withdrawnAt: { type: ['string', 'null'], format: 'date-time' },
    source: { type: 'string', enum: [...CONSENT_SOURCES] },
  },
  required: ['state', 'withdrawnAt', 'source'],
  additionalProperties: false,
} as const;
export type LeadConsent = FromSchema<typeof leadConsentSchema>;

/** The consent of a stored lead (its `consent_source` and `consent_withdrawn_at`). */
export function leadConsent(source: string | null | undefined, withdrawnAt: Date | string | null | undefined): LeadConsent {
  const known = (CONSENT_SOURCES as readonly string[]).includes(source ?? '') ? (source as ConsentSource) : 'badgeScan';
  return withdrawnAt ? { state: 'withdrawn', withdrawnAt: new Date(withdrawnAt).toISOString(), source: known } : { state: 'given', withdrawnAt: null, source: known };
}
