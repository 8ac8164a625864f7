import ExcelJS from 'exceljs';
import { formStatus } from '../../../engine/forms/definitions';
import type { FileReference } from '../../../engine/schemas/file';
import { shownCountry } from '../../../engine/forms/country-field';
import { submissionLayout, valueAt, type SubmissionColumn } from '../../../engine/forms/submission-columns';
import { neutraliseCell } from '../../../engine/leads-rules';
import { lookup, type LocaleTable } from '../../../engine/i18n';
import { formatOffset } from '../../../engine/time';
import type { FormEntriesService } from '../../plugins/form-entries';
import { translate } from '../../lib/messages';
import { eventTimeCell, eventTimeStyle, zipCaughtUp } from '../../lib/xlsx-stream';

// Submissions export: one form's current submissions across the event's exhibitors, one
// row per list item (every badge, vehicle, visa applicant, product…) or per exhibitor, with the
// columns the form's schema gives, headers in the organiser's language, files as links. Written
// chunk by chunk with exceljs's streaming writer, like the lead exports.

/** Participations read per query: bounded memory however many exhibitors and items. */
const CHUNK = 500;

export interface SubmissionsExportRequest {
  /** The form entries (a keyset page at a time). */
  entries: FormEntriesService;
  eventId: number;
  utcOffsetMinutes: number;
  /** The event's date order (the submitted-at column is in the organiser's language, in that order). */
  dateOrder: string;
  formId: string;
  schema: unknown;
  language: string;
  /** The form's own strings by language as the set in use has them (an event patch's new question is titled there). */
  strings: Record<string, LocaleTable>;
  /** Absolute base of the file links (PUBLIC_URL). */
  publicUrl: string;
  path: string;
}

type CellValue = string | Date | null | { text: string; hyperlink: string };

/** A file field's value: the export links the file by its reference's id and shows its name. */
type Reference = Pick<FileReference, 'id' | 'name'>;
const isReference = (value: unknown): value is Reference =>
  typeof value === 'object' && value !== null && typeof (value as Reference).id === 'string' && typeof (value as Reference).name === 'string';

/** Answers the number of data rows written. */
export async function writeSubmissionsExport(request: SubmissionsExportRequest): Promise<number> {
  const { entries, eventId, formId, language, publicUrl } = request;
  // A form's own keys read the set in use first (a question an event patch adds has its title only
  // there), then the built locale tables; English before the key itself when the language lacks it.
  const prefix = `forms.${formId}.`;
  const own = (lang: string, key: string) => (key.startsWith(prefix) ? lookup(request.strings[lang] ?? {}, key.slice(prefix.length)) : undefined);
  const t = (key: string) => {
    const text = own(language, key) ?? translate(language, key);
    return text === key ? (own('en', key) ?? key) : text;
  };
  const layout = submissionLayout(formId, request.schema);
  const header = (column: SubmissionColumn) => column.titleKeys.map(t).join(' · ');
  const render = (column: SubmissionColumn, value: unknown): CellValue => {
    if (value === undefined || value === null || value === '') return '';
    switch (column.kind) {
      case 'boolean':
        return value === true ? t('organiser.submissions.yes') : value === false ? t('organiser.submissions.no') : '';
      case 'enum': {
        const label = (code: unknown) => {
          const key = `${column.enumKeyPrefix}${String(code)}`;
          const text = t(key);
          return text === key ? String(code) : text;
        };
        return neutraliseCell(Array.isArray(value) ? value.map(label).join(', ') : label(value));
      }
      case 'country':
        return neutraliseCell(shownCountry(value, language));
      case 'file':
        return isReference(value) ? { text: neutraliseCell(value.name), hyperlink: `${publicUrl}/oga/uploads/${encodeURIComponent(value.id)}` } : '';
      case 'list':
        return neutraliseCell(
          (Array.isArray(value) ? value : [value])
            .map((item) =>
              typeof item === 'object' && item !== null
                ? Object.values(item)
                    .filter((v) => typeof v !== 'object' || v === null)
                    .join(' / ')
                : String(item),
            )
            .join('; '),
        );
      default:
        return neutraliseCell(String(value));
    }
  };

  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: request.path, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(formId.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = [
    { header: t('organiser.progress.exhibitor'), width: 30 },
    { header: t('organiser.progress.code'), width: 14 },
    { header: t('organiser.progress.booth'), width: 16 },
    {
      header: `${t('organiser.submissions.submittedAt')} (${formatOffset(request.utcOffsetMinutes)})`,
      width: 20,
      style: eventTimeStyle({ language, dateOrder: request.dateOrder }),
    },
    { header: t('organiser.submissions.status'), width: 18 },
    ...layout.formColumns.map((c) => ({ header: neutraliseCell(header(c)), width: 22 })),
    ...(layout.list ? [{ header: t('organiser.submissions.itemNumber'), width: 6 }] : []),
    ...layout.itemColumns.map((c) => ({ header: neutraliseCell(header(c)), width: 22 })),
  ];
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();

  const now = new Date();
  let rows = 0;
  let after = 0;
  for (;;) {
    const chunk = await entries.submittedPage(eventId, formId, after, CHUNK);
    for (const entry of chunk) {
      const data = (entry.submitted_data ?? {}) as Record<string, unknown>;
      const lead: CellValue[] = [
        neutraliseCell(entry.name),
        neutraliseCell(entry.code ?? ''),
        neutraliseCell(entry.booth_num),
        eventTimeCell(entry.submitted_at, request.utcOffsetMinutes),
        t(`formRuntime.status.${formStatus({ status: 'submitted', approval_status: entry.approval_status }, null, now)}`),
        ...layout.formColumns.map((c) => render(c, valueAt(data, c.path))),
      ];
      const items = layout.list ? (Array.isArray(data[layout.list]) ? (data[layout.list] as unknown[]) : []) : [null];
      items.forEach((item, index) => {
        const cells = layout.list ? [...lead, String(index + 1), ...layout.itemColumns.map((c) => render(c, valueAt(item, c.path)))] : lead;
        const row = sheet.addRow(cells);
        row.commit();
        rows += 1;
      });
      await zipCaughtUp(sheet);
    }
    if (chunk.length < CHUNK) break;
    after = chunk[chunk.length - 1]!.id;
  }
  sheet.commit();
  await workbook.commit();
  return rows;
}
