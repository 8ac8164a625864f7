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

  it('raw SQL that changes the schema, or writes where the text does not name the table, counts as a write to every table', () => {
    expect(tablesOf(sql`truncate sessions`)).toBe('all');
    expect(tablesOf(sql`copy users from stdin`)).toBe('all');
    expect(tablesOf(sql`alter table users add column x int`)).toBe('all');
    expect(tablesOf(sql`insert into ${sql.table('users')} (status) values ('x')`)).toBe('all');
    expect(tablesOf(sql`delete ${sql.raw('from users')}`)).toBe('all');
    expect(tablesOf(sql`select 1`)).toBeNull();
    expect(tablesOf(db.schema.createIndex('x').on('leads').column('user_id'))).toBe('all');
  });

  it('raw SQL that writes names the tables it writes (a scan batch keeps the session cache)', () => {
    expect(tablesOf(sql`update users set status = 'disabled'`)).toEqual(['users']);
    expect(tablesOf(sql`UPDATE ONLY public."Users" SET status = ${'x'}`)).toEqual(['Users']);
    expect(tablesOf(sql`delete from sessions where id = ${1}`)).toEqual(['sessions']);
    expect(
      tablesOf(sql`merge into users u using leads l on l.user_id = u.id when matched then update set status = 'x' when not matched then insert (status) values ('y')`),
    ).toEqual(['users']);
    // The scan batch's shape: CTEs inserting into two tables and updating one, a conflict clause, *_at columns.
    const batch = sql`with input as (select * from jsonb_to_recordset(${'[]'}::jsonb) as s(idx int, updated_at timestamptz)),
      inserted as (insert into leads (user_id) select 1 from input on conflict do nothing returning id),
      recorded as (insert into lead_scans (lead_id) select id from inserted on conflict (lead_id) do update set lead_id = excluded.lead_id returning lead_id),
      counted as (update leads set user_id = 2 from recorded where leads.id = recorded.lead_id returning leads.id)
      select * from input`;
    expect(tablesOf(batch)).toEqual(['lead_scans', 'leads']);
    // A row lock is no write.
    expect(tablesOf(sql`select id from users where id = ${1} for update`)).toBeNull();
    expect(tablesOf(sql`select id from users for no key update of users skip locked`)).toBeNull();
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
