import { englishStringTranslator, TranslatableString, type ErrorSchema, type RJSFSchema, type RJSFValidationError } from '@rjsf/utils';
import type { FieldError } from '../../engine/forms/messages';
import { messageFor, withoutRepeatedProblems } from '../../engine/forms/messages';
import { objectProperties } from '../../engine/forms/object-properties';
import { duplicateIndexes } from '../../engine/forms/rules';

// Schemas hold locale keys, not text (L1), and the browser validates with the precompiled
// validator of the exact schema, so the schema is never altered: translations and flag-driven
// hiding live in the UI schema.

type Translate = (key: string, params?: Record<string, unknown>) => string;

/** A text of the UI schema as its locale key (with the values it may mention). */
export interface LiveText {
  key: string;
  params?: Record<string, unknown>;
}

/** Where a field's texts come from (`ui:liveTexts` beside the translated texts), for a form whose texts change while shown (live-texts.tsx). */
export interface FieldLiveTexts {
  title?: LiveText;
  description?: LiveText;
  help?: LiveText;
  placeholder?: LiveText;
  enumNames?: LiveText[];
}

export const LIVE_TEXTS_KEY = 'ui:liveTexts';

/** The UI schema's own texts (locale keys, translated with the form's help values). */
const UI_TEXT_NAMES = ['help', 'title', 'description', 'placeholder'] as const;
const UI_TEXTS = UI_TEXT_NAMES.map((name) => `ui:${name}`);
type Node = Record<string, unknown>;

const isObject = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);
/** The value when it is an object, else an empty one (a UI schema node nobody wrote). */
const objectOr = (value: unknown): Node => (isObject(value) ? value : {});
const isString = (value: unknown): value is string => typeof value === 'string';

/**
 * The UI schema rjsf renders with. The schema itself must stay exactly as precompiled, so every
 * text goes here: titles and descriptions (locale keys in the schema) as ui:title and
 * ui:description, enum labels as ui:enumNames (forms.<formId>.enum.<property>.<code>), help
 * texts translated with the values they may mention (`helpParams` of the form's declarations: the
 * extra badge fee, the booth height limit), and fields behind an exhibitor flag that is off
 * rendered by no one.
 */
