import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { DEMO_LOGINS } from '../db/seed';

// The demo accounts share one published password: harmless on a laptop, an open door on a
// server people reach. The server warns at start when they exist and PUBLIC_URL is not local.

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]', '0.0.0.0']);

export function isLocalAddress(publicUrl: string): boolean {
  const host = new URL(publicUrl).hostname.toLowerCase();
  return LOCAL_HOSTS.has(host) || host.endsWith('.localhost') || /^127\./.test(host);
}

/** The warning to log, or null when the demo accounts are absent or the portal is only local. */
export async function demoExposureWarning(db: Kysely<Database>, publicUrl: string): Promise<string | null> {
  if (isLocalAddress(publicUrl)) return null;
  const found = await db.selectFrom('users').select('login').where('login_key', 'in', DEMO_LOGINS).where('status', '=', 'active').execute();
  if (found.length === 0) return null;
  return (
    `The demo accounts (${found.map((row) => row.login).join(', ')}) exist and share a published password, ` +
    `but PUBLIC_URL (${publicUrl}) is not a local address. For a real show start on an empty database with SEED_DEMO=false ` +
    `and create the first organiser with \`npm run admin -- create-organiser\` (README, "Run a real show").`
  );
}
