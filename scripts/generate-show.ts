import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { needsApproval } from '../src/engine/forms/definitions';
import { FOLLOW_UP_ACTIONS, LEAD_TEMPERATURES, LEAD_TYPES } from '../src/engine/leads';
import { memberLogin } from '../src/engine/members';
import { defaultPgliteDir, migrateToLatest, openDatabase } from '../src/server/db/connection';
import { fillLeadSearchText, giveLeadsForeignNames, insertVisitors } from '../src/server/db/demo-leads';
import type { Database } from '../src/server/db/schema';
import { DEMO_EVENT_CODE, DEMO_PASSWORD, seedDemo } from '../src/server/db/seed';
import { indexContent } from '../src/server/lib/content-search';
import { hashPassword } from '../src/server/lib/passwords';
import { loadFormRegistry, type FormSet } from '../src/server/plugins/forms/form-set';
import { ROOT } from './catalogue-source';

// A big show's data in the demo event (AFHE2027), made in the database with set-based statements
// (INSERT … SELECT over generate_series): exhibitors with codes, booths, flags, their users,
// drafts and submissions of every form of the form set, visitors, leads over the three show days
// with later scans, qualifications and tags, content in four languages and the audit trail of the
// weeks before the show. The benchmarks (`npm run bench -- big-show`) and a server test use it.
//
//   npx tsx scripts/generate-show.ts --database-url postgres://… [--exhibitors 5000 --leads 5000000]
//   npx tsx scripts/generate-show.ts --data-dir .tmp/show      (the embedded database; 500 / 500,000)

export interface ShowSize {
  exhibitors: number;
  visitors: number;
  leads: number;
  /** Leads of the largest exhibitor (the first generated one). */
  largestLeads: number;
  /** Team users of the largest exhibitor: the devices that scan for it. */
  largestTeam: number;
  /** Content items (manuals, announcements and FAQ, a third each) in four languages. */
  contentItems: number;
  auditPerDay: number;
  auditDays: number;
}

/** The issue's big show, on PostgreSQL. */
export const FULL_SHOW: ShowSize = {
  exhibitors: 5000,
  visitors: 200_000,
  leads: 5_000_000,
  largestLeads: 50_000,
  largestTeam: 20,
  contentItems: 1500,
  auditPerDay: 30_000,
  auditDays: 28,
};

/** The slice the embedded database holds. */
export const EMBEDDED_SHOW: ShowSize = { ...FULL_SHOW, exhibitors: 500, visitors: 50_000, leads: 500_000, largestLeads: 20_000, contentItems: 600, auditPerDay: 3000 };

/** A size from a few numbers, the rest in proportion. */
export function showSize(exhibitors: number, leads: number, base: ShowSize = exhibitors >= FULL_SHOW.exhibitors ? FULL_SHOW : EMBEDDED_SHOW): ShowSize {
  const scale = exhibitors / base.exhibitors;
  return {
    ...base,
    exhibitors,
    leads,
    visitors: Math.max(100, Math.round(base.visitors * Math.min(1, Math.max(scale, leads / base.leads)))),
    largestLeads: Math.min(base.largestLeads, Math.max(Math.ceil(leads / exhibitors) * 2, Math.round(leads * 0.01))),
    largestTeam: Math.min(base.largestTeam, Math.max(2, Math.round(base.largestTeam * scale))),
    contentItems: Math.max(12, Math.round(base.contentItems * Math.min(1, scale))),
    auditPerDay: Math.max(10, Math.round(base.auditPerDay * Math.min(1, scale))),
  };
}

/** What was made, as the benchmarks and the test need it. */
export interface GeneratedShow {
  eventId: number;
  eventCode: string;
  size: ShowSize;
  /** Exhibitor codes BS00001…; the first is the largest. */
  exhibitorCodePrefix: string;
  /** Login of the largest exhibitor (password: the demo's). */
  largestLogin: string;
  largestParticipationId: number;
  participationIds: { first: number; last: number };
  /** Per form: entries written (drafts and submissions). */
  entries: Record<string, { drafts: number; submitted: number }>;
  badges: number;
  seconds: number;
}

export const SHOW_CODE_PREFIX = 'BS';
export const SHOW_PASSWORD = DEMO_PASSWORD;
const loginOf = (n: number) => `${SHOW_CODE_PREFIX.toLowerCase()}${String(n).padStart(5, '0')}`;

/**
 * A hash of what the data set is made from (this generator, the lead generator, the demo seed, the
 * migrations and the form set): a cached data set is reused while it is unchanged.
 */
export function generatorHash(size: ShowSize): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify(size));
  const files = [
    'scripts/generate-show.ts',
    'src/server/db/demo-leads.ts',
    'src/server/db/seed.ts',
    'src/server/db/seed-content.ts',
    ...readdirSync(join(ROOT, 'src/server/db/migrations'))
      .sort()
      .map((name) => `src/server/db/migrations/${name}`),
    ...readdirSync(join(ROOT, 'schemas/forms'))
      .sort()
      .map((name) => `schemas/forms/${name}`),
  ];
  for (const file of files) hash.update(file).update(readFileSync(join(ROOT, file)));
  return hash.digest('hex').slice(0, 16);
}

// ---- form documents from the form set's schemas ----

const FIRST_NAMES = ['Aisyah', 'Wei Ming', 'Lan', 'Somchai', 'Maria', 'Hiroshi', 'Siti', 'Rajesh', 'Minjun', 'Chloe', 'Ahmad', 'Mei Ling', 'Minh', 'Kanya', 'Jose', 'Yuki'];
const LAST_NAMES = ['Rahman', 'Tan', 'Nguyen', 'Srisuk', 'Santos', 'Tanaka', 'Hassan', 'Kumar', 'Kim', 'Wong', 'Abdullah', 'Lim', 'Pham', 'Reyes', 'Suzuki', 'Wijaya', 'Sharma'];
const COMPANY_WORDS = [
  'Golden Harvest',
  'Pacific Rim',
  'Lotus',
  'Straits',
  'Mekong',
  'Sakura',
  'Nusantara',
  'Spice Route',
  'Evergreen',
  'Coral Bay',
  'Jade Garden',
  'Monsoon',
  'Orchid',
  'Blue Ocean',
];
/** Placeholders the statements replace per exhibitor (#N#), per list item (#I#) and with names. */
const TOKEN = { n: '#N#', i: '#I#', first: '#FIRST#', last: '#LAST#', company: '#COMPANY#' };

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  requiredWhenShown?: Record<string, string>;
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  minItems?: number;
  uniqueItems?: boolean;
  realName?: string;
  country?: boolean;
  file?: string;
  videoHost?: boolean;
  quota?: string;
  if?: { required?: string[]; properties?: Record<string, { const?: unknown }> };
  then?: { required?: string[] };
};