export function displayUi(
  ui: Node,
  schema: Node,
  formId: string,
  t: Translate,
  flags: Record<string, boolean>,
  params: Record<string, unknown> = {},
  options: { schemaTexts?: boolean; liveTexts?: boolean } = {},
): Node {
  // A form's schema holds locale keys (titles, descriptions, enum labels); an API entity's
  // (the console's) documents the API, and its texts come from the UI schema alone.
  const schemaTexts = options.schemaTexts ?? true;
  // With liveTexts, each field also names the keys its texts come from (`ui:liveTexts`), for
  // a form whose texts change while it is shown (see live-texts.tsx).
  const withLive = (node: Node, live: FieldLiveTexts): Node => (options.liveTexts ? { ...node, [LIVE_TEXTS_KEY]: { ...objectOr(node[LIVE_TEXTS_KEY]), ...live } } : node);
  const translateTexts = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(translateTexts);
    if (!isObject(node)) return node;
    const live: FieldLiveTexts = {};
    const translated = Object.fromEntries(
      Object.entries(node).map(([key, value]) => {
        if (!(UI_TEXTS as readonly string[]).includes(key) || typeof value !== 'string') return [key, translateTexts(value)];
        live[key.slice(3) as (typeof UI_TEXT_NAMES)[number]] = { key: value, params };
        return [key, t(value, params)];
      }),
    );
    return Object.keys(live).length > 0 ? withLive(translated, live) : translated;
  };
  const hidden = (node: Node) => hiddenBy(node, flags);
  const describe = (uiNode: Node, schemaNode: unknown, property: string | null): Node => {
    if (!isObject(schemaNode)) return uiNode;
    // Rendered by no one, and its field wrapper hidden too (no empty gap where it would be).
    if (hidden(schemaNode)) return { 'ui:field': 'hidden', 'ui:widget': 'hidden' };
    let result: Node = { ...uiNode };
    const live: FieldLiveTexts = {};
    if (schemaTexts && typeof schemaNode.title === 'string' && result['ui:title'] === undefined) {
      result['ui:title'] = t(schemaNode.title);
      live.title = { key: schemaNode.title };
    }
    if (schemaTexts && typeof schemaNode.description === 'string' && result['ui:description'] === undefined) {
      result['ui:description'] = t(schemaNode.description);
      live.description = { key: schemaNode.description };
    }
    const codes = Array.isArray(schemaNode.enum) ? schemaNode.enum : isObject(schemaNode.items) && Array.isArray(schemaNode.items.enum) ? schemaNode.items.enum : null;
    const codeNames = codes?.filter(isString) ?? [];
    if (schemaTexts && codes && property && codeNames.length === codes.length) {
      const keys = codeNames.map((code) => `forms.${formId}.enum.${property}.${code}`);
      result['ui:enumNames'] = keys.map((key) => t(key));
      live.enumNames = keys.map((key) => ({ key }));
    }
    if (Object.keys(live).length > 0) result = withLive(result, live);
    // F11: fields defined only inside if/then/else or allOf are labelled too (rjsf merges them in
    // when their condition holds; they showed raw keys before).
    for (const [name, child] of objectProperties(schemaNode)) {
      result[name] = describe(objectOr(uiNode[name]), child, name);
    }
    if (isObject(schemaNode.items)) {
      result.items = describe(objectOr(uiNode.items), schemaNode.items, property);
      if (schemaNode.items.type === 'object') {
        Object.assign(result, listControlLabels(result, schemaNode, schemaNode.items, t));
        // Locale keys, already turned into ui:options texts (rjsf would read them as options too).
        delete result['ui:addLabel'];
        delete result['ui:removeLabel'];
      }
    }
    return result;
  };
  return describe(objectOr(translateTexts(ui)), schema, null);
}

/** The names of a list's controls, built per item number ("Remove badge 3", not "Remove"). */
export interface ListItemLabels {
  remove: (number: number) => string;
  moveUp: (number: number) => string;
  moveDown: (number: number) => string;
  copy: (number: number) => string;
  /** The locale keys the labels are built from: where texts change while shown, the buttons follow these (live-texts.tsx). */
  keys: readonly string[];
}

/** What a list's add button says, built when asked for, and the locale keys it is built from. */
export interface ListAddLabel {
  text: () => string;
  keys: readonly string[];
}

/**
 * What a list's add, remove, move and copy buttons say, for screen readers and as tooltips: the
 * list's own texts when its UI schema names them (`ui:addLabel`, `ui:removeLabel` with
 * {{number}}), otherwise built from the item's title ("Add Badge", "Remove Badge 3"). The add
 * label goes in the list's ui:options, the per-item ones in its items' (each button template
 * receives only that part of the UI schema).
 */
function listControlLabels(uiNode: Node, schemaNode: Node, items: Node, t: Translate): Node {
  const itemTitle = typeof items.title === 'string' ? items.title : typeof schemaNode.title === 'string' ? schemaNode.title : 'formRuntime.rjsf.ArrayItemTitle';
  // Translated when a label is asked for: where the texts change while shown, a list item's
  // buttons rendered again name it as it is then.
  const item = () => t(itemTitle);
  const own = (name: string) => {
    const key = uiNode[name];
    return isString(key) ? key : undefined;
  };
  const addKey = own('ui:addLabel');
  const removeKey = own('ui:removeLabel');
  const labels: ListItemLabels = {
    remove: (number) => (removeKey ? t(removeKey, { number }) : t('formRuntime.listControls.remove', { item: item(), number })),
    moveUp: (number) => t('formRuntime.listControls.moveUp', { item: item(), number }),
    moveDown: (number) => t('formRuntime.listControls.moveDown', { item: item(), number }),
    copy: (number) => t('formRuntime.listControls.copy', { item: item(), number }),
    keys: removeKey ? [itemTitle, removeKey] : [itemTitle],
  };
  const addLabel: ListAddLabel = { text: () => (addKey ? t(addKey) : t('formRuntime.listControls.add', { item: item() })), keys: addKey ? [addKey] : [itemTitle] };
  const itemsUi = objectOr(uiNode.items);
  return {
    'ui:options': { ...objectOr(uiNode['ui:options']), addLabel: addLabel.text(), liveAddLabel: addLabel },
    items: { ...itemsUi, 'ui:options': { ...objectOr(itemsUi['ui:options']), itemLabels: labels } },
  };
}

