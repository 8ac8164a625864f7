import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containingPattern, escapeLike } from './like-pattern';

describe('LIKE patterns of typed text', () => {
  const db = new PGlite();
  beforeAll(async () => {
    await db.exec(`create table texts (t text); insert into texts values ('50% off'), ('500 off'), ('a_b'), ('axb'), ('c:\\d'), ('c:d')`);
  });
  afterAll(() => db.close());
  const matching = async (pattern: string) => (await db.query<{ t: string }>('select t from texts where t like $1 order by t', [pattern])).rows.map((row) => row.t);

  it('matches wildcards and the escape character as themselves', async () => {
    expect(await matching(containingPattern('50%'))).toEqual(['50% off']);
    expect(await matching(containingPattern('a_b'))).toEqual(['a_b']);
    expect(await matching(containingPattern('\\'))).toEqual(['c:\\d']);
    expect(await matching(`${escapeLike('c:')}%`)).toEqual(['c:\\d', 'c:d']);
  });
});
