// Submissions export: the rows and columns of a form's spreadsheet, derived from its
// JSON Schema alone (no form or field is named in code). A form whose data is one list of
// objects beside plain values (badges, vehicles, visa applicants, products, guests) gives one
// row per list item; any other form gives one row per exhibitor. Nested objects become one
// column per leaf; titles and enum labels are the locale keys the form runtime shows; a country
// field (`country` keyword) is named in the reader's language.

type Node = Record<string, unknown>;

const isObject = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

export type ColumnKind = 'text' | 'boolean' | 'enum' | 'country' | 'file' | 'list';

export interface SubmissionColumn {
  /** Where the value sits: in the submission (form columns) or in one list item (item columns). */
  path: string[];
  /** Locale keys of the titles from the outside in (a nested field reads "Contacts · E-mail"). */
  titleKeys: string[];
  kind: ColumnKind;
  /** For enum values: the locale key prefix of their labels (forms.<formId>.enum.<property>.). */
  enumKeyPrefix?: string;
}

export interface SubmissionLayout {
  /** The top-level property holding the list exported one row per item; null: one row per exhibitor. */
  list: string | null;
  formColumns: SubmissionColumn[];
  itemColumns: SubmissionColumn[];
}

const isObjectList = (node: unknown): boolean => isObject(node) && node.type === 'array' && isObject(node.items) && isObject((node.items as Node).properties);
const isPlain = (node: unknown): boolean => isObject(node) && !isObject(node.properties) && node.type !== 'array' && node.file === undefined;

function columnsOf(formId: string, node: Node, path: string[], titleKeys: string[]): SubmissionColumn[] {
  const columns: SubmissionColumn[] = [];
  for (const [name, child] of Object.entries((node.properties ?? {}) as Record<string, unknown>)) {
    if (!isObject(child)) continue;
    const here = [...path, name];
    const titles = [...titleKeys, typeof child.title === 'string' ? child.title : name];
    if (child.file !== undefined) columns.push({ path: here, titleKeys: titles, kind: 'file' });
    else if (isObject(child.properties)) columns.push(...columnsOf(formId, child, here, titles));
    else if (child.type === 'array') {
      const items = isObject(child.items) ? child.items : {};
      const enumItems = Array.isArray(items.enum);
      columns.push({ path: here, titleKeys: titles, kind: enumItems ? 'enum' : 'list', ...(enumItems ? { enumKeyPrefix: `forms.${formId}.enum.${name}.` } : {}) });
    } else if (Array.isArray(child.enum)) columns.push({ path: here, titleKeys: titles, kind: 'enum', enumKeyPrefix: `forms.${formId}.enum.${name}.` });
    else if (child.country === true) columns.push({ path: here, titleKeys: titles, kind: 'country' });
    else columns.push({ path: here, titleKeys: titles, kind: child.type === 'boolean' ? 'boolean' : 'text' });
  }
  return columns;
}

export function submissionLayout(formId: string, schema: unknown): SubmissionLayout {
  const root = isObject(schema) ? schema : {};
  const properties = (isObject(root.properties) ? root.properties : {}) as Record<string, unknown>;
  const lists = Object.keys(properties).filter((name) => isObjectList(properties[name]));
  const othersPlain = Object.keys(properties).every((name) => lists.includes(name) || isPlain(properties[name]));
  const list = lists.length === 1 && othersPlain ? lists[0]! : null;
  if (list === null) return { list, formColumns: columnsOf(formId, root, [], []), itemColumns: [] };
  const listNode = properties[list] as Node;
  const rest = { properties: Object.fromEntries(Object.entries(properties).filter(([name]) => name !== list)) };
  return { list, formColumns: columnsOf(formId, rest, [], []), itemColumns: columnsOf(formId, listNode.items as Node, [], []) };
}

/** The value at `path` of an object (undefined when any step is missing). */
export function valueAt(data: unknown, path: string[]): unknown {
  let node = data;
  for (const step of path) {
    if (!isObject(node)) return undefined;
    node = node[step];
  }
  return node;
}
