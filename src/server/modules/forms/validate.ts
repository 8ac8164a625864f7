import { hashForSchema } from '@rjsf/utils';
import type { FormContext } from '../../../engine/forms/context';
import type { FieldError } from '../../../engine/forms/messages';
import { runValidator } from '../../../engine/forms/validator';
import { formValidators } from '../../../generated/form-validators';

// The server validates a submission with the precompiled validator the browser runs too
// (src/generated/validators), for the event's patched form when it has one.

export async function validateSubmission(exhibitCode: string, formId: string, schema: Record<string, unknown>, data: unknown, context: FormContext): Promise<FieldError[]> {
  const load = formValidators[`${exhibitCode}/${formId}`] ?? formValidators[formId];
  if (!load) throw new Error(`No precompiled validator for form ${formId}: run \`npm run generate\``);
  const validate = (await load()).default[hashForSchema(schema)];
  if (!validate) throw new Error(`The precompiled validator of ${formId} is stale: run \`npm run generate\``);
  return runValidator(validate, () => validate.errors, data, context);
}
