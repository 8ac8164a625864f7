import { EXPORT_FIELDS, type ExportColumn, type ExportField, type ExportPreset } from './schemas/export-mapping';
import type { LeadVisitorField } from './lead-fields';

// LD4: CRM-ready exports. An exhibitor maps lead fields to the column names its CRM's import
// expects; presets give the documented column names of Salesforce's lead import (Data Import
// Wizard, Lead fields) and HubSpot's contact import. The same mapping names the fields of a
// lead in webhook payloads (`crmRecord`). `portal` is the export as it always was (every field,
// headers in the user's language).

/** The visitor field an export field reads (a hidden one leaves the column out). */
export const VISITOR_FIELD_OF: Partial<Record<ExportField, LeadVisitorField>> = {
  visitorName: 'visitorName',
  firstName: 'visitorName',
  lastName: 'visitorName',
  salutation: 'salutation',
  company: 'company',
  businessNature: 'businessNature',
  jobTitle: 'jobTitle',
  country: 'country',
  mobile: 'mobile',
  email: 'email',
  phone: 'phone',
  address: 'address',
};

/**
 * The presets' columns. Salesforce: the Lead object's field labels its Data Import Wizard maps
 * by name (Last Name and Company are required there; Rating takes Hot/Warm/Cold). HubSpot: the
 * default contact properties its import maps by name.
 */
export const PRESET_COLUMNS: Record<'salesforce' | 'hubspot', readonly ExportColumn[]> = {
  salesforce: [
    { field: 'salutation', header: 'Salutation' },
    { field: 'firstName', header: 'First Name' },
    { field: 'lastName', header: 'Last Name' },
    { field: 'company', header: 'Company' },
    { field: 'jobTitle', header: 'Title' },
    { field: 'email', header: 'Email' },
    { field: 'phone', header: 'Phone' },
    { field: 'mobile', header: 'Mobile' },
    { field: 'address', header: 'Street' },
    { field: 'country', header: 'Country' },
    { field: 'businessNature', header: 'Industry' },
    { field: 'temperature', header: 'Rating' },
    { field: 'notes', header: 'Description' },
  ],
  hubspot: [
    { field: 'firstName', header: 'First Name' },
    { field: 'lastName', header: 'Last Name' },
    { field: 'email', header: 'Email' },
    { field: 'company', header: 'Company Name' },
    { field: 'jobTitle', header: 'Job Title' },
    { field: 'phone', header: 'Phone Number' },
    { field: 'mobile', header: 'Mobile Phone Number' },
    { field: 'address', header: 'Street Address' },
    { field: 'country', header: 'Country/Region' },
    { field: 'businessNature', header: 'Industry' },
    { field: 'notes', header: 'Message' },
  ],
};

/** The columns of a stored mapping: a preset's own, or the custom ones as stored (unknown fields dropped). */
export function mappingColumns(preset: ExportPreset, stored: unknown): ExportColumn[] {
  if (preset === 'salesforce' || preset === 'hubspot') return [...PRESET_COLUMNS[preset]];
  if (preset !== 'custom' || !Array.isArray(stored)) return [];
  return stored.flatMap((column) =>
    column && typeof column === 'object' && (EXPORT_FIELDS as readonly string[]).includes((column as ExportColumn).field) && typeof (column as ExportColumn).header === 'string'
      ? [{ field: (column as ExportColumn).field, header: (column as ExportColumn).header }]
      : [],
  );
}

/**
 * A visitor's name in two, as CRMs keep it: the last word is the last name, the words before it
 * the first name; a name of one word (or written without spaces, as Chinese and Japanese names
 * often are) is all last name, which both CRMs require.
 */
export function splitName(name: string): { firstName: string; lastName: string } {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length < 2) return { firstName: '', lastName: words[0] ?? '' };
  return { firstName: words.slice(0, -1).join(' '), lastName: words.at(-1)! };
}

/** A lead shaped as the leads API answers it (the fields a record reads). */
export type ApiShapedLead = Partial<Record<Exclude<ExportField, 'firstName' | 'lastName' | 'scannedBy' | 'interestedProducts'>, string | null>> & {
  scannedBy?: { name: string };
  interestedProducts?: readonly string[];
};

/** LD4: a lead (API shape, already filtered of hidden fields) as the mapping's columns, for a webhook payload: header → value; codes stay codes. */
export function crmRecord(lead: ApiShapedLead, columns: readonly ExportColumn[]): Record<string, string> {
  const name = splitName(lead.visitorName ?? '');
  const value = (field: ExportField): string => {
    if (field === 'firstName' || field === 'lastName') return name[field];
    if (field === 'scannedBy') return lead.scannedBy?.name ?? '';
    if (field === 'interestedProducts') return (lead.interestedProducts ?? []).join(', ');
    return lead[field] ?? '';
  };
  return Object.fromEntries(columns.map((column) => [column.header, value(column.field)]));
}
