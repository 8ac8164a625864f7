import { ConfigError, loadConfig, type Config } from '../src/server/config';

// The operator commands (admin, backup, restore) read the server's configuration without the
// demo; a configuration problem is printed as the server prints it, and the command exits 2.

export function loadCommandConfig(): Config | null {
  try {
    return loadConfig(process.env, { seedDemo: false });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return null;
    }
    throw error;
  }
}

/** The embedded database's commands refuse to run on PostgreSQL, pointing at README "Backups". */
export function embeddedOnly(config: Config, instead: string): boolean {
  if (!config.databaseUrl) return true;
  console.error(`DATABASE_URL is set: ${instead} (README "Operating it", Backups); this command is for the embedded database.`);
  return false;
}
