import { hashForSchema } from '@rjsf/utils';
import { describe, expect, it } from 'vitest';
import { runValidator, validateForm } from '../src/engine/forms/validator';
import { formValidators } from '../src/generated/form-validators';
import { formSchemas } from './form-validators';

// The precompiled validators (what the browser and the server run) must say exactly what a
// validator compiled at run time from the same schema says.

const context = { flags: { s01CompanyShow: true, s01ContactShow: true }, quotas: { badges: 2, contractorBadges: 2 } };

const samples: Record<string, unknown[]> = {
  s04: [
    { badges: [] },
    { badges: [{ firstName: 'Aisyah', lastName: 'Rahman', email: 'a@x.example' }] },
    { badges: [{ firstName: 'A1', lastName: 'R', email: 'ａ@x.example' }, { firstName: 'B', lastName: 'C', email: 'ａ@x.example' }, { firstName: 'D', lastName: 'E', email: 'd@x.example' }] },
  ],
  s01: [{}, { company: { companyName: 'Borneo Botanica', website: 'not a url' } }, { goals: { categories: ['company'] } }],
};

describe('precompiled form validators', () => {
  it.each(formSchemas().map((f) => [f.key, f.schema] as const))('%s: the generated validator agrees with a run-time compiled one', async (key, schema) => {
    const module = await formValidators[key]!();
    const validate = module.default[hashForSchema(schema)];
    expect(validate, `no root validator for ${key}: run npm run generate`).toBeTypeOf('function');
    for (const data of samples[key] ?? [{}, { unexpected: true }]) {
      expect(runValidator(validate!, () => validate!.errors, data, context)).toEqual(validateForm(`check-${key}`, schema, data, context));
    }
  });
  it('V1 V7 the precompiled S04 validator reports the spec messages', async () => {
    const schema = formSchemas().find((f) => f.key === 's04')!.schema;
    const validate = (await formValidators.s04!()).default[hashForSchema(schema)]!;
    const keys = runValidator(validate, () => validate.errors, samples.s04![2], context).map((e) => e.key);
    expect(keys).toEqual(expect.arrayContaining(['validation.noFullWidth', 'validation.uniqueItemProperty', 'validation.quota', 'validation.realName']));
  });
});
