import { LANGUAGES, type Language } from '../../../engine/language';
import type { Strings } from '../../../engine/forms/patch-editor';
import type { OptionalListing } from '../../../engine/schemas/optional-listing';
import type { FormPatch } from '../../../engine/schemas/form-patch';
import { typedApi } from '../../../lib/api';
import { definedValues, type ApiBody, type ApiData } from '../../../lib/typed-api';

// F11: what the form editor reads and writes on the server (the form set's versions, the event's
// draft, its impact, publishing and the versions' history), as the page uses it. One module, so the
// page's test replaces it whole and the page never builds a request itself.

type Node = Record<string, unknown>;
const EDITOR = '/organiser/form-editor/{eventId}/{formId}' as const;

type EditorAnswer = ApiData<'GET', typeof EDITOR>;

/** The event's draft of the form as the editor reads it: the answer's open maps read as the engine's types. */
export type EditorDraft = Omit<NonNullable<EditorAnswer['draft']>, 'patch' | 'strings'> & { patch: FormPatch | null; strings: Strings };

/** One form of one event as the editor opens it (strings: full keys `forms.<formId>.…` by language). */
export type EditorSource = Omit<EditorAnswer, 'patch' | 'strings' | 'draft'> & { patch: FormPatch | null; strings: Strings; draft: EditorDraft | null };

/** What saving the draft answers: its problems and the form as the event's exhibitors would get it (no validator while it has problems). */
export type DraftAnswer = ApiData<'PUT', '/organiser/form-editor/{eventId}/{formId}/draft'>;
export type Impact = ApiData<'GET', '/organiser/form-editor/{eventId}/{formId}/impact'>;
export type PublishBody = ApiBody<'POST', '/organiser/form-editor/{eventId}/{formId}/publish'>;
export type SubmissionsChoice = PublishBody['submissions'];
export type FormVersion = ApiData<'GET', '/organiser/form-versions'>[number];
export type VersionDiff = ApiData<'GET', '/organiser/form-versions/{a}/diff/{b}'>;

/** Strings as the server sends them (open maps) as plain records per language. */
function stringsOf(strings: Partial<Record<string, Partial<Record<string, string>> | undefined>> | undefined): Strings {
  const plain: Strings = {};
  for (const language of LANGUAGES) plain[language] = definedValues(strings?.[language] ?? {});
  return plain;
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

const where = (eventId: number, formId: string) => ({ path: { eventId, formId } });

export const editorApi = {
  async load(eventId: number, formId: string): Promise<EditorSource> {
    const answer = await typedApi.get(EDITOR, where(eventId, formId));
    return {
      ...answer,
      base: { schema: answer.base.schema, ui: answer.base.ui },
      patch: answer.patch as FormPatch | null,
      strings: stringsOf(answer.strings),
      draft: answer.draft ? { ...answer.draft, patch: answer.draft.patch as FormPatch | null, strings: stringsOf(answer.draft.strings) } : null,
    };
  },
  saveDraft(eventId: number, formId: string, body: { basedOn: number; listings?: OptionalListing[]; patch: FormPatch | null; strings: Strings }): Promise<DraftAnswer> {
    // Problems are shown beside the questions, not as a toast.
    return typedApi.put(`${EDITOR}/draft`, { ...where(eventId, formId), body, silent: true });
  },
  discardDraft(eventId: number, formId: string): Promise<unknown> {
    return typedApi.del(`${EDITOR}/draft`, where(eventId, formId));
  },
  impact(eventId: number, formId: string): Promise<Impact> {
    return typedApi.get(`${EDITOR}/impact`, where(eventId, formId));
  },
  publish(eventId: number, formId: string, body: PublishBody) {
    // A refusal (stale version, problems) is shown in the publish panel.
    return typedApi.post(`${EDITOR}/publish`, { ...where(eventId, formId), body, silent: true });
  },
  versions(): Promise<FormVersion[]> {
    return typedApi.get('/organiser/form-versions');
  },
  diff(a: number, b: number): Promise<VersionDiff> {
    return typedApi.get('/organiser/form-versions/{a}/diff/{b}', { path: { a, b } });
  },
  rollback(number: number, basedOn: number, comment: string) {
    return typedApi.post('/organiser/form-versions/{number}/rollback', { path: { number }, body: { basedOn, comment }, silent: true });
  },
};
export type EditorApi = typeof editorApi;
