import type { LeadScope } from '../../lib/lead-exports-list';
import { containingPattern } from '../../lib/like-pattern';
import { sql, type Expression, type ExpressionBuilder, type Kysely, type Selectable, type SqlBool } from 'kysely';
import { dayRangeHours, dayRangeInstants, UNSET, type LeadFilters, type LeadSort, type SortOrder } from '../../../engine/leads-rules';
import { LEAD_TOTAL_CAP } from '../../../engine/leads';
import { searchKeyword } from '../../../engine/search';
import type { Database, LeadTable, RollupDimension } from '../../db/schema';

// LD2/LD4: which leads a caller may see and how the list filters them. Every filter maps to an
// indexed column of migration 0004 (participation_id first); totals come from the trigger-kept
// lead_rollup whenever the filters are ones it counts, so the 1M-lead list never counts rows.

export type { LeadScope };

type LeadsEb = ExpressionBuilder<Database, 'leads'>;

/** The where-conditions of a scope and filters (shared by the list, its total and exports). */
export function leadConditions(eb: LeadsEb, scope: LeadScope, filters: LeadFilters): Expression<SqlBool> {
  // A keyword alone with CJK tokens finds only this exhibitor's leads through them (the tokens name
  // the participation): the participation is then tested as an expression no btree answers, or
  // the embedded database, which keeps no statistics, read all the exhibitor's leads by it.
  const alone = keywordAlone(scope, filters);
  const byTokens = alone !== null && !keywordHasTrigram(alone) && keywordCjkTokens(alone).length > 0;
  const conditions: Expression<SqlBool>[] = [
    byTokens ? sql<SqlBool>`leads.participation_id + 0 = ${scope.participationId}` : eb('leads.participation_id', '=', scope.participationId),
  ];
  if (scope.onlyScannedBy !== undefined) conditions.push(eb('leads.scanned_by', '=', scope.onlyScannedBy));
  if (filters.scannedBy !== undefined) conditions.push(eb('leads.scanned_by', '=', filters.scannedBy));
  const code = (column: 'leads.lead_type' | 'leads.temperature' | 'leads.follow_up', value: string | undefined) => {
    if (value === undefined) return;
    conditions.push(value === UNSET ? eb(column, 'is', null) : eb(column, '=', value));
  };
  code('leads.lead_type', filters.leadType);
  code('leads.temperature', filters.temperature);
  code('leads.follow_up', filters.followUp);
  if (filters.country !== undefined) conditions.push(eb('leads.country', '=', filters.country));
  const { start, end } = dayRangeInstants(filters.from, filters.to, scope.offsetMinutes);
  if (start) conditions.push(eb('leads.scanned_at', '>=', start));
  if (end) conditions.push(eb('leads.scanned_at', '<', end));
  const keyword = keywordCondition(scope, filters);
  if (keyword) conditions.push(keyword);
  return eb.and(conditions);
}

/**
 * Whether the trigram index can look a folded keyword up: pg_trgm takes trigrams of runs of
 * letters and digits, and in the portal's databases (C collation) only ASCII ones count, so a
 * keyword of one or two Chinese or Japanese characters (or "ng") gives it none and the index
 * would be read whole. A run of three ASCII letters or digits always gives one.
 */
export function keywordHasTrigram(folded: string): boolean {
  return /[a-z0-9]{3}/.test(folded);
}

/**
 * Chinese, Japanese and Korean characters as `search_folded` holds them (Han, kana, iteration
 * marks, Hangul as the fold leaves it: conjoining jamo), as code point ranges.
 */
const CJK_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x11ff],
  [0x3005, 0x3007],
  [0x3040, 0x30ff],
  [0x31f0, 0x31ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xac00, 0xd7af],
  [0xf900, 0xfaff],
  [0x20000, 0x3ffff],
];
const pgEscape = (code: number) => (code > 0xffff ? `\\U${code.toString(16).padStart(8, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`);
/**
 * The ranges as a PostgreSQL class, written exactly as the partial index `leads_cjk_keyword`
 * (migration 0061) writes its predicate: the condition names it literally, or the planner could
 * not use the index.
 */
