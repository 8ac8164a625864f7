import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { approvalSummaryProblems } from '../src/engine/forms/approval-summary';
import { DEADLINE_KINDS, type FormDefinition } from '../src/engine/forms/definitions';
import { partProblems } from '../src/engine/forms/parts';
import { FILE_PURPOSE_IDS } from '../src/engine/forms/files';
import { mergePatch } from '../src/engine/forms/merge-patch';
import { createFormAjv } from '../src/engine/forms/validator';
import { lookup } from '../src/engine/i18n';
import { LANGUAGES } from '../src/engine/language';
import { ROOT, loadCatalogue, readLocales } from './catalogue-source';

// CI's checks of the forms as data: each schema compiles with only registered keywords (strict
// ajv: a misspelt keyword fails instead of being ignored), every title/description/help key
// and enum label exists in every language, and every event patch still yields a valid form.

const FORMS_DIR = join(ROOT, 'schemas', 'forms');
const EVENTS_DIR = join(ROOT, 'schemas', 'events');

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

function checkForm(where: string, formId: string, schema: unknown, ui: unknown, locales: ReturnType<typeof readLocales>): string[] {
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

export function formProblems(): string[] {
  const listFile = join(FORMS_DIR, 'forms.yaml');
  if (!existsSync(listFile)) return [];
  const problems: string[] = [];
  const locales = readLocales();
  const { catalogue } = loadCatalogue();
  const screenIds = new Set(catalogue.screens.map((s) => s.id));
  const definitions = ((parse(readFileSync(listFile, 'utf8')) as { forms?: FormDefinition[] }).forms ?? []) as FormDefinition[];
  const ids = new Set(definitions.map((d) => d.id));
  const files = new Map<string, { schema: unknown; ui: unknown }>();
  for (const definition of definitions) {
    const where = `schemas/forms/forms.yaml (${definition.id})`;
    if (!DEADLINE_KINDS.includes(definition.deadline)) problems.push(`${where}: deadline must be one of ${DEADLINE_KINDS.join(', ')}`);
    if (definition.screen && !screenIds.has(definition.screen)) problems.push(`${where}: screen "${definition.screen}" is not in screens.yaml`);
    for (const prerequisite of definition.prerequisites ?? []) if (!ids.has(prerequisite)) problems.push(`${where}: prerequisite "${prerequisite}" is not a form`);
    for (const language of LANGUAGES) if (lookup(locales[language]!, definition.title) === undefined) problems.push(`${where}: title key "${definition.title}" missing in locales/${language}.json`);
    try {
      const schema = JSON.parse(readFileSync(join(FORMS_DIR, `${definition.id}.schema.json`), 'utf8'));
      const ui = JSON.parse(readFileSync(join(FORMS_DIR, `${definition.id}.ui.json`), 'utf8'));
      files.set(definition.id, { schema, ui });
      problems.push(...partProblems(definition, schema));
      problems.push(...approvalSummaryProblems(definition, schema));
      problems.push(...checkForm(`schemas/forms/${definition.id}`, definition.id, schema, ui, locales));
    } catch (error) {
      problems.push(`schemas/forms/${definition.id}: ${(error as Error).message}`);
    }
  }
  if (existsSync(EVENTS_DIR)) {
    for (const event of readdirSync(EVENTS_DIR)) {
      for (const file of readdirSync(join(EVENTS_DIR, event)).filter((f) => f.endsWith('.patch.json'))) {
        const formId = file.replace(/\.patch\.json$/, '');
        const where = `schemas/events/${event}/${file}`;
        const base = files.get(formId);
        if (!base) {
          problems.push(`${where}: no form "${formId}"`);
          continue;
        }
        try {
          const patch = JSON.parse(readFileSync(join(EVENTS_DIR, event, file), 'utf8')) as { schema?: unknown; ui?: unknown };
          const unknownParts = Object.keys(patch).filter((k) => k !== 'schema' && k !== 'ui');
          if (unknownParts.length) problems.push(`${where}: only "schema" and "ui" may be patched (found ${unknownParts.join(', ')})`);
          problems.push(...checkForm(where, formId, mergePatch(base.schema, patch.schema ?? {}), mergePatch(base.ui, patch.ui ?? {}), locales));
        } catch (error) {
          problems.push(`${where}: ${(error as Error).message}`);
        }
      }
    }
  }
  return problems;
}
