import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // O2: an organisation runs several events; its organisers see only its events.
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

    // Who changed what, when (before and after), for organisers' changes, imports,
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

    // Every e-mail goes through this queue; a worker sends it with retries, so a request
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
};
