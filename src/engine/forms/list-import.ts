import type { FieldError } from './messages';
import { uniqueKey } from './rules';

// Any list of a form (an array of objects) filled from a spreadsheet. Driven by
// the schema alone: the list's item properties that fit in a cell (text, number, yes/no, one of a
// list) are the sheet's columns, headed by their titles. A sheet is read into candidate items
// (headers and choice labels recognised in any of the portal's languages), and each row is checked
// with the form's own validator, the rows added to the list already there. Nothing here stores
// anything: the exhibitor adds the valid rows to the form, then saves it as any edit.

type Node = Record<string, unknown>;
const isObject = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

export type ColumnKind = 'text' | 'date' | 'number' | 'integer' | 'yesNo' | 'choice';

export interface SheetColumn {
  /**
   * The item field the column fills: a property of the item, or a path through objects inside it
   * ("contact/phone"), as the validator's error paths name it below the item.
   */
  property: string;
  /** Locale key of its header (the field's title). */
  title: string;
  /** Locale keys of the titles of the objects it lies in, outermost first (its header reads "Parent › Child"). */
  parents?: string[];
  kind: ColumnKind;
  /** Choice columns: the codes, in the schema's order. */
  codes?: string[];
  /** Choice columns: locale keys of the codes' labels, in the same order. */
  labels?: string[];
}

export interface ImportableList {
  /** The form's top-level property holding the list. */
  property: string;
  /** Locale key of the list's title. */
  title: string;
  columns: SheetColumn[];
  /**
   * Lists inside the items (a list of a list), each as the locale keys of its titles, outermost
   * first: a row of cells cannot hold them, so the sheet fills the rest and the page says so.
   */
  skipped: string[][];
}

/** Between the titles of a field inside an object and of the object, in a header ("Contact › Phone"). */
export const HEADER_SEPARATOR = ' › ';

/** A column's header in one language: the titles of the objects it lies in, then its own. */
export function columnHeader(column: Pick<SheetColumn, 'title' | 'parents'>, text: (key: string) => string): string {
  return [...(column.parents ?? []), column.title].map(text).join(HEADER_SEPARATOR);
}

/** Keywords that keep a field behind an exhibitor flag (the validator refuses data there when the flag is off). */
const FLAG_KEYWORDS = ['showIf', 'secondLanguage'] as const;

function hiddenBy(node: Node, flags: Record<string, boolean>): boolean {
  return FLAG_KEYWORDS.some((keyword) => typeof node[keyword] === 'string' && flags[node[keyword] as string] !== true);
}

function scalarType(node: Node): string | undefined {
  const type = Array.isArray(node.type) ? node.type.find((t) => t !== 'null') : node.type;
  return typeof type === 'string' ? type : undefined;
}

/** The key of a choice's label, as the form page shows it (display.ts: forms.<form>.enum.<property>.<code>). */
export function choiceLabelKey(formId: string, property: string, code: string): string {
  return `forms.${formId}.enum.${property}.${code}`;
}

function columnOf(formId: string, property: string, node: Node, path: string = property): SheetColumn | null {
  // A file is uploaded, never typed into a cell.
  if (node.file !== undefined) return null;
  const title = typeof node.title === 'string' ? node.title : property;
  if (Array.isArray(node.enum) && node.enum.length > 0 && node.enum.every((code) => typeof code === 'string')) {
    const codes = node.enum as string[];
    // Choice labels are keyed by the field's own name, as the form page shows them.
    return { property: path, title, kind: 'choice', codes, labels: codes.map((code) => choiceLabelKey(formId, property, code)) };
  }
  switch (scalarType(node)) {
    case 'string':
      return { property: path, title, kind: node.format === 'date' ? 'date' : 'text' };
    case 'number':
      return { property: path, title, kind: 'number' };
    case 'integer':
      return { property: path, title, kind: 'integer' };
    case 'boolean':
      return { property: path, title, kind: 'yesNo' };
    default:
      return null;
  }
}

