import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverBoundaryProblems } from './check-server-boundaries';

// A small server tree: two modules, a lib file and a plugin.
function server(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'server-boundaries-'));
  const all = {
    'src/server/modules/forms/routes.ts': 'export const formRoutes = 1;\nexport interface FormRow { id: string }\n',
    'src/server/lib/shared.ts': 'export interface Shared { id: number }\n',
    'src/server/plugins/forms/service.ts': 'export const service = 1;\n',
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('server boundaries', () => {
  it('passes a module that imports lib, plugins and its own files', () => {
    const root = server({
      'src/server/modules/approvals/routes.ts':
        "import type { Shared } from '../../lib/shared';\nimport { service } from '../../plugins/forms/service';\nimport { helper } from './helper';\n",
      'src/server/modules/approvals/helper.ts': 'export const helper = 1;\n',
    });
    expect(serverBoundaryProblems(root)).toEqual([]);
  });

  it("refuses a module importing another module's code", () => {
    const root = server({ 'src/server/modules/approvals/routes.ts': "import { formRoutes } from '../forms/routes';\n" });
    expect(serverBoundaryProblems(root)).toEqual([expect.stringContaining('module "approvals" imports module "forms"')]);
  });

  it("refuses a module importing another module's types only", () => {
    const root = server({
      'src/server/modules/approvals/routes.ts': "import type { FormRow } from '../forms/routes';\n",
      'src/server/modules/reopen/routes.ts': "import { type FormRow } from '../forms/routes';\nexport type { FormRow } from '../forms/routes';\n",
    });
    const problems = serverBoundaryProblems(root);
    expect(problems.filter((problem) => problem.includes('"approvals" imports module "forms"'))).toHaveLength(1);
    expect(problems.filter((problem) => problem.includes('"reopen" imports module "forms"'))).toHaveLength(2);
  });

  it('refuses infrastructure importing a module, types included', () => {
    const root = server({ 'src/server/lib/uses-module.ts': "import type {\n  FormRow,\n} from '../modules/forms/routes';\n" });
    expect(serverBoundaryProblems(root)).toEqual([expect.stringContaining('infrastructure imports module "forms"')]);
  });
});
