import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import { promisify } from 'node:util';

// The spreadsheet reader users have: LibreOffice Calc headless (Debian's libreoffice-calc,
// installed by scripts/ensure-system-deps.sh). A file is converted the way a user opening it
// would see it, and the cells read back from the converted copy.

const run = promisify(execFile);

/** CSV filter options: comma, double quote, UTF-8 (76), start at row 1. */
const CSV_OPTIONS = '44,34,76,1';

/**
 * Converts `bytes` (a file of type `from`) with LibreOffice into `to` and answers the result.
 * Each call uses its own user profile, so parallel test files never share LibreOffice's lock.
 */
export async function convertWithLibreOffice(bytes: Buffer, from: 'csv' | 'xlsx', to: 'csv' | 'xlsx'): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'portal-lo-'));
  try {
    const input = join(dir, `input.${from}`);
    writeFileSync(input, bytes);
    const args = [`-env:UserInstallation=file://${join(dir, 'profile')}`, '--headless', '--norestore'];
    if (from === 'csv') args.push(`--infilter=CSV:${CSV_OPTIONS}`);
    args.push('--convert-to', to === 'csv' ? `csv:Text - txt - csv (StarCalc):${CSV_OPTIONS}` : 'xlsx', '--outdir', join(dir, 'out'), input);
    await run('soffice', args, { timeout: 120_000 });
    return readFileSync(join(dir, 'out', `${basename(input, extname(input))}.${to}`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
