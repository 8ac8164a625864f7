import type { ErrorObject } from 'ajv';

// Every validation error, built-in or custom, as a locale key with parameters and the path of
// the field it belongs to. ajv-i18n has no Vietnamese and replaces custom messages, so the
// mapping is ours (keyword + params → validation.* key).

export interface FieldError {
  /** JSON pointer of the field, e.g. /badges/2/email. */
  path: string;
  key: string;
  params: Record<string, string | number>;
}

const FORMAT_KEYS: Record<string, string> = {
  email: 'validation.email',
  uri: 'validation.uri',
  date: 'validation.date',
  'date-time': 'validation.date',
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The locale key and params of one failed keyword. `parentSchema` is the schema node that holds it (its `properties`, `minItemsMessage`). */
export function messageFor(keyword: string, params: Record<string, unknown>, parentSchema?: unknown): { key: string; params: Record<string, string | number> } {
  const parent = isObject(parentSchema) ? parentSchema : {};
  const plain = (source: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(source).filter(([, v]) => typeof v === 'string' || typeof v === 'number')) as Record<string, string | number>;
  if (typeof params.key === 'string') {
    const { key, ...rest } = params;
    return { key, params: plain(rest) };
  }
  switch (keyword) {
    case 'required': {
      // A file field (the `file` keyword) left empty asks for a file.
      const missing = isObject(parent.properties) ? parent.properties[String(params.missingProperty)] : undefined;
      return { key: isObject(missing) && missing.file !== undefined ? 'validation.file.missing' : 'validation.required', params: {} };
    }
    case 'format':
      return { key: FORMAT_KEYS[String(params.format)] ?? 'validation.format', params: plain(params) };
    case 'minItems':
      return { key: typeof parent.minItemsMessage === 'string' && parent.minItemsMessage ? `validation.${parent.minItemsMessage}` : 'validation.minItems', params: plain(params) };
    case 'const':
    case 'enum':
      return { key: `validation.${keyword}`, params: {} };
    default:
      return { key: `validation.${keyword}`, params: plain(params) };
  }
}

export function toFieldError(error: ErrorObject): FieldError {
  const params = (error.params ?? {}) as Record<string, unknown>;
  const path = error.keyword === 'required' ? `${error.instancePath}/${String(params.missingProperty)}` : error.instancePath;
  return { path, ...messageFor(error.keyword, params, error.parentSchema) };
}

/**
 * A failed keyword that already says why others fail on the same value: an e-mail typed in
 * full-width characters is no valid e-mail either, and two messages would read as two problems.
 */
const SAYS_IT_ALL: Record<string, readonly string[]> = { noFullWidth: ['format'] };

/** The errors without those another error of the same value already explains (SAYS_IT_ALL). */
export function withoutRepeatedProblems<E>(errors: E[], keywordOf: (error: E) => string, placeOf: (error: E) => string): E[] {
  const explained = new Set(errors.flatMap((error) => (SAYS_IT_ALL[keywordOf(error)] ?? []).map((keyword) => `${placeOf(error)}\u0000${keyword}`)));
  return explained.size === 0 ? errors : errors.filter((error) => !explained.has(`${placeOf(error)}\u0000${keywordOf(error)}`));
}

/** Errors worth showing: `if`/`then` wrappers repeat what their inner keyword already says. */
export function toFieldErrors(errors: ErrorObject[] | null | undefined): FieldError[] {
  const shown = (errors ?? []).filter((error) => error.keyword !== 'if');
  return withoutRepeatedProblems(
    shown,
    (error) => error.keyword,
    (error) => error.instancePath,
  ).map(toFieldError);
}
