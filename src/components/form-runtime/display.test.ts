import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { displayUi, markDuplicates, serverProblems, translateErrors, withoutHidden, withoutHiddenErrors } from './display';
import { fieldIdOf } from './field-ids';

const schemaOf = (id: string) => JSON.parse(readFileSync(join(import.meta.dirname, '../../../schemas/forms', `${id}.schema.json`), 'utf8')) as Record<string, unknown>;
const t = (key: string) => `«${key}»`;

describe('withoutHidden (F2, F3: what sits behind a flag that is off is not sent)', () => {
  const s01 = schemaOf('s01');
  const s02 = schemaOf('s02');
  const allOn = { s01CompanyShow: true, s01ContactShow: true, s01DistributionShow: true, s01GoalShow: true, S01BoothDisplayName: true, profileSecondLanguage: true };
  const data = {
    company: { companyName: 'Borneo Botanica', boothDisplayName: 'Borneo', boothDisplayNameLocal: '婆罗洲', description: 'Honey', descriptionLocal: '蜂蜜' },
    contacts: { operations: {}, marketingSales: {} },
    distribution: [],
    goals: {},
  };

  it('keeps everything when every flag is on', () => {
    expect(withoutHidden(s01, data, allOn)).toEqual(data);
  });

  it('drops hidden sections (with the defaults rjsf put there) and hidden fields inside visible ones', () => {
    const flags = { ...allOn, s01ContactShow: false, s01GoalShow: false, profileSecondLanguage: false };
    expect(withoutHidden(s01, data, flags)).toEqual({
      company: { companyName: 'Borneo Botanica', boothDisplayName: 'Borneo', description: 'Honey' },
      distribution: [],
    });
    // The input is not changed.
    expect(data.contacts).toEqual({ operations: {}, marketingSales: {} });
  });

  it('walks array items: S02 products without brand names and local names', () => {
    const products = { products: [{ brandName: 'Kopi', brandNameLocal: '咖啡', productName: 'Arabica', productNameLocal: '阿拉比卡', newLaunch: false }] };
    expect(withoutHidden(s02, products, { s02BrandNameShow: false, productSecondLanguage: false })).toEqual({ products: [{ productName: 'Arabica', newLaunch: false }] });
    expect(withoutHidden(s02, products, { s02BrandNameShow: true, productSecondLanguage: false })).toEqual({
      products: [{ brandName: 'Kopi', productName: 'Arabica', newLaunch: false }],
    });
  });

  it('leaves data the schema does not describe to the validator', () => {
    expect(withoutHidden(s01, { unknown: 1 }, {})).toEqual({ unknown: 1 });
    expect(withoutHidden(s01, null, {})).toBeNull();
  });
});

describe('hidden fields in the UI schema', () => {
  it('are rendered by no one, wrapper included', () => {
    const ui = displayUi({}, schemaOf('s01'), 's01', t, { s01CompanyShow: true, S01BoothDisplayName: false });
    expect(ui.contacts).toEqual({ 'ui:field': 'hidden', 'ui:widget': 'hidden' });
    expect((ui.company as Record<string, unknown>).boothDisplayName).toEqual({ 'ui:field': 'hidden', 'ui:widget': 'hidden' });
    expect((ui.company as Record<string, unknown>)['ui:title']).toBe('«forms.s01.companySection»');
  });

  it('their errors are not shown: their data is dropped before sending', () => {
    const errors = [
      { name: 'showIf', property: '.contacts', message: 'x', stack: 'x', schemaPath: '#/properties/contacts/showIf' },
      { name: 'secondLanguage', property: '.company.descriptionLocal', message: 'x', stack: 'x' },
      { name: 'required', property: '.company.companyName', message: 'y', stack: 'y' },
    ];
    expect(withoutHiddenErrors(errors).map((e) => e.name)).toEqual(['required']);
  });

  it('errors inside a hidden section are not shown either; those of visible sections are', () => {
    const schema = schemaOf('s01');
    const errors = [
      { name: 'required', property: '.contacts.operations.email', message: 'x', stack: 'x', schemaPath: '#/properties/contacts/properties/operations/required' },
      { name: 'required', property: '.company.companyName', message: 'y', stack: 'y', schemaPath: '#/properties/company/required' },
      { name: 'format', property: '.company.website', message: 'z', stack: 'z', params: { format: 'uri' }, schemaPath: '#/properties/company/properties/website/format' },
    ];
    const flags = { s01CompanyShow: true, s01ContactShow: false };
    expect(withoutHiddenErrors(errors, schema, flags).map((e) => e.property)).toEqual(['.company.companyName', '.company.website']);
    expect(withoutHiddenErrors(errors, schema, { ...flags, s01ContactShow: true })).toHaveLength(3);
    const translated = translateErrors(schema as never, t, flags)(errors);
    expect(translated.map((e) => e.message)).toEqual(['«validation.required»', '«validation.uri»']);
  });
});

