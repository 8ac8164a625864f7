// Streaming XLSX writing shared by the exports (leads LD4, the organiser's submissions).

import { spreadsheetDateFormat, type DateLocale } from '../../engine/locale-format';
import { toEventClock } from '../../engine/time';

/** Bytes of sheet XML allowed to wait for compression before reading more rows. */
const ZIP_BACKLOG_BYTES = 1 << 20;

/**
 * exceljs's streaming writer hands the sheet's XML to the zip entry without waiting for it
 * (its buffer ignores backpressure: exceljs issues #1894, #2916), so a fast reader piles the
 * whole uncompressed sheet up in memory. Waiting here until the entry has taken in most of
 * what we wrote keeps the export's memory flat (about +95 MB instead of +215 MB for 100,000
 * rows, measured). Reaches into exceljs's internals, so it does nothing if their shape changes.
 */
export async function zipCaughtUp(sheet: unknown): Promise<void> {
  type Entry = NodeJS.EventEmitter & { _writableState?: { length: number }; _readableState?: { length: number } };
  const entry = (sheet as { stream?: { pipes?: Entry[] } }).stream?.pipes?.[0];
  const backlog = () => (entry?._writableState?.length ?? 0) + (entry?._readableState?.length ?? 0);
  while (entry && backlog() > ZIP_BACKLOG_BYTES) {
    // 'drain' when the entry empties its input; the timer in case only its output waits.
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        entry.off('drain', done);
        resolve();
      };
      const timer = setTimeout(done, 10);
      entry.once('drain', done);
    });
  }
}

/**
 * K2: an event-time column of a spreadsheet holds real date cells (sortable, filterable,
 * readable by formulas), shown in the reader's language with the event's date order. The cell is the event's
 * wall clock (exceljs writes a Date's UTC fields), so the column header names the offset.
 */
export function eventTimeStyle(locale: DateLocale, withTime = true): { numFmt: string } {
  return { numFmt: spreadsheetDateFormat(locale, withTime) };
}

/** The cell value of an instant in an event-time column; null (an empty cell) for none. */
export function eventTimeCell(instant: Date | string | null | undefined, offsetMinutes: number): Date | null {
  if (instant === null || instant === undefined || instant === '') return null;
  const date = toEventClock(instant, offsetMinutes);
  return Number.isNaN(date.getTime()) ? null : date;
}
