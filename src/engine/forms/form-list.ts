import Ajv, { type ErrorObject } from 'ajv';
import { parse } from 'yaml';
import { flagDeclarationProblems } from '../participation-flags';
import { FORM_LIST_SCHEMA } from './form-list-schema';
import type { FormList } from './definitions';
import type { FormProblem } from '../schemas/form-problem';

// F11: the one loader of forms.yaml, used by the server's form set, the scripts
// and the tests. It takes the file's text (or its parsed value) and answers either the typed
// declarations or every problem, each with a JSON pointer into the file.

export type { FormProblem };

/** forms.yaml's path inside FORMS_DIR (and in problems). */
export const FORM_LIST_FILE = 'forms/forms.yaml';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const escapePointer = (part: string | number) => String(part).replace(/~/g, '~0').replace(/\//g, '~1');
/** A JSON pointer from its parts. */
export const pointerOf = (...parts: Array<string | number>) => parts.map((part) => `/${escapePointer(part)}`).join('');

const APPROVAL_KINDS = FORM_LIST_SCHEMA.properties.forms.items.properties.approval.oneOf.map((shape) => shape.properties.when.const);

let validateList: ReturnType<Ajv['compile']> | null = null;
function listValidator() {
  validateList ??= new Ajv({ allErrors: true, strict: true, discriminator: true }).compile(FORM_LIST_SCHEMA);
  return validateList;
}

/** ajv's error as the organiser reads it: the key at fault in the path, a plain message. */
function toProblem(error: ErrorObject): FormProblem {
  const params = error.params as Record<string, unknown>;
  // A key outside a closed list of names (showroom fields).
  if (error.propertyName !== undefined && error.instancePath === '/uploads')
    return {
      file: FORM_LIST_FILE,
      path: `/uploads/${escapePointer(error.propertyName)}`,
      message: `"${error.propertyName}" cannot name a purpose: letters and digits, starting with a letter; businessCard and manualAttachment are the portal's own`,
    };
  if (error.propertyName !== undefined && error.instancePath === '/deadlines')
    return {
      file: FORM_LIST_FILE,
      path: `/deadlines/${escapePointer(error.propertyName)}`,
      message: `"${error.propertyName}" cannot name a deadline: letters and digits, starting with a letter`,
    };
  if (error.propertyName !== undefined)
    return { file: FORM_LIST_FILE, path: `${error.instancePath}/${escapePointer(error.propertyName)}`, message: `unknown key "${error.propertyName}"` };
  if (error.keyword === 'additionalProperties') {
    return {
      file: FORM_LIST_FILE,
      path: `${error.instancePath}/${escapePointer(String(params.additionalProperty))}`,
      message: `unknown key "${String(params.additionalProperty)}"`,
    };
  }
  if (error.keyword === 'required') {
    return { file: FORM_LIST_FILE, path: `${error.instancePath}/${escapePointer(String(params.missingProperty))}`, message: 'required key missing' };
  }
  if (error.keyword === 'discriminator')
    return { file: FORM_LIST_FILE, path: `${error.instancePath}/${String(params.tag)}`, message: `must be one of ${APPROVAL_KINDS.join(', ')}` };
  if (error.keyword === 'enum') return { file: FORM_LIST_FILE, path: error.instancePath, message: `must be one of ${(params.allowedValues as unknown[]).join(', ')}` };
  return { file: FORM_LIST_FILE, path: error.instancePath, message: error.message ?? error.keyword };
}

/**
 * forms.yaml, checked against its JSON Schema (unknown keys refused) and for what a schema cannot
 * say: form ids and codes used twice, prerequisites naming no form, a deadline not declared, a
 * flag declared twice or named as one of the portal's own.
 */
export function loadFormList(source: string | unknown): { list: FormList; problems: [] } | { list: null; problems: FormProblem[] } {
  let value: unknown = source;
  if (typeof source === 'string') {
    try {
      value = parse(source);
    } catch (error) {
      return { list: null, problems: [{ file: FORM_LIST_FILE, path: '', message: (error as Error).message }] };
    }
  }
  const validate = listValidator();
  const valid = validate(value);
  // propertyNames' own error only repeats the one about the name it refused.
  const problems: FormProblem[] = (validate.errors ?? []).filter((error) => error.keyword !== 'propertyNames').map(toProblem);
  // Ids and codes are compared even when the file has other problems: every problem at once.
  const forms = (isObject(value) && Array.isArray(value.forms) ? value.forms : []).map((form) => (isObject(form) ? form : {}));
  const ids = new Set(forms.map((form) => form.id));
  for (const key of ['id', 'code', 'screen'] as const) {
    const first = new Map<unknown, number>();
    forms.forEach((form, index) => {
      const name = form[key];
      if (typeof name !== 'string') return;
      if (first.has(name)) problems.push({ file: FORM_LIST_FILE, path: pointerOf('forms', index, key), message: `"${name}" is already the ${key} of /forms/${first.get(name)}` });
      else first.set(name, index);
    });
  }
  forms.forEach((form, index) => {
    (Array.isArray(form.prerequisites) ? form.prerequisites : []).forEach((prerequisite, at) => {
      if (!ids.has(prerequisite)) problems.push({ file: FORM_LIST_FILE, path: pointerOf('forms', index, 'prerequisites', at), message: `"${String(prerequisite)}" is not a form` });
    });
  });
  // H2 O2: a form's deadline is one the file declares.
  const deadlines = isObject(value) && isObject(value.deadlines) ? Object.keys(value.deadlines) : [];
  forms.forEach((form, index) => {
    if (typeof form.deadline === 'string' && !deadlines.includes(form.deadline))
      problems.push({ file: FORM_LIST_FILE, path: pointerOf('forms', index, 'deadline'), message: `must be one of ${deadlines.join(', ')} (the names under /deadlines)` });
  });
  for (const problem of flagDeclarationProblems(forms)) problems.push({ file: FORM_LIST_FILE, ...problem });
  if (valid && problems.length === 0) return { list: value as FormList, problems: [] };
  return { list: null, problems };
}

/** The forms of a forms.yaml that must be valid (tests and scripts reading the project's own); throws with every problem. */
export function formListOf(source: string | unknown): FormList {
  const loaded = loadFormList(source);
  if (!loaded.list) throw new Error(loaded.problems.map((problem) => `${problem.file} ${problem.path}: ${problem.message}`).join('\n'));
  return loaded.list;
}
