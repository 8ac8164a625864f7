import type { ErrorSchema, RJSFSchema, RJSFValidationError } from '@rjsf/utils';
import type { FieldError } from '../../../engine/forms/messages';
import { messageFor } from '../../../engine/forms/messages';
import { BOOTH_HEIGHT_LIMIT_M, EXTRA_BADGE_FEE } from '../../../engine/constants';

// Schemas hold locale keys, not text (L1). What rjsf renders is a display copy: titles and
// descriptions translated, and the UI schema carries translated enum labels. Validation rules
// stay exactly those of the schema.

type Translate = (key: string, params?: Record<string, unknown>) => string;
type Node = Record<string, unknown>;

const isObject = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Titles and descriptions translated; validation keywords untouched. */
export function displaySchema(schema: Node, t: Translate): RJSFSchema {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!isObject(node)) return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => [key, (key === 'title' || key === 'description') && typeof value === 'string' ? t(value) : visit(value)]),
    );
  };
  return visit(schema) as RJSFSchema;
}

/** Values help texts may mention (the extra badge fee, the booth height limit). */
const HELP_PARAMS = { currency: EXTRA_BADGE_FEE.currency, price: EXTRA_BADGE_FEE.price, limit: BOOTH_HEIGHT_LIMIT_M };

/**
 * The UI schema with its texts translated and enum labels added as ui:enumNames: enum codes
 * are labelled by forms.<formId>.enum.<property>.<code>.
 */
export function displayUi(ui: Node, schema: Node, formId: string, t: Translate): Node {
  const translateTexts = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(translateTexts);
    if (!isObject(node)) return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => [
        key,
        ['ui:help', 'ui:title', 'ui:description', 'ui:placeholder'].includes(key) && typeof value === 'string' ? t(value, HELP_PARAMS) : translateTexts(value),
      ]),
    );
  };
  const withEnums = (uiNode: Node, schemaNode: unknown, property: string | null): Node => {
    if (!isObject(schemaNode)) return uiNode;
    const result: Node = { ...uiNode };
    const codes = Array.isArray(schemaNode.enum) ? schemaNode.enum : isObject(schemaNode.items) && Array.isArray(schemaNode.items.enum) ? schemaNode.items.enum : null;
    if (codes && property && codes.every((c) => typeof c === 'string')) {
      result['ui:enumNames'] = (codes as string[]).map((code) => t(`forms.${formId}.enum.${property}.${code}`));
    }
    if (isObject(schemaNode.properties)) {
      for (const [name, child] of Object.entries(schemaNode.properties)) {
        result[name] = withEnums(isObject(uiNode[name]) ? (uiNode[name] as Node) : {}, child, name);
      }
    }
    if (isObject(schemaNode.items) && isObject(schemaNode.items.properties)) {
      result.items = withEnums(isObject(uiNode.items) ? (uiNode.items as Node) : {}, schemaNode.items, property);
    }
    return result;
  };
  return withEnums(translateTexts(ui) as Node, schema, null);
}

function schemaAt(schema: RJSFSchema, schemaPath: string | undefined): Node | undefined {
  if (!schemaPath) return undefined;
  const parts = schemaPath.replace(/^#\/?/, '').split('/').slice(0, -1);
  let node: unknown = schema;
  for (const part of parts) node = isObject(node) ? node[decodeURIComponent(part)] : undefined;
  return isObject(node) ? node : undefined;
}

/** rjsf's errors in the user's language, with the same keys the server uses. */
export function translateErrors(schema: RJSFSchema, t: Translate) {
  return (errors: RJSFValidationError[]): RJSFValidationError[] =>
    errors.map((error) => {
      const { key, params } = messageFor(error.name ?? '', (error.params ?? {}) as Record<string, unknown>, schemaAt(schema, error.schemaPath) as { minItemsMessage?: string });
      return { ...error, message: t(key, params), stack: t(key, params) };
    });
}

/** The server's field errors as rjsf extra errors, shown beside their fields. */
export function serverErrorSchema(errors: FieldError[], t: Translate): ErrorSchema {
  const root: Record<string, unknown> = {};
  for (const error of errors) {
    let node = root;
    for (const part of error.path.split('/').filter(Boolean)) {
      node[part] ??= {};
      node = node[part] as Record<string, unknown>;
    }
    const list = (node.__errors as string[] | undefined) ?? [];
    list.push(t(error.key, error.params));
    node.__errors = list;
  }
  return root as ErrorSchema;
}
