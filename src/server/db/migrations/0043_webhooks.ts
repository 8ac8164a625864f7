import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // Webhook endpoints: an exhibitor's (participation_id) or an organisation's (organisation_id),
    // with the events they take, the signing secret (Standard Webhooks `whsec_…`) and, during a
    // rotation, the previous secret that still signs until `previous_secret_until`.
    await db.schema
      .createTable('webhook_endpoints')
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('participation_id', 'integer', (c) => c.references('participations.id').onDelete('cascade'))
      .addColumn('organisation_id', 'integer', (c) => c.references('organisations.id').onDelete('cascade'))
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('events', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('previous_secret', 'text')
      .addColumn('previous_secret_until', 'timestamptz')
      .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
      .addColumn('disabled_reason', 'text')
      .addColumn('failing_since', 'timestamptz')
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addCheckConstraint('webhook_endpoints_one_owner', sql`(participation_id is null) <> (organisation_id is null)`)
      .execute();
    await db.schema.createIndex('webhook_endpoints_participation').on('webhook_endpoints').column('participation_id').execute();
    await db.schema.createIndex('webhook_endpoints_organisation').on('webhook_endpoints').column('organisation_id').execute();

    // The delivery queue and log: one row per message per endpoint. `message_id` is the
    // `webhook-id` a receiver dedupes on (the same for every attempt and a manual resend);
    // `ordering_key` (a lead) keeps an endpoint's messages about one lead in order.
    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('id', 'bigserial', (c) => c.primaryKey())
      .addColumn('endpoint_id', 'integer', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
      .addColumn('message_id', 'text', (c) => c.notNull())
      .addColumn('event_type', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('ordering_key', 'text')
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('locked_until', 'timestamptz')
      .addColumn('last_attempt_at', 'timestamptz')
      .addColumn('response_status', 'integer')
      .addColumn('last_error', 'text')
      .addColumn('delivered_at', 'timestamptz')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
    await db.schema.createIndex('webhook_deliveries_endpoint').on('webhook_deliveries').columns(['endpoint_id', 'id']).execute();
    await db.schema.createIndex('webhook_deliveries_order').on('webhook_deliveries').columns(['endpoint_id', 'ordering_key', 'id']).execute();
  },
};
