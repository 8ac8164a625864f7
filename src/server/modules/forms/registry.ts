import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parse } from 'yaml';
import type { AnySchemaObject } from 'ajv';
import { approvalSummaryProblems } from '../../../engine/forms/approval-summary';
import type { FormDefinition } from '../../../engine/forms/definitions';
import { partProblems } from '../../../engine/forms/parts';
import { mergePatch } from '../../../engine/forms/merge-patch';
import { showroomProblems, type ShowroomDeclaration } from '../../../engine/showroom';

// The forms as data: schemas/forms/forms.yaml, each form's schema and UI schema, and an
// event's merge patch (schemas/events/<exhibitCode>/<id>.patch.json). Read once per process.

/**
 * The project's schemas/ folder: the nearest one above this module, which works from the source
 * tree (tsx, tests) and from the bundled server in dist/server alike.
 */
function findSchemasDir(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'schemas', 'forms', 'forms.yaml'))) return join(dir, 'schemas');
    if (dirname(dir) === dir) return resolve(from, '../../../../schemas');
  }
}

export const SCHEMAS_DIR = findSchemasDir(import.meta.dirname);

export interface FormFiles {
  schema: AnySchemaObject;
  ui: Record<string, unknown>;
}

export interface FormRegistry {
  definitions: FormDefinition[];
  /** CT5: where the showroom's company and products come from (forms.yaml `showroom:`). */
  showroom?: ShowroomDeclaration;
  find(id: string): FormDefinition | undefined;
  /** The form's schema and UI schema for an event, its patch applied. */
  filesFor(id: string, exhibitCode: string): FormFiles;
}

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}

export function loadFormRegistry(dir = SCHEMAS_DIR): FormRegistry {
  const listFile = join(dir, 'forms', 'forms.yaml');
  const list = existsSync(listFile) ? (parse(readFileSync(listFile, 'utf8')) as { forms?: FormDefinition[]; showroom?: ShowroomDeclaration }) : {};
  const definitions: FormDefinition[] = list.forms ?? [];
  const showroomIssues = showroomProblems(list.showroom, definitions.map((d) => d.id));
  if (showroomIssues.length > 0) throw new Error(showroomIssues.join('\n'));
  const base = new Map<string, FormFiles>();
  for (const definition of definitions) {
    base.set(definition.id, {
      schema: readJson(join(dir, 'forms', `${definition.id}.schema.json`)) as AnySchemaObject,
      ui: readJson(join(dir, 'forms', `${definition.id}.ui.json`)) as Record<string, unknown>,
    });
    // P1: a wrong contractor part would show a contractor the wrong fields: refuse to start.
    const schema = base.get(definition.id)!.schema as { properties?: Record<string, unknown> };
    const problems = [...partProblems(definition, schema), ...approvalSummaryProblems(definition, schema)];
    if (problems.length > 0) throw new Error(problems.join('\n'));
  }
  const patched = new Map<string, FormFiles>();
  return {
    definitions,
    showroom: list.showroom,
    find: (id) => definitions.find((d) => d.id === id),
    filesFor(id, exhibitCode) {
      const key = `${exhibitCode}/${id}`;
      const cached = patched.get(key);
      if (cached) return cached;
      const files = base.get(id);
      if (!files) throw new Error(`Unknown form ${id}`);
      const patchFile = join(dir, 'events', exhibitCode, `${id}.patch.json`);
      const result = existsSync(patchFile)
        ? (() => {
            const patch = readJson(patchFile) as { schema?: unknown; ui?: unknown };
            return { schema: mergePatch(files.schema, patch.schema ?? {}), ui: mergePatch(files.ui, patch.ui ?? {}) };
          })()
        : files;
      patched.set(key, result);
      return result;
    },
  };
}
