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

export function toFieldError(error: ErrorObject): FieldError {
  const params = (error.params ?? {}) as Record<string, unknown>;
  const plain = (source: Record<string, unknown> = params) =>
    Object.fromEntries(Object.entries(source).filter(([, v]) => typeof v === 'string' || typeof v === 'number')) as Record<string, string | number>;
  if (typeof params.key === 'string') {
    const { key, ...rest } = params;
    return { path: error.instancePath, key, params: plain(rest) };
  }
  switch (error.keyword) {
    case 'required':
      return { path: `${error.instancePath}/${String(params.missingProperty)}`, key: 'validation.required', params: {} };
    case 'format':
      return { path: error.instancePath, key: FORMAT_KEYS[String(params.format)] ?? 'validation.format', params: plain() };
    case 'minItems': {
      const custom = (error.parentSchema as { minItemsMessage?: string } | undefined)?.minItemsMessage;
      return { path: error.instancePath, key: custom ? `validation.${custom}` : 'validation.minItems', params: plain() };
    }
    case 'const':
      return { path: error.instancePath, key: 'validation.const', params: {} };
    case 'enum':
      return { path: error.instancePath, key: 'validation.enum', params: {} };
    default:
      return { path: error.instancePath, key: `validation.${error.keyword}`, params: plain() };
  }
}

/** Errors worth showing: `if`/`then` wrappers repeat what their inner keyword already says. */
export function toFieldErrors(errors: ErrorObject[] | null | undefined): FieldError[] {
  return (errors ?? []).filter((error) => error.keyword !== 'if').map(toFieldError);
}
