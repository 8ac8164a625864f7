import useSWR, { preload } from 'swr';
import type { FormContext } from '../../../engine/forms/context';
import type { FormDefinition } from '../../../engine/forms/definitions';
import type { UploadRules } from '../../../engine/forms/files';
import { definedValues, type ApiData } from '../../../lib/typed-api';
import { typedApi } from '../../../lib/api';

// One form as GET /forms/{id} answers it: read by the form (FormRuntime) and the read-only
// summary of its submission (SubmissionSummary).

type FormAnswer = ApiData<'GET', '/forms/{id}'>;

/** One part of a form with parts (P1 F4) as GET /forms and GET /forms/{id} answer it. */
export type PartSummary = NonNullable<FormAnswer['parts']>[number];

/**
 * The answer of GET /forms/{id}. Its forms.yaml entry, rule context and upload rules are open
 * objects in the route schema (their shape is the engine's, checked where forms.yaml is loaded):
 * the page reads them as the engine's types.
 */
export type FormPayload = Omit<FormAnswer, 'definition' | 'context' | 'uploads' | 'strings'> & {
  definition: FormDefinition;
  context: FormContext;
  uploads: UploadRules;
  /** This form's strings (`forms.<id>` of the locales) by language, as the server has them now. */
  strings: Record<string, Record<string, unknown>>;
};

async function fetchPayload(formId: string): Promise<FormPayload> {
  const answer = await typedApi.get('/forms/{id}', { path: { id: formId } });
  // Issue 13: the form's validator module (named by the answer) is fetched at once, while the page
  // is still rendering, instead of once the form has rendered without it; the form's own import
  // (useServedValidators) then finds it loaded. A failure here is silent: that import reports it.
  import(/* @vite-ignore */ answer.validator.url).catch(() => undefined);
  return {
    ...answer,
    definition: answer.definition as unknown as FormDefinition,
    context: answer.context as unknown as FormContext,
    uploads: definedValues(answer.uploads) as UploadRules,
    strings: definedValues(answer.strings) as Record<string, Record<string, unknown>>,
  };
}

export function useFormPayload(formId: string) {
  return useSWR<FormPayload>(`/forms/${formId}`, () => fetchPayload(formId), { revalidateOnFocus: false });
}

/** Issue 13: asks for a form at start, beside the code that shows it (the hook then finds the answer). */
export function preloadFormPayload(formId: string): void {
  preload(`/forms/${formId}`, () => fetchPayload(formId)).catch(() => undefined);
}
