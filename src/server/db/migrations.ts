import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import type { Migration, MigrationProvider } from 'kysely/migration';
import { countryCode } from '../../engine/locale-format';

// Migrations, in code so the embedded database and PostgreSQL run exactly the same ones.
// Append new migrations; never edit one that has shipped. A migration names its columns itself:
// it never reads a constant the application may change later (that would change what it did).

/** The visitor profile of spec §3 Lead as migration 0004 created it, on visitors and on each lead (LD1). */
const VISITOR_PROFILE_COLUMNS_0004 = ['salutation', 'company', 'business_nature', 'job_title', 'country', 'mobile', 'email', 'phone', 'address'] as const;

function withVisitorProfile<T extends string, C extends string>(table: CreateTableBuilder<T, C>): CreateTableBuilder<T, C | (typeof VISITOR_PROFILE_COLUMNS_0004)[number]> {
  let builder: CreateTableBuilder<T, string> = table;
  for (const column of VISITOR_PROFILE_COLUMNS_0004) builder = builder.addColumn(column, 'text', (c) => c.notNull().defaultTo(''));
  return builder as CreateTableBuilder<T, C | (typeof VISITOR_PROFILE_COLUMNS_0004)[number]>;
}

/** 0034: the deadline name each shipped form had in forms.yaml when reopening became per form. */
const FORM_DEADLINE_NAMES_0034: Record<string, string> = {
  s01: 'profile',
  s02: 'product',
  s03: 'booth',
  s04: 'badges',
  s05: 'booth',
  s06: 'badges',
  s07: 'badges',
  s08: 'booth',
  vip: 'badges',
};

/** 0027: each form's country fields as paths into its data (`*`: every item of a list). */
const FORM_COUNTRY_FIELDS_0027: Record<string, string[][]> = {
  s01: [['distribution', '*', 'country']],
  s03: [['contractor', 'country']],
  s06: [
    ['applicants', '*', 'nationality'],
    ['applicants', '*', 'embassyCountry'],
  ],
  vip: [['invitations', '*', 'country']],
};

/** 0027: nationalities typed into a nationality field (the region's and the most common ones), by their country's code. */
const NATIONALITIES_0027: Record<string, string> = {
  malaysian: 'MY',
  singaporean: 'SG',
  indonesian: 'ID',
  thai: 'TH',
  vietnamese: 'VN',
  filipino: 'PH',
  philippine: 'PH',
  bruneian: 'BN',
  cambodian: 'KH',
  khmer: 'KH',
  laotian: 'LA',
  lao: 'LA',
  burmese: 'MM',
  myanmar: 'MM',
  timorese: 'TL',
  chinese: 'CN',
  taiwanese: 'TW',
  hongkonger: 'HK',
  hongkongese: 'HK',
  macanese: 'MO',
  japanese: 'JP',
  korean: 'KR',
  southkorean: 'KR',
  indian: 'IN',
  pakistani: 'PK',
  bangladeshi: 'BD',
  srilankan: 'LK',
  nepalese: 'NP',
  nepali: 'NP',
  australian: 'AU',
  newzealander: 'NZ',
  american: 'US',
  canadian: 'CA',
  british: 'GB',
  english: 'GB',
  irish: 'IE',
  french: 'FR',
  german: 'DE',
  dutch: 'NL',
  belgian: 'BE',
  swiss: 'CH',
  austrian: 'AT',
  italian: 'IT',
  spanish: 'ES',
  portuguese: 'PT',
  swedish: 'SE',
  norwegian: 'NO',
  danish: 'DK',
  finnish: 'FI',
  polish: 'PL',
  russian: 'RU',
  turkish: 'TR',
  emirati: 'AE',
  saudi: 'SA',
  saudiarabian: 'SA',
  qatari: 'QA',
  egyptian: 'EG',
  southafrican: 'ZA',
  brazilian: 'BR',
  mexican: 'MX',
  argentine: 'AR',
  argentinian: 'AR',
  chilean: 'CL',
};

/** 0027: a stored country value as a code when it names a country or a nationality; anything else as it was. */
function countryValue0027(value: unknown): unknown {
  if (typeof value !== 'string' || value.trim() === '') return value;
  const code = countryCode(value);
  if (code !== value.trim()) return code;
  return NATIONALITIES_0027[value.toLowerCase().replace(/[^a-z]/g, '')] ?? value;
}

/** 0027: the data with the values at `paths` turned into codes; the same object when nothing changed. */
function withCountryCodes(data: unknown, paths: string[][]): unknown {
  const at = (node: unknown, path: string[]): unknown => {
    if (path.length === 0) return countryValue0027(node);
    const [step, ...rest] = path as [string, ...string[]];
    if (step === '*') {
      if (!Array.isArray(node)) return node;
      const items = node.map((item) => at(item, rest));
      return items.every((item, index) => item === node[index]) ? node : items;
    }
    if (typeof node !== 'object' || node === null || Array.isArray(node) || !(step in node)) return node;
    const child = (node as Record<string, unknown>)[step];
    const next = at(child, rest);
    return next === child ? node : { ...(node as Record<string, unknown>), [step]: next };
  };
  return paths.reduce(at, data);
}

