import { parseArgs } from 'node:util';
import { loadCommandConfig } from './command-config';

// Operator commands: `npm run admin -- <command> [options]`. They use the database the server
// would (DATABASE_URL, else the embedded one under DATA_DIR), migrate it when empty, never seed
// the demo, and deliver the e-mails they queue before exiting. Stop the server first when the
// database is the embedded one (it is single-process).

const USAGE = `Usage:
  npm run admin -- create-organiser --email <address> --name <person's name>
                   [--organisation <organisation's name>] [--login <account ID>] [--language en|cn|ja|vi]

create-organiser  Creates an organiser account (the first of a real show, or another one). The
                  organisation is joined when one of that name exists, else created (default: the
                  name). The account ID defaults to the e-mail address. Prints a single-use link
                  to set the password (valid 72 hours) and e-mails it.

Environment: DATABASE_URL or DATA_DIR (database), SMTP_URL or DATA_DIR/outbox (mail),
PUBLIC_URL (the address in the link).`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== 'create-organiser') {
    console.error(command && command !== '--help' && command !== 'help' ? `Unknown command "${command}".\n\n${USAGE}` : USAGE);
    return command && command !== '--help' && command !== 'help' ? 2 : 0;
  }
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({
      args: rest,
      options: { email: { type: 'string' }, name: { type: 'string' }, organisation: { type: 'string' }, login: { type: 'string' }, language: { type: 'string' } },
      strict: true,
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (!values.email || !values.name) {
    console.error(`create-organiser needs --email and --name.\n\n${USAGE}`);
    return 2;
  }
  const config = loadCommandConfig();
  if (!config) return 2;
  // The server's code loads only once the arguments are known to be usable: a mistyped command
  // answers at once instead of after loading every module of the server.
  const [{ buildApp }, { AdminInputError, createOrganiser, organiserMailStatus }, { DataDirLockedError }] = await Promise.all([
    import('../src/server/app'),
    import('../src/server/admin/create-organiser'),
    import('../src/server/db/data-dir-lock'),
  ]);
  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    app = await buildApp(config, { logger: false, mailWorker: false });
  } catch (error) {
    // A running server holds the embedded database: say so in one line, not a stack.
    if (!(error instanceof DataDirLockedError)) throw error;
    console.error(error.message);
    return 1;
  }
  try {
    await app.ready();
    const created = await createOrganiser(app, config, {
      email: values.email,
      name: values.name,
      organisation: values.organisation,
      login: values.login,
      language: values.language,
    });
    await app.mailer.deliverDue();
    const mail = await organiserMailStatus(app, created.userId);
    console.log(`Organiser created: account ID ${created.login}, organisation "${created.organisationName}"${created.organisationCreated ? ' (new)' : ' (existing)'}.`);
    console.log(`Set-password link (single use, valid 72 hours):\n${created.link}`);
    if (mail?.status === 'sent') {
      console.log(config.smtpUrl ? `E-mailed to ${mail.to_address}.` : `E-mail written to ${config.dataDir}/outbox (no SMTP_URL set).`);
    } else {
      console.log(`The e-mail to ${values.email} is not sent yet (${mail?.last_error ?? 'queued'}); the server's mail worker retries it. The link above works meanwhile.`);
    }
    return 0;
  } catch (error) {
    if (error instanceof AdminInputError) {
      console.error(`create-organiser: ${error.message}`);
      return 2;
    }
    throw error;
  } finally {
    await app.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
