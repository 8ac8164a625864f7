import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileSchemaValidatorsCode } from '@rjsf/validator-ajv8/compileSchemaValidators';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { addFormKeywords } from '../../src/engine/forms/keywords';
import { RULES_MODULE } from '../../src/engine/forms/served-validators';
import { FORM_AJV_OPTIONS } from '../../src/engine/forms/validator';
import { loadFormRegistry } from '../../src/server/plugins/forms/form-set';
import { validatorUrl } from '../../src/server/plugins/forms/service';
import { ROOT } from '../catalogue-source';
import { CONTEXT, FORMS } from './first-validation';
import { launchChromium, startPortal } from './support';

// F11 benchmark: the first validation in the browser (Chromium) with the validators the
// server compiles and serves, against the precompiled validators the portal had before them
// (ajv standalone code generated at build time and bundled into the app as lazy chunks). That
// variant exists only here: at bench time the same ajv standalone code is generated, turned into
// ES modules as the old generator did, and bundled with esbuild beside a small harness page that
// the portal serves (from a web folder of its own) on the same origin as the served modules. Each
// sample is what the form page does: get the module (import()), build rjsf's precompiled
// validator and validate the 50-item document once.
//   uncached = a new browser context (empty HTTP cache): the module comes over the network
//   cached   = a second page in that context: the module comes from the HTTP cache (both are
//              immutable: assets/ and the content-hashed /oga/forms/validators/<hash>.js)

const ROUNDS = Number(process.env.BENCH_FIRST_VALIDATION_ROUNDS ?? 9);

type Variant = 'served' | 'precompiled';
interface BrowserSample {
  /** import() of the module, the validator built, and the first validation. */
  ms: number;
  /** The import() alone. */
  loadMs: number;
  errors: number;
}

/** What the generator of precompiled validators wrote (scripts/form-validators.ts, since removed: the server compiles them): ajv's CommonJS as an ES module. */
function precompiledModule(commonJs: string): string {
  const imports = new Map<string, string>();
  const body = commonJs
    .replace(/^"use strict";\n?/, '')
    .replace(/require\("([^"]+)"\)/g, (_, specifier: string) => {
      let name = imports.get(specifier);
      if (!name) {
        name = `imported${imports.size}`;
        imports.set(specifier, name);
      }
      return name;
    })
    .replace(/\bexports\[/g, 'validators[')
    .replace(/\bexports\.(\w+)/g, 'validators.$1');
  const source = (specifier: string) => (specifier === RULES_MODULE ? join(ROOT, 'src/engine/forms/rules.ts') : specifier);
  const importLines = [...imports].map(([specifier, name]) => `import * as ${name}Namespace from ${JSON.stringify(source(specifier))};\nconst ${name} = cjs(${name}Namespace);`);
  const helper = 'function cjs(ns) {\n  return ns && ns.default && typeof ns.default === "object" && "__esModule" in ns.default ? ns.default : ns;\n}';
  return `${importLines.join('\n')}\n${helper}\nconst validators = {};\n${body}\nexport default validators;\n`;
}

/** The harness page's script: the two ways of getting a form's validators, then what the form page does with them. */
function harnessSource(ids: string[]): string {
  const engine = (file: string) => JSON.stringify(join(ROOT, 'src/engine/forms', file));
  return `import { createPrecompiledValidator } from '@rjsf/validator-ajv8';
import { setFormContext } from ${engine('rules.ts')};
import { instantiateValidators } from ${engine('served-validators.ts')};
const precompiled = { ${ids.map((id) => `${id}: () => import('./precompiled-${id}.js')`).join(', ')} };
window.firstValidation = async (variant, id, url, schema, document, context) => {
  const start = performance.now();
  const fns = variant === 'served' ? instantiateValidators(await import(/* served */ url)) : (await precompiled[id]()).default;
  const loaded = performance.now();
  setFormContext(context);
  const { errors } = createPrecompiledValidator(fns, schema).validateFormData(document, schema);
  const end = performance.now();
  return { ms: end - start, loadMs: loaded - start, errors: errors.length };
};
window.harnessReady = true;
`;
}