const CJK_CHARACTER_CLASS = `[${CJK_RANGES.map(([from, to]) => `${pgEscape(from)}-${pgEscape(to)}`).join('')}]`;
const CJK_RUNS = new RegExp(`[${CJK_RANGES.map(([from, to]) => `\\u{${from.toString(16)}}-\\u{${to.toString(16)}}`).join('')}]+`, 'gu');

/**
 * The CJK tokens a folded keyword's matches hold (as `lead_cjk_tokens` of migration 0061 makes
 * them, without the participation): a run of one character is that character, a longer run each
 * pair of adjacent characters in it. Empty when the keyword has no CJK character.
 */
export function keywordCjkTokens(folded: string): string[] {
  const tokens = new Set<string>();
  for (const [run] of folded.matchAll(CJK_RUNS)) {
    const chars = [...run];
    if (chars.length === 1) tokens.add(chars[0]!);
    for (let i = 0; i + 1 < chars.length; i += 1) tokens.add(chars[i]! + chars[i + 1]!);
  }
  return [...tokens];
}

/** Whether an index looks the folded keyword's matches up (trigrams, or CJK tokens); else they are tested along a btree. */
export function keywordIndexed(folded: string): boolean {
  return keywordHasTrigram(folded) || keywordCjkTokens(folded).length > 0;
}

/**
 * The keyword folded as the lead's `search_folded` was (case, width, diacritics), matched as a
 * substring. With a trigram: `like`, which the trigram index by exhibitor
 * `leads_keyword_by_participation` answers (the participation's condition is its first column:
 * only this exhibitor's matches are read). Else, with a Chinese, Japanese or Korean character:
 * the exhibitor's leads holding all its CJK tokens, from `leads_cjk_keyword`, tested with
 * `strpos` (tokens do not keep their order). Else with a pair of Latin letters or digits ("qx",
 * "ng"): `strpos`, and the pair looked up by trigrams (`keywordByPair`) or tested along a btree of
 * the exhibitor's leads, as the planner weighs it. Else (one letter): `strpos` along a btree;
 * `leads_by_name` and `leads_by_company` carry the folded text, so that reads the index alone.
 */
function keywordCondition(scope: LeadScope, filters: LeadFilters) {
  const folded = filters.keyword ? searchKeyword(filters.keyword) : '';
  if (!folded) return null;
  if (keywordHasTrigram(folded)) return sql<SqlBool>`leads.search_folded like ${containingPattern(folded)}`;
  const tokens = keywordCjkTokens(folded);
  if (tokens.length === 0) {
    const pair = keywordLatinPair(folded);
    return pair ? keywordByPair(folded, pair) : keywordAlongIndex(folded);
  }
  const keys = tokens.map((token) => `${scope.participationId}:${token}`);
  return sql<SqlBool>`(leads.search_folded ~ ${sql.lit(CJK_CHARACTER_CLASS)} and lead_cjk_tokens(leads.participation_id, leads.search_folded) @> ${keys}::text[] and ${keywordAlongIndex(folded)})`;
}

/**
 * The first pair of ASCII letters or digits in a folded keyword without a trigram (where every
 * run of them is at most two long: "qx", "ng", the "ab" of "x ab"), or null (one letter alone,
 * CJK only, punctuation).
 */
function keywordLatinPair(folded: string): string | null {
  return /[a-z0-9]{2}/.exec(folded)?.[0] ?? null;
}

