import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { Kysely } from 'kysely';
import { countryName, formatEventTime } from '../../../engine/locale-format';
import { formatOffset } from '../../../engine/time';
import { csvField, type ExportFormat, type LeadFilters } from '../../../engine/leads-rules';
import type { TagDefinition } from '../../../engine/schemas/custom-tag';
import type { Database } from '../../db/schema';
import type { LeadVisitorField } from '../../../engine/lead-fields';
import { splitName, VISITOR_FIELD_OF } from '../../../engine/crm-export';
import type { ExportColumn, ExportField } from '../../../engine/schemas/export-mapping';
import { leadConsent } from '../../../engine/lead-consent';
import { translate } from '../../lib/messages';
import { eventTimeCell, eventTimeStyle } from '../../lib/xlsx-stream';
import { writeXlsxSheet } from '../../lib/xlsx-writer';
import { leadChunks, type LeadExportRow, type LeadScope } from './query';

// LD4: the filtered leads as CSV or XLSX, written to a file chunk by chunk (keyset reads, a
// streaming workbook writer), so 100,000 leads never sit in memory at once. Headers, enum
// labels, country names and dates are in the user's language, times in event time; CSV cells
// that could run as a formula are neutralised, XLSX cells are typed text (times: date cells).

/** A text column, or an event-time column (a date cell in XLSX, the user's notation in CSV). */
type Column = { header: string; width: number; field?: ExportField } & (
  | { value: (row: LeadExportRow) => string; time?: undefined }
  | { time: (row: LeadExportRow) => Date | string; value?: undefined }
);

function columns(language: string, offsetMinutes: number, tags: TagDefinition[], hidden: readonly LeadVisitorField[], mapping: readonly ExportColumn[]): Column[] {
  const t = (key: string, params?: Record<string, string | number>) => translate(language, key, params);
  const label = (group: 'type' | 'temperature' | 'followUp', code: string | null) => (code ? t(`leads.${group}.${code}`) : '');
  // One export names the same few hundred countries 100,000 times: each name is looked up once
  // (Intl.DisplayNames per call was a tenth of the export's time, profiled).
  const countries = new Map<string, string>();
  const country = (code: string) => {
    const known = countries.get(code);
    if (known !== undefined) return known;
    const name = countryName(code, language);
    countries.set(code, name);
    return name;
  };
  const base: Column[] = [
    { field: 'visitorName', header: t('leads.field.visitorName'), width: 24, value: (r) => r.visitor_name },
    { field: 'salutation', header: t('leads.field.salutation'), width: 10, value: (r) => r.salutation },
    { field: 'company', header: t('leads.field.company'), width: 28, value: (r) => r.company },
    { field: 'businessNature', header: t('leads.field.businessNature'), width: 22, value: (r) => r.business_nature },
    { field: 'jobTitle', header: t('leads.field.jobTitle'), width: 22, value: (r) => r.job_title },
    { field: 'country', header: t('leads.field.country'), width: 16, value: (r) => country(r.country) },
    { field: 'mobile', header: t('leads.field.mobile'), width: 18, value: (r) => r.mobile },
    { field: 'email', header: t('leads.field.email'), width: 28, value: (r) => r.email },
    { field: 'phone', header: t('leads.field.phone'), width: 18, value: (r) => r.phone },
    { field: 'address', header: t('leads.field.address'), width: 36, value: (r) => r.address },
    { field: 'badgeCode', header: t('leads.field.badgeCode'), width: 16, value: (r) => r.badge_code },
    { field: 'leadType', header: t('leads.field.leadType'), width: 20, value: (r) => label('type', r.lead_type) },
    { field: 'temperature', header: t('leads.field.temperature'), width: 12, value: (r) => label('temperature', r.temperature) },
    { field: 'followUp', header: t('leads.field.followUp'), width: 28, value: (r) => label('followUp', r.follow_up) },
    { field: 'notes', header: t('leads.field.notes'), width: 36, value: (r) => r.notes },
    { field: 'scannedBy', header: t('leads.field.scannedBy'), width: 20, value: (r) => r.scanned_by_name ?? '' },
    {
      field: 'scannedAt',
      header: `${t('leads.field.scannedAt')} (${formatOffset(offsetMinutes)})`,
      width: 18,
      time: (r) => r.scanned_at,
    },
    {
      field: 'interestedProducts',
      header: t('leads.field.interestedProducts'),
      width: 28,
      value: (r) => (Array.isArray(r.interested_products) ? r.interested_products.join(', ') : ''),
    },
  ];
  // The visitor fields the organiser keeps from exhibitors are left out of the file.
  const shown = (column: Column) => {
    const visitorField = column.field && VISITOR_FIELD_OF[column.field];
    return !visitorField || !hidden.includes(visitorField);
  };
  if (mapping.length > 0) {
    // A CRM mapping: its columns in its order under its names (no custom tag columns).
    const split: Column[] = [
      { field: 'firstName', header: '', width: 18, value: (r) => splitName(r.visitor_name).firstName },
      { field: 'lastName', header: '', width: 18, value: (r) => splitName(r.visitor_name).lastName },
    ];
    const byField = new Map([...base, ...split].map((column) => [column.field, column]));
    return mapping.flatMap((mapped) => {
      const column = byField.get(mapped.field);
      return column && shown(column) ? [{ ...column, header: mapped.header }] : [];
    });
  }
  const tagColumns: Column[] = tags.map((tag) => ({
    header: tag.name,
    width: 20,
    value: (r) => ((r.tag_answers as Record<string, string[]> | null)?.[String(tag.id)] ?? []).join(', '),
  }));
  // LD2: the visitor's consent and how the lead was made (a withdrawn lead's visitor fields are empty).
  const consentColumns: Column[] = [
    { header: t('leads.field.consent'), width: 14, value: (r) => t(`leads.consent.state.${leadConsent(r.consent_source, r.consent_withdrawn_at).state}`) },
    { header: t('leads.field.consentSource'), width: 16, value: (r) => t(`leads.consent.source.${leadConsent(r.consent_source, null).source}`) },
  ];
  return [...base.filter(shown), ...consentColumns, ...tagColumns];
}

