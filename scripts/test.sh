#!/usr/bin/env bash
# The README's test command: every check, then unit, server (PGlite and PostgreSQL), and
# browser tests against the built app. Ends with one "N passed, N failed" line.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p .tmp
rm -f .tmp/vitest-*.json

bash scripts/ensure-system-deps.sh || exit 1

failed_stages=()
stage() {
  local name=$1; shift
  echo
  echo "=== $name ==="
  local started=$SECONDS
  if "$@"; then
    echo "=== $name: ok ($((SECONDS - started)) s)"
  else
    echo "=== $name: FAILED ($((SECONDS - started)) s)"
    failed_stages+=("$name")
  fi
}

# vitest_stage <report name> <project>…: one run of the projects, one JSON report.
vitest_stage() {
  local report=$1; shift
  local projects=()
  for project in "$@"; do projects+=(--project "$project"); done
  npx vitest run "${projects[@]}" --reporter=default --reporter=json --outputFile.json=".tmp/vitest-$report.json"
}

stage "checks (catalogue, generated code, locales, imports)" npm run --silent check
stage "type check" npx tsc --noEmit -p tsconfig.json
stage "unit tests (pure in node, components in jsdom)" vitest_stage unit unit unit-dom
stage "server tests (PGlite and PostgreSQL)" vitest_stage server server
build() { npx vite build --logLevel warn && node scripts/build-server.mjs; }
stage "build (web app and bundled server)" build
stage "browser tests (Chromium)" vitest_stage e2e e2e

node -e '
  const fs = require("fs");
  let passed = 0, failed = 0, skipped = 0;
  const failures = [];
  for (const project of ["unit", "server", "e2e"]) {
    const file = `.tmp/vitest-${project}.json`;
    if (!fs.existsSync(file)) continue;
    const report = JSON.parse(fs.readFileSync(file, "utf8"));
    passed += report.numPassedTests; failed += report.numFailedTests; skipped += report.numPendingTests + (report.numTodoTests || 0);
    console.log(`${project}: ${report.numPassedTests} passed, ${report.numFailedTests} failed`);
    // The failing tests are named here, after everything else, so the last lines of a long log
    // say what failed and why.
    const firstLines = (message) => (message || "").split("\n").slice(0, 6).join("\n    ");
    for (const testFile of report.testResults) {
      const where = `${project} ${testFile.name.replace(process.cwd() + "/", "")}`;
      // A file whose set-up failed has no failed test of its own, only its message.
      if (testFile.status === "failed" && testFile.message) failures.push(`FAILED ${where}\n    ${firstLines(testFile.message)}`);
      for (const test of testFile.assertionResults) {
        if (test.status === "failed") failures.push(`FAILED ${where} > ${test.fullName}\n    ${firstLines(test.failureMessages[0])}`);
      }
    }
  }
  for (const failure of failures) console.log(failure);
  console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
'
if [ ${#failed_stages[@]} -gt 0 ]; then
  echo "Failed stages: ${failed_stages[*]}" >&2
  exit 1
fi