/**
 * The lists of a form that a spreadsheet can fill, for an exhibitor with these flags: top-level
 * arrays of objects with at least one column, in the schema's order (lists and columns behind a flag
 * that is off are left out, as the form page leaves them out).
 */
export function importableLists(formId: string, schema: Node, flags: Record<string, boolean>): ImportableList[] {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const lists: ImportableList[] = [];
  for (const [property, node] of Object.entries(properties)) {
    if (!isObject(node) || scalarType(node) !== 'array' || !isObject(node.items) || hiddenBy(node, flags)) continue;
    const items = node.items;
    if (!isObject(items.properties)) continue;
    const columns: SheetColumn[] = [];
    const skipped: string[][] = [];
    // Objects inside an item are flattened into columns ("Contact › Phone"); lists inside are left to the page.
    const collect = (properties: Node, path: string[], parents: string[]) => {
      for (const [name, child] of Object.entries(properties)) {
        if (!isObject(child) || hiddenBy(child, flags) || child.file !== undefined) continue;
        const title = typeof child.title === 'string' ? child.title : name;
        if (scalarType(child) === 'object' && isObject(child.properties)) collect(child.properties, [...path, name], [...parents, title]);
        else if (scalarType(child) === 'array') skipped.push([...parents, title]);
        else {
          const column = columnOf(formId, name, child, [...path, name].join('/'));
          if (column) columns.push(parents.length > 0 ? { ...column, parents } : column);
        }
      }
    };
    collect(items.properties, [], []);
    if (columns.length > 0) lists.push({ property, title: typeof node.title === 'string' ? node.title : property, columns, skipped });
  }
  return lists;
}

/** Sets a value at a column's path inside an item, making the objects on the way. */
function setAt(item: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('/');
  let node = item;
  for (const part of parts.slice(0, -1)) {
    if (!isObject(node[part])) node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  node[parts.at(-1)!] = value;
}

/** The texts a locale key has in every language (headers and labels are recognised in any of them). */
export type TextsOf = (key: string) => string[];

/** Headers and labels compared as people type them: case, width, surrounding spaces and a required mark aside. */
export function foldLabel(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/\s*\*$/, '')
    .trim()
    .replace(/\s+/g, ' ')
    .toLowerCase();
}

/** Words a yes/no cell may hold besides the portal's own Yes/No labels. */
const YES = ['true', 'yes', 'y', '1', 'x', '✓', '✔'];
const NO = ['false', 'no', 'n', '0'];
export const YES_LABEL = 'formRuntime.rjsf.YesLabel';
export const NO_LABEL = 'formRuntime.rjsf.NoLabel';

/** One thing wrong with a row: its sheet row number, the column's property ('' = the row as a whole), and what. */
export interface RowProblem {
  row: number;
  column: string;
  key: string;
  params: Record<string, string | number>;
}

export interface SheetRead {
  /** The column each sheet column fills (null: not a column of this list, ignored). */
  headers: { header: string; property: string | null }[];
  /** Data rows with anything in them, with their sheet row numbers and the item made of them. */
  rows: { row: number; item: Record<string, unknown> }[];
  /** Cells that could not be read as their column's kind. */
  problems: RowProblem[];
  /** Every column of the list (present in the sheet or not), by its field path. */
  columns: string[];
}

/**
 * A sheet (rows of cell text, the first row the headers) as candidate items of a list. Empty rows
 * are skipped; row numbers stay those of the sheet. A cell that does not fit its column (a number
 * column holding text, a choice no language names) is a problem of that row and column, and the
 * cell is left out of the item.
 */
