import type Ajv from 'ajv';
import type { AnySchemaObject, ErrorObject, KeywordDefinition } from 'ajv';
import type { FormContext } from './context';
import { checkFileReference, isFilePurpose, type FileReference } from './files';

// The spec's rules as JSON Schema keywords (V1, V4, V7, V8 here; files in files.ts), defined
// once and added to every ajv that validates a form: the browser's (rjsf) and the server's.
// Each failing keyword reports an error whose `params.key` is its locale key.

type ValidateFn = ((schema: any, data: any, parentSchema?: AnySchemaObject, dataCxt?: any) => boolean) & { errors?: Partial<ErrorObject>[] };

function failing(keyword: string, key: string, params: Record<string, unknown> = {}): Partial<ErrorObject>[] {
  return [{ keyword, message: key, params: { key, ...params } }];
}

/** Full-width forms (U+FF01–U+FF5E), the ideographic space and full-width symbols (U+FFE0–U+FFEE). */
const FULL_WIDTH = /[\u3000\uFF01-\uFF5E\uFFE0-\uFFEE]/u;

export function hasFullWidth(text: string): boolean {
  return FULL_WIDTH.test(text);
}

const VIDEO_HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com', 'youtu.be', 'vimeo.com', 'www.vimeo.com', 'player.vimeo.com']);

export function isVideoHostUrl(text: string): boolean {
  try {
    const url = new URL(text.trim());
    return (url.protocol === 'https:' || url.protocol === 'http:') && VIDEO_HOSTS.has(url.hostname.toLowerCase());
  } catch {
    return false;
  }
}

/** Letters of any script with spaces, hyphens, apostrophes and dots between them; no digits or symbols. */
const REAL_NAME = /^\p{L}[\p{L}\p{M}'’.\- ]*$/u;
/** Han characters, optionally with the middle dot used in transliterated names. */
const CHINESE_NAME = /^[\p{Script=Han}·]{2,20}$/u;

export function isRealName(text: string, script: 'any' | 'chinese'): boolean {
  const value = text.trim();
  if (value === '') return true; // emptiness is `required`'s business
  if (script === 'chinese') return CHINESE_NAME.test(value);
  return REAL_NAME.test(value) && value.length <= 100 && !/(.)\1{3,}/u.test(value);
}

function normalise(value: unknown): unknown {
  return typeof value === 'string' ? value.trim().toLowerCase() : value;
}

/** The first value of `property` that appears twice (case-insensitive), if any. */
export function firstDuplicate(items: unknown[], property: string): string | undefined {
  const seen = new Set<unknown>();
  for (const item of items) {
    if (!item || typeof item !== 'object') continue;
    const value = (item as Record<string, unknown>)[property];
    if (value === undefined || value === null || value === '') continue;
    const key = normalise(value);
    if (seen.has(key)) return String(value);
    seen.add(key);
  }
  return undefined;
}

/** Items that count against a quota: those not marked as extra (extras wait for approval). */
export function countedItems(items: unknown[]): number {
  return items.filter((item) => !(item && typeof item === 'object' && (item as { extra?: unknown }).extra === true)).length;
}

/** Keywords that only annotate (read by the runtime, see prepare.ts); they never fail. */
export const ANNOTATION_KEYWORDS = ['showIf', 'secondLanguage', 'minItemsMessage'] as const;

export function formKeywords(context: FormContext): KeywordDefinition[] {
  const noFullWidth: ValidateFn = (enabled: boolean, data: string) => {
    if (!enabled || !hasFullWidth(data)) return true;
    noFullWidth.errors = failing('noFullWidth', 'validation.noFullWidth');
    return false;
  };
  const uniqueItemProperty: ValidateFn = (property: string, data: unknown[]) => {
    const duplicate = firstDuplicate(data, property);
    if (duplicate === undefined) return true;
    uniqueItemProperty.errors = failing('uniqueItemProperty', 'validation.uniqueItemProperty', { property, value: duplicate });
    return false;
  };
  const videoHost: ValidateFn = (enabled: boolean, data: string) => {
    if (!enabled || data.trim() === '' || isVideoHostUrl(data)) return true;
    videoHost.errors = failing('videoHost', 'validation.videoHost');
    return false;
  };
  const realName: ValidateFn = (script: 'any' | 'chinese', data: string) => {
    if (isRealName(data, script)) return true;
    realName.errors = failing('realName', script === 'chinese' ? 'validation.chineseName' : 'validation.realName');
    return false;
  };
  const quota: ValidateFn = (kind: string, data: unknown[]) => {
    const limit = context.quotas[kind];
    if (limit === undefined || countedItems(data) <= limit) return true;
    quota.errors = failing('quota', 'validation.quota', { limit, kind });
    return false;
  };
  const file: ValidateFn = (purpose: string, data: FileReference) => {
    if (!isFilePurpose(purpose)) throw new Error(`Unknown file purpose "${purpose}"`);
    const problems = checkFileReference(purpose, data);
    if (problems.length === 0) return true;
    file.errors = problems.map((problem) => ({ keyword: 'file', message: problem.key, params: { key: problem.key, ...problem.params } }));
    return false;
  };
  return [
    {
      keyword: 'file',
      type: 'object',
      schemaType: 'string',
      validate: file,
      errors: true,
    },
    { keyword: 'noFullWidth', type: 'string', schemaType: 'boolean', validate: noFullWidth, errors: true },
    { keyword: 'uniqueItemProperty', type: 'array', schemaType: 'string', validate: uniqueItemProperty, errors: true },
    { keyword: 'videoHost', type: 'string', schemaType: 'boolean', validate: videoHost, errors: true },
    { keyword: 'realName', type: 'string', schemaType: 'string', validate: realName, errors: true, metaSchema: { enum: ['any', 'chinese'] } },
    { keyword: 'quota', type: 'array', schemaType: 'string', validate: quota, errors: true },
    { keyword: 'showIf', schemaType: 'string' },
    { keyword: 'secondLanguage', schemaType: 'string' },
    { keyword: 'minItemsMessage', schemaType: 'string' },
  ];
}

export function addFormKeywords(ajv: Ajv, context: FormContext): Ajv {
  for (const definition of formKeywords(context)) ajv.addKeyword(definition);
  return ajv;
}
