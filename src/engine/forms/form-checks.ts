import type { UploadRules } from './files';
import { lookup, type LocaleTable } from '../i18n';
import { LANGUAGES } from '../language';
import { pointerOf, type FormProblem } from './form-list';
import { messageFor } from './messages';
import { objectProperties } from './object-properties';
import { unknownPurposeMessage } from './keywords';
import { createFormAjv } from './validator';

// F11: the checks of one form (a base form, or a base form with an event patch
// applied) that `npm run check` and the server's live form set both run, each problem with its
// file and a JSON pointer: only registered keywords (a misspelt one would be ignored), the schema
// compiles, every required field exists (inside if/then/else, allOf, items too), `ui:order` names
// existing fields, every title/description/help key, enum label and error message exists in
// every language (fields defined only inside `then` included), file purposes exist.

type Node = Record<string, unknown>;
const isObject = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);
const join = (path: string, ...parts: Array<string | number>) => path + pointerOf(...parts);

/** Annotations and structure of JSON Schema draft-07 that ajv accepts but does not list as rules. */
const ANNOTATIONS = new Set([
  '$schema',
  '$id',
  '$comment',
  'definitions',
  '$defs',
  'title',
  'description',
  'default',
  'examples',
  'readOnly',
  'writeOnly',
  'deprecated',
  'contentMediaType',
  'contentEncoding',
]);
const SCHEMA_MAPS = ['properties', 'patternProperties', 'definitions', '$defs'];
const SCHEMA_ONE = ['additionalItems', 'additionalProperties', 'contains', 'propertyNames', 'if', 'then', 'else', 'not'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf'];
/** Applicators whose subschemas speak of the same object as their parent (not of a property or an item). */
const SAME_OBJECT = ['if', 'then', 'else', 'not', 'allOf', 'anyOf', 'oneOf'];
/** Keywords whose failure the user reads as a message (custom keywords carry their own key). */
const MESSAGE_KEYWORDS = [
  'type',
  'enum',
  'const',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'format',
  'maxItems',
  'minItems',
  'uniqueItems',
  'contains',
  'maxProperties',
  'minProperties',
  'required',
  'propertyNames',
  'oneOf',
  'anyOf',
  'not',
];

/** Where a form's files are: problems in the schema and the UI schema name these, with a prefix for event patches (`/schema`, `/ui`). */
export interface FormFileNames {
  schemaFile: string;
  schemaPrefix?: string;
  uiFile: string;
  uiPrefix?: string;
}

interface Visit {
  node: Node;
  path: string;
  /** The property this schema describes (an item schema keeps its list's name): enum labels are keyed by it. */
  property: string | null;
  /** Reached through if/then/else/not/allOf/anyOf/oneOf: it speaks of its parent's object. */
  sameObject: boolean;
}

/** Every subschema with its JSON pointer. */
function subschemas(schema: unknown): Visit[] {
  const found: Visit[] = [];
  const visit = (node: unknown, path: string, property: string | null, sameObject = false) => {
    if (!isObject(node)) return;
    found.push({ node, path, property, sameObject });
    for (const key of SCHEMA_MAPS)
      if (isObject(node[key])) for (const [name, child] of Object.entries(node[key])) visit(child, join(path, key, name), key === 'properties' ? name : null);
    for (const key of SCHEMA_ONE) visit(node[key], join(path, key), SAME_OBJECT.includes(key) ? null : property, SAME_OBJECT.includes(key));
    for (const key of SCHEMA_LISTS) if (Array.isArray(node[key])) (node[key] as unknown[]).forEach((child, index) => visit(child, join(path, key, index), null, true));
    if (Array.isArray(node.items)) node.items.forEach((child, index) => visit(child, join(path, 'items', index), property));
    else visit(node.items, join(path, 'items'), property);
    if (isObject(node.dependencies)) for (const [name, child] of Object.entries(node.dependencies)) visit(child, join(path, 'dependencies', name), null, true);
  };
  visit(schema, '', null);
  return found;
}

const definedProperties = (node: Node) => new Set(objectProperties(node).keys());

/** Object schemas and the same-object applicators inside them: `required` in any of them names a property of the object. */
function requiredProblems(schema: unknown, at: (path: string) => string): Array<{ path: string; message: string }> {
  const problems: Array<{ path: string; message: string }> = [];
  const visitObject = (node: Node, path: string, inScope: Set<string>) => {
    const scope = new Set([...inScope, ...definedProperties(node)]);
    if (Array.isArray(node.required)) {
      node.required.forEach((name, index) => {
        if (!scope.has(String(name)))
          problems.push({
            path: at(join(path, 'required', index)),
            message: `"${String(name)}" is required but is not a property of the form: it could never be filled, so the form could never be submitted`,
          });
      });
    }
    for (const key of SAME_OBJECT) {
      if (isObject(node[key])) visitObject(node[key], join(path, key), scope);
      else if (Array.isArray(node[key])) (node[key] as unknown[]).forEach((child, index) => isObject(child) && visitObject(child, join(path, key, index), scope));
    }
  };
  // Same-object applicators are visited from their object, with its properties in scope.
  for (const { node, path, sameObject } of subschemas(schema)) if (!sameObject) visitObject(node, path, new Set());
  return problems;
}

/** `ui:order` at each level names fields of that level (or `*`), and lists them all when it has no `*` (rjsf fails to render otherwise). */
function orderProblems(schema: unknown, ui: unknown): Array<{ path: string; message: string }> {
  const problems: Array<{ path: string; message: string }> = [];
  const visit = (schemaNode: unknown, uiNode: unknown, path: string) => {
    if (!isObject(schemaNode) || !isObject(uiNode)) return;
    const names = definedProperties(schemaNode);
    const order = uiNode['ui:order'];
    if (Array.isArray(order)) {
      order.forEach((name, index) => {
        if (name !== '*' && !names.has(String(name))) problems.push({ path: join(path, 'ui:order', index), message: `"${String(name)}" is not a field of the form here` });
      });
      // rjsf merges a `then` field into the object when it applies: it must be listed too.
      const missing = [...names].filter((name) => !order.includes(name));
      if (!order.includes('*') && missing.length > 0)
        problems.push({ path: join(path, 'ui:order'), message: `lists neither "*" nor ${missing.map((name) => `"${name}"`).join(', ')}: the form could not be shown` });
    }
    for (const [name, child] of objectProperties(schemaNode)) visit(child, uiNode[name], join(path, name));
    if (isObject(schemaNode.items)) visit(schemaNode.items, uiNode.items, join(path, 'items'));
  };
  visit(schema, ui, '');
  return problems;
}

const UI_TEXTS = ['ui:help', 'ui:title', 'ui:description', 'ui:placeholder', 'ui:addLabel', 'ui:removeLabel'];

/** The problems of one form, each with its file and a JSON pointer into it. */
export function checkForm(files: FormFileNames, formId: string, schema: unknown, ui: unknown, locales: Record<string, LocaleTable>, uploads: UploadRules = {}): FormProblem[] {
  const problems: FormProblem[] = [];
  const inSchema = (path: string, message: string) => problems.push({ file: files.schemaFile, path: `${files.schemaPrefix ?? ''}${path}`, message });
  const inUi = (path: string, message: string) => problems.push({ file: files.uiFile, path: `${files.uiPrefix ?? ''}${path}`, message });
  const ajv = createFormAjv({ uploads });
  const rules = (ajv as unknown as { RULES: { all: Record<string, unknown> } }).RULES.all;
  const visits = subschemas(schema);

  // Registered keywords only, named where they are; then the values of the known ones.
  let unknown = 0;
  for (const { node, path } of visits) {
    for (const key of Object.keys(node)) {
      if (!(key in rules) && !ANNOTATIONS.has(key)) {
        unknown += 1;
        inSchema(join(path, key), `unknown keyword "${key}": a misspelt or unregistered keyword would be ignored (see schemas/README.md for the custom ones)`);
      }
    }
  }
  // A file field names a purpose forms.yaml `uploads:` declares (the compile would stop at the first).
  let unknownPurposes = 0;
  for (const { node, path } of visits) {
    if (typeof node.file === 'string' && !Object.hasOwn(uploads, node.file)) {
      unknownPurposes += 1;
      inSchema(join(path, 'file'), unknownPurposeMessage(node.file, uploads));
    }
  }
  if (unknown === 0 && unknownPurposes === 0) {
    if (!ajv.validateSchema(schema as Node)) {
      const seen = new Set<string>();
      for (const error of ajv.errors ?? []) if (!seen.has(error.instancePath)) seen.add(error.instancePath), inSchema(error.instancePath, error.message ?? error.keyword);
    } else {
      try {
        ajv.compile(schema as Node);
      } catch (error) {
        inSchema('', (error as Error).message);
      }
    }
  }

  for (const problem of requiredProblems(schema, (path) => path)) inSchema(problem.path, problem.message);
  // A field behind a flag may be absent, so it must not be required (rjsf would demand a hidden field).
  for (const { node, path } of visits) {
    if (!isObject(node.properties) || !Array.isArray(node.required)) continue;
    node.required.forEach((name, index) => {
      const property = (node.properties as Node)[String(name)];
      if (isObject(property) && (property.showIf || property.secondLanguage))
        inSchema(join(path, 'required', index), `"${String(name)}" is shown only behind a flag, so it must not be in required`);
    });
  }
  for (const problem of orderProblems(schema, ui)) inUi(problem.path, problem.message);

  // Strings: every key in every language, reported once per key and place.
  const missingIn = (key: string) => LANGUAGES.filter((language) => lookup(locales[language]!, key) === undefined);
  const requireKey = (report: (path: string, message: string) => void, path: string, key: string, what: string) => {
    const missing = missingIn(key);
    if (missing.length > 0) report(path, `${what} "${key}" missing in ${missing.map((language) => `locales/${language}.json`).join(', ')}`);
  };
  const messageKeys = new Set<string>();
  for (const { node, path, property } of visits) {
    for (const key of ['title', 'description'] as const) if (typeof node[key] === 'string') requireKey(inSchema, join(path, key), node[key], `${key} key`);
    if (Array.isArray(node.enum) && property) {
      node.enum.forEach((code, index) => typeof code === 'string' && requireKey(inSchema, join(path, 'enum', index), `forms.${formId}.enum.${property}.${code}`, 'enum label'));
    }
    // The message each rule shows when it fails (the same mapping the browser and the server use).
    for (const keyword of MESSAGE_KEYWORDS) {
      if (node[keyword] === undefined || (keyword === 'required' && (!Array.isArray(node.required) || node.required.length === 0))) continue;
      const { key } = messageFor(keyword, keyword === 'format' ? { format: node.format } : {}, node);
      // Once per key: the first rule that would show it.
      if (messageKeys.has(key)) continue;
      messageKeys.add(key);
      requireKey(inSchema, join(path, keyword === 'minItems' && node.minItemsMessage ? 'minItemsMessage' : keyword), key, 'message');
    }
  }
  const visitUi = (node: unknown, path: string) => {
    if (Array.isArray(node)) return node.forEach((child, index) => visitUi(child, join(path, index)));
    if (!isObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (UI_TEXTS.includes(key) && typeof value === 'string') requireKey(inUi, join(path, key), value, 'text key');
      else visitUi(value, join(path, key));
    }
  };
  visitUi(ui, '');
  return problems;
}
