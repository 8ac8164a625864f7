import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formNames, formNamingProblems, namedFormThings, schemaFieldNames } from './check-form-names';
import { tokenize } from './ts-tokens';

// A small portal tree: one form whose fields include a nested section, a list and an if/then field.
function portal(sources: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'form-names-'));
  mkdirSync(join(root, 'schemas', 'forms'), { recursive: true });
  writeFileSync(
    join(root, 'schemas', 'forms', 'forms.yaml'),
    'forms:\n  - id: booth\n    code: B01\n    submitOnceFlag: boothSubmitOnceOnly\n    sectionFlags: [boothGuestsShow]\n    languageFlag: standLanguage\n',
  );
  const schema = {
    type: 'object',
    properties: {
      stand: { type: 'object', properties: { standHeight: { type: 'number' } } },
      guests: { type: 'array', items: { type: 'object', properties: { guestName: { type: 'string' }, item: { type: 'string' } } } },
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

describe('check: TypeScript names no form', () => {
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

describe('check: TypeScript builds no name from a form', () => {
  const problemsIn = (source: string) => formNamingProblems(portal({ 'src/server/modules/x/flags.ts': source }), {});

  it('reports names built from a form id: template literals, + chains, identifiers and property names', () => {
    expect(
      problemsIn(
        [
          'const once = `booth${kind}OnceOnly`;',
          "const show = 'booth' + 'GuestsShow';",
          'const flag = participation.flags.boothGuestsShow;',
          'const defaults = { boothSubmitOnceOnly: true };',
          'const code = `B0${n}`;',
          "const language = 'st' + suffix + 'Language';",
        ].join('\n'),
      ),
    ).toEqual([
      'src/server/modules/x/flags.ts:1: builds "booth${…}OnceOnly", which can make "boothSubmitOnceOnly", a name of the form "booth"; read it from forms.yaml',
      'src/server/modules/x/flags.ts:2: names the form "booth"; read it from forms.yaml',
      'src/server/modules/x/flags.ts:2: builds "boothGuestsShow", a name of the form "booth"; read it from forms.yaml',
      'src/server/modules/x/flags.ts:3: names "boothGuestsShow", a name of the form "booth"; read it from forms.yaml',
      'src/server/modules/x/flags.ts:4: names "boothSubmitOnceOnly", a name of the form "booth"; read it from forms.yaml',
      'src/server/modules/x/flags.ts:5: builds "B0${…}", which can make the form "B01"; read it from forms.yaml',
      'src/server/modules/x/flags.ts:6: builds "st${…}Language", which can make "standLanguage", a name of the form "booth"; read it from forms.yaml',
    ]);
  });

  it("a flag forms.yaml declares is the form's name even when it does not start with the form id", () => {
    expect(problemsIn("const on = flags['standLanguage'];\n")).toEqual([
      'src/server/modules/x/flags.ts:1: names "standLanguage", a name of the form "booth"; read it from forms.yaml',
    ]);
  });

  it('leaves alone names built of other things, comments, regular expressions and JSX text', () => {
    expect(
      problemsIn(
        [
          'const key = `forms.${id}.title`;',
          'const url = base + `/forms/${id}` + "/submit";',
          '/* `booth${n}` */ const ratio = total / 2; // "booth"',
          "const pattern = /'booth'/g;",
          "const text = <p>It's {count} o'clock</p>;",
          'const deadline = `${name}Dlinedate`;',
        ].join('\n'),
      ),
    ).toEqual([]);
  });

  it("a form field named like an API field is the API's where the file declares it in its own schema", () => {
    const root = portal({
      'src/server/modules/x/import-routes.ts': "const rows = { type: 'object', properties: { row: { type: 'integer' }, item: { type: 'object' } }, required: ['row', 'item'] };\n",
      'src/server/modules/x/other.ts': "const first = data['item'];\n",
    });
    expect(formNamingProblems(root, {})).toEqual(['src/server/modules/x/other.ts:1: names the form field "item"; declare what it is for in forms.yaml or the form\'s schema']);
  });

  it("this portal's former flag lists (engine/participation-flags.ts) fail the check", () => {
    const former = [
      "export const SECTION_FLAGS = ['s01CompanyShow', 's01ContactShow', 's01DistributionShow', 's01GoalShow', 's02BrandNameShow', 'S01BoothDisplayName'] as const;",
      "export const LANGUAGE_FLAGS = ['productSecondLanguage', 'profileSecondLanguage'] as const;",
      "export const SUBMIT_ONCE_FLAGS = ['s01SubmitOnceOnly', 's02SubmitOnceOnly', 's03SubmitOnceOnly', 's04SubmitOnceOnly', 's05SubmitOnceOnly'] as const;",
    ].join('\n');
    const problems = namedFormThings('src/engine/participation-flags.ts', former, formNames());
    expect(problems).toHaveLength(13);
    expect(problems).toContain('src/engine/participation-flags.ts:1: names "s01CompanyShow", a name of the form "s01"; read it from forms.yaml');
    expect(problems).toContain('src/engine/participation-flags.ts:2: names "productSecondLanguage", a name of the form "s02"; read it from forms.yaml');
    expect(problems).toContain('src/engine/participation-flags.ts:3: names "s05SubmitOnceOnly", a name of the form "s05"; read it from forms.yaml');
  });
});

describe('ts-tokens', () => {
  it('reads strings with escapes, template parts and the code of their substitutions, and skips comments', () => {
    const tokens = tokenize("const a = 'it\\'s'; // 'x'\nconst b = `p${f('q')}r`;");
    expect(tokens.filter((token) => token.kind === 'string').map((token) => (token as { value: string }).value)).toEqual(["it's", 'q']);
    expect(tokens.find((token) => token.kind === 'template')).toEqual({ kind: 'template', parts: ['p', 'r'], line: 2 });
  });
});