/**
 * A keyword holding a pair of ASCII letters or digits and no trigram. pg_trgm has no trigram of a
 * pair alone, but where only ASCII letters and digits make its words (a database whose character
 * type is C) a text holding "qx" holds it in one of two ways, each looked up in the trigram index
 * by exhibitor: after a letter or digit ("aqx"), which the regular expression `[a-z0-9]qx` finds
 * as 36 trigrams; or starting a word (at the text's start, after a space, punctuation or any
 * other character), whose trigrams "  q" and " qx" are two of the three of "qx": word similarity
 * 2/3, which `<%` finds at the threshold the connection pool sets (0.6). The substring test is the
 * exact condition. With statistics the planner weighs both ways: a rare pair is looked up (0.3 ms
 * against a 30 ms walk of 50,000 leads, measured), a common one ("ng", the count's cap reached
 * within a few thousand leads) walks the exhibitor's leads as before.
 *
 * Where other letters make words too (a character type such as C.UTF-8, the embedded
 * database's), "東京qx" is one word whose trigram "京qx" no lookup can name: there the lookup is
 * left out (`trigramWordsAreAscii` is folded to a constant when the statement is planned) and the
 * leads are tested along a btree.
 */
function keywordByPair(folded: string, pair: string) {
  return sql<SqlBool>`(${keywordAlongIndex(folded)} and (not ${trigramWordsAreAscii} or leads.search_folded ~ ${`[a-z0-9]${pair}`} or ${pair} <% leads.search_folded))`;
}

/** Whether pg_trgm's words are runs of ASCII letters and digits only in this database (a constant, immutable). */
const trigramWordsAreAscii = sql<SqlBool>`(show_trgm('京qx') @> array[' qx'])`;

/** A substring test of the folded text that no trigram index answers: the planner tests it along a btree of the exhibitor's leads. */
function keywordAlongIndex(folded: string) {
  return sql<SqlBool>`strpos(leads.search_folded, ${folded}) > 0`;
}

type RollupKey = { dimension: RollupDimension; key: string };

/**
 * The rollup dimensions and keys of the filters (user / type / temperature / follow-up /
 * country), or null when a filter is one the rollup does not count (the keyword); `none` when
 * no lead can match (two different users).
 */
function rollupKeys(scope: LeadScope, filters: LeadFilters): RollupKey[] | 'none' | null {
  if (filters.keyword) return null;
  const wanted: RollupKey[] = [];
  const users = new Set<number>();
  if (scope.onlyScannedBy !== undefined) users.add(scope.onlyScannedBy);
  if (filters.scannedBy !== undefined) users.add(filters.scannedBy);
  if (users.size > 1) return 'none';
  if (users.size === 1) wanted.push({ dimension: 'user', key: String([...users][0]) });
  const code = (value: string | undefined) => (value === UNSET ? '' : value);
  if (filters.leadType !== undefined) wanted.push({ dimension: 'type', key: code(filters.leadType)! });
  if (filters.temperature !== undefined) wanted.push({ dimension: 'temperature', key: code(filters.temperature)! });
  if (filters.followUp !== undefined) wanted.push({ dimension: 'follow_up', key: code(filters.followUp)! });
  if (filters.country !== undefined) wanted.push({ dimension: 'country', key: filters.country });
  return wanted;
}

/**
 * The rollup dimension and key that count exactly these filters, when there is one: at most one
 * of user / type / temperature / follow-up / country, with or without a day range, no keyword.
 */
function rollupPlan(scope: LeadScope, filters: LeadFilters): RollupKey | null {
  const keys = rollupKeys(scope, filters);
  if (keys === null) return null;
  if (keys === 'none') return { dimension: 'user', key: '-' }; // nothing has that key
  if (keys.length > 1) return null;
  return keys[0] ?? { dimension: 'all', key: '' };
}

/** How many leads match and how the number was had. */
export interface LeadTotal {
  total: number;
  /**
   * `exact`: counted; `about`: estimated from the rollup's counts of each filter alone (as if the
   * filters were independent); `moreThan`: counting stopped at the cap, more leads match.
   */
  kind: 'exact' | 'about' | 'moreThan';
  /**
   * A keyword alone counted up to the cap: the matching leads' ids when there are no more than
   * the cap (the page is read from them, not looked for again).
   */
  matchIds?: number[];
  /**
   * More matches than the cap, counted along the first page's order (`pageOrder`): the first cap
   * and one of them, in that order, from which a page within them is read.
   */
  firstMatchIds?: number[];
}

