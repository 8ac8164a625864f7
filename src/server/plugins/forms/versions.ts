import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import type { FormSetProblem, FormSetSource } from './form-set';
import { sourceHash } from './form-set';

// F11: the versions of the form set in the database. Versions are numbered 1, 2, 3…; the current
// one is the published version with the highest number. Writers take one transaction-scoped
// advisory lock, so two instances (or two organisers) never write the same number and a publish
// based on an older version is refused instead of overwriting what came in between.

/** The channel a publish is announced on (PostgreSQL LISTEN/NOTIFY; the number is the payload). */
export const VERSION_CHANNEL = 'form_set_version';
/** The advisory lock every writer of versions holds for its transaction. */
const VERSION_LOCK = 7_202_511;

/** How a version came to be. */
export type VersionSource = 'files' | 'editor' | 'rollback' | 'copy' | 'import';

// report: not the schema at src/server/modules/leads/schemas.ts: who wrote a version of the forms, not who scanned a badge
export interface VersionAuthor {
  id: number | null;
  name: string;
}

export interface VersionSummary {
  id: number;
  number: number;
  status: 'draft' | 'published';
  source: string;
  authorUserId: number | null;
  authorName: string;
  createdAt: Date;
  comment: string;
  problems: FormSetProblem[];
}

export interface StoredVersion extends VersionSummary {
  content: FormSetSource;
  contentHash: string;
}

/** The number of the current published version (0: none yet). */
export async function currentNumber(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('form_set_versions')
    .select((eb) => eb.fn.max('number').as('number'))
    .where('status', '=', 'published')
    .executeTakeFirst();
  return row?.number === null || row?.number === undefined ? 0 : Number(row.number);
}

interface SummaryRow {
  id: number;
  number: number;
  status: 'draft' | 'published';
  source: string;
  author_user_id: number | null;
  author_name: string;
  created_at: Date | string;
  comment: string;
  problems: FormSetProblem[] | null;
}

function summaryOf(row: SummaryRow): VersionSummary {
  return {
    id: Number(row.id),
    number: Number(row.number),
    status: row.status,
    source: row.source,
    authorUserId: row.author_user_id,
    authorName: row.author_name,
    createdAt: new Date(row.created_at),
    comment: row.comment,
    problems: row.problems ?? [],
  };
}

/** A version by number (the current published one without a number); null when there is none. */
export async function readVersion(db: Kysely<Database>, number?: number): Promise<StoredVersion | null> {
  let query = db
    .selectFrom('form_set_versions')
    .select(['id', 'number', 'status', 'source', 'author_user_id', 'author_name', 'created_at', 'comment', 'problems', 'content', 'content_hash']);
  query = number === undefined ? query.where('status', '=', 'published').orderBy('number', 'desc').limit(1) : query.where('number', '=', number);
  const row = await query.executeTakeFirst();
  if (!row) return null;
  return { ...summaryOf(row), content: JSON.parse(row.content) as FormSetSource, contentHash: row.content_hash };
}

/** Every version, newest first, without content. */
export async function listVersions(db: Kysely<Database>, limit = 200): Promise<VersionSummary[]> {
  const rows = await db
    .selectFrom('form_set_versions')
    .select(['id', 'number', 'status', 'source', 'author_user_id', 'author_name', 'created_at', 'comment', 'problems'])
    .orderBy('number', 'desc')
    .limit(limit)
    .execute();
  return rows.map(summaryOf);
}

export interface NewVersion {
  source: FormSetSource;
  kind: VersionSource;
  author: VersionAuthor;
  comment: string;
  /** The version the change was made on: refused (stale) when another was published since. Null: no such condition. */
  basedOn: number | null;
  /**
   * Stored only when its content differs from the current version's ('current'), and also from
   * the last version of the same kind ('currentAndSameKind': FORMS_DIR at start, so a restart with
   * unchanged files keeps what organisers published since).
   */
  onlyIfNew?: 'current' | 'currentAndSameKind';
}

export type PublishOutcome = { kind: 'published'; version: VersionSummary } | { kind: 'unchanged'; current: number } | { kind: 'stale'; current: number; since: VersionSummary[] };

/**
 * Publishes a checked form set as the next version, in one transaction under the writers' lock,
 * and announces it (NOTIFY on PostgreSQL, sent at commit). `during` runs in the same transaction
 * (the audit record, reopenings) so the change and what goes with it are stored together.
 */
export async function publishVersion(
  db: Kysely<Database>,
  change: NewVersion,
  during?: (trx: Transaction<Database>, version: VersionSummary) => Promise<void>,
): Promise<PublishOutcome> {
  const hash = sourceHash(change.source);
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${VERSION_LOCK})`.execute(trx);
    const current = await trx
      .selectFrom('form_set_versions')
      .select(['number', 'content_hash'])
      .where('status', '=', 'published')
      .orderBy('number', 'desc')
      .limit(1)
      .executeTakeFirst();
    const currentNumber = current ? Number(current.number) : 0;
    if (change.onlyIfNew) {
      const lastOfKind =
        change.onlyIfNew === 'currentAndSameKind'
          ? await trx.selectFrom('form_set_versions').select('content_hash').where('source', '=', change.kind).orderBy('number', 'desc').limit(1).executeTakeFirst()
          : undefined;
      // Unchanged files leave the current version alone, even when an organiser has published since.
      if (current?.content_hash === hash || lastOfKind?.content_hash === hash) return { kind: 'unchanged', current: currentNumber };
    }
    if (change.basedOn !== null && change.basedOn !== currentNumber) {
      const since = await trx
        .selectFrom('form_set_versions')
        .select(['id', 'number', 'status', 'source', 'author_user_id', 'author_name', 'created_at', 'comment', 'problems'])
        .where('status', '=', 'published')
        .where('number', '>', change.basedOn)
        .orderBy('number')
        .execute();
      return { kind: 'stale', current: currentNumber, since: since.map(summaryOf) };
    }
    const top = await trx
      .selectFrom('form_set_versions')
      .select((eb) => eb.fn.max('number').as('number'))
      .executeTakeFirst();
    const number = Number(top?.number ?? 0) + 1;
    const row = await trx
      .insertInto('form_set_versions')
      .values({
        number,
        status: 'published',
        source: change.kind,
        author_user_id: change.author.id,
        author_name: change.author.name,
        comment: change.comment,
        content: JSON.stringify(change.source),
        content_hash: hash,
        problems: '[]',
      })
      .returning(['id', 'number', 'status', 'source', 'author_user_id', 'author_name', 'created_at', 'comment', 'problems'])
      .executeTakeFirstOrThrow();
    const version = summaryOf(row);
    await during?.(trx, version);
    await sql`select pg_notify(${VERSION_CHANNEL}, ${String(number)})`.execute(trx);
    return { kind: 'published', version };
  });
}
