import { describe, expect, it } from 'vitest';
import type { FormContext } from './context';
import { checkListRows, columnHeader, foldLabel, importableLists, readListSheet, type TextsOf } from './list-import';
import { PROJECT_UPLOADS } from '../../../tests/support/project-uploads';
import { createFormAjv, runValidator } from './validator';

// A sheet read as a list's items and checked with the form's validator.

const schema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    title: { type: 'string', title: 'forms.t.title' },
    guests: {
      type: 'array',
      title: 'forms.t.guests',
      uniqueItemProperty: 'email',
      quota: 'guests',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'email'],
        properties: {
          name: { type: 'string', title: 'forms.t.name', realName: 'any' },
          email: { type: 'string', title: 'forms.t.email', format: 'email' },
          seats: { type: 'integer', title: 'forms.t.seats', minimum: 1 },
          meal: { type: 'string', title: 'forms.t.meal', enum: ['fish', 'veg'] },
          vip: { type: 'boolean', title: 'forms.t.vip' },
          arrival: { type: 'string', title: 'forms.t.arrival', format: 'date' },
          localName: { type: 'string', title: 'forms.t.localName', secondLanguage: 'localNames' },
          photo: { type: 'object', title: 'forms.t.photo', file: 'productImage' },
        },
      },
    },
    hiddenList: { type: 'array', showIf: 'off', items: { type: 'object', properties: { a: { type: 'string' } } } },
  },
};

const TEXTS: Record<string, string[]> = {
  'forms.t.name': ['Name', '姓名', '氏名', 'Họ tên'],
  'forms.t.email': ['E-mail', '电子邮箱', 'メールアドレス', 'Email'],
  'forms.t.seats': ['Seats', '座位', '席数', 'Số ghế'],
  'forms.t.meal': ['Meal', '餐食', '食事', 'Bữa ăn'],
  'forms.t.vip': ['VIP'],
  'forms.t.enum.meal.fish': ['Fish', '鱼', '魚', 'Cá'],
  'forms.t.enum.meal.veg': ['Vegetarian', '素食', 'ベジタリアン', 'Chay'],
  'formRuntime.rjsf.YesLabel': ['Yes', '是', 'はい', 'Có'],
  'formRuntime.rjsf.NoLabel': ['No', '否', 'いいえ', 'Không'],
};
const texts: TextsOf = (key) => TEXTS[key] ?? [];

const context = (quota: number): FormContext => ({ flags: {}, quotas: { guests: quota } });
const compiled = createFormAjv({ uploads: PROJECT_UPLOADS }).compile(schema);
const validate = (quota: number) => (data: Record<string, unknown>) => runValidator(compiled, () => compiled.errors, data, context(quota));

describe('importable lists', () => {
  it('makes columns of the fields a cell can hold, leaving out files and fields behind a flag that is off', () => {
    const [list, ...others] = importableLists('t', schema, {});
    expect(others).toEqual([]);
    expect(list!.property).toBe('guests');
    expect(list!.columns.map((column) => [column.property, column.kind])).toEqual([
      ['name', 'text'],
      ['email', 'text'],
      ['seats', 'integer'],
      ['meal', 'choice'],
      ['vip', 'yesNo'],
      ['arrival', 'date'],
    ]);
    expect(list!.columns.find((column) => column.property === 'meal')!.labels).toEqual(['forms.t.enum.meal.fish', 'forms.t.enum.meal.veg']);
    expect(importableLists('t', schema, { localNames: true })[0]!.columns.map((column) => column.property)).toContain('localName');
  });
});

describe('lists whose items hold objects or lists', () => {
  const nested = {
    type: 'object',
    properties: {
      staff: {
        type: 'array',
        title: 'forms.t.staff',
        items: {
          type: 'object',
          required: ['name', 'contact'],
          properties: {
            name: { type: 'string', title: 'forms.t.name' },
            contact: {
              type: 'object',
              title: 'forms.t.contact',
              required: ['email'],
              properties: {
                email: { type: 'string', title: 'forms.t.email', format: 'email' },
                meal: { type: 'string', title: 'forms.t.meal', enum: ['fish', 'veg'] },
                history: { type: 'array', title: 'forms.t.history', items: { type: 'object', properties: { year: { type: 'integer' } } } },
              },
            },
            shifts: { type: 'array', title: 'forms.t.shifts', items: { type: 'object', properties: { day: { type: 'string', format: 'date' } } } },
          },
        },
      },
    },
  };
  const nestedTexts: TextsOf = (key) => ({ ...TEXTS, 'forms.t.contact': ['Contact', '联系方式', '連絡先', 'Liên hệ'] })[key] ?? [];
  const staffCompiled = createFormAjv().compile(nested);
  const validateStaff = (data: Record<string, unknown>) => runValidator(staffCompiled, () => staffCompiled.errors, data, { flags: {}, quotas: {} });

  it('flattens an object inside an item into "Parent › Child" columns, and names the lists inside it that a sheet cannot fill', () => {
    const [list] = importableLists('t', nested, {});
    expect(list!.columns.map((column) => [column.property, column.kind, column.parents ?? []])).toEqual([
      ['name', 'text', []],
      ['contact/email', 'text', ['forms.t.contact']],
      ['contact/meal', 'choice', ['forms.t.contact']],
    ]);
    // Choice labels stay those of the field, as the form page shows them.
    expect(list!.columns[2]!.labels).toEqual(['forms.t.enum.meal.fish', 'forms.t.enum.meal.veg']);
    expect(list!.skipped).toEqual([['forms.t.contact', 'forms.t.history'], ['forms.t.shifts']]);
    expect(columnHeader(list!.columns[1]!, (key) => nestedTexts(key)[0] ?? key)).toBe('Contact › E-mail');
  });

  it('reads "Parent › Child" headers in any language into nested items, and puts a nested field’s problem in its own column', () => {
    const [list] = importableLists('t', nested, {});
    const read = readListSheet(
      [
        ['氏名', '連絡先 › メールアドレス', 'Contact › Meal'],
        ['Aiko', 'aiko@example.com', 'Fish'],
        ['Ben', 'not-an-email', ''],
        ['Chi', '', 'ベジタリアン'],
      ],
      list!,
      nestedTexts,
    );
    expect(read.headers.map((header) => header.property)).toEqual(['name', 'contact/email', 'contact/meal']);
    expect(read.rows.map((row) => row.item)).toEqual([
      { name: 'Aiko', contact: { email: 'aiko@example.com', meal: 'fish' } },
      { name: 'Ben', contact: { email: 'not-an-email' } },
      { name: 'Chi', contact: { meal: 'veg' } },
    ]);
    const checked = checkListRows(validateStaff, {}, 'staff', nested.properties.staff, read);
    expect(checked.valid.map((row) => row.row)).toEqual([2]);
    expect(checked.problems.map((p) => [p.row, p.column, p.key])).toEqual([
      [3, 'contact/email', 'validation.email'],
      [4, 'contact/email', 'validation.required'],
    ]);
  });
});

