// Generates visitors (and optionally leads) for an event in the configured database:
//   npx tsx scripts/generate-visitors.ts --event AFHE2027 --count 50000
//   npx tsx scripts/generate-visitors.ts --event AFHE2027 --count 50000 --leads 1000000 --exhibitor demo
// DATABASE_URL selects a PostgreSQL server; otherwise the embedded database under DATA_DIR/db
// (stop the server first: the embedded database has one user at a time). Visitor n always gets
// the same profile and badge code <event>-V<n>, so running it again adds only what is missing.
// Leads are spread over the event's days (09:00-18:00 event time) and scanned round robin by the
// exhibitor and its team users; they continue after the exhibitor's generated leads.
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { loadConfig } from '../src/server/config';
import { defaultPgliteDir, migrateToLatest, openDatabase } from '../src/server/db/connection';
import { insertLeads, insertVisitors, scanningPeople } from '../src/server/db/demo-leads';

const CHUNK = 50_000;
const HOUR = 3_600_000;

async function main() {
  const { values } = parseArgs({
    options: {
      event: { type: 'string' },
      count: { type: 'string' },
      leads: { type: 'string', default: '0' },
      exhibitor: { type: 'string', default: 'demo' },
      'unknown-every': { type: 'string', default: '40' },
      help: { type: 'boolean', default: false },
    },
  });
  const count = Number(values.count);
  const leads = Number(values.leads);
  if (values.help || !values.event || !Number.isInteger(count) || count < 1 || !Number.isInteger(leads) || leads < 0) {
    console.error('usage: tsx scripts/generate-visitors.ts --event <code> --count <visitors> [--leads <n> --exhibitor <login>] [--unknown-every <n>]');
    process.exit(2);
  }
  const config = loadConfig(process.env);
  const opened = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: defaultPgliteDir(config.dataDir) });
  const { db } = opened;
  try {
    await migrateToLatest(db);
    const event = await db.selectFrom('events').select(['id', 'code', 'starts_at', 'ends_at', 'utc_offset_minutes']).where('code', '=', values.event).executeTakeFirst();
    if (!event) throw new Error(`No event with code ${values.event}`);
    let started = Date.now();
    let inserted = 0;
    for (let first = 1; first <= count; first += CHUNK) {
      inserted += await insertVisitors(db, event, first, Math.min(count, first + CHUNK - 1));
      process.stdout.write(`\rvisitors: ${Math.min(count, first + CHUNK - 1)} / ${count}`);
    }
    console.log(`\nvisitors: ${inserted} new (${count - inserted} already there) in ${((Date.now() - started) / 1000).toFixed(1)} s (${opened.engine})`);
    if (leads === 0) return;

    const owner = await db
      .selectFrom('users')
      .select(['participation_id'])
      .where('login_key', '=', values.exhibitor!.toLowerCase())
      .where('event_id', '=', event.id)
      .executeTakeFirst();
    if (!owner?.participation_id) throw new Error(`No exhibitor ${values.exhibitor} in event ${event.code}`);
    const participationId = owner.participation_id;
    const scannedBy = (await scanningPeople(db, participationId)).map((p) => p.id);
    // Continue after what this script (or the seed) already generated for the participation.
    const last = await db
      .selectFrom('leads')
      .select(sql<number>`coalesce(max(substr(client_scan_id, 5)::int), 0)`.as('n'))
      .where('participation_id', '=', participationId)
      .where('client_scan_id', 'like', 'gen-%')
      .executeTakeFirstOrThrow();
    const offset = Number(last.n);
    const offsetMs = event.utc_offset_minutes * 60_000;
    const firstDay = Math.floor((new Date(event.starts_at).getTime() + offsetMs) / (24 * HOUR));
    const lastDay = Math.max(firstDay, Math.floor((new Date(event.ends_at).getTime() + offsetMs) / (24 * HOUR)));
    const days = lastDay - firstDay + 1;
    const perDay = Math.ceil(leads / days);
    const visitorTotal = Number((await db.selectFrom('visitors').select(sql<number>`count(*)::int`.as('n')).where('event_id', '=', event.id).executeTakeFirstOrThrow()).n);
    started = Date.now();
    let made = 0;
    // One lead per visitor per exhibitor (LD1): leads whose badge already is one are skipped.
    let stored = 0;
    for (let day = 0; day < days && made < leads; day += 1) {
      const nine = (firstDay + day) * 24 * HOUR + 9 * HOUR - offsetMs;
      const dayCount = Math.min(perDay, leads - made);
      for (let from = 0; from < dayCount; from += CHUNK) {
        const size = Math.min(CHUNK, dayCount - from);
        const first = offset + made + 1;
        // Each chunk covers its share of the day, so scan times rise with n.
        const start = nine + Math.floor((from / dayCount) * 9 * HOUR);
        const end = nine + Math.floor(((from + size) / dayCount) * 9 * HOUR);
        stored += await insertLeads(db, {
          participationId,
          scannedBy,
          eventId: event.id,
          eventCode: event.code,
          offsetMinutes: event.utc_offset_minutes,
          start: new Date(start),
          end: new Date(Math.max(end, start + 1000)),
          first,
          last: first + size - 1,
          visitors: visitorTotal,
          unknownEvery: Number(values['unknown-every']),
        });
        made += size;
        process.stdout.write(`\rleads: ${made} / ${leads}`);
      }
    }
    console.log(
      `\nleads: ${stored} stored (${made - stored} skipped: badge already a lead) for participation ${participationId} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    await opened.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
