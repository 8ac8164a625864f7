import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FormContext } from '../../src/engine/forms/context';
import { instantiateValidators, type ValidatorModule } from '../../src/engine/forms/served-validators';
import { createFormAjv, runValidator } from '../../src/engine/forms/validator';
import { loadFormRegistry } from '../../src/server/plugins/forms/form-set';
import { ROOT } from '../catalogue-source';

// The first validation of a form, the two ways the portal could do it: compiling the schema
// with ajv at run time, or loading the validator module the server compiled and serves to the
// browser (F11; before, the same ajv code was precompiled into src/generated/validators).
// Kept apart from the browser benchmarks so that a fresh child process running this file
// loads only what the server has loaded before its first submission (ajv, ajv-formats, the
// form rules, @rjsf/utils) and not the server, the database or playwright.

const FIRST_NAMES = ['Aisyah', 'Wei Ling', 'Ravi', 'Siti', 'Daniel', 'Mei', 'Nguyen', 'Haruto', 'Priya', 'Farid'];
const LAST_NAMES = ['Rahman', 'Tan', 'Kumar', 'Nurhaliza', "O'Brien", 'Chen', 'Tran', 'Sato', 'Lim', 'Ismail'];
const CATEGORIES = ['bakeryConfectionery', 'beverages', 'dairy', 'meatSeafood', 'freshProduce', 'processedFood', 'healthOrganic', 'hospitalityEquipment'];
const INTERESTS = ['distributors', 'importers', 'retailers', 'foodservice', 'oemPartners'];

/** 50 valid badges, every field filled in, e-mails unique. */
export function badges(count = 50): Record<string, unknown> {
  return {
    badges: Array.from({ length: count }, (_, i) => {
      const firstName = FIRST_NAMES[i % 10]!;
      const lastName = LAST_NAMES[Math.floor(i / 5) % 10]!;
      return {
        firstName,
        middleName: i % 3 === 0 ? 'Binti' : '',
        lastName,
        lastNameFirst: i % 4 === 0,
        companyOnBadge: 'Borneo Botanica',
        gender: i % 2 === 0 ? 'female' : 'male',
        email: `${firstName}.${lastName}.${i}@borneo-botanica.example`.toLowerCase().replace(/[^a-z0-9.@-]/g, ''),
        extra: false,
      };
    }),
  };
}

/** 50 valid products with both languages, a description and a video link (no image: uploads are another matter). */
export function products(count = 50): Record<string, unknown> {
  return {
    products: Array.from({ length: count }, (_, i) => ({
      brandName: `Borneo Botanica ${['Classic', 'Reserve', 'Wild', 'Organic', 'Kitchen'][i % 5]}`,
      brandNameLocal: `婆罗洲植物 ${i % 5}`,
      productName: `Highland tea blend no. ${i + 1}`,
      productNameLocal: `高地混合茶 ${i + 1} 号`,
      description: `Hand-picked leaves from the Crocker Range, dried in the sun and blended in small batches. Blend ${i + 1} suits hotels and cafés; sold in 250 g tins and 2 kg catering packs, shelf life 24 months.`,
      descriptionLocal: `来自克罗克山脉的手摘茶叶，日晒后小批量拼配。第 ${i + 1} 号适合酒店与咖啡馆。`,
      category: CATEGORIES[i % CATEGORIES.length],
      videoUrl: `https://www.youtube.com/watch?v=bb${String(i).padStart(9, '0')}`,
      newLaunch: i % 7 === 0,
      productInterest: INTERESTS[i % INTERESTS.length],
    })),
  };
}

/** The demo exhibitor's context, with room for 50 badges so that the document is valid. */
export const CONTEXT: FormContext = {
  flags: { s02BrandNameShow: true, productSecondLanguage: true, s01CompanyShow: true, s01ContactShow: true },
  quotas: { badges: 50, contractorBadges: 50 },
};

export interface BenchForm {
  id: 's04' | 's02';
  label: string;
  document: Record<string, unknown>;
}

export const FORMS: BenchForm[] = [
  { id: 's04', label: 'S04, 50 badges', document: badges() },
  { id: 's02', label: 'S02, 50 products', document: products() },
];

export type Variant = 'runtime' | 'served';

export interface Sample {
  /** Getting a validate function (compile, or import) plus the first validation. */
  ms: number;
  /** The first validation alone. */
  validateMs: number;
  errors: number;
}

function schemaOf(id: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(ROOT, 'schemas/forms', `${id}.schema.json`), 'utf8')) as Record<string, unknown>;
}

/**
 * Prepares one form, untimed: its schema, and the module the server serves for it written to a
 * file (the browser fetches it over HTTP; here it is loaded from disk) with its root key.
 */
export function prepare(form: BenchForm) {
  const schema = schemaOf(form.id);
  const registry = loadFormRegistry();
  const served = registry.validatorFor(form.id, '');
  const file = join(mkdtempSync(join(tmpdir(), 'portal-bench-validators-')), `${served.hash}.mjs`);
  writeFileSync(file, served.module);
  return { ...form, schema, uploads: registry.uploads, rootKey: served.rootKey, moduleUrl: pathToFileURL(file).href };
}

export type PreparedForm = ReturnType<typeof prepare>;

/** Run-time: a new ajv with the form keywords, compile the schema, validate the document once. */
export function runtimeFirstValidation(form: PreparedForm): Sample {
  const start = performance.now();
  const validate = createFormAjv({ uploads: form.uploads }).compile(form.schema);
  const ready = performance.now();
  const errors = runValidator(validate, () => validate.errors, form.document, CONTEXT);
  const end = performance.now();
  return { ms: end - start, validateMs: end - ready, errors: errors.length };
}

/**
 * Served: import the module the server serves (a URL never imported before in this process, so
 * Node loads, parses and evaluates it again), give it the runtime modules and validate once.
 * Those modules (the form rules, ajv's runtime) are already loaded, as in the browser's bundle.
 */
export async function servedFirstValidation(form: PreparedForm, sample: string): Promise<Sample> {
  const start = performance.now();
  const validators = instantiateValidators((await import(`${form.moduleUrl}?sample=${sample}`)) as ValidatorModule);
  const validate = validators[form.rootKey];
  if (!validate) throw new Error(`no root validator for ${form.id}`);
  const ready = performance.now();
  const errors = runValidator(validate, () => validate.errors as never, form.document, CONTEXT);
  const end = performance.now();
  return { ms: end - start, validateMs: end - ready, errors: errors.length };
}

export function measure(form: PreparedForm, variant: Variant, sample: string): Promise<Sample> {
  return variant === 'runtime' ? Promise.resolve(runtimeFirstValidation(form)) : servedFirstValidation(form, sample);
}

/** In a fresh process: `node --import tsx first-validation.ts <form id> <variant>` prints one sample as JSON. */
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [id, variant] = process.argv.slice(2) as [string, Variant];
  const form = FORMS.find((f) => f.id === id);
  if (!form || (variant !== 'runtime' && variant !== 'served')) throw new Error('usage: first-validation.ts <s04|s02> <runtime|served>');
  const prepared = prepare(form);
  process.stdout.write(JSON.stringify(await measure(prepared, variant, 'fresh')));
}
