import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // O2 F5 O1: values of a form the organiser sets per event, in the model of
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
};
