import { describe, expect, it } from 'vitest';
import { flatten, hasAnswer, newOrChangedQuestions, stringKeyPattern, unflatten, versionDifference, withDraft, withoutAnswers } from './form-content';

// F11: the editor's pure steps on a form set's content.

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'forms.x.name', maxLength: 100 },
    badges: { type: 'array', items: { type: 'object', properties: { first: { type: 'string' }, gender: { type: 'string', enum: ['f', 'm'] } } } },
  },
  required: ['name'],
};

describe('form content', () => {
  it('flattens and unflattens strings under a prefix', () => {
    const table = { title: 'T', badges: { first: 'First' } };
    const flat = flatten(table, 'forms.x');
    expect(flat).toEqual({ 'forms.x.title': 'T', 'forms.x.badges.first': 'First' });
    expect(unflatten(flat, 'forms.x')).toEqual(table);
    expect(stringKeyPattern('x').test('forms.x.badges.first')).toBe(true);
    expect(stringKeyPattern('x').test('forms.y.title')).toBe(false);
    expect(stringKeyPattern('x').test('forms.x')).toBe(false);
  });

  it('replaces an event patch and the form strings, keeping the order of existing keys', () => {
    const source = { files: { 'forms/x.schema.json': '{}' }, strings: { en: { x: { a: 'A', b: 'B' }, y: { c: 'C' } } } };
    const changed = withDraft(source, 'EV', 'x', { schema: {} }, { en: { 'forms.x.new': 'N', 'forms.x.b': 'B2', 'forms.x.a': 'A' } })!;
    expect(changed.files['events/EV/x.patch.json']).toBe('{\n  "schema": {}\n}\n');
    expect(JSON.stringify(changed.strings.en)).toBe(JSON.stringify({ x: { a: 'A', b: 'B2', new: 'N' }, y: { c: 'C' } }));
    expect(withDraft(changed, 'EV', 'x', null, {})!.files['events/EV/x.patch.json']).toBeUndefined();
  });

  it("lists a draft's names under the form's forms.yaml entries' optional:, never under another form's", () => {
    const formsYaml = 'forms:\n  - id: x\n    approvalSummary: [{ field: badges, show: [firstName, lastName] }]\n  - id: y\n    approvalSummary: [{ field: boothHeight }]\n';
    const source = { files: { 'forms/forms.yaml': formsYaml }, strings: {} };
    const listed = withDraft(source, 'EV', 'x', null, {}, [{ entry: '/forms/0/approvalSummary/0', name: 'lastName' }]);
    expect(listed!.files['forms/forms.yaml']).toBe(formsYaml.replace('lastName] }', 'lastName], optional: [lastName] }'));
    expect(withDraft(source, 'EV', 'x', null, {}, [{ entry: '/forms/1/approvalSummary/0', name: 'boothHeight' }])).toBeNull();
    expect(withDraft(source, 'EV', 'x', null, {}, [{ entry: '/forms/0/approvalSummary/4', name: 'lastName' }])).toBeNull();
  });

  it('names the new and changed questions, not the reworded ones', () => {
    const after = structuredClone(schema) as any;
    after.properties.name.title = 'forms.x.otherName';
    after.properties.badges.items.properties.gender.enum = ['f'];
    after.properties.halal = { type: 'boolean', title: 'forms.x.halal' };
    expect(newOrChangedQuestions({ schema }, { schema: after })).toEqual([
      { path: 'badges[].gender', kind: 'changed' },
      { path: 'halal', kind: 'added' },
    ]);
    const required = structuredClone(schema) as any;
    required.required = ['name', 'badges'];
    expect(newOrChangedQuestions({ schema }, { schema: required })).toEqual([{ path: 'badges', kind: 'changed' }]);
  });

  it('finds and drops answers at dotted paths, list items included', () => {
    const data = { name: 'A', badges: [{ first: 'x', gender: 'f' }, { first: 'y' }] };
    expect(hasAnswer(data, 'badges[].gender')).toBe(true);
    expect(hasAnswer(data, 'name')).toBe(true);
    expect(hasAnswer({ name: '' }, 'name')).toBe(false);
    expect(withoutAnswers(data, ['badges[].gender'])).toEqual({ name: 'A', badges: [{ first: 'x' }, { first: 'y' }] });
    expect(withoutAnswers(data, ['missing'])).toBe(data);
    expect(withoutAnswers(data, ['name'])).toEqual({ badges: data.badges });
  });

  it('lists the difference between two versions per form and event, limited to the given events', () => {
    const a = { files: { 'forms/x.schema.json': JSON.stringify(schema), 'forms/x.ui.json': '{}' }, strings: { en: { x: { name: 'Name' } } } };
    const patch = JSON.stringify({ schema: { properties: { halal: { type: 'boolean', title: 'forms.x.halal' } } } });
    const b = { files: { ...a.files, 'events/EV/x.patch.json': patch, 'events/OTHER/x.patch.json': patch }, strings: { en: { x: { name: 'Name', halal: 'Halal' } } } };
    const difference = versionDifference(a, b, new Set(['EV']));
    expect(difference.files).toEqual([{ file: 'events/EV/x.patch.json', change: 'added' }]);
    expect(difference.forms).toEqual([{ formId: 'x', exhibitCode: 'EV', changes: [{ kind: 'added', path: 'halal', title: 'forms.x.halal' }] }]);
    expect(difference.strings).toEqual([{ language: 'en', key: 'forms.x.halal', change: 'added' }]);
  });
});
