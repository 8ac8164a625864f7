import { describe, expect, it } from 'vitest';
import type { FormContext } from './context';
import { isRealName, isVideoHostUrl } from './rules';
import { uploadRules } from './files';
import { createFormAjv, validateForm, validateForm as validateWith } from './validator';

const context: FormContext = { flags: { s01CompanyShow: true, profileSecondLanguage: false }, quotas: { badges: 2 } };

const badges = {
  type: 'object',
  additionalProperties: false,
  properties: {
    badges: {
      type: 'array',
      uniqueItemProperty: 'email',
      quota: 'badges',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['firstName', 'email'],
        properties: {
          firstName: { type: 'string', realName: 'any' },
          chineseName: { type: 'string', realName: 'chinese' },
          email: { type: 'string', format: 'email', noFullWidth: true },
          extra: { type: 'boolean' },
        },
      },
    },
  },
};

const errorsOf = (data: unknown, ctx = context) => validateForm(badges, data, ctx);

describe('V1 e-mail rules', () => {
  it('V1 accepts distinct, valid e-mails', () => {
    expect(
      errorsOf({
        badges: [
          { firstName: 'Aisyah', email: 'a@x.example' },
          { firstName: 'Budi', email: 'b@x.example' },
        ],
      }),
    ).toEqual([]);
  });
  it('V1 rejects full-width characters in an e-mail with its own message', () => {
    const errors = errorsOf({ badges: [{ firstName: 'Aisyah', email: 'ａ@x.example' }] });
    expect(errors).toContainEqual({ path: '/badges/0/email', key: 'validation.noFullWidth', params: {} });
  });
  it('V1 a full-width e-mail gets one message: its characters, not "valid e-mail" as well', () => {
    const errors = errorsOf({ badges: [{ firstName: 'Aisyah', email: 'ａｉｓｙａｈ@borneo-botanica.example' }] });
    expect(errors.filter((error) => error.path === '/badges/0/email')).toEqual([{ path: '/badges/0/email', key: 'validation.noFullWidth', params: {} }]);
  });
  it('V1 rejects an invalid e-mail with "Please enter a valid email address"', () => {
    expect(errorsOf({ badges: [{ firstName: 'Aisyah', email: 'not-an-email' }] })).toContainEqual({
      path: '/badges/0/email',
      key: 'validation.email',
      params: { format: 'email' },
    });
  });
  it('V1 rejects the same e-mail twice in a badge list, whatever the case, naming it', () => {
    const errors = errorsOf({
      badges: [
        { firstName: 'Aisyah', email: 'Same@x.example' },
        { firstName: 'Budi', email: 'same@X.example ' },
      ],
    });
    expect(errors).toContainEqual({ path: '/badges', key: 'validation.uniqueItemProperty', params: { property: 'email', value: 'same@X.example ' } });
  });
  it('V6 a missing required field is reported on that field', () => {
    expect(errorsOf({ badges: [{ email: 'a@x.example' }] })).toEqual([{ path: '/badges/0/firstName', key: 'validation.required', params: {} }]);
  });
});

describe('V7 quota', () => {
  const person = (n: number, extra = false) => ({ firstName: 'Person', email: `p${n}@x.example`, extra });
  it('V7 allows the quota and refuses one more with the quota message', () => {
    expect(errorsOf({ badges: [person(1), person(2)] })).toEqual([]);
    expect(errorsOf({ badges: [person(1), person(2), person(3)] })).toEqual([{ path: '/badges', key: 'validation.quota', params: { limit: 2, kind: 'badges' } }]);
  });
  it('F5 extra badges beyond the quota do not count against it', () => {
    expect(errorsOf({ badges: [person(1), person(2), person(3, true)] })).toEqual([]);
  });
  it('V7 the limit comes from the context (another exhibitor, another quota)', () => {
    expect(errorsOf({ badges: [person(1), person(2), person(3)] }, { flags: {}, quotas: { badges: 3 } })).toEqual([]);
  });
});

describe('V8 real names', () => {
  it.each(['Aisyah Rahman', "O'Brien", 'Jean-Luc', 'Nguyễn Văn An', '山田 太郎', 'José María'])('V8 accepts %s', (name) => {
    expect(isRealName(name, 'any')).toBe(true);
  });
  it.each(['Aisyah2', 'asdf!!', '@@@', 'aaaaaa', '123'])('V8 refuses %s', (name) => {
    expect(isRealName(name, 'any')).toBe(false);
  });
  it('V8 the Chinese-name field takes Han characters only', () => {
    expect(isRealName('王小明', 'chinese')).toBe(true);
    expect(isRealName('Wang Xiaoming', 'chinese')).toBe(false);
    expect(errorsOf({ badges: [{ firstName: 'Wang', chineseName: 'Wang', email: 'w@x.example' }] })).toContainEqual({
      path: '/badges/0/chineseName',
      key: 'validation.chineseName',
      params: {},
    });
  });
});

