import { sql, type Kysely, type RawBuilder } from 'kysely';
import { FOLLOW_UP_ACTIONS, LEAD_SCANNER_ROLES, LEAD_TEMPERATURES, LEAD_TYPES, leadSearchText } from '../../engine/leads';
import type { Database } from './schema';

// Deterministic visitors and leads for the demo, the generator script and the benchmarks. All of
// it runs inside PostgreSQL (INSERT … SELECT over generate_series): one statement per chunk,
// whatever the volume, on PGlite and on a server alike. Visitor n always gets the same profile.

const FIRST_NAMES = [
  'Aisyah',
  'Wei Ming',
  'Nguyen Thi Lan',
  'Somchai',
  'Maria',
  'Hiroshi',
  'Siti',
  'Rajesh',
  'Min-jun',
  'Chloe',
  'Ahmad',
  'Mei Ling',
  'Tran Van Minh',
  'Kanya',
  'Jose',
  'Yuki',
  'Putri',
  'Priya',
  'Ji-woo',
  'Oliver',
  'Farid',
  'Xiao Hong',
  'Le Thu Ha',
  'Arthit',
  'Andrea',
  'Kenji',
  'Dewi',
  'Arjun',
  'Seo-yeon',
  'Liam',
];
const LAST_NAMES = [
  'Rahman',
  'Tan',
  'Nguyen',
  'Srisuk',
  'Santos',
  'Tanaka',
  'Hassan',
  'Kumar',
  'Kim',
  'Wong',
  'Abdullah',
  'Lim',
  'Pham',
  'Chaiyaporn',
  'Reyes',
  'Suzuki',
  'Wijaya',
  'Sharma',
  'Park',
  'Smith',
  'Ismail',
  'Chen',
  'Hoang',
  'Boonmee',
  'Cruz',
  'Watanabe',
  'Santoso',
  'Patel',
  'Lee',
  'Brown',
];
const SALUTATIONS = ['Mr.', 'Ms.', 'Mrs.', 'Dr.', 'Mr.', 'Ms.'];
const COMPANY_STEMS = [
  'Golden Harvest',
  'Pacific Rim',
  'Lotus',
  'Straits',
  'Mekong Delta',
  'Sakura',
  'Nusantara',
  'Spice Route',
  'Han River',
  'Southern Cross',
  'Evergreen',
  'Coral Bay',
  'Red Dragon',
  'Bamboo Grove',
  'Sunrise',
  'Jade Garden',
  'Monsoon',
  'Silver Leaf',
  'Orchid',
  'Blue Ocean',
];
const COMPANY_KINDS = ['Foods', 'Trading', 'Hospitality Group', 'Imports', 'Distribution', 'Hotels & Resorts', 'Catering', 'Beverages', 'Retail', 'Supplies'];
const COMPANY_SUFFIXES = ['Sdn. Bhd.', 'Pte. Ltd.', 'Co., Ltd.', 'PT', 'JSC', 'Inc.', 'Pty Ltd', 'K.K.', 'LLC', 'Corp.'];
const BUSINESS_NATURES = [
  'Importer / Distributor',
  'Hotel / Resort',
  'Restaurant / Café',
  'Retailer / Supermarket',
  'Manufacturer',
  'Caterer',
  'E-commerce',
  'Wholesaler',
  'Government / Association',
  'Consultant',
];
const JOB_TITLES = [
  'Purchasing Manager',
  'Executive Chef',
  'Managing Director',
  'Procurement Officer',
  'F&B Director',
  'Category Buyer',
  'Owner',
  'Sales Manager',
  'Operations Manager',
  'Business Development Executive',
];
// Country (ISO code, stored; and its English name, for the address), dialling code, city and
// street, so mobile, phone and address agree with the country.
const COUNTRIES: Array<[string, string, string, string, string]> = [
  ['MY', 'Malaysia', '60', 'Kuala Lumpur', 'Jalan Ampang'],
  ['SG', 'Singapore', '65', 'Singapore', 'Orchard Road'],
  ['ID', 'Indonesia', '62', 'Jakarta', 'Jalan Sudirman'],
  ['TH', 'Thailand', '66', 'Bangkok', 'Sukhumvit Road'],
  ['VN', 'Vietnam', '84', 'Ho Chi Minh City', 'Nguyen Hue Boulevard'],
  ['PH', 'Philippines', '63', 'Manila', 'Ayala Avenue'],
  ['CN', 'China', '86', 'Shanghai', 'Nanjing Road'],
  ['JP', 'Japan', '81', 'Tokyo', 'Ginza Chuo-dori'],
  ['KR', 'South Korea', '82', 'Seoul', 'Teheran-ro'],
  ['IN', 'India', '91', 'Mumbai', 'Marine Drive'],
  ['AU', 'Australia', '61', 'Sydney', 'George Street'],
  ['AE', 'United Arab Emirates', '971', 'Dubai', 'Sheikh Zayed Road'],
  ['MY', 'Malaysia', '60', 'Penang', 'Lebuh Pantai'],
  ['SG', 'Singapore', '65', 'Singapore', 'Raffles Place'],
];

