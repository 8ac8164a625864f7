import type Ajv from 'ajv';
import { _, type KeywordCxt, type KeywordDefinition } from 'ajv';
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

function ruleKeyword(name: RuleName): KeywordDefinition {
  return {
    keyword: name,
    ...SCHEMA_TYPES[name],
    code(cxt: KeywordCxt) {
      const { gen, data, schemaCode } = cxt;
      const rule = gen.scopeValue('keyword', { ref: RULES[name], code: _`require(${RULES_MODULE}).RULES[${name}]` });
      const problem = gen.const('problem', _`${rule}(${schemaCode}, ${data})`);
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

export function addFormKeywords(ajv: Ajv): Ajv {
  for (const name of Object.keys(RULES) as RuleName[]) ajv.addKeyword(ruleKeyword(name));
  for (const annotation of ANNOTATIONS) ajv.addKeyword(annotation);
  return ajv;
}
