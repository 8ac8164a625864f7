import { crmRecord } from './crm-export';
import type { ExportColumn } from './schemas/export-mapping';
import { leadConsent } from './lead-consent';
import { withoutHiddenFields, type LeadVisitorField } from './lead-fields';

// LD: the one place a lead becomes what leaves the portal for an exhibitor's own systems
// (webhook payloads now; exports and the leads API read it too). The exhibitor's export mapping
// (which field goes under which name) and the organiser's visitor-field visibility (which visitor
// fields an exhibitor gets) are applied here, so every way out carries the same fields.

/** A lead as stored (the columns the payload reads). */
export interface LeadRecord {
  id: number;
  badge_code: string;
  badge_known: boolean;
  visitor_name: string;
  salutation: string;
  company: string;
  business_nature: string;
  job_title: string;
  country: string;
  mobile: string;
  email: string;
  phone: string;
  address: string;
  notes: string;
  lead_type: string | null;
  temperature: string | null;
  follow_up: string | null;
  tag_answers: Record<string, string[]> | null;
  interested_products: string[] | null;
  scanned_by: number;
  scanned_at: Date | string;
  updated_at: Date | string | null;
  scan_count: number;
  consent_source?: string;
  consent_withdrawn_at?: Date | string | null;
}

export interface LeadPayloadOptions {
  /** Visitor fields the organiser withholds from this event's exhibitors (emptied, as in every answer to them). */
  hiddenVisitorFields?: readonly LeadVisitorField[];
  /** The exhibitor's CRM mapping (its columns in order): the payload then carries `crm`, the lead as those columns. */
  crmColumns?: readonly ExportColumn[];
}

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

/** LD: a lead as webhook receivers (and other ways out) get it. */
export function leadPayload(lead: LeadRecord, options: LeadPayloadOptions = {}): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    id: Number(lead.id),
    badgeCode: lead.badge_code,
    badgeKnown: lead.badge_known,
    visitorName: lead.visitor_name,
    salutation: lead.salutation,
    company: lead.company,
    businessNature: lead.business_nature,
    jobTitle: lead.job_title,
    country: lead.country,
    mobile: lead.mobile,
    email: lead.email,
    phone: lead.phone,
    address: lead.address,
    notes: lead.notes,
    leadType: lead.lead_type,
    temperature: lead.temperature,
    followUp: lead.follow_up,
    tagAnswers: lead.tag_answers ?? {},
    interestedProducts: lead.interested_products ?? [],
    scannedBy: lead.scanned_by,
    scannedAt: iso(lead.scanned_at),
    updatedAt: iso(lead.updated_at),
    scanCount: lead.scan_count,
    consent: leadConsent(lead.consent_source, lead.consent_withdrawn_at),
  };
  const shown = withoutHiddenFields(fields, options.hiddenVisitorFields ?? []);
  const columns = options.crmColumns ?? [];
  if (columns.length === 0) return shown;
  const scannedAt = typeof shown.scannedAt === 'string' ? shown.scannedAt : null;
  return { ...shown, crm: crmRecord({ ...textFields(shown), scannedAt, interestedProducts: lead.interested_products ?? [] }, columns) };
}

/** The payload's text fields, as the CRM record reads them. */
function textFields(payload: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(payload).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}