/** The badge code printed on visitor n's badge for an event. */
export function badgeCode(eventCode: string, n: number): string {
  return `${eventCode}-V${String(n).padStart(7, '0')}`;
}

const textArray = (values: readonly string[]) => sql`${sql.raw(`array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(',')}]::text[]`)}`;
/** 1-based element of an array, picked by a deterministic mix of n. */
const pick = (array: ReturnType<typeof textArray>, length: number, multiplier: number, salt: number) =>
  sql`(${array})[1 + ((g * ${sql.lit(multiplier)} + ${sql.lit(salt)}) % ${sql.lit(length)})]`;

/**
 * Inserts visitors first..last (1-based numbers) of an event; existing badge codes are kept.
 * Answers how many were inserted.
 */
export async function insertVisitors(db: Kysely<Database>, event: { id: number; code: string }, first: number, last: number): Promise<number> {
  const first_ = textArray(FIRST_NAMES);
  const last_ = textArray(LAST_NAMES);
  const country = pick(textArray(COUNTRIES.map((c) => c[0])), COUNTRIES.length, 5, 3);
  const countryInAddress = pick(textArray(COUNTRIES.map((c) => c[1])), COUNTRIES.length, 5, 3);
  const dial = pick(textArray(COUNTRIES.map((c) => c[2])), COUNTRIES.length, 5, 3);
  const city = pick(textArray(COUNTRIES.map((c) => c[3])), COUNTRIES.length, 5, 3);
  const street = pick(textArray(COUNTRIES.map((c) => c[4])), COUNTRIES.length, 5, 3);
  const firstName = pick(first_, FIRST_NAMES.length, 1, 0);
  const lastName = pick(last_, LAST_NAMES.length, 7, 11);
  const company = sql`${pick(textArray(COMPANY_STEMS), COMPANY_STEMS.length, 13, 5)} || ' ' || ${pick(textArray(COMPANY_KINDS), COMPANY_KINDS.length, 3, 1)} || ' ' || ${pick(textArray(COMPANY_SUFFIXES), COMPANY_SUFFIXES.length, 7, 3)}`;
  const result = await sql`
    insert into visitors (event_id, badge_code, name, salutation, company, business_nature, job_title, country, mobile, email, phone, address)
    select ${event.id},
      ${event.code} || '-V' || lpad(g::text, 7, '0'),
      ${firstName} || ' ' || ${lastName},
      ${pick(textArray(SALUTATIONS), SALUTATIONS.length, 5, 2)},
      ${company},
      ${pick(textArray(BUSINESS_NATURES), BUSINESS_NATURES.length, 11, 4)},
      ${pick(textArray(JOB_TITLES), JOB_TITLES.length, 17, 6)},
      ${country},
      '+' || ${dial} || ' ' || (10000000 + (g::bigint * 7919) % 90000000)::text,
      lower(regexp_replace(${firstName}, '[^A-Za-z]', '', 'g')) || '.' || lower(regexp_replace(${lastName}, '[^A-Za-z]', '', 'g')) || g::text || '@' ||
        lower(regexp_replace(${pick(textArray(COMPANY_STEMS), COMPANY_STEMS.length, 13, 5)}, '[^A-Za-z]', '', 'g')) || '.example',
      '+' || ${dial} || ' ' || (2000000 + (g::bigint * 104729) % 8000000)::text,
      (1 + g % 200)::text || ' ' || ${street} || ', ' || ${city} || ', ' || ${countryInAddress}
    from generate_series(${sql.lit(first)}::int, ${sql.lit(last)}::int) as g
    on conflict (event_id, badge_code) do nothing`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** The people who scan for a participation (its exhibitor and team users), by id: whom generated leads are spread over. */
export function scanningPeople(db: Kysely<Database>, participationId: number) {
  return db.selectFrom('users').select(['id', 'role']).where('participation_id', '=', participationId).where('role', 'in', LEAD_SCANNER_ROLES).orderBy('id').execute();
}

export interface LeadGeneration {
  participationId: number;
  /** Users whose scans these are (round robin). */
  scannedBy: number[];
  eventId: number;
  eventCode: string;
  offsetMinutes: number;
  /** Scans spread evenly over [start, end). */
  start: Date;
  end: Date;
  /** Leads first..last (1-based); lead n scans visitor ((n * 37) mod visitors) + 1. */
  first: number;
  last: number;
  visitors: number;
  /** Every this-many-th lead has a badge no visitor has (kept, flagged unknown). */
  unknownEvery?: number;
  /** Share of leads (0-1) already qualified. */
  qualifiedShare?: number;
  /**
   * Show days as [start, end) spans: lead n is scanned on day n mod days.length, spread evenly over
   * that day. Without them the scans are spread over [start, end).
   */
  days?: Array<{ start: Date; end: Date }>;
  /** False leaves the keyword text for one `fillLeadSearchText` over all leads afterwards (many participations at once). */
  foldSearchText?: boolean;
}

/** Inserts generated leads in one statement (the rollup triggers count them). Answers the count. */
export async function insertLeads(db: Kysely<Database>, plan: LeadGeneration): Promise<number> {
  const spanSeconds = Math.max(1, Math.floor((plan.end.getTime() - plan.start.getTime()) / 1000));
  const count = plan.last - plan.first + 1;
  const startSeconds = Math.floor(plan.start.getTime() / 1000);
  const users = sql`${sql.raw(`array[${plan.scannedBy.map((id) => Number(id)).join(',')}]::int[]`)}`;
  const unknownEvery = plan.unknownEvery ?? 0;
  const qualifiedPercent = Math.round((plan.qualifiedShare ?? 0.4) * 100);
  const types = textArray(LEAD_TYPES);
  const temps = textArray(LEAD_TEMPERATURES);
  const follow = textArray(FOLLOW_UP_ACTIONS);
  const result = await sql`
    insert into leads (participation_id, client_scan_id, badge_code, visitor_id, badge_known, visitor_name, salutation, company,
      business_nature, job_title, country, mobile, email, phone, address, scanned_by, scanned_at, event_hour, lead_type, temperature, follow_up, notes, search_folded)
    select ${plan.participationId}, 'gen-' || s.n::text, coalesce(v.badge_code, s.code), v.id, v.id is not null,
      coalesce(v.name, ''), coalesce(v.salutation, ''), coalesce(v.company, ''), coalesce(v.business_nature, ''), coalesce(v.job_title, ''),
      coalesce(v.country, ''), coalesce(v.mobile, ''), coalesce(v.email, ''), coalesce(v.phone, ''), coalesce(v.address, ''),
      (${users})[1 + s.n % ${sql.lit(plan.scannedBy.length)}],
      s.at, floor((extract(epoch from s.at) + ${sql.lit(plan.offsetMinutes * 60)}) / 3600)::int,
      case when s.q then (${types})[1 + (s.n / 7 + s.n * 2) % ${sql.lit(LEAD_TYPES.length)}] end,
      case when s.q then (${temps})[1 + (s.n * 5) % ${sql.lit(LEAD_TEMPERATURES.length)}] end,
      case when s.q then (${follow})[1 + (s.n * 3) % ${sql.lit(FOLLOW_UP_ACTIONS.length)}] end,
      case when s.q and s.n % 3 = 0 then 'Met at the booth; interested in samples.' else '' end,
      ${asciiSearchText(sql`coalesce(v.name, '')`, sql`coalesce(v.company, '')`, sql`coalesce(v.email, '')`, sql`coalesce(v.badge_code, s.code)`)}
    from (
      select n,
        -- whole seconds (list keysets compare exact instants), spread over the span
        ${scanTime(plan, startSeconds, spanSeconds, count)} as at,
        case when ${sql.lit(unknownEvery)} > 0 and n % ${sql.lit(Math.max(1, unknownEvery))} = 0
          then ${plan.eventCode} || '-X' || lpad(n::text, 7, '0')
          else ${plan.eventCode} || '-V' || lpad((1 + (n::bigint * 37) % ${sql.lit(Math.max(1, plan.visitors))})::text, 7, '0') end as code,
        (n * 31) % 100 < ${sql.lit(qualifiedPercent)} as q
      from generate_series(${sql.lit(plan.first)}::int, ${sql.lit(plan.last)}::int) as n
    ) s
    left join visitors v on v.event_id = ${plan.eventId} and v.badge_code = s.code
    -- One lead per badge per exhibitor (LD1): a badge already a lead of it is skipped, like a
    -- scan id already stored. With more leads than visitors, the extra ones are skipped.
    on conflict do nothing`.execute(db);
  if (plan.foldSearchText !== false) await fillLeadSearchText(db, plan.participationId);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * The keyword text (engine `leadSearchText`) of ASCII texts, folded in the statement: for ASCII the
 * engine's fold is lower case with runs of white space made one space and trimmed. Texts with
 * other characters are left '' for `fillLeadSearchText`, which folds them with the engine.
 */
function asciiSearchText(...fields: RawBuilder<string>[]) {
  const folded = fields.map((field) => sql`btrim(lower(regexp_replace(${field}, '\\s+', ' ', 'g')), ' ')`);
  const joined = sql.join(fields, sql` || `);
  return sql`case when octet_length(${joined}) = char_length(${joined}) then ${sql.join(folded, sql` || E'\\n' || `)} else '' end`;
}

/** When lead n was scanned: spread evenly over the span, or over its show day (n mod days) when days are given. */
function scanTime(plan: LeadGeneration, startSeconds: number, spanSeconds: number, count: number) {
  const days = plan.days ?? [];
  if (days.length === 0) return sql`to_timestamp(${sql.lit(startSeconds)} + ((n - ${sql.lit(plan.first)})::bigint * ${sql.lit(spanSeconds)}) / ${sql.lit(Math.max(1, count))})`;
  const starts = sql.raw(`array[${days.map((day) => Math.floor(day.start.getTime() / 1000)).join(',')}]::bigint[]`);
  const spans = sql.raw(`array[${days.map((day) => Math.max(1, Math.floor((day.end.getTime() - day.start.getTime()) / 1000))).join(',')}]::bigint[]`);
  const perDay = Math.max(1, Math.ceil(count / days.length));
  const day = sql`(1 + n % ${sql.lit(days.length)})`;
  return sql`to_timestamp((${starts})[${day}] + (((n - ${sql.lit(plan.first)}) / ${sql.lit(days.length)})::bigint * (${spans})[${day}]) / ${sql.lit(perDay)})`;
}

/**
 * Folds the keyword text of leads that have none yet (generated in SQL above, where the engine's
 * fold cannot run) — a participation's, or every participation's when none is named — a batch of
 * leads at a time in id order.
 */
export async function fillLeadSearchText(db: Kysely<Database>, participationId?: number, batch = 5000): Promise<void> {
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom('leads')
      .select(['id', 'visitor_name', 'company', 'email', 'badge_code'])
      .$if(participationId !== undefined, (query) => query.where('participation_id', '=', participationId!))
      .where('search_folded', '=', '')
      .where('id', '>', after)
      .orderBy('id')
      .limit(batch)
      .execute();
    if (rows.length === 0) return;
    const folded = rows.map((row) => ({
      id: Number(row.id),
      text: leadSearchText({ visitorName: row.visitor_name, company: row.company, email: row.email, badgeCode: row.badge_code }),
    }));
    await sql`update leads set search_folded = f.text
      from jsonb_to_recordset(${JSON.stringify(folded)}::jsonb) as f(id bigint, text text)
      where leads.id = f.id`.execute(db);
    after = Number(rows[rows.length - 1]!.id);
  }
}

/**
 * Names and companies in Japanese, Chinese and Vietnamese (with diacritics) that some generated
 * leads are given (`giveLeadsForeignNames`), so keywords in every language find leads: every 7th,
 * 11th and 13th lead by id respectively.
 */
const FOREIGN_NAMES: Array<[number, Array<[string, string]>]> = [
  [
    7,
    [
      ['田中 花子', '東京食品株式会社'],
      ['佐藤 健', '大阪貿易株式会社'],
      ['鈴木 一郎', '京都ホテル'],
    ],
  ],
  [
    11,
    [
      ['王伟', '上海食品有限公司'],
      ['李娜', '杭州茶叶'],
    ],
  ],
  [
    13,
    [
      ['Nguyễn Văn An', 'Công ty Thực phẩm Sài Gòn'],
      ['Trần Thị Bích', 'Đà Nẵng Trading'],
    ],
  ],
];

/** Gives a share of a participation's known-badge leads foreign names (FOREIGN_NAMES), their keyword text folded by the engine; answers how many. */
export async function giveLeadsForeignNames(db: Kysely<Database>, participationId: number, batch = 5000): Promise<number> {
  const known = await db.selectFrom('leads').select(['id', 'email', 'badge_code']).where('participation_id', '=', participationId).where('badge_known', '=', true).execute();
  const renamed = known.flatMap((lead) => {
    const id = Number(lead.id);
    const names = FOREIGN_NAMES.find(([every]) => id % every === 0)?.[1];
    if (!names) return [];
    const [name, company] = names[id % names.length]!;
    return [{ id, name, company, text: leadSearchText({ visitorName: name, company, email: lead.email, badgeCode: lead.badge_code }) }];
  });
  for (let at = 0; at < renamed.length; at += batch) {
    await sql`update leads set visitor_name = f.name, company = f.company, search_folded = f.text
      from jsonb_to_recordset(${JSON.stringify(renamed.slice(at, at + batch))}::jsonb) as f(id bigint, name text, company text, text text)
      where leads.id = f.id`.execute(db);
  }
  return renamed.length;
}
