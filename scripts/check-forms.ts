import { join } from 'node:path';
import { readFormSet } from '../src/server/plugins/forms/form-set';
import { ROOT } from './catalogue-source';

// F11: CI's check of the forms as data is the very function the server's live
// reload runs (readFormSet): forms.yaml against its JSON Schema, every form and event patch
// through the engine's checks, and each validator compiled, loaded and run on an empty
// submission. Each problem names its file (under FORMS_DIR) and a JSON pointer into it.
// FORMS_DIR (default: the project's schemas/, with locales/ beside it) checks another copy.

export function formProblems(formsDir = process.env.FORMS_DIR ?? join(ROOT, 'schemas')): string[] {
  return readFormSet(formsDir).problems.map((problem) => `${join(formsDir, problem.file).replace(`${ROOT}/`, '')}${problem.path ? ` ${problem.path}` : ''}: ${problem.message}`);
}