describe('V1 markDuplicates', () => {
  it('V1 marks each entry of a pair that shares the unique value, not only the second', () => {
    const schema = { type: 'object', properties: { badges: { type: 'array', uniqueItemProperty: 'email', items: { type: 'object', properties: { email: { type: 'string' } } } } } };
    const marked: string[] = [];
    const node = (path: string) => ({ addError: (message: string) => marked.push(`${path}: ${message}`) });
    const errors = { badges: { 0: { email: node('0') }, 1: { email: node('1') }, 2: { email: node('2') }, 3: { email: node('3') } } };
    const data = { badges: [{ email: 'A@x.example' }, { email: 'b@x.example' }, { email: ' a@x.example' }, { email: '' }] };
    markDuplicates(schema, (key, params) => `${key} ${String(params?.value)}`)(data, errors);
    expect(marked).toEqual(['0: validation.duplicateEntry A@x.example', '2: validation.duplicateEntry  a@x.example']);
  });
});

describe('list controls name what they add or remove', () => {
  const tp = (key: string, params: Record<string, unknown> = {}) => `«${key}${Object.keys(params).length ? ` ${JSON.stringify(params)}` : ''}»`;
  const schema = {
    type: 'object',
    properties: {
      badges: { type: 'array', title: 'forms.x.badges', items: { type: 'object', title: 'forms.x.badge', properties: { name: { type: 'string' } } } },
      guests: { type: 'array', title: 'forms.x.guests', items: { type: 'object', properties: { name: { type: 'string' } } } },
      tags: { type: 'array', items: { type: 'string' } },
    },
  };
  type Options = {
    addLabel?: string;
    liveAddLabel?: { text: () => string; keys: readonly string[] };
    itemLabels?: { remove: (n: number) => string; moveUp: (n: number) => string; keys: readonly string[] };
  };
  const optionsOf = (node: unknown) => (node as { 'ui:options'?: Options })['ui:options'] ?? {};

  it("uses the list's own texts from the UI schema, with the item's number", () => {
    const ui = displayUi({ badges: { 'ui:addLabel': 'forms.x.addBadge', 'ui:removeLabel': 'forms.x.removeBadge' } }, schema, 'x', tp, {});
    const badges = ui.badges as Record<string, unknown>;
    expect(optionsOf(badges).addLabel).toBe('«forms.x.addBadge»');
    expect(optionsOf(badges.items).itemLabels!.remove(3)).toBe('«forms.x.removeBadge {"number":3}»');
    // The keys the labels are built from, which a preview's buttons follow while the texts are typed.
    expect(optionsOf(badges.items).itemLabels!.keys).toEqual(['forms.x.badge', 'forms.x.removeBadge']);
    expect(optionsOf(badges).liveAddLabel!.keys).toEqual(['forms.x.addBadge']);
    expect(optionsOf(badges).liveAddLabel!.text()).toBe('«forms.x.addBadge»');
    // The keys themselves are gone: rjsf would read any ui: key as an option.
    expect(badges['ui:addLabel']).toBeUndefined();
    expect(badges['ui:removeLabel']).toBeUndefined();
  });

  it("falls back to the item's title, then the list's, for lists without their own texts", () => {
    const ui = displayUi({}, schema, 'x', tp, {});
    const badges = ui.badges as Record<string, unknown>;
    expect(optionsOf(badges).addLabel).toBe('«formRuntime.listControls.add {"item":"«forms.x.badge»"}»');
    expect(optionsOf(badges.items).itemLabels!.moveUp(2)).toBe('«formRuntime.listControls.moveUp {"item":"«forms.x.badge»","number":2}»');
    const guests = ui.guests as Record<string, unknown>;
    expect(optionsOf(guests.items).itemLabels!.remove(1)).toBe('«formRuntime.listControls.remove {"item":"«forms.x.guests»","number":1}»');
    expect(optionsOf(guests.items).itemLabels!.keys).toEqual(['forms.x.guests']);
    expect(optionsOf(guests).liveAddLabel!.keys).toEqual(['forms.x.guests']);
    // A list of plain values (a multiple choice) has no item buttons to name.
    expect(optionsOf(ui.tags).addLabel).toBeUndefined();
  });
});