/** A web folder with the harness page and its bundle (the precompiled validators as lazy chunks). */
async function buildHarness(registry: ReturnType<typeof loadFormRegistry>): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'portal-bench-first-validation-'));
  const sources = join(dir, 'src');
  const webDir = join(dir, 'web');
  mkdirSync(sources);
  mkdirSync(join(webDir, 'assets'), { recursive: true });
  for (const form of FORMS) {
    const schema = registry.filesFor(form.id, '').schema;
    const commonJs = compileSchemaValidatorsCode(schema, {
      extenderFn: (ajv) => addFormKeywords(ajv as never, registry.uploads) as never,
      ajvOptionsOverrides: { ...FORM_AJV_OPTIONS },
    });
    // The same ajv code both ways: only how it reaches the page differs.
    if (!registry.validatorFor(form.id, '').module.includes(commonJs)) throw new Error(`${form.id}: the served module is not the code generated here`);
    writeFileSync(join(sources, `precompiled-${form.id}.js`), precompiledModule(commonJs));
  }
  writeFileSync(join(sources, 'harness.js'), harnessSource(FORMS.map((form) => form.id)));
  await build({
    entryPoints: [join(sources, 'harness.js')],
    outdir: join(webDir, 'assets'),
    entryNames: 'bench-[name]-[hash]',
    chunkNames: 'bench-[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    nodePaths: [join(ROOT, 'node_modules')],
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error',
  });
  const entry = readdirSync(join(webDir, 'assets')).find((name) => name.startsWith('bench-harness-'));
  writeFileSync(
    join(webDir, 'index.html'),
    `<!doctype html><html><head><meta charset="utf-8"><title>first validation</title><script type="module" src="/assets/${entry}"></script></head><body></body></html>`,
  );
  return webDir;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(0.5 * sorted.length) - 1)]!;
};

/** One uncached and one cached sample of a variant: a fresh context, then a second page in it. */
async function sampleBoth(browser: Browser, url: string, variant: Variant, form: (typeof FORMS)[number], served: string, schema: unknown) {
  const context = await browser.newContext();
  try {
    const run = async () => {
      const page = await context.newPage();
      await page.goto(`${url}/`);
      await page.waitForFunction(() => (window as unknown as { harnessReady?: boolean }).harnessReady === true);
      const sample = (await page.evaluate(
        ([variant, id, served, schema, document, context]) =>
          (window as unknown as { firstValidation: (...args: unknown[]) => Promise<BrowserSample> }).firstValidation(variant, id, served, schema, document, context),
        [variant, form.id, served, schema, form.document, CONTEXT] as const,
      )) as BrowserSample;
      await page.close();
      if (sample.errors > 0) throw new Error(`${form.id} ${variant}: the benchmark document is invalid (${sample.errors} errors)`);
      return sample;
    };
    const uncached = await run();
    const cached = await run();
    return { uncached, cached };
  } finally {
    await context.close();
  }
}

/** The figures, side by side per form: served (uncached, cached) vs precompiled, medians and ratios. */
export async function firstValidationInBrowser() {
  const registry = loadFormRegistry();
  const webDir = await buildHarness(registry);
  const portal = await startPortal(undefined, webDir);
  const browser = await launchChromium();
  try {
    console.log(`\n## First validation in Chromium: served (server-compiled) vs precompiled (bundled), ${ROUNDS} rounds, medians`);
    console.log("  each = import() of the validators module + rjsf createPrecompiledValidator + validateFormData of the document (the form page's path)");
    console.log('  served      = /oga/forms/validators/<hash>.js from the running portal (as the app loads it)');
    console.log('  precompiled = the same ajv code as an ES module bundled beside the page (esbuild, lazy chunk in assets/), as the portal once served them');
    console.log('  uncached = new browser context; cached = a second page of that context (HTTP cache); (load …) = the import() alone');
    for (const form of FORMS) {
      const files = registry.filesFor(form.id, '');
      const served = validatorUrl(registry.validatorFor(form.id, '').hash);
      const samples: Record<Variant, { uncached: BrowserSample[]; cached: BrowserSample[] }> = { served: { uncached: [], cached: [] }, precompiled: { uncached: [], cached: [] } };
      for (let round = 0; round < ROUNDS; round++) {
        for (const variant of (round % 2 === 0 ? ['served', 'precompiled'] : ['precompiled', 'served']) as Variant[]) {
          const { uncached, cached } = await sampleBoth(browser, portal.url, variant, form, served, files.schema);
          samples[variant].uncached.push(uncached);
          samples[variant].cached.push(cached);
        }
      }
      for (const how of ['uncached', 'cached'] as const) {
        const figure = (variant: Variant) => median(samples[variant][how].map((sample) => sample.ms));
        const load = (variant: Variant) => `(load ${median(samples[variant][how].map((sample) => sample.loadMs)).toFixed(1)})`.padEnd(13);
        console.log(
          `  ${form.label.padEnd(18)} ${how.padEnd(9)} served ${figure('served').toFixed(1).padStart(6)} ms ${load('served')} precompiled ${figure('precompiled').toFixed(1).padStart(6)} ms ${load('precompiled')} served/precompiled ${(figure('served') / figure('precompiled')).toFixed(2)}×`,
        );
      }
    }
  } finally {
    await browser.close();
    await portal.close();
    rmSync(join(webDir, '..'), { recursive: true, force: true });
  }
}
