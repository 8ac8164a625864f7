import { FILE_PURPOSE_IDS } from './files';
import { lookup, type LocaleTable } from '../i18n';
import { LANGUAGES } from '../language';
import { createFormAjv } from './validator';

// The checks of one form (a base form, or a base form with an event patch applied) that
// `npm run check` and the server's live form set both run: the schema compiles with only
// registered keywords (strict ajv: a misspelt keyword fails instead of being ignored), every
// title/description/help key and enum label exists in every language, file purposes exist.

type Node = Record<string, unknown>;
const isObject = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Locale keys a schema and its UI schema use. */
function keysOf(formId: string, schema: unknown, ui: unknown): string[] {
  const keys: string[] = [];
  const visitSchema = (node: unknown, property: string | null) => {
    if (Array.isArray(node)) return node.forEach((item) => visitSchema(item, property));
    if (!isObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if ((key === 'title' || key === 'description') && typeof value === 'string') keys.push(value);
      else if (key === 'properties' && isObject(value)) Object.entries(value).forEach(([name, child]) => visitSchema(child, name));
      else visitSchema(value, key === 'items' ? property : null);
    }
    if (Array.isArray(node.enum) && property) for (const code of node.enum) if (typeof code === 'string') keys.push(`forms.${formId}.enum.${property}.${code}`);
  };
  const visitUi = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visitUi);
    if (!isObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (['ui:help', 'ui:title', 'ui:description', 'ui:placeholder', 'ui:addLabel', 'ui:removeLabel'].includes(key) && typeof value === 'string') keys.push(value);
      else visitUi(value);
    }
  };
  visitSchema(schema, null);
  visitUi(ui);
  return keys;
}

function fileKeywordsOf(schema: unknown): string[] {
  const found: string[] = [];
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isObject(node)) return;
    if (typeof node.file === 'string') found.push(node.file);
    Object.values(node).forEach(visit);
  };
  visit(schema);
  return found;
}

/** A field behind a flag may be absent, so it must not be required (rjsf would demand a hidden field). */
function requiredHidden(schema: unknown): string[] {
  const found: string[] = [];
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isObject(node)) return;
    if (isObject(node.properties) && Array.isArray(node.required)) {
      for (const name of node.required) {
        const property = node.properties[String(name)];
        if (isObject(property) && (property.showIf || property.secondLanguage)) found.push(String(name));
      }
    }
    Object.values(node).forEach(visit);
  };
  visit(schema);
  return found;
}

/** The problems of one form as `where: message` lines (`where` names its file). */
export function checkForm(where: string, formId: string, schema: unknown, ui: unknown, locales: Record<string, LocaleTable>): string[] {
  const problems: string[] = [];
  try {
    createFormAjv().compile(schema as Node);
  } catch (error) {
    problems.push(`${where}: ${(error as Error).message}`);
  }
  for (const name of requiredHidden(schema)) problems.push(`${where}: "${name}" is shown only behind a flag, so it must not be in required`);
  for (const purpose of fileKeywordsOf(schema)) {
    if (!(FILE_PURPOSE_IDS as string[]).includes(purpose)) problems.push(`${where}: unknown file purpose "${purpose}"`);
  }
  for (const key of new Set(keysOf(formId, schema, ui))) {
    for (const language of LANGUAGES) {
      if (lookup(locales[language]!, key) === undefined) problems.push(`${where}: key "${key}" missing in locales/${language}.json`);
    }
  }
  return problems;
}