export function readListSheet(sheet: string[][], list: ImportableList, textsOf: TextsOf): SheetRead {
  const [headerRow = [], ...body] = sheet;
  const byHeader = new Map<string, SheetColumn>();
  for (const column of list.columns) {
    // A header in any language (each title in that language), or the field's key or path.
    const languages = Math.max(0, ...[...(column.parents ?? []), column.title].map((key) => textsOf(key).length));
    const inLanguage = Array.from({ length: languages }, (_, index) => columnHeader(column, (key) => textsOf(key)[index] ?? key));
    for (const text of [column.property, columnHeader(column, (key) => key), ...inLanguage]) byHeader.set(foldLabel(text), column);
  }
  const used = new Set<string>();
  const headers = headerRow.map((header) => {
    const column = byHeader.get(foldLabel(header));
    // A column named twice fills from its first occurrence only.
    if (!column || used.has(column.property)) return { header, property: null };
    used.add(column.property);
    return { header, property: column.property };
  });
  const columns = new Map(list.columns.map((column) => [column.property, column]));
  const choices = new Map<string, Map<string, string>>();
  for (const column of list.columns) {
    if (column.kind !== 'choice') continue;
    const byLabel = new Map<string, string>();
    column.codes!.forEach((code, index) => {
      for (const text of [code, ...textsOf(column.labels![index]!)]) byLabel.set(foldLabel(text), code);
    });
    choices.set(column.property, byLabel);
  }
  const yes = new Set([...YES, ...textsOf(YES_LABEL)].map(foldLabel));
  const no = new Set([...NO, ...textsOf(NO_LABEL)].map(foldLabel));

  const rows: SheetRead['rows'] = [];
  const problems: RowProblem[] = [];
  body.forEach((cells, index) => {
    const row = index + 2;
    if (cells.every((cell) => cell.trim() === '')) return;
    const item: Record<string, unknown> = {};
    headers.forEach(({ property }, c) => {
      const text = (cells[c] ?? '').trim();
      if (!property || text === '') return;
      const column = columns.get(property)!;
      const refuse = (key: string, params: Record<string, string | number> = {}) => problems.push({ row, column: property, key, params });
      switch (column.kind) {
        case 'text':
          setAt(item, property, text);
          break;
        case 'date':
          // A date typed in a spreadsheet program is stored as a date and read as midnight UTC.
          setAt(item, property, /^\d{4}-\d{2}-\d{2}T00:00:00(?:\.000)?Z$/.test(text) ? text.slice(0, 10) : text);
          break;
        case 'number':
        case 'integer': {
          const value = Number(text.replace(/[\s\u00a0]/g, ''));
          if (!Number.isFinite(value)) refuse('listImport.notNumber', { value: text });
          else if (column.kind === 'integer' && !Number.isInteger(value)) refuse('listImport.notWholeNumber', { value: text });
          else setAt(item, property, value);
          break;
        }
        case 'yesNo': {
          const folded = foldLabel(text);
          if (yes.has(folded)) setAt(item, property, true);
          else if (no.has(folded)) setAt(item, property, false);
          else refuse('listImport.notYesNo', { value: text });
          break;
        }
        case 'choice': {
          const code = choices.get(property)!.get(foldLabel(text));
          if (code === undefined) refuse('listImport.notAChoice', { value: text });
          else setAt(item, property, code);
          break;
        }
      }
    });
    rows.push({ row, item });
  });
  return { headers, rows, problems, columns: list.columns.map((column) => column.property) };
}

/** Validates a whole form's data (the form's validator, with the exhibitor's context bound). */
export type ValidateData = (data: Record<string, unknown>) => FieldError[];

export interface RowsChecked {
  /** Rows that may be added, in sheet order, with their items. */
  valid: { row: number; item: Record<string, unknown> }[];
  /** Every problem of the other rows, by row then column. */
  problems: RowProblem[];
}

/**
 * Where a field error lies in the list: the item's index and the column ('' = the item itself): the
 * deepest column the path lies in (a field inside an object, "contact/phone"), else its top field.
 */
