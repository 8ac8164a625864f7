import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Reads back the text of a PDF as a reader would: with poppler's pdftotext (Debian's
// poppler-utils, installed by scripts/ensure-system-deps.sh), which follows the fonts' own
// character maps, so text in any script the portal draws comes back as typed.

/** The text of every page; `layout` keeps the page's columns side by side. */
export async function pdfText(bytes: Uint8Array, { layout = false } = {}): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'pdf-text-'));
  try {
    const file = join(dir, 'document.pdf');
    writeFileSync(file, bytes);
    return execFileSync('pdftotext', [...(layout ? ['-layout'] : []), '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
