import type { ErrorObject } from 'ajv';
import * as equalNamespace from 'ajv/dist/runtime/equal';
import * as ucs2lengthNamespace from 'ajv/dist/runtime/ucs2length';
import * as uriNamespace from 'ajv/dist/runtime/uri';
import * as formatsNamespace from 'ajv-formats/dist/formats';
import * as rules from './rules';

// Form validators are compiled by the server (ajv standalone code through rjsf, with the form
// keywords) and run as that same code by the server and the browser. The browser's CSP forbids
// eval, so it loads the code as a same-origin ES module; the server runs the same body.
//
// The code ajv emits is CommonJS: it fills `exports` (as `exports["hash"]` or `exports.hash`,
// depending on whether the hash happens to be an identifier) and `require`s ajv's runtime, the
// formats and the form rules. Instead of rewriting that text, the module wraps it in a function
// that is given `require` and returns `exports`: every way of writing an export works by
// construction, and both sides hand it the same modules (the rules module's context included).

/** A compiled ajv validate function; it keeps its last errors on itself. */
export type CompiledValidator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** The validators of one form, by rjsf's schema hash (the root's and its sub-schemas'). */
export type CompiledValidators = Record<string, CompiledValidator>;

/** How a compiled validator names the rules module (keywords.ts emits it). */
export const RULES_MODULE = 'portal:form-rules';

/** A namespace import of a CommonJS module differs between Node and bundlers: what require() would give. */
function cjs<T>(namespace: T): T {
  const inner = (namespace as { default?: unknown }).default;
  return inner && typeof inner === 'object' && '__esModule' in inner ? (inner as T) : namespace;
}

const MODULES: Record<string, unknown> = {
  'ajv/dist/runtime/equal': cjs(equalNamespace),
  'ajv/dist/runtime/ucs2length': cjs(ucs2lengthNamespace),
  'ajv/dist/runtime/uri': cjs(uriNamespace),
  'ajv-formats/dist/formats': cjs(formatsNamespace),
  [RULES_MODULE]: rules,
};

/** The `require` a compiled validator is given: only the modules above exist. */
export function validatorRequire(specifier: string): unknown {
  if (!(specifier in MODULES)) throw new Error(`A form validator needs "${specifier}", which the portal does not provide`);
  return MODULES[specifier];
}

/** The body run by both sides, from ajv's CommonJS output: takes `require`, returns `exports`. */
export function validatorBody(commonJs: string): string {
  return `const exports = {};\n${commonJs}\nreturn exports;`;
}

/** The ES module served to the browser: the same body, as its default export's function body. */
export function validatorModule(body: string): string {
  return `export default function formValidators(require) {\n${body}\n}\n`;
}

/** What a served validator module exports. */
export interface ValidatorModule {
  default: (require: (specifier: string) => unknown) => CompiledValidators;
}

/** The validators a loaded module defines. */
export function instantiateValidators(module: ValidatorModule): CompiledValidators {
  return module.default(validatorRequire);
}
