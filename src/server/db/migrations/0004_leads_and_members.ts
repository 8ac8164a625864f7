import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** The visitor profile of spec §3 Lead as migration 0004 created it, on visitors and on each lead (LD1). */
const VISITOR_PROFILE_COLUMNS_0004 = ['salutation', 'company', 'business_nature', 'job_title', 'country', 'mobile', 'email', 'phone', 'address'] as const;

function withVisitorProfile<T extends string, C extends string>(table: CreateTableBuilder<T, C>): CreateTableBuilder<T, C | (typeof VISITOR_PROFILE_COLUMNS_0004)[number]> {
  let builder: CreateTableBuilder<T, string> = table;
  for (const column of VISITOR_PROFILE_COLUMNS_0004) builder = builder.addColumn(column, 'text', (c) => c.notNull().defaultTo(''));
  return builder as CreateTableBuilder<T, C | (typeof VISITOR_PROFILE_COLUMNS_0004)[number]>;
}

export const migration: Migration = {
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
};