describe('a refused submit from the server lists its problems like the browser’s', () => {
  const t = (key: string, params?: Record<string, unknown>) => `${key}${params && Object.keys(params).length > 0 ? JSON.stringify(params) : ''}`;

  it('each server error becomes a problem whose link reaches its field', () => {
    const problems = serverProblems(
      [
        { path: '/badges/2/email', key: 'validation.duplicateEmail', params: {} },
        { path: '/company/companyName', key: 'validation.required', params: { field: 'x' } },
        { path: '', key: 'validation.quota', params: { limit: 5 } },
      ],
      t,
    );
    expect(problems.map((problem) => fieldIdOf(problem.property))).toEqual(['root_badges_2_email', 'root_company_companyName', 'root']);
    expect(problems.map((problem) => problem.message)).toEqual(['validation.duplicateEmail', 'validation.required{"field":"x"}', 'validation.quota{"limit":5}']);
  });

  it('no errors, no problems', () => {
    expect(serverProblems([], t)).toEqual([]);
  });
});

describe("F11: fields defined only inside if/then/else, and ajv's `if` errors", () => {
  const schema = {
    type: 'object',
    properties: { kind: { type: 'string', title: 'forms.x.kind', enum: ['a', 'b'] } },
    if: { properties: { kind: { const: 'b' } }, required: ['kind'] },
    then: { properties: { detail: { type: 'string', title: 'forms.x.detail', enum: ['d1'] } }, required: ['detail'] },
    else: { allOf: [{ properties: { note: { type: 'string', title: 'forms.x.note' } } }] },
  };

  it('labels a field defined only in `then` (or in allOf under `else`) like any other, enum labels included', () => {
    const ui = displayUi({}, schema, 'x', t, {});
    expect(ui.detail).toMatchObject({ 'ui:title': '«forms.x.detail»', 'ui:enumNames': ['«forms.x.enum.detail.d1»'] });
    expect(ui.note).toMatchObject({ 'ui:title': '«forms.x.note»' });
  });

  it('never shows the `if` wrapper error, only the rule inside `then`', () => {
    const errors = [
      { name: 'required', property: '.detail', message: 'x', params: { missingProperty: 'detail' }, stack: 'x', schemaPath: '#/then/required' },
      { name: 'if', property: '', message: 'must match "then" schema', params: { failingKeyword: 'then' }, stack: 'x', schemaPath: '#/if' },
    ];
    const shown = translateErrors(schema as never, t)(errors);
    expect(shown.map((error) => error.message)).toEqual(['«validation.required»']);
  });
});

describe('F11: the keys of the texts, for a form whose texts change while shown', () => {
  const s04 = schemaOf('s04');
  const s04Ui = JSON.parse(readFileSync(join(import.meta.dirname, '../../../schemas/forms/s04.ui.json'), 'utf8')) as Record<string, unknown>;
  const params = { price: '10.00', currency: 'MYR' };

  it('each field names the keys of its title, help and choice labels beside the texts', () => {
    const ui = displayUi(s04Ui, s04, 's04', t, {}, params, { liveTexts: true });
    const badges = ui.badges as Record<string, Record<string, unknown>>;
    expect(badges['ui:liveTexts']).toEqual({ help: { key: 'forms.s04.badgesHelp', params }, title: { key: 'forms.s04.badges' } });
    const gender = (badges.items as Record<string, Record<string, unknown>>).gender!;
    expect(gender['ui:enumNames']).toEqual(['«forms.s04.enum.gender.male»', '«forms.s04.enum.gender.female»']);
    expect(gender['ui:liveTexts']).toEqual({
      title: { key: 'forms.s04.gender' },
      enumNames: [{ key: 'forms.s04.enum.gender.male' }, { key: 'forms.s04.enum.gender.female' }],
    });
  });

  it("an exhibitor's form is as before: no keys beside its texts", () => {
    expect(JSON.stringify(displayUi(s04Ui, s04, 's04', t, {}, params))).not.toContain('ui:liveTexts');
  });
});
