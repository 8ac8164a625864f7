import Ajv, { type AnySchemaObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FormContext } from './context';
import { addFormKeywords } from './keywords';
import { toFieldErrors, type FieldError } from './messages';
import { contextSignature, prepareSchema } from './prepare';

// The server's validator and the reference for the browser's: strict ajv (an unknown keyword is
// an error, never ignored), formats, the form keywords, and the schema prepared for the context.

export function createFormAjv(context: FormContext): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true, verbose: true });
  addFormats(ajv);
  return addFormKeywords(ajv, context);
}

const cache = new Map<string, ValidateFunction>();

export function compileForm(formId: string, schema: AnySchemaObject, context: FormContext): ValidateFunction {
  const key = `${formId}|${contextSignature(context)}`;
  let validate = cache.get(key);
  if (!validate) {
    validate = createFormAjv(context).compile(prepareSchema(schema, context));
    cache.set(key, validate);
  }
  return validate;
}

export function validateForm(formId: string, schema: AnySchemaObject, data: unknown, context: FormContext): FieldError[] {
  const validate = compileForm(formId, schema, context);
  return validate(data) ? [] : toFieldErrors(validate.errors);
}
