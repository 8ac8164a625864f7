import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { approvalSummaryProblems } from '../src/engine/forms/approval-summary';
import { DEADLINE_KINDS, type FormDefinition } from '../src/engine/forms/definitions';
import { checkForm } from '../src/engine/forms/form-checks';
import { partProblems } from '../src/engine/forms/parts';
import { mergePatch } from '../src/engine/forms/merge-patch';
import { lookup } from '../src/engine/i18n';
import { LANGUAGES } from '../src/engine/language';
import { ROOT, loadCatalogue, readLocales } from './catalogue-source';

// CI's checks of the forms as data: each form passes the engine's checks (form-checks.ts),
// forms.yaml names existing screens, prerequisites and title keys, and every event patch still
// yields a valid form.

const FORMS_DIR = join(ROOT, 'schemas', 'forms');
const EVENTS_DIR = join(ROOT, 'schemas', 'events');

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
