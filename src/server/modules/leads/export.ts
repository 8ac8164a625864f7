import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { Kysely } from 'kysely';
import { countryName, formatEventTime } from '../../../engine/locale-format';
import { formatOffset } from '../../../engine/time';
import { csvField, type ExportFormat, type LeadFilters } from '../../../engine/leads-rules';
import type { TagDefinition } from '../../../engine/schemas/custom-tag';
import type { Database } from '../../db/schema';
import { translate } from '../../lib/messages';
import { eventTimeCell, eventTimeStyle } from '../../lib/xlsx-stream';
import { writeXlsxSheet } from '../../lib/xlsx-writer';
import { leadChunks, type LeadExportRow, type LeadScope } from './query';

// LD4: the filtered leads as CSV or XLSX, written to a file chunk by chunk (keyset reads, a
// streaming workbook writer), so 100,000 leads never sit in memory at once. Headers, enum
// labels, country names and dates are in the user's language, times in event time; CSV cells
// that could run as a formula are neutralised, XLSX cells are typed text (times: date cells).

/** A text column, or an event-time column (a date cell in XLSX, the user's notation in CSV). */
type Column = { header: string; width: number } & (
  | { value: (row: LeadExportRow) => string; time?: undefined }
  | { time: (row: LeadExportRow) => Date | string; value?: undefined }
);

function columns(language: string, offsetMinutes: number, tags: TagDefinition[]): Column[] {
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
    { header: t('leads.field.visitorName'), width: 24, value: (r) => r.visitor_name },
    { header: t('leads.field.salutation'), width: 10, value: (r) => r.salutation },
    { header: t('leads.field.company'), width: 28, value: (r) => r.company },
    { header: t('leads.field.businessNature'), width: 22, value: (r) => r.business_nature },
    { header: t('leads.field.jobTitle'), width: 22, value: (r) => r.job_title },
    { header: t('leads.field.country'), width: 16, value: (r) => country(r.country) },
    { header: t('leads.field.mobile'), width: 18, value: (r) => r.mobile },
    { header: t('leads.field.email'), width: 28, value: (r) => r.email },
    { header: t('leads.field.phone'), width: 18, value: (r) => r.phone },
    { header: t('leads.field.address'), width: 36, value: (r) => r.address },
    { header: t('leads.field.badgeCode'), width: 16, value: (r) => r.badge_code },
    { header: t('leads.field.leadType'), width: 20, value: (r) => label('type', r.lead_type) },
    { header: t('leads.field.temperature'), width: 12, value: (r) => label('temperature', r.temperature) },
    { header: t('leads.field.followUp'), width: 28, value: (r) => label('followUp', r.follow_up) },
    { header: t('leads.field.notes'), width: 36, value: (r) => r.notes },
    { header: t('leads.field.scannedBy'), width: 20, value: (r) => r.scanned_by_name ?? '' },
    {
      header: `${t('leads.field.scannedAt')} (${formatOffset(offsetMinutes)})`,
      width: 18,
      time: (r) => r.scanned_at,
    },
    { header: t('leads.field.interestedProducts'), width: 28, value: (r) => (Array.isArray(r.interested_products) ? r.interested_products.join(', ') : '') },
  ];
  const tagColumns: Column[] = tags.map((tag) => ({
    header: tag.name,
    width: 20,
    value: (r) => ((r.tag_answers as Record<string, string[]> | null)?.[String(tag.id)] ?? []).join(', '),
  }));
  return [...base, ...tagColumns];
}

export interface ExportRequest {
  db: Kysely<Database>;
  scope: LeadScope;
  filters: LeadFilters;
  format: ExportFormat;
  language: string;
  tags: TagDefinition[];
  /** Where the file goes (the file store's put reads it); ended when the file is whole. */
  output: Writable;
}

/** Writes the export file to the output; answers the number of leads in it. */
export async function writeExport({ db, scope, filters, format, language, tags, output }: ExportRequest): Promise<number> {
  const cols = columns(language, scope.offsetMinutes, tags);
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
        for (const row of chunk) text += `${cols.map((c) => csvField(c.time ? formatEventTime(c.time(row), language, scope.offsetMinutes) : c.value(row))).join(',')}\r\n`;
        rows += chunk.length;
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
    cols.map((c) => ({ header: c.header, width: c.width, ...(c.time ? { kind: 'date' as const, numFmt: eventTimeStyle(language).numFmt } : {}) })),
  );
  try {
    for await (const chunk of leadChunks(db, scope, filters)) {
      for (const row of chunk) await sheet.addRow(cols.map((c) => (c.time ? eventTimeCell(c.time(row), scope.offsetMinutes) : c.value(row))));
      rows += chunk.length;
    }
    await sheet.finish();
  } catch (error) {
    output.destroy(error as Error);
    throw error;
  }
  return rows;
}
