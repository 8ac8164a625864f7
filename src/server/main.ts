import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { DataDirLockedError } from './db/data-dir-lock';
import { createPrivately } from './db/private-files';
import { demoExposureWarning } from './lib/demo-exposure';

async function main() {
  // The data directory (database, uploads, exports, outgoing mail) is the service user's alone.
  createPrivately();
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const app = await buildApp(config);
  const close = async (signal: string) => {
    app.log.info(`${signal} received, closing`);
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void close('SIGINT'));
  process.on('SIGTERM', () => void close('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    `Exhibitor portal at ${config.publicUrl} (database: ${app.dbEngine === 'postgres' ? 'PostgreSQL' : `embedded, ${config.dataDir}/db`}; mail: ${config.smtpUrl ? 'SMTP' : `${config.dataDir}/outbox`})`,
  );
  const warning = await demoExposureWarning(app.db, config.publicUrl);
  if (warning) app.log.warn(warning);
}

main().catch((error: unknown) => {
  if (error instanceof DataDirLockedError) {
    console.error(error.message);
    process.exit(3);
  }
  console.error(error);
  process.exit(1);
});
