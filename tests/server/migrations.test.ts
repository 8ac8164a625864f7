import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase } from '../../src/server/db/connection';
import { migrations } from '../../src/server/db/migrations';
import { VISITOR_PROFILE_FIELDS } from '../../src/server/db/schema';
import { createTestApp, ENGINES, type TestApp } from './helpers';

// Shipped migrations name their columns themselves; the application's constants must still find
// every column they name in a freshly migrated database (a new profile field needs a migration).

describe.each(ENGINES)('migrations on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(async () => t?.close());

  it('every visitor profile field the application reads is a column of visitors and of leads', async () => {
    for (const table of ['visitors', 'leads']) {
      const columns = await sql<{ column_name: string }>`select column_name from information_schema.columns where table_name = ${table}`.execute(t.app.db);
      const names = new Set(columns.rows.map((row) => row.column_name));
      expect(
        VISITOR_PROFILE_FIELDS.filter((field) => !names.has(field)),
        table,
      ).toEqual([]);
    }
  });
});

describe('migrations at start', () => {
  it('a start that has migrations to apply says which before it applies them, and one with none says nothing', async () => {
    const opened = await openDatabase({ log: () => undefined });
    try {
      const heard: string[] = [];
      await migrateToLatest(opened.db, (message) => heard.push(message));
      expect(heard).toHaveLength(1);
      const names = Object.keys(migrations).sort();
      expect(heard[0]).toContain(`applying ${names.length} database migration(s): ${names.join(', ')}`);
      const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(opened.db);
      expect(applied.rows.map((row) => row.name)).toEqual(names);

      heard.length = 0;
      await migrateToLatest(opened.db, (message) => heard.push(message));
      expect(heard).toEqual([]);
    } finally {
      await opened.close();
    }
  });
});