/** A text for a string field, from what its schema asks (format, pattern, enum, name rules). */
function sampleString(name: string, schema: Schema, index: number): string {
  if (schema.enum) return String(schema.enum[index % schema.enum.length]);
  if (schema.country) return ['MY', 'SG', 'TH', 'VN', 'ID', 'JP', 'CN'][index % 7]!;
  if (schema.format === 'email') return `${name.toLowerCase()}.${TOKEN.i}.${TOKEN.n}@bigshow.example`;
  if (schema.format === 'date') return '2027-03-15';
  if (schema.format === 'uri') return schema.videoHost ? `https://vimeo.com/7697${TOKEN.n}` : `https://www.exhibitor-${TOKEN.n}.example`;
  if (schema.pattern?.includes('{1,4}')) return '+60';
  if (schema.pattern?.startsWith('^\\+?[0-9]')) return `+60 12-${TOKEN.n}`;
  if (schema.pattern) return `PA00${TOKEN.n}`;
  if (schema.realName === 'chinese') return '陈伟明';
  if (schema.realName) return /first/i.test(name) ? TOKEN.first : /last/i.test(name) ? TOKEN.last : `${TOKEN.first} ${TOKEN.last}`;
  if (/company/i.test(name)) return `${TOKEN.company} ${TOKEN.n}`;
  const text = `${name.replace(/([A-Z])/g, ' $1').toLowerCase()} of exhibitor ${TOKEN.n}`;
  const min = schema.minLength ?? 0;
  return text.padEnd(min, '.').slice(0, schema.maxLength ?? text.length);
}

/**
 * A document for a schema that its rules accept with every flag on: required properties (and those
 * required when shown), filled from what each field's schema asks; file fields name uploads the
 * generator records (`#FILE:<purpose>#`). A list with a quota is left empty: the statement fills it.
 */
function sampleValue(name: string, schema: Schema, index: number): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.file) return { id: `bigshow-${schema.file}-${TOKEN.n}`, name: `${schema.file}.pdf`, size: 1000, type: `#FILE:${schema.file}#` };
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const value: Record<string, unknown> = {};
      const wanted = new Set([...(schema.required ?? []), ...Object.keys(schema.requiredWhenShown ?? {})]);
      for (const [key, child] of Object.entries(schema.properties ?? {})) if (wanted.has(key)) value[key] = sampleValue(key, child, index);
      // A condition the document meets (if/then) requires more.
      const condition = schema.if;
      if (condition && schema.then) {
        const met =
          (condition.required ?? []).every((key) => key in value) &&
          Object.entries(condition.properties ?? {}).every(([key, rule]) => rule.const === undefined || value[key] === rule.const);
        if (met) for (const key of schema.then.required ?? []) if (!(key in value) && schema.properties?.[key]) value[key] = sampleValue(key, schema.properties[key]!, index);
      }
      return value;
    }
    case 'array': {
      if (schema.quota) return [];
      const items = schema.items ?? {};
      const count = Math.max(1, schema.minItems ?? 0);
      if (items.enum) return items.enum.slice(0, Math.max(count, Math.min(2, items.enum.length)));
      // Items differ in what must be unique (e-mails carry the item's number).
      return Array.from({ length: Math.max(count, 2) }, (_, i) => JSON.parse(JSON.stringify(sampleValue(name, items, index + i)).replaceAll(TOKEN.i, String(i + 1))) as unknown);
    }
    case 'boolean':
      return schema.default ?? false;
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    default:
      return sampleString(name, schema, index);
  }
}

interface FormPlan {
  id: string;
  /** The document with placeholders, as JSON text. */
  document: string;
  /** The top-level list with a quota (filled with 10–200 items per exhibitor), its item template. */
  quotaList: { name: string; quota: string; item: string } | null;
  mandatory: boolean;
  prerequisites: string[];
  approval: boolean;
  filePurposes: string[];
}

