import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formNamingProblems, namedFormThings, schemaFieldNames } from './check-form-names';

// A small portal tree: one form whose fields include a nested section, a list and an if/then field.
function portal(sources: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'form-names-'));
  mkdirSync(join(root, 'schemas', 'forms'), { recursive: true });
  writeFileSync(join(root, 'schemas', 'forms', 'forms.yaml'), 'forms:\n  - id: booth\n    code: B01\n');
  const schema = {
    type: 'object',
    properties: {
      stand: { type: 'object', properties: { standHeight: { type: 'number' } } },
      guests: { type: 'array', items: { type: 'object', properties: { guestName: { type: 'string' } } } },
      name: { type: 'string' },
    },
    if: { properties: { standHeight: { minimum: 3 } } },
    then: { properties: { engineerCertificate: { type: 'string' } } },
  };
  writeFileSync(join(root, 'schemas', 'forms', 'booth.schema.json'), JSON.stringify(schema));
  for (const [file, text] of Object.entries(sources)) {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  return root;
}

describe('check: TypeScript names no form (issue 11 item 4)', () => {
  it('reports a form id, a form code and fields at any depth, with file:line', () => {
    const root = portal({
      'src/server/modules/x/routes.ts':
        "const a = 1;\nwhere('form_id', '=', 'booth');\nconst code = \"B01\";\nconst h = data['standHeight'];\nconst g = `guestName`;\nconst c = 'engineerCertificate';\n",
    });
    expect(formNamingProblems(root, {})).toEqual([
      'src/server/modules/x/routes.ts:2: names the form "booth"; read it from forms.yaml',
      'src/server/modules/x/routes.ts:3: names the form "B01"; read it from forms.yaml',
      'src/server/modules/x/routes.ts:4: names the form field "standHeight"; declare what it is for in forms.yaml or the form\'s schema',
      'src/server/modules/x/routes.ts:5: names the form field "guestName"; declare what it is for in forms.yaml or the form\'s schema',
      'src/server/modules/x/routes.ts:6: names the form field "engineerCertificate"; declare what it is for in forms.yaml or the form\'s schema',
    ]);
  });

  it('leaves alone tests, generated code, comments, shared words and names inside longer text', () => {
    const root = portal({
      'src/server/modules/x/routes.test.ts': "expect(form).toBe('booth');\n",
      'src/generated/forms.ts': "export const ids = ['booth'];\n",
      'src/server/modules/x/routes.ts': "// the 'booth' form\nconst n = 'name';\nconst t = 'booth height';\nconst k = 'forms.booth.title';\n",
    });
    expect(formNamingProblems(root, {})).toEqual([]);
  });

  it('reports an exception that names no file, and skips one that does', () => {
    const root = portal({ 'src/old.ts': "const f = 'booth';\n" });
    expect(formNamingProblems(root, { 'src/old.ts': 'kept', 'src/gone.ts': 'removed' })).toEqual([
      'scripts/check-form-names.ts: the exception "src/gone.ts" names no file; remove it',
    ]);
  });

  it('collects field names from nested sections, list items and conditional branches', () => {
    expect([...schemaFieldNames({ properties: { a: { properties: { b: {} } } }, items: { properties: { c: {} } }, else: { properties: { d: {} } } })].sort()).toEqual([
      'a',
      'b',
      'c',
      'd',
    ]);
  });

  it('the forms of this portal: the former lead-interests lookup would fail the check', () => {
    const names = { ids: new Set(['s02']), fields: new Set(['productName']) };
    const problems = namedFormThings('leads.ts', ".where('form_id', '=', 's02')\nproducts.map((p) => p['productName'])", names);
    expect(problems).toHaveLength(2);
  });
});
