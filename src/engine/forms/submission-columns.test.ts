import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { submissionLayout, valueAt } from './submission-columns';

const schemaOf = (id: string) => JSON.parse(readFileSync(join(import.meta.dirname, '../../../schemas/forms', `${id}.schema.json`), 'utf8')) as unknown;

describe('submissionLayout: the submissions export', () => {
  it('a list of objects beside plain values gives one row per item, its fields as columns, files and enums marked', () => {
    const schema = {
      type: 'object',
      properties: {
        agree: { type: 'boolean', title: 'f.agree' },
        people: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              name: { type: 'string', title: 'f.name' },
              kind: { type: 'string', enum: ['a', 'b'], title: 'f.kind' },
              photo: { type: 'object', file: 'photo', properties: { id: { type: 'string' } } },
              address: { type: 'object', title: 'f.address', properties: { city: { type: 'string', title: 'f.city' } } },
            },
          },
        },
      },
    };
    const layout = submissionLayout('x1', schema);
    expect(layout.list).toBe('people');
    expect(layout.formColumns).toEqual([{ path: ['agree'], titleKeys: ['f.agree'], kind: 'boolean' }]);
    expect(layout.itemColumns).toEqual([
      { path: ['name'], titleKeys: ['f.name'], kind: 'text' },
      { path: ['kind'], titleKeys: ['f.kind'], kind: 'enum', enumKeyPrefix: 'forms.x1.enum.kind.' },
      { path: ['photo'], titleKeys: ['photo'], kind: 'file' },
      { path: ['address', 'city'], titleKeys: ['f.address', 'f.city'], kind: 'text' },
    ]);
  });

  it('a form of nested sections gives one row per exhibitor with a column per leaf', () => {
    const schema = {
      type: 'object',
      properties: {
        company: { type: 'object', properties: { name: { type: 'string' } } },
        partners: { type: 'array', items: { type: 'object', properties: { n: { type: 'string' } } } },
      },
    };
    const layout = submissionLayout('x2', schema);
    expect(layout.list).toBeNull();
    expect(layout.formColumns.map((c) => [c.path.join('.'), c.kind])).toEqual([
      ['company.name', 'text'],
      ['partners', 'list'],
    ]);
  });

  it('every real form yields columns; the badge form lists its badges', () => {
    for (const id of ['s01', 's02', 's04', 's06', 's07', 'vip']) {
      const layout = submissionLayout(id, schemaOf(id));
      expect(layout.formColumns.length + layout.itemColumns.length).toBeGreaterThan(0);
    }
    const badges = submissionLayout('s04', schemaOf('s04'));
    expect(badges.list).not.toBeNull();
    expect(badges.itemColumns.some((c) => c.kind === 'enum')).toBe(true);
  });

  it('valueAt reads nested values and tolerates missing steps', () => {
    expect(valueAt({ a: { b: 3 } }, ['a', 'b'])).toBe(3);
    expect(valueAt({ a: null }, ['a', 'b'])).toBeUndefined();
  });
});