const migrations: Record<string, Migration> = {
  '0001_accounts_and_sessions': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('events')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('code', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('logo_url', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('venue', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('starts_at', 'timestamptz', (c) => c.notNull())
        .addColumn('ends_at', 'timestamptz', (c) => c.notNull())
        .addColumn('utc_offset_minutes', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('terms_url', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('support_email', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .createTable('exhibitors')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('legal_name', 'text', (c) => c.notNull())
        .addColumn('logo_url', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .createTable('participations')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('exhibitor_id', 'integer', (c) => c.notNull().references('exhibitors.id').onDelete('cascade'))
        .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('booth_num', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('displayed_modules', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
        .addColumn('flags', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
        .addColumn('badges_deadline', 'timestamptz')
        .addColumn('booth_deadline', 'timestamptz')
        .addColumn('product_deadline', 'timestamptz')
        .addColumn('profile_deadline', 'timestamptz')
        .addColumn('badge_quota', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('team_user_quota', 'integer', (c) => c.notNull().defaultTo(0))
        .addUniqueConstraint('participations_exhibitor_event', ['exhibitor_id', 'event_id'])
        .execute();
      await db.schema
        .createTable('users')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('login', 'text', (c) => c.notNull())
        .addColumn('login_key', 'text', (c) => c.notNull().unique())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('display_name', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('exhibitor', 'team_user', 'contractor', 'organiser')`))
        .addColumn('participation_id', 'integer', (c) => c.references('participations.id').onDelete('cascade'))
        .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('active').check(sql`status in ('active', 'disabled')`))
        .addColumn('show_left_menus', 'boolean', (c) => c.notNull().defaultTo(true))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('password_changed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('users_email').on('users').expression(sql`lower(email)`).execute();
      await db.schema
        .createTable('sessions')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull())
        .addColumn('revoked_at', 'timestamptz')
        .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
      await db.schema
        .createTable('login_failures')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('login_key', 'text', (c) => c.notNull())
        .addColumn('ip', 'text', (c) => c.notNull())
        .addColumn('at', 'timestamptz', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('login_failures_login').on('login_failures').columns(['login_key', 'at']).execute();
      await db.schema.createIndex('login_failures_ip').on('login_failures').columns(['ip', 'at']).execute();
      await db.schema
        .createTable('password_resets')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
        .addColumn('used_at', 'timestamptz')
        .execute();
      await db.schema
        .createTable('content')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('screen_id', 'text', (c) => c.notNull())
        .addColumn('title', 'jsonb', (c) => c.notNull())
        .addColumn('body', 'jsonb', (c) => c.notNull())
        .addColumn('published_at', 'timestamptz', (c) => c.notNull())
        .execute();
    },
  },
  '0002_forms_and_uploads': {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('participations')
        .addColumn('contractor_badge_quota', 'integer', (c) => c.notNull().defaultTo(10))
        .execute();
      await db.schema
        .createTable('uploads')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('participation_id', 'integer', (c) => c.references('participations.id').onDelete('cascade'))
        .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('original_name', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('dpi', 'integer')
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('uploads_participation').on('uploads').column('participation_id').execute();
      await db.schema
        .createTable('form_entries')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('participation_id', 'integer', (c) => c.notNull().references('participations.id').onDelete('cascade'))
        .addColumn('form_id', 'text', (c) => c.notNull())
        .addColumn('data', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('draft').check(sql`status in ('draft', 'submitted')`))
        .addColumn('submitted_data', 'jsonb')
        .addColumn('submitted_at', 'timestamptz')
        .addColumn('submitted_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addUniqueConstraint('form_entries_participation_form', ['participation_id', 'form_id'])
        .execute();
    },
  },
  '0003_approvals': {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('form_entries')
        .addColumn('approval_status', 'text', (c) => c.check(sql`approval_status in ('pending', 'approved', 'rejected')`))
        .addColumn('approval_comment', 'text')
        .addColumn('decided_at', 'timestamptz')
        .addColumn('decided_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .execute();
      await db.schema.createIndex('form_entries_pending').on('form_entries').column('approval_status').execute();
    },
  },
  '0004_leads_and_members': {
    async up(db: Kysely<any>) {
      // P1/LD5: team users and contractors are users of role team_user/contractor under the
      // exhibitor's participation. A team user may have a lead quota (null = no limit).
      await db.schema
        .alterTable('users')
        .addColumn('lead_quota', 'integer')
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .execute();
      await db.schema.createIndex('users_participation').on('users').columns(['participation_id', 'role']).execute();
      await db.schema
        .alterTable('participations')
        .addColumn('contractor_quota', 'integer', (c) => c.notNull().defaultTo(3))
        .execute();

      // LD1: visitors of an event, found by the code printed on their badge.
      await db.schema
        .createTable('visitors')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('badge_code', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
        .$call(withVisitorProfile)
        .addUniqueConstraint('visitors_event_badge', ['event_id', 'badge_code'])
        .execute();

      // LD1-LD3: one row per scan an exhibitor's team made. The visitor's profile is copied at
      // scan time (what the exhibitor captured), which also keeps filters and exports to one
      // table. A badge code that matches no visitor is kept with badge_known = false.
      await db.schema
        .createTable('leads')
        .addColumn('id', 'bigserial', (c) => c.primaryKey())
        .addColumn('participation_id', 'integer', (c) => c.notNull().references('participations.id').onDelete('cascade'))
        .addColumn('client_scan_id', 'text', (c) => c.notNull())
        .addColumn('badge_code', 'text', (c) => c.notNull())
        .addColumn('visitor_id', 'integer', (c) => c.references('visitors.id').onDelete('set null'))
        .addColumn('badge_known', 'boolean', (c) => c.notNull())
        .addColumn('visitor_name', 'text', (c) => c.notNull().defaultTo(''))
        .$call(withVisitorProfile)
        .addColumn('scanned_by', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('scanned_at', 'timestamptz', (c) => c.notNull())
        // Hours since 1970-01-01T00:00 in the event's time (UTC + offset): trends (LA2) group
        // by it; days are event_hour / 24.
        .addColumn('event_hour', 'integer', (c) => c.notNull())
        .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('lead_type', 'text')
        .addColumn('temperature', 'text')
        .addColumn('follow_up', 'text')
        .addColumn('notes', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('business_card', 'text', (c) => c.references('uploads.id').onDelete('set null'))
        .addColumn('tag_answers', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
        .addColumn('interested_products', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
        .addColumn('updated_at', 'timestamptz')
        .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        // A resend of the same scan (offline sync) never makes a second lead.
        .addUniqueConstraint('leads_participation_scan', ['participation_id', 'client_scan_id'])
        .execute();
      await sql`create index leads_list on leads (participation_id, scanned_at desc, id desc)`.execute(db);
      await sql`create index leads_by_user on leads (participation_id, scanned_by, scanned_at desc)`.execute(db);
      await sql`create index leads_by_type on leads (participation_id, lead_type, scanned_at desc)`.execute(db);
      await sql`create index leads_by_temperature on leads (participation_id, temperature, scanned_at desc)`.execute(db);
      await sql`create index leads_by_country on leads (participation_id, country, scanned_at desc)`.execute(db);
      // LD2: the list sorted by name or company reads these in order (id breaks ties).
      await sql`create index leads_by_name on leads (participation_id, visitor_name, id)`.execute(db);
      await sql`create index leads_by_company on leads (participation_id, company, id)`.execute(db);
      // LD2: the keyword search (name, company, email, badge code) uses a trigram index where the
      // database offers pg_trgm (PostgreSQL with contrib; the embedded database loads it, see
      // createPglite). A savepoint keeps the migration going if the extension cannot be created.
      const trgm = await sql<{ ok: boolean }>`select exists (select 1 from pg_available_extensions where name = 'pg_trgm') as ok`.execute(db);
      if (trgm.rows[0]?.ok) {
        await sql`savepoint leads_trgm`.execute(db);
        try {
          await sql`create extension if not exists pg_trgm`.execute(db);
          await sql`create index leads_keyword on leads using gin ((visitor_name || E'\n' || company || E'\n' || email || E'\n' || badge_code) gin_trgm_ops)`.execute(db);
          await sql`release savepoint leads_trgm`.execute(db);
        } catch {
          await sql`rollback to savepoint leads_trgm`.execute(db);
        }
      }

      // LA1-LA4: counts per participation, event hour and dimension, kept by statement-level
      // triggers so the dashboard never scans the leads themselves. Dimensions: all (key ''),
      // country, user (scanned_by), type, temperature, follow_up, known ('true'/'false');
      // an unqualified lead counts under key ''.
      await db.schema
        .createTable('lead_rollup')
        .addColumn('participation_id', 'integer', (c) => c.notNull().references('participations.id').onDelete('cascade'))
        .addColumn('dimension', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('event_hour', 'integer', (c) => c.notNull())
        .addColumn('leads', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('lead_rollup_pk', ['participation_id', 'dimension', 'key', 'event_hour'])
        .execute();
      const rollupFrom = (rows: 'new_rows' | 'old_rows', sign: '' | '-') =>
        sql.raw(`
        insert into lead_rollup (participation_id, dimension, key, event_hour, leads)
        select r.participation_id, d.dimension, d.key, r.event_hour, ${sign}count(*)
        from ${rows} r
        cross join lateral (values
          ('all', ''), ('country', r.country), ('user', r.scanned_by::text),
          ('type', coalesce(r.lead_type, '')), ('temperature', coalesce(r.temperature, '')),
          ('follow_up', coalesce(r.follow_up, '')), ('known', r.badge_known::text)
        ) as d(dimension, key)
        group by 1, 2, 3, 4
        on conflict (participation_id, dimension, key, event_hour)
        do update set leads = lead_rollup.leads + excluded.leads;`);
      await sql`
        create function lead_rollup_apply() returns trigger language plpgsql as $$
        begin
          if tg_op in ('UPDATE', 'DELETE') then ${rollupFrom('old_rows', '-')} end if;
          if tg_op in ('UPDATE', 'INSERT') then ${rollupFrom('new_rows', '')} end if;
          return null;
        end $$`.execute(db);
      await sql`create trigger leads_rollup_insert after insert on leads referencing new table as new_rows for each statement execute function lead_rollup_apply()`.execute(db);
      await sql`create trigger leads_rollup_update after update on leads referencing old table as old_rows new table as new_rows for each statement execute function lead_rollup_apply()`.execute(
        db,
      );
      await sql`create trigger leads_rollup_delete after delete on leads referencing old table as old_rows for each statement execute function lead_rollup_apply()`.execute(db);

      // LD6: at most 3 tags of at most 10 choices (checked by the engine's rules).
      await db.schema
        .createTable('custom_tags')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('participation_id', 'integer', (c) => c.notNull().references('participations.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('choices', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
        .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await sql`create unique index custom_tags_name on custom_tags (participation_id, lower(name))`.execute(db);

      // LD4: every export, kept as a file under DATA_DIR/exports/<storage_name> to download again.
      await db.schema
        .createTable('lead_exports')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('participation_id', 'integer', (c) => c.notNull().references('participations.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('file_name', 'text', (c) => c.notNull())
        .addColumn('format', 'text', (c) => c.notNull().check(sql`format in ('csv', 'xlsx')`))
        .addColumn('filters', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
        .addColumn('rows', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('size', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('storage_name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('lead_exports_participation').on('lead_exports').columns(['participation_id', 'created_at']).execute();

      // LA5: e-mail invitations to the exhibitor's clients.
      await db.schema
        .createTable('invitations')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('participation_id', 'integer', (c) => c.notNull().references('participations.id').onDelete('cascade'))
        .addColumn('sent_by', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('sender_email', 'text', (c) => c.notNull())
        .addColumn('recipient_name', 'text', (c) => c.notNull())
        .addColumn('recipient_email', 'text', (c) => c.notNull())
        .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'sent', 'failed')`))
        .addColumn('sent_at', 'timestamptz')
        .addColumn('failure_reason', 'text')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('invitations_participation').on('invitations').columns(['participation_id', 'created_at']).execute();
    },
  },
  '0005_member_company': {
    async up(db: Kysely<any>) {
      // P1: the company of a contractor login (display_name holds its contact person).
      await db.schema
        .alterTable('users')
        .addColumn('company', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
    },
  },
  '0006_organiser_ground': {
    async up(db: Kysely<any>) {
      // O2, issue 9: an organisation runs several events; its organisers see only its events.
      await db.schema
        .createTable('organisations')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema
        .alterTable('events')
        .addColumn('organisation_id', 'integer', (c) => c.references('organisations.id').onDelete('restrict'))
        // The event's name per language ({en, cn, ja, vi}); `name` stays the default-language name.
        .addColumn('names', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
        .addColumn('default_language', 'text', (c) => c.notNull().defaultTo('en'))
        // Show days with opening hours in event time: [{ "date": "2027-03-17", "opens": "10:00", "closes": "18:00" }].
        .addColumn('show_days', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
        .addColumn('currency', 'text', (c) => c.notNull().defaultTo('MYR'))
        // F5: the fee of one extra exhibitor badge, in hundredths of the currency (K1).
        .addColumn('extra_badge_fee_cents', 'integer', (c) => c.notNull().defaultTo(1000))
        // What a new exhibitor of the event starts with (O2).
        .addColumn('default_modules', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
        .addColumn('default_flags', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
        // Reminders: days before a deadline on which exhibitors with missing mandatory forms are e-mailed.
        .addColumn('reminder_days', 'jsonb', (c) => c.notNull().defaultTo(sql`'[7, 1]'::jsonb`))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      // An exhibitor company is known to one organisation (imports update it by code).
      await db.schema
        .alterTable('exhibitors')
        .addColumn('organisation_id', 'integer', (c) => c.references('organisations.id').onDelete('restrict'))
        .addColumn('code', 'text')
        .execute();
      await sql`create unique index exhibitors_organisation_code on exhibitors (organisation_id, code) where code is not null`.execute(db);
      await db.schema
        .alterTable('participations')
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('active').check(sql`status in ('active', 'disabled')`))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await sql`create unique index participations_event_booth on participations (event_id, booth_num) where booth_num <> ''`.execute(db);
      // An organiser belongs to an organisation; its event_id is the event it is working on
      // (none before its first event is created).
      await db.schema
        .alterTable('users')
        .addColumn('organisation_id', 'integer', (c) => c.references('organisations.id').onDelete('cascade'))
        .execute();
      await sql`alter table users alter column event_id drop not null`.execute(db);
      await sql`alter table users add constraint users_event_unless_organiser check (event_id is not null or role = 'organiser')`.execute(db);

      // O2: deadlines and quotas as rows keyed by name (forms.yaml names them: profile, product,
      // booth, badges; badges, contractorBadges, teamUsers, contractors). A row without a
      // participation is the event's value; a participation's row overrides it.
      for (const [table, column, type] of [
        ['deadlines', 'due_at', 'timestamptz'],
        ['quotas', 'value', 'integer'],
      ] as const) {
        await db.schema
          .createTable(table)
          .addColumn('id', 'serial', (c) => c.primaryKey())
          .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id').onDelete('cascade'))
          .addColumn('participation_id', 'integer', (c) => c.references('participations.id').onDelete('cascade'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn(column, type, (c) => c.notNull())
          .execute();
        await sql`create unique index ${sql.raw(`${table}_key`)} on ${sql.table(table)} (event_id, coalesce(participation_id, 0), name)`.execute(db);
        await sql`create index ${sql.raw(`${table}_participation`)} on ${sql.table(table)} (participation_id) where participation_id is not null`.execute(db);
      }
      // The former columns become participation rows (their values were per participation).
      for (const [name, columnName] of [
        ['profile', 'profile_deadline'],
        ['product', 'product_deadline'],
        ['booth', 'booth_deadline'],
        ['badges', 'badges_deadline'],
      ]) {
        await sql`insert into deadlines (event_id, participation_id, name, due_at)
          select event_id, id, ${name}, ${sql.ref(columnName!)} from participations where ${sql.ref(columnName!)} is not null`.execute(db);
      }
      for (const [name, columnName] of [
        ['badges', 'badge_quota'],
        ['contractorBadges', 'contractor_badge_quota'],
        ['teamUsers', 'team_user_quota'],
        ['contractors', 'contractor_quota'],
      ]) {
        await sql`insert into quotas (event_id, participation_id, name, value)
          select event_id, id, ${name}, ${sql.ref(columnName!)} from participations`.execute(db);
      }
      await db.schema
        .alterTable('participations')
        .dropColumn('profile_deadline')
        .dropColumn('product_deadline')
        .dropColumn('booth_deadline')
        .dropColumn('badges_deadline')
        .dropColumn('badge_quota')
        .dropColumn('contractor_badge_quota')
        .dropColumn('team_user_quota')
        .dropColumn('contractor_quota')
        .execute();

      // Issue 9: who changed what, when (before and after), for organisers' changes, imports,
      // reopenings, reminders, decisions, and exhibitors' logins and submissions.
      await db.schema
        .createTable('audit_log')
        .addColumn('id', 'bigserial', (c) => c.primaryKey())
        .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('actor_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        // Kept as text so the record stays readable after the user is removed.
        .addColumn('actor_name', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('actor_role', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('organisation_id', 'integer', (c) => c.references('organisations.id').onDelete('cascade'))
        .addColumn('event_id', 'integer', (c) => c.references('events.id').onDelete('cascade'))
        .addColumn('participation_id', 'integer', (c) => c.references('participations.id').onDelete('set null'))
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('subject_type', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('subject_id', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('before', 'jsonb')
        .addColumn('after', 'jsonb')
        .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await sql`create index audit_log_event on audit_log (event_id, at desc, id desc)`.execute(db);
      await sql`create index audit_log_organisation on audit_log (organisation_id, at desc, id desc)`.execute(db);

      // Issue 9: every e-mail goes through this queue; a worker sends it with retries, so a request
      // never waits for SMTP and several instances never send one message twice.
      await db.schema
        .createTable('mail_outbox')
        .addColumn('id', 'bigserial', (c) => c.primaryKey())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('to_address', 'text', (c) => c.notNull())
        .addColumn('reply_to', 'text')
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('text_body', 'text', (c) => c.notNull())
        .addColumn('html_body', 'text')
        // Who wants to hear how it went (e.g. 'invitation' + the invitation's id).
        .addColumn('kind', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('ref_id', 'text', (c) => c.notNull().defaultTo(''))
        // A message that must exist once (e.g. one reminder per exhibitor, form, deadline and day).
        .addColumn('dedupe_key', 'text', (c) => c.unique())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending').check(sql`status in ('pending', 'sending', 'sent', 'failed')`))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('locked_until', 'timestamptz')
        .addColumn('last_error', 'text')
        .addColumn('sent_at', 'timestamptz')
        .execute();
      await sql`create index mail_outbox_due on mail_outbox (next_attempt_at) where status in ('pending', 'sending')`.execute(db);
    },
  },
  '0008_storage_privacy': {
    async up(db: Kysely<any>) {
      // Issue 15: the shared file store (FILE_STORE=database) — one row per file, marked complete
      // once every chunk is in, and its bytes in chunks of 256 KiB.
      await db.schema
        .createTable('stored_files')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('complete', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema
        .createTable('stored_file_chunks')
        .addColumn('key', 'text', (c) => c.notNull().references('stored_files.key').onDelete('cascade'))
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('data', 'bytea', (c) => c.notNull())
        .addPrimaryKeyConstraint('stored_file_chunks_pk', ['key', 'seq'])
        .execute();
      // Issue 14: how long exhibitors keep leads after the show (days; null: not set, kept), and
      // when exhibitors were reminded and the leads erased.
      await db.schema
        .alterTable('events')
        .addColumn('lead_retention_days', 'integer')
        .addColumn('lead_retention_reminded_at', 'timestamptz')
        .addColumn('leads_erased_at', 'timestamptz')
        .execute();
      // Issue 14: the lead exports' age is what the export purge reads.
      await db.schema.createIndex('lead_exports_created').on('lead_exports').column('created_at').execute();
    },
  },
  '0013_organiser_operations': {
    async up(db: Kysely<any>) {
      // Issue 9, reopen (spec §8 "contact support"): the organiser reopens a submit-once form for
      // one exhibitor. The reopening counts while the last submission is older than it, so the
      // exhibitor's next submission closes the form again without anyone deleting the row.
      await db.schema
        .createTable('form_reopens')
        .addColumn('participation_id', 'integer', (c) => c.notNull().references('participations.id').onDelete('cascade'))
        .addColumn('form_id', 'text', (c) => c.notNull())
        .addColumn('reopened_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('reopened_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addPrimaryKeyConstraint('form_reopens_pkey', ['participation_id', 'form_id'])
        .execute();
      // The language a user last signed in with: e-mails sent without a request (decisions,
      // reminders) are written in it; none yet = the event's default language.
      await db.schema.alterTable('users').addColumn('language', 'text').execute();
    },
  },
  '0010_leads_ux': {
    async up(db: Kysely<any>) {
      // LD1: one lead per visitor (badge) per exhibitor. A later scan of the same badge, by anyone
      // of the exhibitor, is recorded here against the lead instead of making a second one, so
      // totals, lists, exports and the trigger-kept rollup count each visitor once. The first
      // scan stays on the lead (leads.client_scan_id); a resend of any scan is found by its id in
      // either table.
      await db.schema
        .createTable('lead_scans')
        .addColumn('id', 'bigserial', (c) => c.primaryKey())
        .addColumn('participation_id', 'integer', (c) => c.notNull().references('participations.id').onDelete('cascade'))
        .addColumn('lead_id', 'bigint', (c) => c.notNull().references('leads.id').onDelete('cascade'))
        .addColumn('client_scan_id', 'text', (c) => c.notNull())
        .addColumn('scanned_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('scanned_at', 'timestamptz', (c) => c.notNull())
        .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addUniqueConstraint('lead_scans_participation_scan', ['participation_id', 'client_scan_id'])
        .execute();
      await sql`create index lead_scans_by_lead on lead_scans (lead_id, scanned_at desc)`.execute(db);
      await db.schema
        .alterTable('leads')
        .addColumn('scan_count', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('last_scanned_at', 'timestamptz')
        .addColumn('last_scanned_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .execute();
      // Leads stored twice for one badge before this rule: the first scan keeps the lead (its
      // qualification is filled from the latest qualified copy when it has none), the others
      // become its later scans and go (the rollup triggers subtract them).
      await sql`
        create temporary table lead_merge as
        select l.id as duplicate_id, k.keep_id, l.participation_id, l.client_scan_id, l.scanned_by, l.scanned_at
        from leads l
        join (
          select distinct on (participation_id, badge_code) participation_id, badge_code, id as keep_id
          from leads order by participation_id, badge_code, scanned_at, id
        ) k on k.participation_id = l.participation_id and k.badge_code = l.badge_code and k.keep_id <> l.id`.execute(db);
      await sql`
        insert into lead_scans (participation_id, lead_id, client_scan_id, scanned_by, scanned_at)
        select participation_id, keep_id, client_scan_id, scanned_by, scanned_at from lead_merge`.execute(db);
      await sql`
        update leads k set
          lead_type = coalesce(k.lead_type, q.lead_type), temperature = coalesce(k.temperature, q.temperature),
          follow_up = coalesce(k.follow_up, q.follow_up), notes = case when k.notes = '' then q.notes else k.notes end
        from (
          select distinct on (m.keep_id) m.keep_id, d.lead_type, d.temperature, d.follow_up, d.notes
          from lead_merge m join leads d on d.id = m.duplicate_id
          where d.lead_type is not null order by m.keep_id, d.updated_at desc nulls last, d.id desc
        ) q
        where k.id = q.keep_id`.execute(db);
      await sql`
        update leads k set scan_count = 1 + s.n, last_scanned_at = s.last_at, last_scanned_by = s.last_by
        from (
          select lead_id, count(*)::int as n, max(scanned_at) as last_at,
            (array_agg(scanned_by order by scanned_at desc, id desc))[1] as last_by
          from lead_scans group by lead_id
        ) s
        where k.id = s.lead_id`.execute(db);
      await sql`delete from leads where id in (select duplicate_id from lead_merge)`.execute(db);
      await sql`drop table lead_merge`.execute(db);
      await sql`create unique index leads_participation_badge on leads (participation_id, badge_code)`.execute(db);
      // LD1: scanning devices. A device token is a session that does not expire with idleness or
      // age (an offline app keeps it instead of a password) and opens only the scanning API; it
      // ends when revoked (by its user or the exhibitor) or when its user is deactivated.
      await db.schema.alterTable('sessions').addColumn('device_name', 'text').execute();
      await sql`create index sessions_devices on sessions (user_id) where device_name is not null`.execute(db);
    },
  },
  '0014_content': {
    async up(db: Kysely<any>) {
      // CT1-CT5, issue 10: what organisers author per event. Texts are {en, cn, ja, vi} objects;
      // a missing language falls back to the event's default language.
      await db.schema
        .alterTable('content')
        .addColumn('description', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
        // FAQ category per language; manuals: mandatory/optional, acknowledgement, deadline.
        .addColumn('category', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
        .addColumn('mandatory', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('ack_required', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('deadline', 'timestamptz')
        .addColumn('pinned', 'boolean', (c) => c.notNull().defaultTo(false))
        // Modules whose holders see it (any one); empty = everyone who may open the screen.
        .addColumn('audience', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
        // File references (uploads of purpose contentAttachment).
        .addColumn('attachments', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
        .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .execute();
      await db.schema.createIndex('content_event_kind').on('content').columns(['event_id', 'kind', 'published_at']).execute();
      // CT1: a manual's status per exhibitor: to be viewed (no row), viewed, acknowledged.
      await db.schema
        .createTable('manual_status')
        .addColumn('content_id', 'integer', (c) => c.notNull().references('content.id').onDelete('cascade'))
        .addColumn('participation_id', 'integer', (c) => c.notNull().references('participations.id').onDelete('cascade'))
        .addColumn('viewed_at', 'timestamptz', (c) => c.notNull())
        .addColumn('viewed_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('acknowledged_at', 'timestamptz')
        .addColumn('acknowledged_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addPrimaryKeyConstraint('manual_status_pk', ['content_id', 'participation_id'])
        .execute();
      // CT2: announcements each user has read.
      await db.schema
        .createTable('announcement_reads')
        .addColumn('content_id', 'integer', (c) => c.notNull().references('content.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('read_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint('announcement_reads_pk', ['content_id', 'user_id'])
        .execute();
      // CT3: one searchable text per item and language (title, description, body), folded by the
      // engine's searchFold (case, width, diacritics), so "nguyen" finds "Nguyễn" and a CJK
      // substring finds its item with a plain LIKE (trigram-indexed where pg_trgm exists).
      await db.schema
        .createTable('content_search')
        .addColumn('content_id', 'integer', (c) => c.notNull().references('content.id').onDelete('cascade'))
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('folded', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('content_search_pk', ['content_id', 'language'])
        .execute();
      const trgm = await sql<{ ok: boolean }>`select exists (select 1 from pg_extension where extname = 'pg_trgm') as ok`.execute(db);
      if (trgm.rows[0]?.ok) await sql`create index content_search_folded on content_search using gin (folded gin_trgm_ops)`.execute(db);
      // CT5: messages sent through the support form (to the event's support address, copy to the sender).
      await db.schema
        .createTable('support_messages')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('participation_id', 'integer', (c) => c.references('participations.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
    },
  },
  '0015_showroom': {
    async up(db: Kysely<any>) {
      // CT5: an exhibitor's public showroom address, and whether it is published.
      await db.schema
        .createTable('showrooms')
        .addColumn('participation_id', 'integer', (c) => c.primaryKey().references('participations.id').onDelete('cascade'))
        .addColumn('slug', 'text', (c) => c.notNull().unique())
        .addColumn('published', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('published_at', 'timestamptz')
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
    },
  },
  '0007_auth_hardening': {
    async up(db: Kysely<any>) {
      // One-time sign-in link codes (S3 ?token=): a short-lived, single-use code stands in the
      // URL instead of a session token; only its hash is stored.
      await db.schema
        .createTable('link_codes')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('code_hash', 'text', (c) => c.notNull().unique())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
        .addColumn('used_at', 'timestamptz')
        .execute();
      await db.schema.createIndex('link_codes_expires').on('link_codes').column('expires_at').execute();
      // Housekeeping: one row per scheduled job; claiming a run is one conditional update, so
      // several servers on one PostgreSQL run each job once per interval.
      await db.schema
        .createTable('scheduled_jobs')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('last_run_at', 'timestamptz', (c) => c.notNull())
        .execute();
      // Purges look sessions and resets up by age.
      await db.schema.createIndex('sessions_last_seen').on('sessions').column('last_seen_at').execute();
      await db.schema.createIndex('password_resets_expires').on('password_resets').column('expires_at').execute();
      await db.schema.createIndex('login_failures_at').on('login_failures').column('at').execute();
    },
  },
  '0009_forms_ux': {
    async up(db: Kysely<any>) {
      // F9 (issue 12): a submission is never withdrawn by editing. What the columns of
      // form_entries mean from here on (formStatus in src/engine/forms/definitions.ts reads them):
      const meaning: Record<string, string> = {
        data: 'The working copy the exhibitor (or its contractor) edits; autosaved drafts write here only.',
        status: "'submitted' once a submission exists, and it stays so while the working copy is edited; 'draft' = never submitted.",
        submitted_data: 'The current submission: what the organiser, approvals and documents (visa letters) read. Replaced only by a new submission.',
        submitted_at: 'When the current submission was made.',
        approval_status: 'The decision on the current submission (null = none needed); a new submission resets it, a draft never does.',
      };
      for (const [column, text] of Object.entries(meaning)) {
        await sql`comment on column form_entries.${sql.ref(column)} is ${sql.lit(text)}`.execute(db);
      }
      // Entries that an earlier version turned back into drafts by an edit after submitting get their submission back.
      await db.updateTable('form_entries').set({ status: 'submitted' }).where('submitted_data', 'is not', null).execute();
    },
  },
  '0020_form_parts': {
    async up(db: Kysely<any>) {
      // P1 F4 (issue 12): a form shared with the contractor is submitted part by part
      // (forms.yaml `parts`, src/engine/forms/parts.ts); each part's own submission is recorded
      // here so that one side's submission neither locks nor withdraws the other's.
      await db.schema.alterTable('form_entries').addColumn('parts', 'jsonb').execute();
      await sql`comment on column form_entries.parts is ${sql.lit('Per part of a form with parts: { <part id>: { submittedAt, submittedBy } }. Null = the form is one part, or it was submitted whole before parts existed (every part counts as submitted at submitted_at).')}`.execute(
        db,
      );
    },
  },
  '0023_country_codes': {
    async up(db: Kysely<any>) {
      // Issue 13 (LA3, LD2): countries are stored as ISO 3166-1 alpha-2 codes and named in the
      // reader's language by Intl.DisplayNames. The English names stored so far become codes; a
      // value that names no country is kept as it is (and shown as it is). This reads the
      // engine's name index on purpose: it only ever turns a country's name into its code.
      // One statement per distinct name, so the rollup triggers move the dashboard's counts
      // from the name's key to the code's.
      for (const table of ['visitors', 'leads']) {
        const names = await db.selectFrom(table).select('country').distinct().where('country', '!=', '').execute();
        for (const { country } of names as Array<{ country: string }>) {
          const code = countryCode(country);
          if (code !== country) await db.updateTable(table).set({ country: code }).where('country', '=', country).execute();
        }
      }
      // The emptied keys of the old names (count 0) would show as empty bars.
      await db.deleteFrom('lead_rollup').where('dimension', '=', 'country').where('leads', '=', 0).execute();
    },
  },
  '0025_form_data': {
    async up(db: Kysely<any>) {
      // Issue 11 item 4 (O2 F5 O1): values of a form the organiser sets per event, in the model of
      // deadlines and quotas: forms.yaml names them (`fee.setting`, an `above` approval's
      // `setting`) and gives the default; a row here is the event's value (a decimal as text).
      await db.schema
        .createTable('event_settings')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addUniqueConstraint('event_settings_key', ['event_id', 'name'])
        .execute();
      // The event's extra badge fee (a column read by nothing) becomes the setting S04's fee names
      // in forms.yaml, where it differs from forms.yaml's default of 10.00.
      await sql`insert into event_settings (event_id, name, value)
        select id, 'extraBadgeFee', to_char(extra_badge_fee_cents / 100.0, 'FM999999990.00') from events where extra_badge_fee_cents <> 1000`.execute(db);
      await db.schema.alterTable('events').dropColumn('extra_badge_fee_cents').execute();
    },
  },
  '0027_form_countries': {
    async up(db: Kysely<any>) {
      // Issue 13 (L1): the forms' country fields hold ISO 3166-1 alpha-2 codes from here on (the
      // `country` keyword of schemas/README.md), named in each reader's language. The English
      // names (or nationalities) typed so far into drafts and submissions become codes; a value
      // that names no country is kept as typed (shown as it is; the form asks for a choice from
      // the list before the next submit). The fields are named here, as the shipped forms had
      // them when they became country fields: a migration says itself what it changed.
      for (const [formId, paths] of Object.entries(FORM_COUNTRY_FIELDS_0027)) {
        const entries = await db.selectFrom('form_entries').select(['id', 'data', 'submitted_data']).where('form_id', '=', formId).execute();
        for (const entry of entries as Array<{ id: number; data: unknown; submitted_data: unknown }>) {
          const data = withCountryCodes(entry.data, paths);
          const submitted = withCountryCodes(entry.submitted_data, paths);
          if (data === entry.data && submitted === entry.submitted_data) continue;
          await db
            .updateTable('form_entries')
            .set({ data: JSON.stringify(data), submitted_data: submitted === null || submitted === undefined ? null : JSON.stringify(submitted) })
            .where('id', '=', entry.id)
            .execute();
        }
      }
    },
  },
  '0030_visitor_directory': {
    async up(db: Kysely<any>) {
      // LD1: which visitor fields the event's exhibitors may keep on their scanning phones (the
      // offline visitor directory): a subset of name, company, jobTitle; empty = no directory.
      await db.schema
        .alterTable('events')
        .addColumn('visitor_directory_fields', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
        .execute();
    },
  },
  '0034_per_form_reopen': {
    async up(db: Kysely<any>) {
      // O2 F9 (issue 23): an organiser's reopening moves the deadline of one form for one exhibitor,
      // under the form's own key (`form:<id>`). It used to write the exhibitor's deadline of the
      // form's deadline name, which reopened every form sharing that name. A name row that is
      // exactly what the last reopening of a form wrote (the audit log's `after.deadline`) was
      // that reopening: it becomes the row of the reopened form(s) alone. Rows the organiser set
      // in the exhibitor editor (no matching reopening) stay as they are.
      const reopenings = await db
        .selectFrom('audit_log')
        .select(['participation_id', 'subject_id', 'after'])
        .where('action', '=', 'form.reopen')
        .where('participation_id', 'is not', null)
        .orderBy('id')
        .execute();
      const latest = new Map<string, { participationId: number; formId: string; deadline: string }>();
      for (const row of reopenings as Array<{ participation_id: number; subject_id: string; after: { deadline?: string | null } | null }>) {
        const deadline = row.after?.deadline;
        if (typeof deadline === 'string') latest.set(`${row.participation_id}/${row.subject_id}`, { participationId: row.participation_id, formId: row.subject_id, deadline });
      }
      const moved = new Set<number>();
      for (const { participationId, formId, deadline } of latest.values()) {
        const name = FORM_DEADLINE_NAMES_0034[formId];
        if (!name) continue;
        const row = (await db
          .selectFrom('deadlines')
          .select(['id', 'event_id', 'due_at'])
          .where('participation_id', '=', participationId)
          .where('name', '=', name)
          .executeTakeFirst()) as { id: number; event_id: number; due_at: Date | string } | undefined;
        if (!row || new Date(row.due_at).toISOString() !== new Date(deadline).toISOString()) continue;
        const key = `form:${formId}`;
        await db.deleteFrom('deadlines').where('participation_id', '=', participationId).where('name', '=', key).execute();
        await db.insertInto('deadlines').values({ event_id: row.event_id, participation_id: participationId, name: key, due_at: row.due_at }).execute();
        moved.add(row.id);
      }
      if (moved.size > 0)
        await db
          .deleteFrom('deadlines')
          .where('id', 'in', [...moved])
          .execute();
    },
  },
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
