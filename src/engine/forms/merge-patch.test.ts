import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergePatch } from './merge-patch';
import { PROJECT_UPLOADS } from '../../../tests/support/project-uploads';
import { validateForm } from './validator';

// F11: an event changes a form with a JSON merge patch (RFC 7386).

describe('F11 mergePatch follows RFC 7386', () => {
  // RFC 7386 appendix A: original, patch, result.
  const examples: [unknown, unknown, unknown][] = [
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [
      ['a', 'b'],
      ['c', 'd'],
      ['c', 'd'],
    ],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ];
  it.each(examples)('F11 appendix A: %j patched with %j', (target, patch, result) => {
    expect(mergePatch(target, patch)).toEqual(result);
  });

  it('F11 the RFC example: null removes, objects merge, arrays replace', () => {
    const target = { title: 'Goodbye!', author: { givenName: 'John', familyName: 'Doe' }, tags: ['example', 'sample'], content: 'This will be unchanged' };
    const patch = { title: 'Hello!', phoneNumber: '+01-123-456-7890', author: { familyName: null }, tags: ['example'] };
    expect(mergePatch(target, patch)).toEqual({
      title: 'Hello!',
      author: { givenName: 'John' },
      tags: ['example'],
      content: 'This will be unchanged',
      phoneNumber: '+01-123-456-7890',
    });
  });

  it('F11 an array in a patch is taken as is: nulls inside it are values, not removals', () => {
    expect(mergePatch({ a: [{ b: 1 }] }, { a: [{ b: null }] })).toEqual({ a: [{ b: null }] });
  });

  it('F11 an empty patch changes nothing', () => {
    const target = { a: { b: [1, 2] }, c: 'd' };
    expect(mergePatch(target, {})).toEqual(target);
  });

  it('F11 the target is never changed', () => {
    const target = { a: { b: 'c', d: 'e' }, f: ['g'] };
    const copy = structuredClone(target);
    mergePatch(target, { a: { b: null, x: 'y' }, f: ['h'], z: 1 });
    expect(target).toEqual(copy);
  });

  it('F11 a README-style patch on S01 removes a field, adds one, and the result still validates', () => {
    const dir = join(import.meta.dirname, '../../../schemas/forms');
    const schema = JSON.parse(readFileSync(join(dir, 's01.schema.json'), 'utf8'));
    const patched = mergePatch(schema, {
      properties: {
        company: { properties: { boothDisplayNameLocal: null, halalCertified: { type: 'boolean', title: 'forms.s01.halalCertified' } } },
      },
    });
    const company = patched.properties.company;
    expect(company.properties.boothDisplayNameLocal).toBeUndefined();
    expect(company.properties.halalCertified).toEqual({ type: 'boolean', title: 'forms.s01.halalCertified' });
    expect(Object.keys(company.properties)).toEqual([...Object.keys(schema.properties.company.properties).filter((k) => k !== 'boothDisplayNameLocal'), 'halalCertified']);
    expect(company.required).toEqual(schema.properties.company.required);
    expect(schema.properties.company.properties.boothDisplayNameLocal).toBeDefined();
    // The patched schema compiles with the form keywords; the new field is checked by type.
    const context = { flags: { s01CompanyShow: true, profileSecondLanguage: true }, quotas: {} };
    const errors = validateForm(patched, { company: { halalCertified: 'yes' } }, context, PROJECT_UPLOADS);
    expect(errors).toContainEqual(expect.objectContaining({ path: '/company/halalCertified', key: 'validation.type' }));
  });
});
