import type Ajv from 'ajv';
import { _, stringify, type KeywordCxt, type KeywordDefinition } from 'ajv';
import type { ResolvedPurpose, UploadRules } from './files';
import { RULES, type RuleName } from './rules';
import { RULES_MODULE } from './served-validators';

// The spec's rules as JSON Schema keywords, defined once and added to every ajv that validates
// a form: the server's, the check script's, and the compiled validators the server serves to the
// browser (its CSP forbids compiling code at run time). Each keyword calls its rule in rules.ts;
// in a compiled validator that call is a require of that same module (served-validators.ts).

const SCHEMA_TYPES: Record<RuleName, { type?: 'string' | 'array' | 'object'; schemaType: 'string' | 'boolean' | 'object'; metaSchema?: object }> = {
  noFullWidth: { type: 'string', schemaType: 'boolean' },
  uniqueItemProperty: { type: 'array', schemaType: 'string' },
  videoHost: { type: 'string', schemaType: 'boolean' },
  country: { type: 'string', schemaType: 'boolean' },
  realName: { type: 'string', schemaType: 'string', metaSchema: { enum: ['any', 'chinese'] } },
  quota: { type: 'array', schemaType: 'string' },
  file: { type: 'object', schemaType: 'string' },
  showIf: { schemaType: 'string' },
  secondLanguage: { schemaType: 'string' },
  customTags: { type: 'array', schemaType: 'boolean' },
  requiredWhenShown: { type: 'object', schemaType: 'object', metaSchema: { type: 'object', additionalProperties: { type: 'string' } } },
};

/** Thrown while compiling a schema whose `file` keyword names a purpose forms.yaml does not declare. */
export const unknownPurposeMessage = (purpose: string, uploads: UploadRules) =>
  `unknown file purpose "${purpose}" (forms.yaml uploads: ${Object.keys(uploads).join(', ') || 'none'})`;

function ruleKeyword(name: RuleName, uploads: UploadRules): KeywordDefinition {
  return {
    keyword: name,
    ...SCHEMA_TYPES[name],
    code(cxt: KeywordCxt) {
      const { gen, data, schemaCode } = cxt;
      const rule = gen.scopeValue('keyword', { ref: RULES[name], code: _`require(${RULES_MODULE}).RULES[${name}]` });
      // A file field's purpose is data (forms.yaml `uploads:`): its rule is written into the
      // compiled code as a literal, so the validator carries its purposes and the schema is unchanged.
      const argument = name === 'file' ? stringify(resolvedPurpose(cxt.schema as string, uploads)) : schemaCode;
      const problem = gen.const('problem', _`${rule}(${argument}, ${data})`);
      cxt.setParams({ problem });
      cxt.fail(_`${problem} !== null`);
    },
    error: {
      message: ({ params }) => _`${params.problem}.key`,
      params: ({ params }) => _`Object.assign({ key: ${params.problem}.key }, ${params.problem}.params)`,
    },
  };
}

/** Keywords that only annotate: which message minItems shows. */
const ANNOTATIONS: KeywordDefinition[] = [{ keyword: 'minItemsMessage', schemaType: 'string' }];

function resolvedPurpose(purpose: string, uploads: UploadRules): ResolvedPurpose {
  const rule = Object.hasOwn(uploads, purpose) ? uploads[purpose] : undefined;
  if (!rule) throw new Error(unknownPurposeMessage(purpose, uploads));
  return { purpose, ...rule };
}

/** Adds the form keywords; `uploads` are the purposes a `file` field may name (forms.yaml `uploads:`). */
export function addFormKeywords(ajv: Ajv, uploads: UploadRules = {}): Ajv {
  for (const name of Object.keys(RULES) as RuleName[]) ajv.addKeyword(ruleKeyword(name, uploads));
  for (const annotation of ANNOTATIONS) ajv.addKeyword(annotation);
  return ajv;
}
