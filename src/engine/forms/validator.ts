import Ajv, { type AnySchemaObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FormContext } from './context';
import type { UploadRules } from './files';
import { addFormKeywords } from './keywords';
import { toFieldErrors, type FieldError } from './messages';
import { setFormContext } from './rules';

// Validation of a form's data for one exhibitor: the schema's rules plus the form keywords,
// with the exhibitor's flags and quotas as context. The options match the browser's (rjsf's
// ajv) so both report the same errors.

export const FORM_AJV_OPTIONS = { allErrors: true, verbose: true, multipleOfPrecision: 8, discriminator: false } as const;

/** A strict ajv: an unknown or misspelt keyword is an error, never silently ignored. */
export function createFormAjv(options: { strict?: boolean; uploads?: UploadRules } = {}): Ajv {
  const ajv = new Ajv({ ...FORM_AJV_OPTIONS, strict: options.strict ?? true, strictRequired: false, allowUnionTypes: true });
  addFormats(ajv);
  return addFormKeywords(ajv, options.uploads);
}

/** Runs a validate function (compiled here or precompiled) for one exhibitor's context. */
export function runValidator(validate: (data: unknown) => boolean, errors: () => Parameters<typeof toFieldErrors>[0], data: unknown, context: FormContext): FieldError[] {
  setFormContext(context);
  return validate(data) ? [] : toFieldErrors(errors());
}

/**
 * Validates with a validator compiled now (tests and one-off checks; the portal runs the served
 * validators the form set compiled once). The engine keeps no cache: a caller that validates often
 * keeps the compiled function itself.
 */
export function validateForm(schema: AnySchemaObject, data: unknown, context: FormContext, uploads?: UploadRules): FieldError[] {
  const validate: ValidateFunction = createFormAjv({ uploads }).compile(schema);
  return runValidator(validate, () => validate.errors, data, context);
}
