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
}

/** The visitor's own fields (payload name → stored column): the organiser decides which of them an exhibitor receives. */
export const VISITOR_FIELD_COLUMNS = {
  visitorName: 'visitor_name',
  salutation: 'salutation',
  company: 'company',
  businessNature: 'business_nature',
  jobTitle: 'job_title',
  country: 'country',
  mobile: 'mobile',
  email: 'email',
  phone: 'phone',
  address: 'address',
} as const satisfies Record<string, keyof LeadRecord>;
export type VisitorField = keyof typeof VISITOR_FIELD_COLUMNS;

export interface LeadPayloadOptions {
  /** Visitor fields the organiser withholds from exhibitors (left out of the payload). */
  hiddenVisitorFields?: readonly VisitorField[];
  /** The exhibitor's export mapping: a field's name in the payload instead of its own. */
  fieldNames?: Readonly<Record<string, string>>;
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
  };
  for (const hidden of options.hiddenVisitorFields ?? []) delete fields[hidden];
  const names = options.fieldNames;
  if (!names) return fields;
  return Object.fromEntries(Object.entries(fields).map(([name, value]) => [names[name] ?? name, value]));
}
