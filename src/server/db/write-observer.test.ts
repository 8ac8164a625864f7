import { Kysely, PostgresDialect, sql, type Generated } from 'kysely';
import { describe, expect, it } from 'vitest';
import { WriteObserver, writtenTables, type WrittenTables } from './write-observer';

// Which statements count as writes, and to which tables (the session cache forgets on them).

interface Db {
  sessions: { id: Generated<number>; last_seen_at: Date; user_id: number };
  users: { id: Generated<number>; status: string };
  leads: { id: Generated<number>; user_id: number };
}

// Only compiled, never run: a dialect with no pool behind it.
const db = new Kysely<Db>({
  dialect: new PostgresDialect({
    pool: async () => {
      throw new Error('not connected');
    },
  }),
});
const tablesOf = (query: { toOperationNode(): unknown }) => {
  const found = writtenTables(query.toOperationNode() as never);
  return found === null || found === 'all' ? found : [...found].sort();
};

describe('writtenTables', () => {
  it('a select writes nothing, even with a join', () => {
    expect(tablesOf(db.selectFrom('sessions').innerJoin('users', 'users.id', 'sessions.user_id').selectAll())).toBeNull();
  });

  it('insert, update and delete name their tables, with the tables their conditions read', () => {
    expect(tablesOf(db.insertInto('leads').values({ user_id: 1 }))).toEqual(['leads']);
    expect(tablesOf(db.updateTable('sessions').set({ last_seen_at: new Date() }).where('id', '=', 1))).toEqual(['sessions']);
    expect(tablesOf(db.deleteFrom('users').where('id', 'in', db.selectFrom('leads').select('user_id')))).toEqual(['leads', 'users']);
  });

  it('raw SQL that writes, or changes the schema, counts as a write to every table', () => {
    expect(tablesOf(sql`update users set status = 'disabled'`)).toBe('all');
    expect(tablesOf(sql`truncate sessions`)).toBe('all');
    expect(tablesOf(sql`select 1`)).toBeNull();
    expect(tablesOf(db.schema.createIndex('x').on('leads').column('user_id'))).toBe('all');
  });

  it('the observer tells its listeners before and after a write, never for a read', async () => {
    const observer = new WriteObserver();
    const heard: WrittenTables[] = [];
    observer.onWrite((tables) => heard.push(tables));
    const queryId = {} as never;
    const node = db.updateTable('users').set({ status: 'x' }).toOperationNode();
    observer.transformQuery({ node, queryId });
    expect(heard).toHaveLength(1);
    await observer.transformResult({ result: { rows: [] }, queryId });
    expect(heard).toHaveLength(2);
    observer.transformQuery({ node: db.selectFrom('users').selectAll().toOperationNode(), queryId: {} as never });
    expect(heard).toHaveLength(2);
    expect([...(heard[0] as Set<string>)]).toEqual(['users']);
  });
});
