import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

// F11: `npm run check` on a copy of schemas/ (FORMS_DIR) with one organiser
// mistake fails, naming the file and the JSON pointer of the mistake. The script runs as CI runs it,
// less the API types, which build the whole app and do not read FORMS_DIR.

const ROOT = join(import.meta.dirname, '..');
const run = promisify(execFile);

let root = '';
function copyOfForms(): string {
  root = mkdtempSync(join(tmpdir(), 'portal-check-forms-'));
  cpSync(join(ROOT, 'schemas'), join(root, 'schemas'), { recursive: true });
  cpSync(join(ROOT, 'locales'), join(root, 'locales'), { recursive: true });
  return join(root, 'schemas');
}
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function check(formsDir: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(join(ROOT, 'node_modules/.bin/tsx'), [join(ROOT, 'scripts/check.ts'), '--skip-api-types'], {
      cwd: ROOT,
      env: { ...process.env, FORMS_DIR: formsDir },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

describe('F11 npm run check on a copy of the forms', () => {
  it('an event patch removing a field that is still required and still ordered: exit 1, the patch file and both pointers', async () => {
    const formsDir = copyOfForms();
    mkdirSync(join(formsDir, 'events', 'AFHE2027'), { recursive: true });
    const patch = join(formsDir, 'events', 'AFHE2027', 's04.patch.json');
    writeFileSync(patch, JSON.stringify({ schema: { properties: { badges: { items: { properties: { lastName: null } } } } } }));
    const { code, output } = await check(formsDir);
    expect(code).toBe(1);
    expect(output).toContain('FAIL participation forms');
    expect(output).toContain('events/AFHE2027/s04.patch.json /schema/properties/badges/items/required/1: "lastName" is required but is not a property of the form');
    expect(output).toContain('events/AFHE2027/s04.patch.json /ui/badges/items/ui:order/2: "lastName" is not a field of the form here');

    // The same patch done right (removed from properties, required and ui:order) passes.
    const s04 = JSON.parse(readFileSync(join(formsDir, 'forms', 's04.schema.json'), 'utf8'));
    const ui = JSON.parse(readFileSync(join(formsDir, 'forms', 's04.ui.json'), 'utf8'));
    writeFileSync(
      patch,
      JSON.stringify({
        schema: {
          properties: { badges: { items: { properties: { lastName: null }, required: s04.properties.badges.items.required.filter((name: string) => name !== 'lastName') } } },
        },
        ui: { badges: { items: { 'ui:order': ui.badges.items['ui:order'].filter((name: string) => name !== 'lastName') } } },
      }),
    );
    const fixed = await check(formsDir);
    expect(fixed.output).toContain('ok   participation forms');
    expect(fixed.code).toBe(0);
  }, 120_000);

  it("an event patch removing a field forms.yaml's approval summary names: refused unless the entry lists it as optional", async () => {
    const formsDir = copyOfForms();
    const list = join(formsDir, 'forms', 'forms.yaml');
    const declared = readFileSync(list, 'utf8');
    // HALAL2026's S04 patch removes lastName; without `optional: [lastName]` the summary names a field that event lacks.
    writeFileSync(list, declared.replace(', optional: [lastName] }]', ' }]'));
    const { code, output } = await check(formsDir);
    expect(code).toBe(1);
    expect(output).toMatch(
      /events\/HALAL2026\/s04\.patch\.json \/schema\/properties\/badges\/items\/properties\/lastName: forms\/forms\.yaml \/forms\/\d+\/approvalSummary\/0\/show\/2 names "badges\.lastName", which this event’s form does not have/,
    );

    // Declared optional, the same patch passes; a typo in the optional name fails at its pointer.
    writeFileSync(list, declared.replace('optional: [lastName]', 'optional: [lastNam]'));
    const typo = await check(formsDir);
    expect(typo.code).toBe(1);
    expect(typo.output).toMatch(/forms\/forms\.yaml \/forms\/\d+\/approvalSummary\/0\/optional\/0: "lastNam" is not named by this entry/);
    writeFileSync(list, declared);
    const good = await check(formsDir);
    expect(good.output).toContain('ok   participation forms');
    expect(good.code).toBe(0);
  }, 180_000);

  it('a typo in forms.yaml (aproval:): exit 1 with forms.yaml and the pointer of the key', async () => {
    const formsDir = copyOfForms();
    const list = join(formsDir, 'forms', 'forms.yaml');
    writeFileSync(list, readFileSync(list, 'utf8').replace('    approval: { when: always }', '    aproval: { when: always }'));
    const { code, output } = await check(formsDir);
    expect(code).toBe(1);
    expect(output).toMatch(/forms\/forms\.yaml \/forms\/\d+\/aproval: unknown key "aproval"/);
  }, 120_000);
});
