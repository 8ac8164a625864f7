import { chmodSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

// The data directory holds the database, uploads, exports and outgoing mail: private
// to the service user. The server runs with umask 077 (main.ts), so what it creates from now on
// is 600/700; a directory made by an older version (files 666, folders 777) is put right once at
// start — recognised by its own mode, so a directory already private is not walked every start.
// PGlite is the exception: its file system layer gives the files it writes mode 666 whatever the
// umask, so its directory is made private after every open, and its folder (700) keeps the files
// it adds later out of reach of anyone else.

/** Makes the directory and everything in it private (files 600, folders 700), when it is not yet. */
export function makePrivate(dir: string, { always = false } = {}): void {
  const mode = statSync(dir).mode & 0o777;
  if (mode === 0o700 && !always) return;
  const walk = (path: string) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const child = join(path, entry.name);
      if (entry.isDirectory()) {
        walk(child);
        chmodSync(child, 0o700);
      } else if (entry.isFile()) chmodSync(child, 0o600);
    }
  };
  walk(dir);
  chmodSync(dir, 0o700);
}

/** Files and folders the process creates from now on are private to its user. */
export function createPrivately(): void {
  process.umask(0o077);
}