function schemaAt(schema: RJSFSchema, schemaPath: string | undefined): Node | undefined {
  if (!schemaPath) return undefined;
  const parts = schemaPath.replace(/^#\/?/, '').split('/').slice(0, -1);
  let node: unknown = schema;
  for (const part of parts) node = isObject(node) ? node[decodeURIComponent(part)] : undefined;
  return isObject(node) ? node : undefined;
}

/**
 * rjsf's errors in the user's language, with the same keys the server uses; errors about data
 * behind a flag that is off are left out (that data is dropped before sending, see withoutHidden).
 */
export function translateErrors(schema: RJSFSchema, t: Translate, flags: Record<string, boolean> = {}) {
  return (errors: RJSFValidationError[]): RJSFValidationError[] =>
    // ajv's `if` error ("must match then schema") only repeats what the inner rule says: never shown.
    withoutRepeatedProblems(
      withoutHiddenErrors(errors, schema, flags),
      (error) => error.name ?? '',
      (error) => error.property ?? '',
    )
      .filter((error) => error.name !== 'if')
      .map((error) => {
        const { key, params } = messageFor(error.name ?? '', objectOr(error.params), schemaAt(schema, error.schemaPath));
        return { ...error, message: t(key, params), stack: t(key, params) };
      });
}

/** The server's field errors as rjsf extra errors, shown beside their fields. */
export function serverErrorSchema(errors: FieldError[], t: Translate): ErrorSchema {
  const root: ErrorSchema = {};
  for (const error of errors) {
    let node = root;
    for (const part of error.path.split('/').filter(Boolean)) {
      const child = node[part];
      if (isObject(child)) node = child;
      else {
        const created: ErrorSchema = {};
        node[part] = created;
        node = created;
      }
    }
    node.__errors = [...(node.__errors ?? []), t(error.key, error.params)];
  }
  return root;
}

/**
 * The server's field errors as the problems a browser-side refusal lists, so a refused
 * submit shows the same summary (links to each field) and moves focus to it either way.
 */
export function serverProblems(errors: FieldError[], t: Translate): RJSFValidationError[] {
  return errors.map((error) => {
    const message = t(error.key, error.params);
    const property = error.path
      .split('/')
      .filter(Boolean)
      .map((part) => `.${part}`)
      .join('');
    return { name: 'server', property, message, stack: message, params: error.params, schemaPath: '' };
  });
}

/** rjsf's own texts (Add Item, Remove, Yes/No…) from formRuntime.rjsf.*; the rest as rjsf has them. */
export function rjsfStrings(t: Translate, has: (key: string) => boolean) {
  const keyOf = new Map(Object.entries(TranslatableString).map(([name, text]) => [text as string, `formRuntime.rjsf.${name}`]));
  return (text: TranslatableString, params?: string[]): string => {
    const key = keyOf.get(text);
    return key && has(key) ? t(key) : englishStringTranslator(text, params);
  };
}

/** The keywords that refuse data behind an exhibitor flag that is off (the server's check). */
const HIDDEN_KEYWORDS = new Set(['showIf', 'secondLanguage']);

const hiddenBy = (node: Node, flags: Record<string, boolean>) =>
  (typeof node.showIf === 'string' && flags[node.showIf] !== true) || (typeof node.secondLanguage === 'string' && flags[node.secondLanguage] !== true);

/**
 * The data without what sits behind an exhibitor flag that is off. The user cannot see those
 * fields (displayUi renders them by no one), but rjsf still fills in their defaults, e.g. `{}`
 * for a hidden section, which the server (and the browser's validator) would refuse with a
 * message the user could not act on.
 */
export function withoutHidden<T>(schema: Node, data: T, flags: Record<string, boolean>): T {
  if (Array.isArray(data)) {
    const items = isObject(schema.items) ? schema.items : null;
    return (items ? data.map((item) => withoutHidden(items, item, flags)) : data) as T;
  }
  if (!isObject(data) || !isObject(schema.properties)) return data;
  const properties = schema.properties;
  const result: Node = {};
  for (const [key, value] of Object.entries(data)) {
    const child = properties[key];
    if (isObject(child) && hiddenBy(child, flags)) continue;
    result[key] = isObject(child) ? withoutHidden(child, value, flags) : value;
  }
  return result as T;
}

/** Does the schema path of an error (#/properties/contacts/properties/operations/required) pass through a hidden node? */
function inHiddenNode(schema: unknown, schemaPath: string | undefined, flags: Record<string, boolean>): boolean {
  if (!schemaPath) return false;
  let node: unknown = schema;
  for (const part of schemaPath.replace(/^#\/?/, '').split('/')) {
    if (!isObject(node)) return false;
    node = node[decodeURIComponent(part)];
    if (isObject(node) && hiddenBy(node, flags)) return true;
  }
  return false;
}

/**
 * rjsf's errors without those about hidden data (withoutHidden drops that data before it is
 * sent): the flag keywords' own errors, and any error inside a hidden section, such as the
 * required e-mail of a contact in a contacts section the exhibitor does not have.
 */
export function withoutHiddenErrors(errors: RJSFValidationError[], schema: unknown = {}, flags: Record<string, boolean> = {}): RJSFValidationError[] {
  return errors.filter((error) => !HIDDEN_KEYWORDS.has(error.name ?? '') && !inHiddenNode(schema, error.schemaPath, flags));
}

type ErrorNode = { addError?: (message: string) => void; [key: string]: unknown };
/** rjsf's error tree (customValidate's `errors`): an object per field, with `addError` on each. */
const isErrorNode = (value: unknown): value is ErrorNode => isObject(value) && (value.addError === undefined || typeof value.addError === 'function');
const errorChild = (errors: ErrorNode | undefined, key: string | number): ErrorNode | undefined => {
  const child = errors?.[key];
  return isErrorNode(child) ? child : undefined;
};

/**
 * V1: rjsf's customValidate marking every entry of a list that shares a value the schema says
 * must be unique (`uniqueItemProperty`), both of a pair, not only the list as a whole.
 */
export function markDuplicates(schema: Node, t: Translate) {
  const visit = (node: unknown, data: unknown, errors: ErrorNode | undefined) => {
    if (!errors || !isObject(node)) return;
    if (Array.isArray(data) && typeof node.uniqueItemProperty === 'string') {
      const property = node.uniqueItemProperty;
      for (const index of duplicateIndexes(data, property)) {
        const item = data[index];
        const value = isObject(item) ? item[property] : undefined;
        errorChild(errorChild(errors, index), property)?.addError?.(t('validation.duplicateEntry', { value: String(value) }));
      }
    }
    const items = node.items;
    if (Array.isArray(data) && isObject(items)) data.forEach((item, index) => visit(items, item, errorChild(errors, index)));
    if (isObject(data) && isObject(node.properties)) {
      for (const [name, child] of Object.entries(node.properties)) visit(child, data[name], errorChild(errors, name));
    }
  };
  return <T, E>(data: T, errors: E): E => {
    visit(schema, data, isErrorNode(errors) ? errors : undefined);
    return errors;
  };
}
