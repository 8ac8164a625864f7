import useSWR, { preload } from 'swr';
import { definedValues, type ApiData } from '../../../lib/typed-api';
import { typedApi } from '../../../lib/api';

// One form as GET /forms/{id} answers it: read by the form (FormRuntime) and the read-only
// summary of its submission (SubmissionSummary).

type FormAnswer = ApiData<'GET', '/forms/{id}'>;
/** A name → value map of the answer without the `undefined` the generated index signatures allow (see definedValues). */
type DefinedMap<Map extends Partial<Record<string, unknown>>> = Record<string, NonNullable<Map[string]>>;

/** One part of a form with parts (P1 F4) as GET /forms and GET /forms/{id} answer it. */
export type PartSummary = NonNullable<FormAnswer['parts']>[number];

/**
 * The answer of GET /forms/{id}: its forms.yaml entry, rule context and upload rules are typed by
 * the route schema (engine/schemas/form-payload.ts); its strings are an open map of locale texts.
 */
export type FormPayload = Omit<FormAnswer, 'context' | 'uploads' | 'strings'> & {
  context: { [Key in keyof FormAnswer['context']]: DefinedMap<FormAnswer['context'][Key]> };
  uploads: DefinedMap<FormAnswer['uploads']>;
  /** This form's strings (`forms.<id>` of the locales) by language, as the server has them now. */
  strings: Record<string, Record<string, unknown>>;
};

async function fetchPayload(formId: string): Promise<FormPayload> {
  const answer = await typedApi.get('/forms/{id}', { path: { id: formId } });
  // The form's validator module (named by the answer) is fetched at once, while the page
  // is still rendering, instead of once the form has rendered without it; the form's own import
  // (useServedValidators) then finds it loaded. A failure here is silent: that import reports it.
  import(/* @vite-ignore */ answer.validator.url).catch(() => undefined);
  return {
    ...answer,
    context: { flags: definedValues(answer.context.flags), quotas: definedValues(answer.context.quotas) },
    uploads: definedValues(answer.uploads),
    strings: definedValues(answer.strings),
  };
}

export function useFormPayload(formId: string) {
  return useSWR<FormPayload>(`/forms/${formId}`, () => fetchPayload(formId), { revalidateOnFocus: false });
}

/** Asks for a form at start, beside the code that shows it (the hook then finds the answer). */
export function preloadFormPayload(formId: string): void {
  preload(`/forms/${formId}`, () => fetchPayload(formId)).catch(() => undefined);
}
