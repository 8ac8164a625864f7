import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './catalogue-source';
import { readBuiltApp } from './feature-map';

// The OpenAPI document the app builds passes @redocly/cli's lint (redocly.yaml: the recommended
// rules, every operation with its id) with no errors. Offline: no telemetry, no update check.

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location?: Array<{ pointer?: string }>;
}

export async function openapiLintProblems(root = ROOT): Promise<string[]> {
  const { openapi } = await readBuiltApp(root);
  const dir = mkdtempSync(join(tmpdir(), 'portal-openapi-lint-'));
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(openapi));
    const cli = join(root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
    const run = await promisify(execFile)(process.execPath, [cli, 'lint', file, `--config=${join(root, 'redocly.yaml')}`, '--format=json', '--max-problems=1000'], {
      cwd: root,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: { stdout?: string; stderr?: string; message: string }) => ({ stdout: error.stdout ?? '', stderr: error.stderr ?? error.message }));
    const start = run.stdout.indexOf('{');
    if (start < 0) return [`redocly lint gave no report: ${run.stderr.trim().slice(0, 500)}`];
    const report = JSON.parse(run.stdout.slice(start)) as { problems?: LintProblem[] };
    return (report.problems ?? [])
      .filter((problem) => problem.severity === 'error')
      .map((problem) => `${problem.ruleId} at ${problem.location?.[0]?.pointer ?? '?'}: ${problem.message}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