/** A combination of filters whose most selective one matches at most this many leads is counted exactly (cheap). */
const EXACT_COUNT_BELOW = 2_000;

/**
 * The list's total (≤ 50 ms at 1,000,000 leads). Exact from the rollup when one of its
 * counts is the answer. Several filters together: their single counts from the rollup give an
 * estimate (no row is read), unless the most selective one is small enough to count exactly. A
 * keyword: counted up to `cap` matches. `exact` (an export's preview, `exactTotal=true`) always
 * counts every match.
 */
export async function leadTotal(
  db: Kysely<Database>,
  scope: LeadScope,
  filters: LeadFilters,
  {
    exact = false,
    cap = LEAD_TOTAL_CAP,
    keywordByIndex = true,
    pageOrder,
  }: {
    exact?: boolean;
    cap?: number;
    keywordByIndex?: boolean;
    /** The first page's order: a keyword alone without a trigram is counted along it (see `firstMatchIds`). */
    pageOrder?: { sort: LeadSort; order: SortOrder };
  } = {},
): Promise<LeadTotal> {
  if (exact || rollupPlan(scope, filters)) return { total: await countLeads(db, scope, filters), kind: 'exact' };
  const keys = rollupKeys(scope, filters);
  const { startHour, endHour } = dayRangeHours(filters.from, filters.to);
  const hoursFit = scope.offsetMinutes % 60 === 0 || (startHour === undefined && endHour === undefined);
  if (Array.isArray(keys) && hoursFit) {
    let query = db
      .selectFrom('lead_rollup')
      .select(['dimension', 'key', sql<number>`coalesce(sum(leads), 0)::int`.as('leads')])
      .where('participation_id', '=', scope.participationId)
      .where((eb) =>
        eb.or([eb.and([eb('dimension', '=', 'all'), eb('key', '=', '')]), ...keys.map(({ dimension, key }) => eb.and([eb('dimension', '=', dimension), eb('key', '=', key)]))]),
      )
      .groupBy(['dimension', 'key']);
    if (startHour !== undefined) query = query.where('event_hour', '>=', startHour);
    if (endHour !== undefined) query = query.where('event_hour', '<', endHour);
    const counts = new Map((await query.execute()).map((row) => [`${row.dimension}:${row.key}`, Number(row.leads)]));
    const all = counts.get('all:') ?? 0;
    const single = keys.map(({ dimension, key }) => counts.get(`${dimension}:${key}`) ?? 0);
    if (all === 0 || Math.min(...single) <= EXACT_COUNT_BELOW) return { total: await countRows(db, scope, filters), kind: 'exact' };
    const estimate = Math.round(single.reduce((product, n) => product * (n / all), all));
    return { total: estimate, kind: 'about' };
  }
  // A keyword alone: the matches' ids come back as one text (up to the cap and one), so a page of
  // a few matches is read from them instead of looking the keyword up a second time.
  const folded = keywordAlone(scope, filters);
  const collectIds = folded !== null;
  // A keyword without a trigram is tested along a sort index, all of the exhibitor's leads when
  // it has few matches. Sorted by name or company, the first page is counted along that sort's
  // index: the first matches counted are the page's, so more than the cap of them are no second
  // walk for the page (two walks of 50,000 index entries before, for a Chinese keyword).
  const along = folded !== null && !keywordIndexed(folded) && pageOrder && pageOrder.sort !== 'scannedAt' ? pageOrder : null;
  const countUpToCap = (executor: Kysely<Database>) =>
    executor
      .selectFrom((eb) => {
        let matches = eb
          .selectFrom('leads')
          .select([collectIds ? 'leads.id' : sql<number>`1`.as('id'), along ? sql.ref(SORT_COLUMN[along.sort]).as('sort_key') : sql<null>`null`.as('sort_key')])
          .where((inner) => leadConditions(inner, scope, filters))
          .limit(cap + 1);
        if (along) matches = matches.orderBy(SORT_COLUMN[along.sort], along.order).orderBy('leads.id', along.order);
        return matches.as('matches');
      })
      .select([
        sql<number>`count(*)::int`.as('total'),
        // In the page's order when counted along it (`firstMatchIds` is sliced by the page).
        along
          ? sql<string | null>`string_agg(matches.id::text, ',' order by matches.sort_key ${sql.raw(along.order)}, matches.id ${sql.raw(along.order)})`.as('ids')
          : collectIds
            ? sql<string | null>`string_agg(matches.id::text, ',')`.as('ids')
            : sql<null>`null`.as('ids'),
      ])
      .executeTakeFirst()
      .then((row) => ({ counted: Number(row?.total ?? 0), ids: row?.ids ?? null }));
  // PostgreSQL's planner weighs both ways well at 1,000,000 leads (measured): a keyword
  // matching 5 % is counted to the cap by a plain scan that stops after ~20,000 rows, a rare one
  // through the trigram index. The embedded database evaluates ILIKE ~15 µs a row (380 ms for
  // 1,001 matches of 100,000 leads, measured) while the trigram index finds them in ~40 ms, and
  // its planner does not know that: there (`keywordByIndex`) sequential scans are off for this
  // statement alone.
  const { counted, ids } =
    filters.keyword && keywordByIndex
      ? await db.transaction().execute(async (trx) => {
          await sql`set local enable_seqscan = off`.execute(trx);
          return countUpToCap(trx);
        })
      : await countUpToCap(db);
  if (counted > cap) return along && ids ? { total: cap, kind: 'moreThan', firstMatchIds: ids.split(',').map(Number) } : { total: cap, kind: 'moreThan' };
  return collectIds ? { total: counted, kind: 'exact', matchIds: ids ? ids.split(',').map(Number) : [] } : { total: counted, kind: 'exact' };
}

