import type { FormContext } from './context';
import { checkFileReference, isEmptyFileValue, type FileReference, type ResolvedPurpose } from './files';
import { checkCustomTags } from '../custom-tags';
import type { CustomTagInput } from '../schemas/custom-tag';
import { isCountryCode } from '../locale-format';

// The spec's form rules (V1, V3, V4, V7, V8, F2's flags) as plain functions: given the keyword's
// value in the schema and the data, a problem (locale key + params) or null. The ajv keywords in
// keywords.ts call these, both when compiled at run time and from the precompiled validators.

export interface Problem {
  key: string;
  params: Record<string, string | number>;
}

let context: FormContext = { flags: {}, quotas: {} };

/**
 * The exhibitor's flags and quotas the rules read. Validation is synchronous, so setting this
 * right before validating one exhibitor's form is safe on the server as in the browser.
 */
export function setFormContext(next: FormContext): void {
  context = next;
}

export function formContext(): FormContext {
  return context;
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

/** What two values of a unique property compare by (case-insensitive, trimmed); undefined = no value. */
export function uniqueKey(value: unknown): unknown {
  if (value === undefined || value === null || value === '') return undefined;
  return typeof value === 'string' ? value.trim().toLowerCase() : value;
}

/** The first value of `property` that appears twice (case-insensitive, trimmed), if any. */
export function firstDuplicate(items: unknown[], property: string): string | undefined {
  const seen = new Set<unknown>();
  for (const item of items) {
    if (!item || typeof item !== 'object') continue;
    const value = (item as Record<string, unknown>)[property];
    const key = uniqueKey(value);
    if (key === undefined) continue;
    if (seen.has(key)) return String(value);
    seen.add(key);
  }
  return undefined;
}

/** V1: the indexes of every item whose `property` another item has too (each duplicate, not only the second one). */
export function duplicateIndexes(items: unknown[], property: string): number[] {
  const byValue = new Map<unknown, number[]>();
  items.forEach((item, index) => {
    if (!item || typeof item !== 'object') return;
    const key = uniqueKey((item as Record<string, unknown>)[property]);
    if (key === undefined) return;
    byValue.set(key, [...(byValue.get(key) ?? []), index]);
  });
  return [...byValue.values()]
    .filter((indexes) => indexes.length > 1)
    .flat()
    .sort((a, b) => a - b);
}

/** Items that count against a quota: those not marked as extra (extras wait for approval). */
export function countedItems(items: unknown[]): number {
  return items.filter((item) => !(item && typeof item === 'object' && (item as { extra?: unknown }).extra === true)).length;
}

const problem = (key: string, params: Record<string, string | number> = {}): Problem => ({ key, params });

/** Every rule, by keyword name. The keyword's value comes first, then the data it applies to. */
export const RULES = {
  noFullWidth: (enabled: boolean, data: string): Problem | null => (enabled && hasFullWidth(data) ? problem('validation.noFullWidth') : null),
  uniqueItemProperty: (property: string, data: unknown[]): Problem | null => {
    const duplicate = firstDuplicate(data, property);
    return duplicate === undefined ? null : problem('validation.uniqueItemProperty', { property, value: duplicate });
  },
  videoHost: (enabled: boolean, data: string): Problem | null => (enabled && data.trim() !== '' && !isVideoHostUrl(data) ? problem('validation.videoHost') : null),
  /** L1: a country or region as its ISO 3166-1 alpha-2 code; emptiness is `required`'s business. */
  country: (enabled: boolean, data: string): Problem | null => (enabled && data !== '' && !isCountryCode(data) ? problem('validation.country') : null),
  realName: (script: 'any' | 'chinese', data: string): Problem | null =>
    isRealName(data, script) ? null : problem(script === 'chinese' ? 'validation.chineseName' : 'validation.realName'),
  quota: (kind: string, data: unknown[]): Problem | null => {
    const limit = context.quotas[kind];
    return limit === undefined || countedItems(data) <= limit ? null : problem('validation.quota', { limit, kind });
  },
  /**
   * V2 V3: the schema says `"file": "<purpose>"`; the keyword (keywords.ts) hands the rule that
   * purpose's declaration from forms.yaml `uploads:`, fixed when the form set was compiled.
   */
  file: (declared: ResolvedPurpose, data: FileReference): Problem | null => {
    // An empty file value is no file: `required` says "Please upload a file", not a bad name.
    if (isEmptyFileValue(data)) return null;
    const [first] = checkFileReference(declared, data);
    if (first) return problem(first.key, first.params ?? {});
    if (context.uploads) {
      const recorded = context.uploads.get(data.id);
      const same = recorded && recorded.purpose === declared.purpose && recorded.size === data.size && recorded.type === data.type && recorded.dpi === (data.dpi ?? null);
      if (!same) return problem('validation.file.unknown');
    }
    return null;
  },
  /** A section or field behind an exhibitor flag: when the flag is off, it must stay empty. */
  showIf: (flag: string, data: unknown): Problem | null => (context.flags[flag] === true || data === undefined ? null : problem('validation.hidden')),
  secondLanguage: (flag: string, data: unknown): Problem | null => (context.flags[flag] === true || data === undefined ? null : problem('validation.hidden')),
  /**
   * F2: a section shown by an exhibitor flag must be filled ({ section: flag }). The browser
   * always sends the sections it shows; this stops a submission that leaves one out.
   */
  requiredWhenShown: (sections: Record<string, string>, data: Record<string, unknown>): Problem | null => {
    const missing = Object.entries(sections).find(([section, flag]) => context.flags[flag] === true && data[section] === undefined);
    return missing ? problem('validation.sectionRequired', { section: missing[0] }) : null;
  },
  /** V5/LD6: a list of custom tags ({ name, choices }) within the limits, without duplicates. */
  customTags: (enabled: boolean, data: unknown[]): Problem | null => {
    if (!enabled) return null;
    const tags: CustomTagInput[] = data.map((item) => {
      const tag = (item && typeof item === 'object' ? item : {}) as { name?: unknown; choices?: unknown };
      return { name: typeof tag.name === 'string' ? tag.name : '', choices: Array.isArray(tag.choices) ? tag.choices.map((c) => (typeof c === 'string' ? c : '')) : [] };
    });
    const [first] = checkCustomTags(tags);
    return first ? problem(first.key, first.params) : null;
  },
} as const;

export type RuleName = keyof typeof RULES;
