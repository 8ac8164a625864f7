import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { needsApproval } from '../src/engine/forms/definitions';
import { FOLLOW_UP_ACTIONS } from '../src/engine/leads';
import { memberLogin } from '../src/engine/members';
import { defaultPgliteDir, migrateToLatest, openDatabase } from '../src/server/db/connection';
import { fillLeadSearchText, insertLeads, insertVisitors } from '../src/server/db/demo-leads';
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

export async function generateShow(db: Kysely<Database>, size: ShowSize, log: (line: string) => void = () => undefined, forms = loadFormRegistry()): Promise<GeneratedShow> {
  const started = performance.now();
  const step = async <T>(label: string, work: () => Promise<T>): Promise<T> => {
    const at = performance.now();
    const result = await work();
    log(`  ${label} (${((performance.now() - at) / 1000).toFixed(1)} s)`);
    return result;
  };
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
  const restoreIndexes = await dropSecondaryIndexes(db, ['leads', 'lead_scans']);
  await step(`${size.leads.toLocaleString('en')} leads`, async () => {
    let next = 1;
    const at = performance.now();
    for (let n = 1; n <= size.exhibitors; n++) {
      const count = n === 1 ? Math.min(size.leads, size.largestLeads) : Math.floor((rest * (n - 1)) / others) - Math.floor((rest * (n - 2)) / others);
      if (count <= 0) continue;
      const participationId = participationIds.first + n - 1;
      await insertLeads(db, {
        participationId,
        scannedBy: scannersOf.get(participationId)!,
        eventId: event.id,
        eventCode: event.code,
        offsetMinutes: event.utc_offset_minutes,
        start: days[0]!.start,
        end: days.at(-1)!.end,
        days,
        first: next,
        last: next + count - 1,
        visitors: size.visitors,
        unknownEvery: 40,
        qualifiedShare: 0.45,
        foldSearchText: false,
      });
      next += count;
      if (n % 500 === 0) log(`    ${n} exhibitors' leads (${((performance.now() - at) / 1000).toFixed(0)} s)`);
    }
  });
  await step('lead keyword texts', () => fillLeadSearchText(db, undefined, 20_000));
  await step('later scans, tags and interests', async () => {
    // Every tenth lead was scanned again an hour later by another of the exhibitor's people.
    await sql`insert into lead_scans (participation_id, lead_id, client_scan_id, scanned_by, scanned_at)
      select participation_id, id, 'again-' || id, scanned_by, scanned_at + interval '1 hour'
      from leads where participation_id between ${sql.lit(participationIds.first)} and ${sql.lit(participationIds.last)} and id % 10 = 0`.execute(db);
    await sql`update leads set scan_count = 2, last_scanned_at = scanned_at + interval '1 hour', last_scanned_by = scanned_by
      where participation_id between ${sql.lit(participationIds.first)} and ${sql.lit(participationIds.last)} and id % 10 = 0`.execute(db);
    // Two tags per exhibitor, answered on qualified leads.
    await sql`insert into custom_tags (participation_id, name, choices, position)
      select p.id, t.name, t.choices::jsonb, t.position
      from participations p cross join (values ('Budget', '["Under 10k","10k-50k","Over 50k"]', 1), ('Timeline', '["This quarter","This year","Later"]', 2)) as t(name, choices, position)
      where p.id between ${sql.lit(participationIds.first)} and ${sql.lit(participationIds.last)}`.execute(db);
    await sql`update leads l set tag_answers = jsonb_build_object(b.id::text, jsonb_build_array(b.choices ->> (l.id % 3)::int), t.id::text, jsonb_build_array(t.choices ->> ((l.id / 3) % 3)::int))
      from custom_tags b, custom_tags t
      where b.participation_id = l.participation_id and b.name = 'Budget' and t.participation_id = l.participation_id and t.name = 'Timeline'
        and l.participation_id between ${sql.lit(participationIds.first)} and ${sql.lit(participationIds.last)} and l.lead_type is not null and l.follow_up = ${FOLLOW_UP_ACTIONS[0]!}`.execute(
      db,
    );
  });
  await step('indexes of the leads made again', restoreIndexes);
  await sql`analyze leads`.execute(db);
  await sql`analyze lead_rollup`.execute(db);
  await sql`analyze lead_scans`.execute(db);

  await step(`${size.contentItems} content items in four languages`, () => generateContent(db, event, size.contentItems));
  await step(`${(size.auditPerDay * size.auditDays).toLocaleString('en')} audit rows`, () => generateAudit(db, event, size, participationIds));
  await sql`analyze`.execute(db);

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

/**
 * Drops the tables' indexes that no constraint needs (unique ones stay: the inserts' conflict
 * checks use them) and answers a function that makes them again from their definitions: millions
 * of rows load several times faster into a table without its trigram and sort indexes, and one
 * index build after the load costs less than keeping it up to date row by row.
 */
async function dropSecondaryIndexes(db: Kysely<Database>, tables: string[]): Promise<() => Promise<void>> {
  const indexes = await sql<{ name: string; definition: string }>`select indexname as name, indexdef as definition from pg_indexes
    where schemaname = current_schema() and tablename in (${sql.join(tables)}) and indexdef not like 'CREATE UNIQUE INDEX%'`.execute(db);
  for (const index of indexes.rows) await sql`drop index ${sql.ref(index.name)}`.execute(db);
  return () =>
    db.connection().execute(async (connection) => {
      await sql`set maintenance_work_mem = '256MB'`.execute(connection);
      for (const index of indexes.rows) await sql.raw(index.definition).execute(connection);
    });
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
  await sql`analyze audit_log`.execute(db);
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
