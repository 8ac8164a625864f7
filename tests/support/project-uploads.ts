import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { uploadRules } from '../../src/engine/forms/files';
import { formListOf } from '../../src/engine/forms/form-list';

/** The project's upload purposes as forms.yaml declares them (`uploads:`), for tests that compile the real schemas. */
export const PROJECT_UPLOADS = uploadRules(formListOf(readFileSync(join(import.meta.dirname, '../../schemas/forms/forms.yaml'), 'utf8')).uploads);