describe('V4 video links', () => {
  it.each(['https://www.youtube.com/watch?v=abc', 'https://youtu.be/abc', 'https://vimeo.com/123', 'https://player.vimeo.com/video/1'])('V4 accepts %s', (url) => {
    expect(isVideoHostUrl(url)).toBe(true);
  });
  it.each(['https://example.com/video', 'https://youtube.com.evil.example/x', 'ftp://vimeo.com/1', 'not a url'])('V4 refuses %s', (url) => {
    expect(isVideoHostUrl(url)).toBe(false);
  });
});

describe('F2 sections and second-language fields follow the exhibitor flags', () => {
  const profile = {
    type: 'object',
    additionalProperties: false,
    properties: {
      company: {
        type: 'object',
        showIf: 's01CompanyShow',
        additionalProperties: false,
        required: ['name'],
        properties: { name: { type: 'string' }, nameLocal: { type: 'string', secondLanguage: 'profileSecondLanguage' } },
      },
    },
  };
  it('F2 a field whose flag is on is accepted', () => {
    const on = { flags: { s01CompanyShow: true, profileSecondLanguage: true }, quotas: {} };
    expect(validateForm(profile, { company: { name: 'Borneo Botanica', nameLocal: '婆罗洲植物' } }, on)).toEqual([]);
  });
  it('F2 the server refuses data for a field whose flag is off, and does not demand it', () => {
    expect(validateForm(profile, { company: { name: 'Borneo Botanica' } }, context)).toEqual([]);
    expect(validateForm(profile, { company: { name: 'B', nameLocal: 'x' } }, context)).toEqual([{ path: '/company/nameLocal', key: 'validation.hidden', params: {} }]);
  });
  it('F2 a hidden section is neither required nor accepted', () => {
    const off = { flags: {}, quotas: {} };
    expect(validateForm(profile, {}, off)).toEqual([]);
    expect(validateForm(profile, { company: { name: 'B' } }, off)[0]?.key).toBe('validation.hidden');
  });
  it('F2 a section shown by its flag must be there (requiredWhenShown); hidden, it may be left out', () => {
    const required = { ...profile, requiredWhenShown: { company: 's01CompanyShow' } };
    expect(validateForm(required, {}, context)).toEqual([{ path: '', key: 'validation.sectionRequired', params: { section: 'company' } }]);
    expect(validateForm(required, { company: { name: 'Borneo Botanica' } }, context)).toEqual([]);
    expect(validateForm(required, {}, { flags: {}, quotas: {} })).toEqual([]);
  });
});

describe('registered keywords only', () => {
  it('a misspelt keyword is an error, never silently ignored', () => {
    expect(() => createFormAjv().compile({ type: 'string', noFullwidth: true })).toThrow(/unknown keyword/);
  });
});

describe('V3 a form holds a reference to an uploaded file, checked by the file keyword', () => {
  const logo = { type: 'object', properties: { logo: { type: 'object', file: 'logo' } } };
  // The purpose as forms.yaml would declare it (`uploads:`): the keyword takes its rule from there.
  const uploads = uploadRules({ logo: { types: ['jpeg'], maxMegabytes: 2, minDpi: 300 } });
  const validateForm = (schema: object, data: unknown, ctx: FormContext) => validateWith(schema, data, ctx, uploads);
  const ref = (dpi: number | null, type = 'jpeg', size = 1000) => ({ id: 'abc', name: 'logo.jpg', size, type, dpi });
  it('V3 a purpose forms.yaml does not declare stops the compile (the form set is refused, never a submit)', () => {
    expect(() => validateWith(logo, {}, context, {})).toThrow(/unknown file purpose "logo"/);
  });
  it('V3 a recorded upload of another purpose is refused on the server', () => {
    const recorded = new Map([['abc', { purpose: 'brochure', size: 1000, type: 'jpeg', dpi: 300 }]]);
    expect(validateForm(logo, { logo: ref(300) }, { ...context, uploads: recorded })).toEqual([{ path: '/logo', key: 'validation.file.unknown', params: {} }]);
    expect(validateForm(logo, { logo: ref(300) }, { ...context, uploads: new Map([['abc', { ...recorded.get('abc')!, purpose: 'logo' }]]) })).toEqual([]);
  });
  it('V3 a 300 dpi JPEG logo passes', () => {
    expect(validateForm(logo, { logo: ref(300) }, context)).toEqual([]);
  });
  it('V3 a 72 dpi logo is refused with the dpi message and both numbers', () => {
    expect(validateForm(logo, { logo: ref(72) }, context)).toEqual([{ path: '/logo', key: 'validation.file.dpi', params: { limit: 300, dpi: 72 } }]);
  });
  it('V3 a PNG logo is refused by type', () => {
    expect(validateForm(logo, { logo: ref(300, 'png') }, context)[0]?.key).toBe('validation.file.type');
  });
});