function inList(path: string, list: string, columns: ReadonlySet<string>): { index: number; column: string } | null {
  const parts = path.split('/');
  // ['', list, index, property, …]
  if (parts[1] !== list || parts.length < 3 || !/^\d+$/.test(parts[2]!)) return null;
  const below = parts.slice(3);
  for (let length = below.length; length > 1; length -= 1) {
    const candidate = below.slice(0, length).join('/');
    if (columns.has(candidate)) return { index: Number(parts[2]), column: candidate };
  }
  return { index: Number(parts[2]), column: below[0] ?? '' };
}

const listErrorKeys = (errors: FieldError[], list: string) => new Set(errors.filter((error) => error.path === `/${list}`).map((error) => error.key));

/**
 * Checks candidate rows as items appended to the list the form already holds, with the form's
 * own validator:
 * 1. each item's own rules (required, formats, names, choices, …), all rows validated at once;
 * 2. the list's unique property (`uniqueItemProperty`): a row repeating a value of the list or of
 *    an earlier row is refused, the earlier one kept;
 * 3. the list's own limits (quota, most entries, …): the longest run of rows that the list can
 *    take without a list problem the form did not already have; the rows after it are refused
 *    with that problem.
 */
export function checkListRows(validate: ValidateData, data: Record<string, unknown>, list: string, listSchema: Node, read: SheetRead): RowsChecked {
  const existing = Array.isArray(data[list]) ? (data[list] as unknown[]) : [];
  const withItems = (items: unknown[]) => ({ ...data, [list]: [...existing, ...items] });
  const problems: RowProblem[] = [...read.problems];
  const unreadable = new Set(read.problems.map((problem) => `${problem.row}/${problem.column}`));
  const columns = new Set(read.columns);

  // 1. Item rules.
  const errors = validate(withItems(read.rows.map((row) => row.item)));
  for (const error of errors) {
    const at = inList(error.path, list, columns);
    if (!at || at.index < existing.length) continue;
    const { row } = read.rows[at.index - existing.length]!;
    // A cell that could not be read says so once, not again as "required".
    if (unreadable.has(`${row}/${at.column}`)) continue;
    problems.push({ row, column: at.column, key: error.key, params: error.params });
  }
  const refused = new Set(problems.map((problem) => problem.row));
  let good = read.rows.filter((row) => !refused.has(row.row));

  // 2. A unique property, checked in order against the list and the rows kept before.
  const unique = typeof listSchema.uniqueItemProperty === 'string' ? listSchema.uniqueItemProperty : null;
  if (unique) {
    const seen = new Set<unknown>();
    for (const item of existing) {
      const key = isObject(item) ? uniqueKey(item[unique]) : undefined;
      if (key !== undefined) seen.add(key);
    }
    good = good.filter(({ row, item }) => {
      const key = uniqueKey(item[unique]);
      if (key === undefined) return true;
      if (!seen.has(key)) {
        seen.add(key);
        return true;
      }
      problems.push({ row, column: unique, key: 'validation.uniqueItemProperty', params: { property: unique, value: String(item[unique]) } });
      return false;
    });
  }

  // 3. The list's own limits: the longest prefix of the kept rows it takes (a binary search).
  const before = listErrorKeys(validate(withItems([])), list);
  const newProblems = (count: number) => [...listErrorKeys(validate(withItems(good.slice(0, count).map((row) => row.item))), list)].filter((key) => !before.has(key));
  if (good.length > 0 && newProblems(good.length).length > 0) {
    let fits = 0;
    let fails = good.length;
    while (fails - fits > 1) {
      const middle = Math.floor((fits + fails) / 2);
      if (newProblems(middle).length === 0) fits = middle;
      else fails = middle;
    }
    const reasons = validate(withItems(good.slice(0, fails).map((row) => row.item))).filter((error) => error.path === `/${list}` && !before.has(error.key));
    for (const { row } of good.slice(fits)) for (const reason of reasons) problems.push({ row, column: '', key: reason.key, params: reason.params });
    good = good.slice(0, fits);
  }

  problems.sort((a, b) => a.row - b.row);
  return { valid: good, problems };
}