export function formPlans(forms: FormSet, eventCode: string): FormPlan[] {
  return forms.definitions.map((definition) => {
    const schema = forms.filesFor(definition.id, eventCode).schema as Schema;
    const document = sampleValue(definition.id, schema, 0) as Record<string, unknown>;
    const listEntry = Object.entries(schema.properties ?? {}).find(([, child]) => child.type === 'array' && child.quota);
    const quotaList = listEntry ? { name: listEntry[0], quota: listEntry[1].quota!, item: JSON.stringify(sampleValue(listEntry[0], listEntry[1].items ?? {}, 0)) } : null;
    const text = JSON.stringify(document);
    return {
      id: definition.id,
      document: text,
      quotaList,
      mandatory: Boolean(definition.mandatory),
      prerequisites: [...(definition.prerequisites ?? [])],
      approval: needsApproval(definition.approval, document),
      filePurposes: [...new Set([...text.matchAll(/#FILE:([A-Za-z0-9]+)#/g)].map((match) => match[1]!))],
    };
  });
}

/** SQL for the JSON text with its placeholders replaced (`n` the exhibitor's number, `i` the item's). */
function filled(template: string, n: RawBuilder<unknown>, i: RawBuilder<unknown> | null, fileTypes: Record<string, string>) {
  let text = template;
  for (const [purpose, type] of Object.entries(fileTypes)) text = text.replaceAll(`#FILE:${purpose}#`, type);
  const names = (list: string[]) => sql.raw(`(array[${list.map((v) => `'${v.replace(/'/g, "''")}'`).join(',')}]::text[])`);
  const item = i ?? sql.raw('0');
  return sql`replace(replace(replace(replace(replace(${text}::text, ${TOKEN.n}, ${n}::text), ${TOKEN.i}, ${item}::text),
    ${TOKEN.first}, ${names(FIRST_NAMES)}[1 + (${item} * 7 + ${n}) % ${sql.lit(FIRST_NAMES.length)}]),
    ${TOKEN.last}, ${names(LAST_NAMES)}[1 + (${item} * 3 + ${n} * 5) % ${sql.lit(LAST_NAMES.length)}]),
    ${TOKEN.company}, ${names(COMPANY_WORDS)}[1 + ${n} % ${sql.lit(COMPANY_WORDS.length)}])::jsonb`;
}

/** Badges (items of the quota list) of exhibitor n: 10 to 200, the largest exhibitor 200. */
const listLength = (n: RawBuilder<unknown>) => sql`(case when ${n} = 1 then 200 else 10 + (${n} * 7919) % 191 end)`;

// ---- the generator ----

/** The tables that take millions of rows: loaded with their secondary indexes and row triggers set aside. */
const BULK_TABLES = ['form_entries', 'audit_log', 'leads', 'lead_scans'];

const stepper =
  (log: (line: string) => void) =>
  async <T>(label: string, work: () => Promise<T>): Promise<T> => {
    const at = performance.now();
    const result = await work();
    log(`  ${label} (${((performance.now() - at) / 1000).toFixed(1)} s)`);
    return result;
  };

/**
 * Generates the show as a bulk load, on one connection (its settings hold for every statement):
 * the big tables are loaded without their secondary indexes, foreign-key checks and row triggers
 * (see setAsideForBulkLoad), the indexes are then built once with more memory, and the database
 * is analysed. Before it answers, the generator checks its own result: the indexes, triggers and
 * constraints are exactly those it found (the migrations' schema), and the lead rollups and the
 * audit's actor list equal a recount.
 */
export async function generateShow(db: Kysely<Database>, size: ShowSize, log: (line: string) => void = () => undefined, forms = loadFormRegistry()): Promise<GeneratedShow> {
  const started = performance.now();
  const step = stepper(log);
  return db.connection().execute(async (connection) => {
    const embedded = (await sql<{ v: string }>`select version() as v`.execute(connection)).rows[0]!.v.includes('emscripten');
    const schema = await schemaOf(connection);
    // Commits need not wait for the disk (a failed build is made again), a chunk of leads is joined
    // and sorted in memory, and each index is built in one pass.
    await sql`set synchronous_commit = off`.execute(connection);
    await sql.raw(`set work_mem = '${embedded ? '64MB' : '256MB'}'`).execute(connection);
    await sql.raw(`set maintenance_work_mem = '${embedded ? '256MB' : '1GB'}'`).execute(connection);
    let show: GeneratedShow;
    const setAside = await setAsideForBulkLoad(connection, BULK_TABLES);
    try {
      show = await fillShow(connection, size, log, forms);
    } finally {
      await step(`indexes of ${BULK_TABLES.join(', ')} made again, triggers back on`, setAside.restore);
      await sql`reset synchronous_commit`.execute(connection);
      await sql`reset work_mem`.execute(connection);
    }
    await step('statistics (analyze)', () => sql`analyze`.execute(connection));
    await sql`reset maintenance_work_mem`.execute(connection);
    await step('checks: schema as migrated, rollups and actors as recounted', () => checkShow(connection, show, schema));
    return { ...show, seconds: (performance.now() - started) / 1000 };
  });
}

async function fillShow(db: Kysely<Database>, size: ShowSize, log: (line: string) => void, forms: FormSet): Promise<GeneratedShow> {
  const started = performance.now();
  const step = stepper(log);
  const event = await db
    .selectFrom('events')
    .select(['id', 'code', 'organisation_id', 'show_days', 'utc_offset_minutes', 'default_flags', 'default_modules', 'starts_at', 'default_language'])
    .where('code', '=', DEMO_EVENT_CODE)
    .executeTakeFirstOrThrow();
  const existing = await db.selectFrom('exhibitors').select('id').where('code', '=', `${SHOW_CODE_PREFIX}00001`).executeTakeFirst();
  if (existing) throw new Error('the show is already generated in this database');
  const passwordHash = await hashPassword(SHOW_PASSWORD);
  const code = sql`${SHOW_CODE_PREFIX} || lpad(g::text, 5, '0')`;

  // Exhibitors and their participations: codes, booths over eight halls, flags varying around the event's defaults.
  await step(`${size.exhibitors.toLocaleString('en')} exhibitors and participations`, async () => {
    await sql`insert into exhibitors (name, legal_name, logo_url, organisation_id, code)
      select (array['Golden Harvest','Pacific Rim','Lotus','Straits','Mekong Delta','Sakura','Nusantara','Spice Route','Evergreen','Coral Bay','Jade Garden','Monsoon'])[1 + g % 12]
          || ' ' || (array['Foods','Trading','Beverages','Imports','Hospitality','Supplies','Catering','Dairy'])[1 + (g / 12) % 8] || ' ' || g,
        (array['Golden Harvest','Pacific Rim','Lotus','Straits','Mekong Delta','Sakura','Nusantara','Spice Route','Evergreen','Coral Bay','Jade Garden','Monsoon'])[1 + g % 12]
          || ' ' || (array['Foods','Trading','Beverages','Imports','Hospitality','Supplies','Catering','Dairy'])[1 + (g / 12) % 8] || ' ' || g
          || ' ' || (array['Sdn. Bhd.','Pte. Ltd.','Co., Ltd.','PT','JSC','K.K.'])[1 + g % 6],
        '', ${event.organisation_id}, ${code}
      from generate_series(1, ${sql.lit(size.exhibitors)}) g`.execute(db);
    await sql`insert into participations (exhibitor_id, event_id, booth_num, displayed_modules, flags, status)
      select e.id, ${event.id}, 'Hall ' || (1 + g % 8) || ' · ' || chr(65 + (g / 8) % 20) || lpad((1 + g % 97)::text, 2, '0'),
        ${JSON.stringify(event.default_modules)}::jsonb,
        ${JSON.stringify(event.default_flags)}::jsonb
          || jsonb_build_object('productSecondLanguage', g % 3 <> 0, 's01SubmitOnceOnly', g % 5 = 0, 's04SubmitOnceOnly', g % 11 = 0),
        case when g % 97 = 0 then 'disabled' else 'active' end
      from generate_series(1, ${sql.lit(size.exhibitors)}) g join exhibitors e on e.code = ${code}
      -- in order, so exhibitor n's participation is the n-th id (the statements below rely on it)
      order by g`.execute(db);
  });
  const ids = await sql<{ first: number; last: number }>`select min(p.id)::int as first, max(p.id)::int as last
    from participations p join exhibitors e on e.id = p.exhibitor_id where e.code like ${`${SHOW_CODE_PREFIX}%`}`.execute(db);
  const participationIds = ids.rows[0]!;
  // Exhibitor n is participation first + n - 1 (inserted in order).
  const pn = sql`(p.id - ${sql.lit(participationIds.first)} + 1)`;

  await step('users (exhibitors, team users, contractors), quotas', async () => {
    await sql`insert into users (login, login_key, email, display_name, password_hash, role, participation_id, event_id, status)
      select lower(${code}), lower(${code}), lower(${code}) || '@exhibitor.example',
        (array[${sql.join(FIRST_NAMES)}])[1 + g % ${sql.lit(FIRST_NAMES.length)}] || ' ' || (array[${sql.join(LAST_NAMES)}])[1 + (g * 5) % ${sql.lit(LAST_NAMES.length)}],
        ${passwordHash}, 'exhibitor', ${sql.lit(participationIds.first)} + g - 1, ${event.id}, 'active'
      from generate_series(1, ${sql.lit(size.exhibitors)}) g`.execute(db);
    // Team users: the largest exhibitor's scanning devices, 1-3 for the others; a contractor for every fourth.
    const separator = memberLogin('', '');
    await sql`insert into users (login, login_key, email, display_name, password_hash, role, participation_id, event_id, status, created_by)
      select lower(${code}) || ${separator} || 'scanner' || t, lower(${code}) || ${separator} || 'scanner' || t, 'scanner' || t || '.' || lower(${code}) || '@exhibitor.example',
        'Scanner ' || t, ${passwordHash}, 'team_user', ${sql.lit(participationIds.first)} + g - 1, ${event.id}, 'active', u.id
      from generate_series(1, ${sql.lit(size.exhibitors)}) g
      cross join lateral generate_series(1, case when g = 1 then ${sql.lit(size.largestTeam)} else 1 + g % 3 end) t
      join users u on u.login_key = lower(${code})`.execute(db);
    await sql`insert into users (login, login_key, email, display_name, company, password_hash, role, participation_id, event_id, status, created_by)
      select lower(${code}) || ${separator} || 'builder', lower(${code}) || ${separator} || 'builder', 'builder.' || lower(${code}) || '@stands.example',
        'Stand Builder ' || g, 'Stand Works ' || g || ' Sdn. Bhd.', ${passwordHash}, 'contractor', ${sql.lit(participationIds.first)} + g - 1, ${event.id}, 'active', u.id
      from generate_series(1, ${sql.lit(size.exhibitors)}) g join users u on u.login_key = lower(${code}) where g % 4 = 1`.execute(db);
    await sql`insert into quotas (event_id, participation_id, name, value)
      select ${event.id}, p.id, 'teamUsers', ${sql.lit(size.largestTeam)} from participations p where p.id = ${sql.lit(participationIds.first)}`.execute(db);
  });

  // Uploads the file fields of the documents name (records only: the bytes are not needed to list or validate).
  const plans = formPlans(forms, event.code);
  const rules = forms.uploads as Record<string, { types: string[] }>;
  const purposes = [...new Set(plans.flatMap((plan) => plan.filePurposes))];
  const fileTypes = Object.fromEntries(purposes.map((purpose) => [purpose, rules[purpose]?.types[0] ?? 'pdf']));
  const mime: Record<string, string> = { pdf: 'application/pdf', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp' };
  const exhibitorUser = sql`(select u.id from users u where u.participation_id = p.id and u.role = 'exhibitor' limit 1)`;
  for (const purpose of purposes) {
    await sql`insert into uploads (id, participation_id, event_id, user_id, purpose, original_name, content_type, size, dpi, sha256)
      select 'bigshow-' || ${purpose} || '-' || ${pn}, p.id, ${event.id}, ${exhibitorUser}, ${purpose}, ${`${purpose}.pdf`}, ${mime[fileTypes[purpose]!] ?? 'application/pdf'}, 1000, null, repeat('0', 64)
      from participations p where p.id between ${sql.lit(participationIds.first)} and ${sql.lit(participationIds.last)}`.execute(db);
  }

  // Drafts and submissions: a tenth of the exhibitors has not started (drafts of the mandatory
  // forms only), a fifth has drafts only, the rest submitted; optional forms for a third, a form
  // only where its prerequisites are there.
  const entries: GeneratedShow['entries'] = {};
  let badges = 0;
  const present = new Map<string, string>();
  const presence = (plan: FormPlan, index: number): string => {
    const own = plan.mandatory ? 'true' : `((g + ${index}) % 3 = 0)`;
    const required = plan.prerequisites.map((id) => present.get(id) ?? 'true');
    return [own, ...required].join(' and ');
  };
  await step(`drafts and submissions of ${plans.length} forms`, async () => {
    for (const [index, plan] of plans.entries()) {
      const condition = presence(plan, index);
      present.set(plan.id, condition);
      const stage = sql.raw(`(g % 10)`);
      const n = sql.raw('g');
      const base = filled(plan.document, n, null, fileTypes);
      const document = plan.quotaList
        ? sql`jsonb_set(${base}, ${sql.lit(`{${plan.quotaList.name}}`)}::text[],
            (select jsonb_agg(${filled(plan.quotaList.item, n, sql.raw('i'), fileTypes)} order by i) from generate_series(1, ${listLength(n)}) i))`
        : base;
      const submitted = sql`(${stage} >= 3)`;
      await sql`insert into form_entries (participation_id, form_id, data, version, status, submitted_data, submitted_at, submitted_by, updated_at, updated_by, approval_status, decided_at)
        select ${sql.lit(participationIds.first)} + g - 1, ${plan.id}, d.doc, 1 + g % 4,
          case when ${submitted} then 'submitted' else 'draft' end,
          case when ${submitted} then d.doc end,
          case when ${submitted} then now() - ((g % 27) || ' days')::interval - ((g % 23) || ' hours')::interval end,
          case when ${submitted} then u.id end,
          now() - ((g % 27) || ' days')::interval, u.id,
          case when ${submitted} and ${plan.approval} then (case when g % 3 = 0 then 'approved' else 'pending' end) end,
          case when ${submitted} and ${plan.approval} and g % 3 = 0 then now() - interval '1 day' end
        from generate_series(1, ${sql.lit(size.exhibitors)}) g
        join users u on u.login_key = lower(${code})
        cross join lateral (select ${document} as doc) d
        where (${sql.raw(condition)}) and (${stage} > 0 or ${plan.mandatory})`.execute(db);
      const counted = await db
        .selectFrom('form_entries')
        .select(['status', (eb) => eb.fn.countAll<string>().as('n')])
        .where('form_id', '=', plan.id)
        .where('participation_id', '>=', participationIds.first)
        .groupBy('status')
        .execute();
      entries[plan.id] = {
        drafts: Number(counted.find((row) => row.status === 'draft')?.n ?? 0),
        submitted: Number(counted.find((row) => row.status === 'submitted')?.n ?? 0),
      };
      if (plan.quotaList) {
        // The exhibitor's quota holds its list (extra items would wait for approval).
        await sql`insert into quotas (event_id, participation_id, name, value)
          select ${event.id}, p.id, ${plan.quotaList.quota}, ${listLength(pn)}
          from participations p where p.id between ${sql.lit(participationIds.first)} and ${sql.lit(participationIds.last)}
          on conflict do nothing`.execute(db);
        const total = await sql<{ n: string }>`select coalesce(sum(jsonb_array_length(data -> ${plan.quotaList.name})), 0)::text as n
          from form_entries where form_id = ${plan.id} and participation_id >= ${sql.lit(participationIds.first)}`.execute(db);
        badges += Number(total.rows[0]!.n);
      }
    }
  });

  // Visitors, and leads over the three show days (opening hours, event time).
  await step(`${size.visitors.toLocaleString('en')} visitors`, () => insertVisitors(db, event, 1, size.visitors));
  const days = (event.show_days as Array<{ date: string; opens: string; closes: string }>).map((day) => {
    const at = (clock: string) => new Date(Date.parse(`${day.date}T${clock}:00Z`) - event.utc_offset_minutes * 60_000);
    return { start: at(day.opens), end: at(day.closes) };
  });
  const scanners = await db
    .selectFrom('users')
    .select(['id', 'participation_id'])
    .where('participation_id', '>=', participationIds.first)
    .where('participation_id', '<=', participationIds.last)
    .where('role', 'in', ['exhibitor', 'team_user'])
    .orderBy('id')
    .execute();
  const scannersOf = new Map<number, number[]>();
  for (const row of scanners) scannersOf.set(row.participation_id!, [...(scannersOf.get(row.participation_id!) ?? []), row.id]);
  const others = Math.max(1, size.exhibitors - 1);
  const rest = size.leads - Math.min(size.leads, size.largestLeads);
  // Two tags per exhibitor, answered on the qualified leads that wait for the first follow-up.
  await sql`insert into custom_tags (participation_id, name, choices, position)
    select p.id, t.name, t.choices::jsonb, t.position
    from participations p cross join (values ('Budget', ${JSON.stringify(TAG_CHOICES.Budget)}, 1), ('Timeline', ${JSON.stringify(TAG_CHOICES.Timeline)}, 2)) as t(name, choices, position)
    where p.id between ${sql.lit(participationIds.first)} and ${sql.lit(participationIds.last)}`.execute(db);
  const tags = await db
    .selectFrom('custom_tags')
    .select(['id', 'participation_id', 'name'])
    .where('participation_id', '>=', participationIds.first)
    .where('participation_id', '<=', participationIds.last)
    .execute();
  const tagOf = new Map(tags.map((tag) => [`${tag.participation_id}:${tag.name}`, tag.id]));
  await step(`${size.leads.toLocaleString('en')} leads`, async () => {
    let next = 1;
    const at = performance.now();
    let chunk: ShowLeadPlan[] = [];
    let chunkLeads = 0;
    const flush = async () => {
      if (chunk.length > 0) await insertShowLeads(db, chunk, { event, days, visitors: size.visitors });
      chunk = [];
      chunkLeads = 0;
    };
    for (let n = 1; n <= size.exhibitors; n++) {
      const count = n === 1 ? Math.min(size.leads, size.largestLeads) : Math.floor((rest * (n - 1)) / others) - Math.floor((rest * (n - 2)) / others);
      if (count <= 0) continue;
      const participationId = participationIds.first + n - 1;
      chunk.push({
        participation_id: participationId,
        first: next,
        last: next + count - 1,
        per_day: Math.max(1, Math.ceil(count / days.length)),
        scanners: scannersOf.get(participationId)!,
        budget: tagOf.get(`${participationId}:Budget`)!,
        timeline: tagOf.get(`${participationId}:Timeline`)!,
      });
      chunkLeads += count;
      next += count;
      if (chunkLeads >= LEADS_PER_STATEMENT) await flush();
      if (n % 500 === 0) log(`    ${n} exhibitors' leads (${((performance.now() - at) / 1000).toFixed(0)} s)`);
    }
    await flush();
  });
  // Texts with other than ASCII characters are folded by the engine (none in the generated data).
  await step('lead keyword texts', () => fillLeadSearchText(db, undefined, 20_000));
  // The largest exhibitor's leads include Japanese, Chinese and Vietnamese names and companies
  // (keywords of one or two CJK characters, folded by the engine).
  await step('foreign names of the largest exhibitor', () => giveLeadsForeignNames(db, participationIds.first));
  await step('later scans', async () => {
    // Every tenth lead was scanned again an hour later by another of the exhibitor's people (the
    // lead's scan count and last scan were written with it).
    await sql`insert into lead_scans (participation_id, lead_id, client_scan_id, scanned_by, scanned_at)
      select participation_id, id, 'again-' || id, scanned_by, scanned_at + interval '1 hour'
      from leads where participation_id between ${sql.lit(participationIds.first)} and ${sql.lit(participationIds.last)} and id % 10 = 0
      order by id`.execute(db);
  });

  await step(`${size.contentItems} content items in four languages`, () => generateContent(db, event, size.contentItems));
  await step(`${(size.auditPerDay * size.auditDays).toLocaleString('en')} audit rows`, () => generateAudit(db, event, size, participationIds));

  return {
    eventId: event.id,
    eventCode: event.code,
    size,
    exhibitorCodePrefix: SHOW_CODE_PREFIX,
    largestLogin: loginOf(1),
    largestParticipationId: participationIds.first,
    participationIds,
    entries,
    badges,
    seconds: (performance.now() - started) / 1000,
  };
}

/** The choices of the two tags every exhibitor of the show has. */
const TAG_CHOICES = { Budget: ['Under 10k', '10k-50k', 'Over 50k'], Timeline: ['This quarter', 'This year', 'Later'] };
/** Leads written by one statement (the visitors are hashed once per statement). */
const LEADS_PER_STATEMENT = 200_000;

/** One exhibitor's leads: numbers first..last, spread over the show days, scanned round robin by its people. */
interface ShowLeadPlan {
  participation_id: number;
  first: number;
  last: number;
  /** Leads per show day (the day's scans are spread evenly over its opening hours). */
  per_day: number;
  scanners: number[];
  /** Its two tags' ids. */
  budget: number;
  timeline: number;
}

const textArray = (values: readonly string[]) => sql.raw(`(array[${values.map((value) => `'${value.replace(/'/g, "''")}'`).join(',')}]::text[])`);

/** The keyword text (engine `leadSearchText`) of ASCII texts as the lead generator folds it; '' for `fillLeadSearchText` otherwise. */
function asciiSearchText(...fields: RawBuilder<string>[]) {
  const folded = fields.map((field) => sql`btrim(lower(regexp_replace(${field}, '\\s+', ' ', 'g')), ' ')`);
  const joined = sql.join(fields, sql` || `);
  return sql`case when octet_length(${joined}) = char_length(${joined}) then ${sql.join(folded, sql` || E'\\n' || `)} else '' end`;
}

/**
 * The leads of several exhibitors in one statement, each lead as `insertLeads` (the demo's lead
 * generator) makes lead n of its exhibitor: the same badge (every 40th unknown), visitor, scanner,
 * scan time on its show day, qualification (45 %) and keyword text, one lead per badge per
 * exhibitor. Its id is drawn in lead-number order, and what follows from the id is written with
 * the lead instead of by later updates of millions of rows: every tenth lead was scanned again an
 * hour later (scan count 2, last scan), and a qualified lead waiting for the first follow-up action
 * has its two tags answered.
 */
async function insertShowLeads(
  db: Kysely<Database>,
  plans: ShowLeadPlan[],
  show: { event: { id: number; code: string; utc_offset_minutes: number }; days: Array<{ start: Date; end: Date }>; visitors: number },
) {
  const { event, days, visitors } = show;
  if (days.length === 0) throw new Error('the event has no show days');
  const starts = sql.raw(`(array[${days.map((day) => Math.floor(day.start.getTime() / 1000)).join(',')}]::bigint[])`);
  const spans = sql.raw(`(array[${days.map((day) => Math.max(1, Math.floor((day.end.getTime() - day.start.getTime()) / 1000))).join(',')}]::bigint[])`);
  const dayCount = sql.lit(days.length);
  const types = textArray(LEAD_TYPES);
  const temperatures = textArray(LEAD_TEMPERATURES);
  const follow = textArray(FOLLOW_UP_ACTIONS);
  const followUp = sql`(${follow})[1 + (l.n * 3) % ${sql.lit(FOLLOW_UP_ACTIONS.length)}]`;
  const sequence = (await sql<{ name: string }>`select pg_get_serial_sequence('leads', 'id') as name`.execute(db)).rows[0]!.name;
  const again = sql`l.id % 10 = 0`;
  await sql`
    insert into leads (id, participation_id, client_scan_id, badge_code, visitor_id, badge_known, visitor_name, salutation, company,
      business_nature, job_title, country, mobile, email, phone, address, scanned_by, scanned_at, event_hour, lead_type, temperature, follow_up, notes, search_folded,
      scan_count, last_scanned_at, last_scanned_by, tag_answers)
    select l.id, l.participation_id, 'gen-' || l.n::text, coalesce(v.badge_code, l.code), v.id, v.id is not null,
      coalesce(v.name, ''), coalesce(v.salutation, ''), coalesce(v.company, ''), coalesce(v.business_nature, ''), coalesce(v.job_title, ''),
      coalesce(v.country, ''), coalesce(v.mobile, ''), coalesce(v.email, ''), coalesce(v.phone, ''), coalesce(v.address, ''),
      l.scanned_by, l.at, floor((extract(epoch from l.at) + ${sql.lit(event.utc_offset_minutes * 60)}) / 3600)::int,
      case when l.q then (${types})[1 + (l.n / 7 + l.n * 2) % ${sql.lit(LEAD_TYPES.length)}] end,
      case when l.q then (${temperatures})[1 + (l.n * 5) % ${sql.lit(LEAD_TEMPERATURES.length)}] end,
      case when l.q then ${followUp} end,
      case when l.q and l.n % 3 = 0 then 'Met at the booth; interested in samples.' else '' end,
      ${asciiSearchText(sql`coalesce(v.name, '')`, sql`coalesce(v.company, '')`, sql`coalesce(v.email, '')`, sql`coalesce(v.badge_code, l.code)`)},
      case when ${again} then 2 else 1 end,
      case when ${again} then l.at + interval '1 hour' end,
      case when ${again} then l.scanned_by end,
      case when l.q and ${followUp} = ${FOLLOW_UP_ACTIONS[0]!}
        then jsonb_build_object(l.budget::text, jsonb_build_array(${JSON.stringify(TAG_CHOICES.Budget)}::jsonb ->> (l.id % 3)::int),
          l.timeline::text, jsonb_build_array(${JSON.stringify(TAG_CHOICES.Timeline)}::jsonb ->> ((l.id / 3) % 3)::int))
        else '{}'::jsonb end
    from (
      -- ids drawn in lead-number order (the ordered subquery is not merged into this one)
      select nextval(${sequence}::regclass) as id, s.* from (
        select p.participation_id, p.budget, p.timeline, g.n, p.scanners[1 + g.n % cardinality(p.scanners)] as scanned_by,
          -- whole seconds (list keysets compare exact instants), spread over the lead's show day
          to_timestamp((${starts})[1 + g.n % ${dayCount}] + (((g.n - p.first) / ${dayCount})::bigint * (${spans})[1 + g.n % ${dayCount}]) / p.per_day) as at,
          case when g.n % 40 = 0 then ${event.code} || '-X' || lpad(g.n::text, 7, '0')
            else ${event.code} || '-V' || lpad((1 + (g.n::bigint * 37) % ${sql.lit(Math.max(1, visitors))})::text, 7, '0') end as code,
          (g.n * 31) % 100 < 45 as q
        from jsonb_to_recordset(${JSON.stringify(plans)}::jsonb) as p(participation_id int, first int, last int, per_day int, scanners int[], budget int, timeline int)
        cross join lateral generate_series(p.first, p.last) as g(n)
        order by g.n
      ) s
    ) l
    left join visitors v on v.event_id = ${event.id} and v.badge_code = l.code
    -- one lead per badge per exhibitor (LD1): a badge already a lead of it is skipped
    on conflict do nothing`.execute(db);
}

/**
 * Row triggers of the big tables whose effect the generator's statements write themselves, so the
 * triggers can be off during the load. A row trigger not named here stops the generator: its
 * effect would be missing from the data.
 */
const ROW_TRIGGERS_REPRODUCED: Record<string, string> = {
  leads_changed_at: "changed_at is left to its default, now(): the trigger's value on insert",
};

/**
 * Sets the tables up for a bulk load and answers how to put them back: their indexes that no
 * constraint needs are dropped (unique ones stay: the inserts' conflict checks use them), and their
 * row triggers are turned off, foreign-key checks too where we are superuser (the generator refers
 * only to rows it made). Statement triggers (the lead rollups, the audit's actors) stay on: they
 * work per statement, set-based. Millions of rows load several times faster so, and one index build
 * after the load costs less than keeping each index up to date row by row.
 */
async function setAsideForBulkLoad(db: Kysely<Database>, tables: string[]): Promise<{ restore(): Promise<void> }> {
  const superuser = (await sql<{ yes: boolean }>`select rolsuper as yes from pg_roles where rolname = current_user`.execute(db)).rows[0]?.yes === true;
  const indexes = await sql<{ name: string; definition: string }>`select i.indexname as name, i.indexdef as definition from pg_indexes i
    where i.schemaname = current_schema() and i.tablename in (${sql.join(tables)}) and i.indexdef not like 'CREATE UNIQUE INDEX%'
      and not exists (select 1 from pg_constraint c where c.conindid = (quote_ident(i.schemaname) || '.' || quote_ident(i.indexname))::regclass)`.execute(db);
  const triggers = await sql<{ table: string; name: string; row: boolean }>`select c.relname as table, t.tgname as name, (t.tgtype & 1) = 1 as row
    from pg_trigger t join pg_class c on c.oid = t.tgrelid
    where c.relnamespace = current_schema()::regnamespace and c.relname in (${sql.join(tables)}) and not t.tgisinternal and t.tgenabled = 'O'`.execute(db);
  const unknown = triggers.rows.filter((trigger) => trigger.row && !(trigger.name in ROW_TRIGGERS_REPRODUCED));
  if (unknown.length > 0)
    throw new Error(
      `row triggers whose effect the generator does not write: ${unknown.map((trigger) => `${trigger.table}.${trigger.name}`).join(', ')} (see ROW_TRIGGERS_REPRODUCED)`,
    );
  for (const index of indexes.rows) await sql`drop index ${sql.ref(index.name)}`.execute(db);
  for (const table of tables) {
    if (superuser) {
      await sql`alter table ${sql.table(table)} disable trigger all`.execute(db);
      for (const trigger of triggers.rows.filter((one) => one.table === table && !one.row))
        await sql`alter table ${sql.table(table)} enable trigger ${sql.ref(trigger.name)}`.execute(db);
    } else
      for (const trigger of triggers.rows.filter((one) => one.table === table && one.row))
        await sql`alter table ${sql.table(table)} disable trigger ${sql.ref(trigger.name)}`.execute(db);
  }
  return {
    async restore() {
      for (const table of tables) {
        if (superuser) await sql`alter table ${sql.table(table)} enable trigger all`.execute(db);
        else
          for (const trigger of triggers.rows.filter((one) => one.table === table && one.row))
            await sql`alter table ${sql.table(table)} enable trigger ${sql.ref(trigger.name)}`.execute(db);
      }
      for (const index of indexes.rows) await sql.raw(index.definition).execute(db);
    },
  };
}

/** The schema's indexes, triggers (with whether each is on) and constraints, one line each, sorted. */
async function schemaOf(db: Kysely<Database>): Promise<string[]> {
  const rows = await sql<{ line: string }>`
    select 'index ' || tablename || ': ' || indexdef as line from pg_indexes where schemaname = current_schema()
    union all
    select 'trigger ' || c.relname || ': ' || t.tgname || ' ' || t.tgenabled::text
    from pg_trigger t join pg_class c on c.oid = t.tgrelid where c.relnamespace = current_schema()::regnamespace
    union all
    select 'constraint ' || c.relname || ': ' || k.conname || ' ' || pg_get_constraintdef(k.oid) || case when k.convalidated then '' else ' (not valid)' end
    from pg_constraint k join pg_class c on c.oid = k.conrelid where c.relnamespace = current_schema()::regnamespace
    order by 1`.execute(db);
  return rows.rows.map((row) => row.line);
}

/** A participation's lead rollup as stored (non-zero counts) and as recounted from its leads, one text each. */
async function rollupAndRecount(db: Kysely<Database>, participationId: number) {
  const stored = await sql<{
    rows: string;
  }>`select coalesce(string_agg(dimension || '/' || key || '/' || event_hour || '=' || leads, ', ' order by dimension, key, event_hour), '') as rows
    from lead_rollup where participation_id = ${participationId} and leads <> 0`.execute(db);
  const recounted = await sql<{
    rows: string;
  }>`select coalesce(string_agg(dimension || '/' || key || '/' || event_hour || '=' || leads, ', ' order by dimension, key, event_hour), '') as rows
    from (select d.dimension, d.key, r.event_hour, count(*) as leads from leads r
      cross join lateral (values ('all', ''), ('country', r.country), ('user', r.scanned_by::text), ('type', coalesce(r.lead_type, '')),
        ('temperature', coalesce(r.temperature, '')), ('follow_up', coalesce(r.follow_up, '')), ('known', r.badge_known::text)) as d(dimension, key)
      where r.participation_id = ${participationId} group by 1, 2, 3) c`.execute(db);
  return { stored: stored.rows[0]!.rows, recounted: recounted.rows[0]!.rows };
}

/**
 * The generated show's own checks (it throws on the first miss): the schema's indexes, triggers
 * and constraints are those found before the load (the migrations' own), the lead rollups of a
 * sample of exhibitors (the largest, two small ones, the last) equal a recount of their leads, every
 * exhibitor's stored progress equals its entries', and the audit's actor list holds every actor of the log.
 */
async function checkShow(db: Kysely<Database>, show: GeneratedShow, before: string[]) {
  const after = await schemaOf(db);
  const missing = before.filter((line) => !after.includes(line));
  const added = after.filter((line) => !before.includes(line));
  if (missing.length > 0 || added.length > 0)
    throw new Error(`the generated schema differs from the migrated one: missing ${JSON.stringify(missing)}, added ${JSON.stringify(added)}`);
  const { first, last } = show.participationIds;
  for (const participationId of new Set([first, first + 1, Math.floor((first + last) / 2), last])) {
    const { stored, recounted } = await rollupAndRecount(db, participationId);
    if (stored !== recounted) throw new Error(`the lead rollup of participation ${participationId} differs from a recount: ${stored.slice(0, 300)} ≠ ${recounted.slice(0, 300)}`);
  }
  // Each participation's stored progress (kept by form_entries' statement triggers, on during the load) equals its entries'.
  const progress = await sql<{ n: number }>`select count(*)::int as n from participations p
    left join participation_progress s on s.participation_id = p.id
    left join (select participation_id, jsonb_object_agg(form_id, progress) as progress, jsonb_object_agg(form_id, data_keys) as data_keys
      from form_entries where participation_id between ${first} and ${last} group by 1) r on r.participation_id = p.id
    where p.id between ${first} and ${last} and (coalesce(s.progress, '{}') <> coalesce(r.progress, '{}') or coalesce(s.data_keys, '{}') <> coalesce(r.data_keys, '{}'))`
    .execute(db)
    .catch((error: unknown) => {
      // A schema without the stored progress (before it was added) has nothing to check.
      if (String(error).includes('participation_progress')) return { rows: [{ n: 0 }] };
      throw error;
    });
  if (progress.rows[0]!.n !== 0) throw new Error(`the stored progress of ${progress.rows[0]!.n} participations differs from their entries`);
  const actors = await sql<{ n: number }>`select count(*)::int as n from (
    select distinct organisation_id, actor_name from audit_log where organisation_id = (select organisation_id from events where id = ${show.eventId})
    except select organisation_id, actor_name from audit_actors) missing`
    .execute(db)
    .catch((error: unknown) => {
      // A schema without the actor list (before it was added) has nothing to check.
      if (String(error).includes('audit_actors')) return { rows: [{ n: 0 }] };
      throw error;
    });
  if (actors.rows[0]!.n !== 0) throw new Error(`${actors.rows[0]!.n} actors of the audit log are missing from audit_actors`);
}

const WORDS = {
  en: ['logistics', 'forklift', 'badge', 'hall', 'power', 'catering', 'insurance', 'freight', 'cleaning', 'security'],
  cn: ['物流', '叉车', '证件', '展馆', '电力', '餐饮', '保险', '货运', '清洁', '安保'],
  ja: ['物流', '搬入', 'バッジ', '会場', '電源', 'ケータリング', '保険', '輸送', '清掃', '警備'],
  vi: ['hậu cần', 'xe nâng', 'thẻ', 'hội trường', 'điện', 'ăn uống', 'bảo hiểm', 'vận chuyển', 'vệ sinh', 'an ninh'],
} as const;
/** Keywords the search benchmark looks for, one per language. */
export const SHOW_KEYWORDS: Array<[string, string]> = [
  ['en', 'forklift'],
  ['cn', '叉车'],
  ['ja', '搬入'],
  ['vi', 'xe nang'],
];

/** Manuals, announcements and FAQ (a third each) in four languages, searchable as the console makes them. */
async function generateContent(db: Kysely<Database>, event: { id: number; default_language: string }, items: number) {
  const kinds = ['manual', 'announcement', 'faq'] as const;
  const screens = { manual: 'manuals', announcement: 'announcements', faq: 'faq' };
  const text = (index: number, language: keyof typeof WORDS, offset: number) => WORDS[language][(index + offset) % WORDS[language].length]!;
  const body = (index: number, language: keyof typeof WORDS) =>
    `${text(index, language, 0)} ${text(index, language, 3)} ${index} — ${text(index, language, 5)} ${text(index, language, 7)}. `.repeat(10);
  for (let start = 0; start < items; start += 250) {
    const batch = Array.from({ length: Math.min(250, items - start) }, (_, i) => start + i);
    const rows = await db
      .insertInto('content')
      .values(
        batch.map((index) => {
          const kind = kinds[index % 3]!;
          const title = {
            en: `Guide ${index}: ${text(index, 'en', 1)}`,
            cn: `指南 ${index}：${text(index, 'cn', 1)}`,
            ja: `ガイド ${index}：${text(index, 'ja', 1)}`,
            vi: `Hướng dẫn ${index}: ${text(index, 'vi', 1)}`,
          };
          const category = kind === 'faq' ? { en: 'On site', cn: '现场', ja: '会場', vi: 'Tại chỗ' } : {};
          return {
            event_id: event.id,
            kind,
            screen_id: screens[kind],
            title: JSON.stringify(title),
            body: JSON.stringify({ en: body(index, 'en'), cn: body(index, 'cn'), ja: body(index, 'ja'), vi: body(index, 'vi') }),
            category: JSON.stringify(category),
            published_at: new Date(Date.now() - (1 + (index % 60)) * 86_400_000),
            position: 100 + index,
          };
        }),
      )
      .returning(['id', 'title', 'body', 'description', 'category'])
      .execute();
    for (const row of rows) await indexContent(db, row, event.default_language);
  }
}

/** The audit trail of the weeks before the show: saves, submissions, sign-ins, organiser changes. */
async function generateAudit(db: Kysely<Database>, event: { id: number; organisation_id: number | null }, size: ShowSize, participations: { first: number; last: number }) {
  const total = size.auditPerDay * size.auditDays;
  const span = participations.last - participations.first + 1;
  const chunk = 200_000;
  for (let first = 1; first <= total; first += chunk) {
    const last = Math.min(total, first + chunk - 1);
    await sql`insert into audit_log (at, actor_user_id, actor_name, actor_role, organisation_id, event_id, participation_id, action, subject_type, subject_id, before, after, ip)
      select now() - make_interval(secs => (g::bigint * ${sql.lit(size.auditDays * 86_400)}) / ${sql.lit(total)}),
        u.id, u.display_name, u.role, ${event.organisation_id}, ${event.id}, u.participation_id,
        (array['form.save','form.submit','form.save','auth.login','member.create','form.save','exhibitor.update','form.reopen'])[1 + g % 8],
        case when g % 8 in (3) then 'user' else 'form' end,
        (array['s01','s02','s03','s04','s05','s06'])[1 + (g / 8) % 6],
        null, case when g % 8 = 1 then '{"status":"submitted"}'::jsonb end,
        '10.' || (g % 250) || '.' || ((g / 250) % 250) || '.' || (1 + g % 200)
      from generate_series(${sql.lit(first)}, ${sql.lit(last)}) g
      join users u on u.login_key = lower(${SHOW_CODE_PREFIX} || lpad((1 + g % ${sql.lit(span)})::text, 5, '0'))`.execute(db);
  }
}

// ---- command line ----

async function main() {
  const { values } = parseArgs({
    options: {
      'database-url': { type: 'string' },
      'data-dir': { type: 'string' },
      exhibitors: { type: 'string' },
      leads: { type: 'string' },
    },
  });
  const databaseUrl = values['database-url'];
  if (!databaseUrl && !values['data-dir']) throw new Error('usage: generate-show.ts --database-url postgres://… | --data-dir <dir> [--exhibitors N --leads N]');
  const base = databaseUrl ? FULL_SHOW : EMBEDDED_SHOW;
  const size = showSize(Number(values.exhibitors ?? base.exhibitors), Number(values.leads ?? base.leads), base);
  const opened = await openDatabase(databaseUrl ? { databaseUrl } : { pgliteDir: defaultPgliteDir(values['data-dir']!) });
  try {
    await migrateToLatest(opened.db);
    await seedDemo(opened.db);
    console.log(`generating ${size.exhibitors.toLocaleString('en')} exhibitors, ${size.leads.toLocaleString('en')} leads…`);
    const show = await generateShow(opened.db, size, (line) => console.log(line));
    console.log(`built in ${show.seconds.toFixed(1)} s: ${show.badges.toLocaleString('en')} badges; the largest exhibitor signs in as ${show.largestLogin} (${SHOW_PASSWORD})`);
  } finally {
    await opened.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
