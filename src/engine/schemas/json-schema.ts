// Building blocks of the JSON Schemas the server validates with and the browser types from. Keep
// every literal `as const` and every helper generic over its schemas, or the types derived from
// them (json-schema-to-ts `FromSchema`) are lost.
import type { JSONSchema } from 'json-schema-to-ts';

/** An object whose keys are names chosen elsewhere (deadline names, quota names…) and whose values are `values`. */
export const stringMap = <const Values extends JSONSchema>(values: Values) => ({ type: 'object', additionalProperties: values }) as const;
