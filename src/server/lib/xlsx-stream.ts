// Streaming XLSX writing shared by the exports (leads LD4, submissions of issue 9).

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
