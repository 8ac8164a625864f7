import { createWriteStream } from 'node:fs';
import { formStatus } from '../../../engine/forms/definitions';
import type { FileReference } from '../../../engine/schemas/file';
import { shownCountry } from '../../../engine/forms/country-field';
import { submissionLayout, valueAt, type SubmissionColumn } from '../../../engine/forms/submission-columns';
import { neutraliseCell } from '../../../engine/leads-rules';
import { lookup, type LocaleTable } from '../../../engine/i18n';
import { formatOffset } from '../../../engine/time';
import type { FormEntriesService } from '../../plugins/form-entries';
import { translate } from '../../lib/messages';
import { eventTimeCell, eventTimeStyle } from '../../lib/xlsx-stream';
import { writeXlsxSheet, type XlsxCell } from '../../lib/xlsx-writer';

// Submissions export: one form's current submissions across the event's exhibitors, one
// row per list item (every badge, vehicle, visa applicant, product…) or per exhibitor, with the
// columns the form's schema gives, headers in the organiser's language, files as links, the item's
// number a number cell. Written chunk by chunk with the streaming sheet writer of the lead exports
// (lib/xlsx-writer): exceljs's streaming writer spent most of a 500,000-badge export hashing a
// style per cell and building XML node by node (profiled).

/** Participations read per query: bounded memory however many exhibitors and items. */
const CHUNK = 100;

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

/** A column's labels, looked up once per export. */
interface Labels {
  label(code: string): string;
  yes: string;
  no: string;
}

/** A one-argument lookup remembered by its argument (a handful of codes per column). */
function memo<K>(look: (key: K) => string): (key: K) => string {
  const known = new Map<K, string>();
  return (key) => {
    let text = known.get(key);
    if (text === undefined) {
      text = look(key);
      known.set(key, text);
    }
    return text;
  };
}

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
  const render = (column: SubmissionColumn, value: unknown, labels: Labels): XlsxCell => {
    switch (column.kind) {
      case 'boolean':
        return value === true ? labels.yes : value === false ? labels.no : '';
      case 'enum':
        return neutraliseCell(Array.isArray(value) ? value.map((code) => labels.label(String(code))).join(', ') : labels.label(String(value)));
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

  // Every column's cell is built by one function made here once: labels (enum codes, yes/no,
  // statuses) are looked up once per code, not once per cell.
  const cellOf = (column: SubmissionColumn): ((value: unknown) => XlsxCell) => {
    const label = memo((code: string) => {
      const key = `${column.enumKeyPrefix}${code}`;
      const text = t(key);
      return text === key ? code : text;
    });
    const labels = { label, yes: t('organiser.submissions.yes'), no: t('organiser.submissions.no') };
    return (value) => (value === undefined || value === null || value === '' ? '' : render(column, value, labels));
  };
  const formCells = layout.formColumns.map((column) => ({ path: column.path, cell: cellOf(column) }));
  const itemCells = layout.itemColumns.map((column) => ({ path: column.path, cell: cellOf(column) }));
  const now = new Date();
  type Approval = Awaited<ReturnType<FormEntriesService['submittedPage']>>[number]['approval_status'];
  const statusLabel = memo((approval: Approval) => t(`formRuntime.status.${formStatus({ status: 'submitted', approval_status: approval }, null, now)}`));

  const output = createWriteStream(request.path, { mode: 0o600 });
  const sheet = await writeXlsxSheet(output, formId, [
    { header: t('organiser.progress.exhibitor'), width: 30 },
    { header: t('organiser.progress.code'), width: 14 },
    { header: t('organiser.progress.booth'), width: 16 },
    {
      header: `${t('organiser.submissions.submittedAt')} (${formatOffset(request.utcOffsetMinutes)})`,
      width: 20,
      kind: 'date',
      numFmt: eventTimeStyle({ language, dateOrder: request.dateOrder }).numFmt,
    },
    { header: t('organiser.submissions.status'), width: 18 },
    ...layout.formColumns.map((c) => ({ header: neutraliseCell(header(c)), width: 22 })),
    ...(layout.list ? [{ header: t('organiser.submissions.itemNumber'), width: 6, kind: 'number' as const }] : []),
    ...layout.itemColumns.map((c) => ({ header: neutraliseCell(header(c)), width: 22 })),
  ]);

  let rows = 0;
  let after = 0;
  try {
    for (;;) {
      const chunk = await entries.submittedPage(eventId, formId, after, CHUNK);
      for (const entry of chunk) {
        const data = (entry.submitted_data ?? {}) as Record<string, unknown>;
        const lead: XlsxCell[] = [
          neutraliseCell(entry.name),
          neutraliseCell(entry.code ?? ''),
          neutraliseCell(entry.booth_num),
          eventTimeCell(entry.submitted_at, request.utcOffsetMinutes),
          statusLabel(entry.approval_status),
          ...formCells.map((c) => c.cell(valueAt(data, c.path))),
        ];
        if (!layout.list) {
          await sheet.addRow(lead);
          rows += 1;
          continue;
        }
        const items = Array.isArray(data[layout.list]) ? (data[layout.list] as unknown[]) : [];
        for (let index = 0; index < items.length; index++) {
          const item = items[index];
          await sheet.addRow([...lead, index + 1, ...itemCells.map((c) => c.cell(valueAt(item, c.path)))]);
          rows += 1;
        }
      }
      if (chunk.length < CHUNK) break;
      after = chunk[chunk.length - 1]!.id;
    }
    await sheet.finish();
  } catch (error) {
    output.destroy(error as Error);
    throw error;
  }
  return rows;
}
