// Building blocks of the JSON Schemas the server validates with and the browser types from. Keep
// every literal `as const` and every helper generic over its schemas, or the types derived from
// them (json-schema-to-ts `FromSchema`) are lost.
import type { JSONSchema } from 'json-schema-to-ts';

/** An object whose keys are names chosen elsewhere (deadline names, quota names…) and whose values are `values`. */
export const stringMap = <const Values extends JSONSchema>(values: Values) => ({ type: 'object', additionalProperties: values }) as const;

/** `properties` naming each of `names` with the same schema (statuses, counters); typed per name for the derived types. */
export function sameProperties<const Name extends string, const Schema extends JSONSchema>(names: readonly Name[], schema: Schema) {
  return Object.fromEntries(names.map((name) => [name, schema])) as { [Key in Name]: Schema };
}

/** The JSON Schema format of names (people, companies): no control characters or direction overrides. */
export const NAME_FORMAT = 'name-text';

/**
 * A person's or company's name: no control characters or text-direction overrides (format
 * registered by the server's input plugin; refused with `nameInvalidCharacters`).
 */
export const nameText = <const MaxLength extends number>(maxLength: MaxLength) => ({ type: 'string', maxLength, format: NAME_FORMAT }) as const;
