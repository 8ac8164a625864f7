import { LANGUAGES, type Language } from '../../../engine/language';
import type { FormPatch, PatchProblem, Strings } from '../../../engine/forms/patch-editor';
import { typedApi } from '../../../lib/api';

// F11: what the form editor reads and writes on the server (the form set's versions, the event's
// draft, its impact, publishing and the versions' history), as the page uses it. One module, so the
// page's test replaces it whole and the page never builds a request itself.

type Node = Record<string, unknown>;

export interface EditorDraft {
  patch: FormPatch;
  strings: Strings;
  /** The form set version the draft was made on. */
  basedOn: string;
  savedAt: string;
  author: string;
  problems: PatchProblem[];
}

/** One form of one event as the editor opens it. */
export interface EditorSource {
  exhibitCode: string;
  formId: string;
  version: { id: string; number: number };
  base: { schema: Node; ui: Node };
  patch: FormPatch | null;
  /** The form's strings now, full keys (forms.<formId>.…) by language. */
  strings: Strings;
  draft: EditorDraft | null;
}

/** What saving the draft answers: its problems and the form as the event's exhibitors would get it. */
export interface DraftAnswer {
  problems: PatchProblem[];
  preview: { schema: Node; ui: Node; strings: Record<string, unknown>; validator: { url: string; rootKey: string } };
}

/** What publishing would do to the event's exhibitors (numbers by name; lists of question paths). */
export type Impact = Record<string, unknown>;

export type SubmissionsChoice = 'keep' | 'reopen';

export interface FormVersion {
  number: number;
  createdAt?: string;
  author?: string | null;
  comment?: string | null;
  [key: string]: unknown;
}

/** The server's strings with full keys: a key relative to the form (`badges`) becomes `forms.<formId>.badges`. */
export function fullKeys(formId: string, strings: Record<string, unknown> | undefined): Strings {
  const prefix = `forms.${formId}.`;
  const flat = (node: unknown, path: string, into: Record<string, string>) => {
    if (typeof node === 'string') into[path] = node;
    else if (node && typeof node === 'object') for (const [key, child] of Object.entries(node)) flat(child, path ? `${path}.${key}` : key, into);
    return into;
  };
  const full: Strings = {};
  for (const language of LANGUAGES) {
    const table = flat(strings?.[language], '', {});
    full[language] = Object.fromEntries(Object.entries(table).map(([key, text]) => [key.startsWith(prefix) || key.startsWith('forms.') ? key : `${prefix}${key}`, text]));
  }
  return full;
}

/** Full keys as the form's own nested table (`forms.<formId>` subtree), as the runtime adds it to i18next. */
export function formTable(formId: string, strings: Partial<Record<Language, Record<string, string>>>, language: Language): Node {
  const prefix = `forms.${formId}.`;
  const table: Node = {};
  for (const [key, text] of Object.entries(strings[language] ?? {})) {
    if (!key.startsWith(prefix)) continue;
    const parts = key.slice(prefix.length).split('.');
    let node = table;
    for (const part of parts.slice(0, -1)) {
      if (typeof node[part] !== 'object' || node[part] === null) node[part] = {};
      node = node[part] as Node;
    }
    node[parts.at(-1)!] = text;
  }
  return table;
}

// The editor's routes join the OpenAPI document with the form set service; until then the calls go
// through the client's generic method with the route as the server declares it.
const call = typedApi.call as unknown as (method: string, path: string, options?: { path?: Node; query?: Node; body?: unknown; silent?: boolean }) => Promise<unknown>;
const route = '/organiser/form-editor/{eventId}/{formId}';

export const editorApi = {
  async load(eventId: string, formId: string): Promise<EditorSource> {
    const answer = (await call('GET', route, { path: { eventId, formId } })) as EditorSource & { strings: Record<string, unknown> };
    return {
      ...answer,
      strings: fullKeys(formId, answer.strings),
      draft: answer.draft ? { ...answer.draft, strings: fullKeys(formId, answer.draft.strings as Record<string, unknown>) } : null,
    };
  },
  saveDraft(eventId: string, formId: string, body: { basedOn: string; patch: FormPatch; strings: Strings }): Promise<DraftAnswer> {
    return call('PUT', `${route}/draft`, { path: { eventId, formId }, body, silent: true }) as Promise<DraftAnswer>;
  },
  discardDraft(eventId: string, formId: string): Promise<unknown> {
    return call('DELETE', `${route}/draft`, { path: { eventId, formId } });
  },
  impact(eventId: string, formId: string): Promise<Impact> {
    return call('GET', `${route}/impact`, { path: { eventId, formId } }) as Promise<Impact>;
  },
  publish(eventId: string, formId: string, body: { basedOn: string; comment: string; submissions: SubmissionsChoice }): Promise<unknown> {
    return call('POST', `${route}/publish`, { path: { eventId, formId }, body, silent: true });
  },
  versions(): Promise<FormVersion[]> {
    return call('GET', '/organiser/form-versions') as Promise<FormVersion[]>;
  },
  diff(a: number, b: number): Promise<unknown> {
    return call('GET', '/organiser/form-versions/{a}/diff/{b}', { path: { a, b } });
  },
  rollback(number: number, comment: string): Promise<unknown> {
    return call('POST', '/organiser/form-versions/{number}/rollback', { path: { number }, body: { comment } });
  },
};
export type EditorApi = typeof editorApi;
