// JSON Schema pieces for route definitions: they validate input and feed the OpenAPI document.

export function envelope(data: object = { type: 'null' }) {
  return {
    type: 'object',
    properties: {
      code: { type: 'integer', description: 'Body code (spec §8); 200 on success' },
      msg: { type: 'string' },
      data,
      error: { type: 'string', description: 'Error id when code is not 200' },
    },
    required: ['code', 'msg', 'data'],
  } as const;
}

export const okEnvelope = { 200: envelope() } as const;

export const passwordField = { type: 'string', minLength: 1, maxLength: 256 } as const;

/** The JSON Schema format of names (people, companies): no control characters or direction overrides. */
export const NAME_FORMAT = 'name-text';

/**
 * A person's or company's name: no control characters or text-direction overrides (format
 * registered by plugins/input.ts; refused with `nameInvalidCharacters`).
 */
export const nameText = (maxLength: number) => ({ type: 'string', maxLength, format: NAME_FORMAT }) as const;