export interface ExportRequest {
  db: Kysely<Database>;
  scope: LeadScope;
  filters: LeadFilters;
  format: ExportFormat;
  language: string;
  /** The event's date order (dates are in the caller's language, in the event's order); none: the language's own. */
  dateOrder?: string;
  tags: TagDefinition[];
  /** The visitor fields the organiser keeps from the event's exhibitors (left out of the file); none when absent. */
  hidden?: readonly LeadVisitorField[];
  /** LD4: the exhibitor's CRM mapping (its columns in order); empty = the portal's export. */
  mapping?: readonly ExportColumn[];
  /** Where the file goes (the file store's put reads it); ended when the file is whole. */
  output: Writable;
  /** LD2: told the ids of the leads written, chunk by chunk (the export records which leads it holds). */
  onLeads?: (ids: number[]) => void;
}

/** Writes the export file to the output; answers the number of leads in it. */
export async function writeExport({ db, scope, filters, format, language, dateOrder, tags, hidden = [], mapping = [], output, onLeads }: ExportRequest): Promise<number> {
  const cols = columns(language, scope.offsetMinutes, tags, hidden, mapping);
  const dates = { language, dateOrder };
  let rows = 0;
  if (format === 'csv') {
    const out = output;
    const write = async (text: string) => {
      if (!out.write(text)) await once(out, 'drain');
    };
    try {
      // A byte-order mark so spreadsheet programs read the UTF-8 (names in any script) correctly.
      await write(`\ufeff${cols.map((c) => csvField(c.header)).join(',')}\r\n`);
      for await (const chunk of leadChunks(db, scope, filters)) {
        let text = '';
        for (const row of chunk) text += `${cols.map((c) => csvField(c.time ? formatEventTime(c.time(row), dates, scope.offsetMinutes) : c.value(row))).join(',')}\r\n`;
        rows += chunk.length;
        onLeads?.(chunk.map((row) => Number(row.id)));
        await write(text);
      }
      out.end();
    } catch (error) {
      out.destroy(error as Error);
      throw error;
    }
    return rows;
  }

  // Every text cell is a typed text cell (format "@"): a spreadsheet shows it exactly as stored
  // and never runs it, so nothing needs neutralising (no apostrophe on "+84 31864359"), and an
  // edited cell stays text. Event times are real date cells instead, in the user's language's
  // order of fields.
  const sheet = await writeXlsxSheet(
    output,
    translate(language, 'leads.export.sheet'),
    cols.map((c) => ({ header: c.header, width: c.width, ...(c.time ? { kind: 'date' as const, numFmt: eventTimeStyle(dates).numFmt } : {}) })),
  );
  try {
    for await (const chunk of leadChunks(db, scope, filters)) {
      for (const row of chunk) await sheet.addRow(cols.map((c) => (c.time ? eventTimeCell(c.time(row), scope.offsetMinutes) : c.value(row))));
      rows += chunk.length;
      onLeads?.(chunk.map((row) => Number(row.id)));
    }
    await sheet.finish();
  } catch (error) {
    output.destroy(error as Error);
    throw error;
  }
  return rows;
}