/** How many leads match, exactly: from the rollup when it can tell, else counted over the indexes. */
export async function countLeads(db: Kysely<Database>, scope: LeadScope, filters: LeadFilters): Promise<number> {
  const plan = rollupPlan(scope, filters);
  if (plan) {
    const { startHour, endHour } = dayRangeHours(filters.from, filters.to);
    let query = db
      .selectFrom('lead_rollup')
      .select(sql<number>`coalesce(sum(leads), 0)::int`.as('total'))
      .where('participation_id', '=', scope.participationId)
      .where('dimension', '=', plan.dimension)
      .where('key', '=', plan.key);
    // Day ranges in the rollup are whole event hours; offsets that are not whole hours
    // (e.g. UTC+05:45) fall back to counting rows.
    if (startHour !== undefined || endHour !== undefined) {
      if (scope.offsetMinutes % 60 !== 0) return countRows(db, scope, filters);
      if (startHour !== undefined) query = query.where('event_hour', '>=', startHour);
      if (endHour !== undefined) query = query.where('event_hour', '<', endHour);
    }
    const row = await query.executeTakeFirst();
    return Number(row?.total ?? 0);
  }
  return countRows(db, scope, filters);
}

async function countRows(db: Kysely<Database>, scope: LeadScope, filters: LeadFilters): Promise<number> {
  const row = await db
    .selectFrom('leads')
    .select(sql<number>`count(*)::int`.as('total'))
    .where((eb) => leadConditions(eb, scope, filters))
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

/** Columns an export writes (LD4); the list reads these and more. */
const EXPORT_COLUMNS = [
  'leads.id',
  'leads.consent_source',
  'leads.consent_withdrawn_at',
  'leads.badge_code',
  'leads.visitor_name',
  'leads.salutation',
  'leads.company',
  'leads.business_nature',
  'leads.job_title',
  'leads.country',
  'leads.mobile',
  'leads.email',
  'leads.phone',
  'leads.address',
  'leads.notes',
  'leads.lead_type',
  'leads.temperature',
  'leads.follow_up',
  'leads.scanned_at',
  'leads.tag_answers',
  'leads.interested_products',
] as const;

/** Columns of a list row. */
export const LEAD_COLUMNS = [
  ...EXPORT_COLUMNS,
  'leads.badge_known',
  'leads.scanned_by',
  'leads.business_card',
  'leads.scan_count',
  'leads.last_scanned_at',
  'leads.last_scanned_by',
] as const;

const SORT_COLUMN: Record<LeadSort, 'leads.scanned_at' | 'leads.visitor_name' | 'leads.company'> = {
  scannedAt: 'leads.scanned_at',
  name: 'leads.visitor_name',
  company: 'leads.company',
};

/** A list row's columns with the names of who scanned it, unfiltered and unordered. */
function listRows(db: Kysely<Database>) {
  return db
    .selectFrom('leads')
    .leftJoin('users', 'users.id', 'leads.scanned_by')
    .leftJoin('users as last_scanner', 'last_scanner.id', 'leads.last_scanned_by')
    .select([...LEAD_COLUMNS, 'users.display_name as scanned_by_name', 'last_scanner.display_name as last_scanned_by_name']);
}

/** One page of the list, in a whitelisted order with the id as the tie-breaker. */
export function listQuery(db: Kysely<Database>, scope: LeadScope, filters: LeadFilters, sort: LeadSort, order: SortOrder) {
  return listRows(db)
    .where((eb) => leadConditions(eb, scope, filters))
    .orderBy(SORT_COLUMN[sort], order)
    .orderBy('leads.id', order);
}

export type LeadListRow = Awaited<ReturnType<ReturnType<typeof listQuery>['execute']>>[number];

/** Where a keyset page starts: after the row with this sort value (a time as the database wrote it, or a text) and id. */
export interface ListPosition {
  value: string;
  id: number;
}

/**
 * A list page by keyset: the rows after `position` in the list's order, read from the sort's index
 * (participation, sort column, id) as one range, whatever the page's depth; rows inserted or
 * scanned meanwhile neither repeat nor skip one of the next page (an offset shifts by them).
 */
export function listPageAfter(
  db: Kysely<Database>,
  scope: LeadScope,
  filters: LeadFilters,
  sort: LeadSort,
  order: SortOrder,
  position: ListPosition | undefined,
  { fewMatches = false }: { fewMatches?: boolean } = {},
) {
  let query = listQuery(db, scope, filters, sort, order).select(sortValueText(sort).as('sort_value'));
  if (fewMatches && filters.keyword) {
    // A keyword known to match few leads (counted up to the cap): its matches are found first,
    // through the keyword index by exhibitor, and sorted. Ordered by the sort column itself, the
    // planner walked the sort's index and tested every lead on the way: where the matches sort
    // late (a company's visitors by name, after the unknown badges' empty names) that was most
    // of the exhibitor's leads (146,000 rows, 850 ms, measured). The order is the same: the
    // expressions only keep the sort's index from being read for it.
    query = query.clearOrderBy().orderBy(unindexedSortColumn(sort), order).orderBy(sql`leads.id + 0`, order);
  }
  if (!position) return query;
  return query.where(keysetAfter(sort, order, position));
}

/**
 * Rows after a keyset position in the list's order, compared on the sort's index columns (a range
 * of that index), or (`unindexed`) as expressions no index answers, for rows found another way.
 */
function keysetAfter(sort: LeadSort, order: SortOrder, position: ListPosition, { unindexed = false } = {}) {
  const value = sort === 'scannedAt' ? sql`${position.value}::timestamptz` : sql`${position.value}::text`;
  const column = unindexed ? unindexedSortColumn(sort) : sql.ref(SORT_COLUMN[sort]);
  const id = unindexed ? sql`leads.id + 0` : sql`leads.id`;
  return order === 'desc' ? sql<SqlBool>`(${column}, ${id}) < (${value}, ${position.id}::bigint)` : sql<SqlBool>`(${column}, ${id}) > (${value}, ${position.id}::bigint)`;
}

/** The sort column as an expression of the same order that no index answers. */
function unindexedSortColumn(sort: LeadSort) {
  return sort === 'scannedAt' ? sql`${sql.ref(SORT_COLUMN[sort])} + interval '0 seconds'` : sql`${sql.ref(SORT_COLUMN[sort])} || ''`;
}

/** A row of a list page: the list's columns and the sort value its keyset continues from. */
export type ListPageRow = LeadListRow & { sort_value: string };

/** The keyword folded, when it is the only filter beside the exhibitor (a team user's own leads are a filter too); else null. */
function keywordAlone(scope: LeadScope, filters: LeadFilters): string | null {
  const folded = filters.keyword ? searchKeyword(filters.keyword) : '';
  if (!folded || scope.onlyScannedBy !== undefined) return null;
  const others = Object.entries(filters).some(([name, value]) => name !== 'keyword' && value !== undefined);
  return others ? null : folded;
}

/**
 * A list page (`limit` rows after `offset` from `position`), read the cheapest way for its
 * filters; the rows and their order are those of `listPageAfter` in every case.
 *
 * A keyword alone with no more matches than the count's cap: `leadTotal` collected their ids
 * while counting, so the page is those leads sorted (no second look-up of the keyword).
 *
 * A keyword alone with more matches, sorted by name or company: the page's leads' ids are found
 * first, then only those leads are read. A keyword with a trigram leaves the planner its choice
 * (its matches from the trigram index, sorted, or a walk along the sort's index); the walk, and
 * always for a keyword without one, goes along the sort's index, which carries the folded text
 * (`leads_by_name`, `leads_by_company`), reading the index alone: all 50,000 leads of the largest
 * exhibitor in 27 ms against 67 ms visiting the table. A first name sorted by name (its matches
 * all late in the order) read 45,000 leads in the table before (1,000,000 leads, the largest
 * exhibitor holding 50,000: 75 → 14 ms DB). Sorted by time, matches of more than the cap are
 * spread over the time index, so it is walked as before (`listPageAfter`), as are other filter
 * sets.
 */
export function readListPage(
  db: Kysely<Database>,
  scope: LeadScope,
  filters: LeadFilters,
  sort: LeadSort,
  order: SortOrder,
  position: ListPosition | undefined,
  options: ListPageOptions,
): Promise<ListPageRow[]> {
  return listPageQuery(db, scope, filters, sort, order, position, options).execute();
}

export interface ListPageOptions {
  /** The filters' matches were counted and are no more than the count's cap. */
  fewMatches: boolean;
  /** A keyword alone's matches, collected by `leadTotal` (no more than the cap). */
  matchIds?: readonly number[];
  /** A keyword alone's first matches in the page's order (`leadTotal`'s `firstMatchIds`), for a page without a keyset position. */
  firstMatchIds?: readonly number[];
  limit: number;
  offset: number;
}

/** Ids read beyond a page sliced from `firstMatchIds`. */
const PAGE_SPARE_IDS = 5;

/** The statement `readListPage` runs (its plan is checked by the tests). */
export function listPageQuery(
  db: Kysely<Database>,
  scope: LeadScope,
  filters: LeadFilters,
  sort: LeadSort,
  order: SortOrder,
  position: ListPosition | undefined,
  { fewMatches, matchIds: allMatchIds, firstMatchIds, limit, offset }: ListPageOptions,
): ReturnType<typeof listPageAfter> {
  const folded = keywordAlone(scope, filters);
  // The first matches hold the page when it ends within them: its own ids, and a few after them
  // in case one no longer matches when read.
  const pageOfFirst = folded !== null && !allMatchIds && firstMatchIds && !position && offset + limit <= firstMatchIds.length;
  const matchIds = folded === null ? undefined : pageOfFirst ? firstMatchIds.slice(offset, offset + limit + PAGE_SPARE_IDS) : allMatchIds;
  if (pageOfFirst) offset = 0;
  const trigram = folded !== null && keywordIndexed(folded);
  if (folded !== null && sort !== 'scannedAt' && !matchIds && !(fewMatches && trigram)) {
    let ids = db
      .selectFrom('leads')
      .select('leads.id')
      .where('leads.participation_id', '=', scope.participationId)
      .where(keywordCondition(scope, filters)!)
      .orderBy(SORT_COLUMN[sort], order)
      .orderBy('leads.id', order)
      .limit(limit)
      .offset(offset);
    if (position) ids = ids.where(keysetAfter(sort, order, position));
    return listRows(db).select(sortValueText(sort).as('sort_value')).where('leads.id', 'in', ids).orderBy(SORT_COLUMN[sort], order).orderBy('leads.id', order);
  }
  if (folded !== null && (matchIds || (fewMatches && !trigram))) {
    // The matches, sorted. Ids counted before are tested again (a lead renamed since is not listed).
    // Not counted that way (an exact total): collected from the sort indexes' folded text.
    let page = listRows(db)
      .select(sortValueText(sort).as('sort_value'))
      .where('leads.participation_id', '=', scope.participationId)
      .where(keywordAlongIndex(folded))
      .orderBy(unindexedSortColumn(sort), order)
      .orderBy(sql`leads.id + 0`, order)
      .limit(limit)
      .offset(offset);
    page = matchIds
      ? page.where('leads.id', '=', sql<number>`any(${[...matchIds]}::bigint[])`)
      : page.where('leads.id', 'in', db.selectFrom('leads').select('leads.id').where('leads.participation_id', '=', scope.participationId).where(keywordAlongIndex(folded)));
    if (position) page = page.where(keysetAfter(sort, order, position, { unindexed: true }));
    return page;
  }
  return listPageAfter(db, scope, filters, sort, order, position, { fewMatches }).limit(limit).offset(offset);
}

/** The sort column of a row as text the next page's keyset compares exactly (a time at full precision). */
function sortValueText(sort: LeadSort) {
  return sql<string>`${sql.ref(SORT_COLUMN[sort])}::text`;
}

type ExportedColumn = (typeof EXPORT_COLUMNS)[number] extends `leads.${infer C}` ? C : never;

/** One lead as an export reads it (JSON): `scanned_at` is the database's ISO 8601 text (exact, with its offset). */
export type LeadExportRow = Omit<Pick<Selectable<LeadTable>, ExportedColumn>, 'scanned_at' | 'tag_answers'> & {
  scanned_at: string;
  tag_answers: Record<string, string[]> | null;
  scanned_by_name: string | null;
};

/**
 * LD4: every matching lead in chunks, newest first, by keyset (scanned_at, id): each chunk is one
 * indexed range read, whatever the size of the export; only one chunk is in memory at a time.
 * A chunk comes back as one JSON text (json_agg), not as rows: the drivers' per-row
 * and per-field decoding was most of a 100,000-lead export on the embedded database (profiled),
 * and JSON.parse of one text is native. The keyset carries the last row's time as the
 * database wrote it, so no precision is lost between chunks.
 */
export async function* leadChunks(db: Kysely<Database>, scope: LeadScope, filters: LeadFilters, chunkSize = 5000): AsyncGenerator<LeadExportRow[]> {
  let after: { at: string; id: number } | null = null;
  for (;;) {
    let page = db
      .selectFrom('leads')
      .leftJoin('users', 'users.id', 'leads.scanned_by')
      .select([...EXPORT_COLUMNS, 'users.display_name as scanned_by_name'])
      .where((eb) => leadConditions(eb, scope, filters))
      .orderBy('leads.scanned_at', 'desc')
      .orderBy('leads.id', 'desc')
      .limit(chunkSize);
    if (after) {
      const { at, id } = after;
      page = page.where(sql<SqlBool>`(leads.scanned_at, leads.id) < (${at}::timestamptz, ${id}::bigint)`);
    }
    const chunk = await db
      .selectFrom(page.as('page'))
      .select(sql<string>`coalesce(json_agg(page order by page.scanned_at desc, page.id desc), '[]')::text`.as('rows'))
      .executeTakeFirst();
    const rows = JSON.parse(chunk?.rows ?? '[]') as LeadExportRow[];
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < chunkSize) return;
    const last = rows[rows.length - 1]!;
    after = { at: last.scanned_at, id: Number(last.id) };
  }
}