describe('reading a sheet', () => {
  const list = importableLists('t', schema, {})[0]!;

  it('recognises headers and choices in any language, skips empty rows, keeps sheet row numbers and reads a spreadsheet date as a date', () => {
    const read = readListSheet(
      [
        ['メールアドレス', ' 氏名 ', 'Meal', 'Seats', 'VIP', 'Remarks', 'arrival'],
        ['a@example.com', 'Aiko', 'ベジタリアン', '2', 'はい', 'ignored', '2027-03-01T00:00:00.000Z'],
        ['', '', '', '', '', '', ''],
        ['b@example.com', 'Ben', 'fish', '', 'no', '', '2027-03-02'],
        ['c@example.com', 'Chi', 'Beef', 'two', 'maybe', '', ''],
      ],
      list,
      texts,
    );
    expect(read.headers.map((header) => header.property)).toEqual(['email', 'name', 'meal', 'seats', 'vip', null, 'arrival']);
    expect(read.rows).toEqual([
      { row: 2, item: { email: 'a@example.com', name: 'Aiko', meal: 'veg', seats: 2, vip: true, arrival: '2027-03-01' } },
      { row: 4, item: { email: 'b@example.com', name: 'Ben', meal: 'fish', vip: false, arrival: '2027-03-02' } },
      { row: 5, item: { email: 'c@example.com', name: 'Chi' } },
    ]);
    expect(read.problems.map((p) => [p.row, p.column, p.key])).toEqual([
      [5, 'meal', 'listImport.notAChoice'],
      [5, 'seats', 'listImport.notNumber'],
      [5, 'vip', 'listImport.notYesNo'],
    ]);
  });

  it('folds width and case, and a trailing required mark', () => {
    expect(foldLabel('ＥＭＡＩＬ *')).toBe('email');
  });
});

describe('checking rows with the form validator', () => {
  const list = importableLists('t', schema, {})[0]!;
  const sheet = (...rows: string[][]) => readListSheet([['Name', 'E-mail', 'Seats'], ...rows], list, texts);

  it('refuses a bad row per column and keeps the others', () => {
    const read = sheet(['Ann', 'ann@example.com', '1'], ['B0b', 'not-an-email', '0'], ['Cy', 'cy@example.com', '']);
    const checked = checkListRows(validate(10), {}, 'guests', schema.properties.guests, read);
    expect(checked.valid.map((row) => row.row)).toEqual([2, 4]);
    expect(checked.problems.map((p) => [p.row, p.column, p.key])).toEqual([
      [3, 'name', 'validation.realName'],
      [3, 'email', 'validation.email'],
      [3, 'seats', 'validation.minimum'],
    ]);
  });

  it('refuses a row repeating a unique value of the list or of an earlier row', () => {
    const read = sheet(['Ann', 'ANN@example.com', ''], ['Dee', 'dee@example.com', ''], ['Dee Two', 'dee@example.com ', '']);
    const checked = checkListRows(validate(10), { guests: [{ name: 'Ann', email: 'ann@example.com' }] }, 'guests', schema.properties.guests, read);
    expect(checked.valid.map((row) => row.row)).toEqual([3]);
    expect(checked.problems.map((p) => [p.row, p.column, p.key])).toEqual([
      [2, 'email', 'validation.uniqueItemProperty'],
      [4, 'email', 'validation.uniqueItemProperty'],
    ]);
  });

  it('adds rows up to the quota with those the list already holds, and says why the rest are refused', () => {
    const read = sheet(['Ann', 'a@example.com', ''], ['Ben', 'b@example.com', ''], ['Cy', 'c@example.com', ''], ['Di', 'd@example.com', '']);
    const checked = checkListRows(validate(3), { guests: [{ name: 'Old', email: 'old@example.com' }] }, 'guests', schema.properties.guests, read);
    expect(checked.valid.map((row) => row.row)).toEqual([2, 3]);
    expect(checked.problems.map((p) => [p.row, p.column, p.key])).toEqual([
      [4, '', 'validation.quota'],
      [5, '', 'validation.quota'],
    ]);
  });

  it('does not add a row with a cell it could not read', () => {
    const read = sheet(['Ann', 'a@example.com', 'many']);
    const checked = checkListRows(validate(3), {}, 'guests', schema.properties.guests, read);
    expect(checked.valid).toEqual([]);
    expect(checked.problems.map((p) => p.key)).toEqual(['listImport.notNumber']);
  });
});
