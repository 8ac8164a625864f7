import type { ComponentProps } from 'react';
import { Templates } from '@rjsf/mui';
import type { BaseInputTemplateProps, FieldTemplateProps } from '@rjsf/utils';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { SWRConfig } from 'swr';
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { compileSchemaValidatorsCode } from '@rjsf/validator-ajv8/compileSchemaValidators';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import en from '../../../../locales/en.json';
import s04Schema from '../../../../schemas/forms/s04.schema.json';
import s04Ui from '../../../../schemas/forms/s04.ui.json';
import { flattenKeys, lookup, type LocaleTable } from '../../../engine/i18n';
import type { FormDefinition } from '../../../engine/forms/definitions';
import { addFormKeywords } from '../../../engine/forms/keywords';
import { addQuestion, patchedFiles, patchOf, setOptions, setTexts, type EditOutcome, type EditorForm } from '../../../engine/forms/patch-editor';
import { validatorBody, validatorRequire, type CompiledValidators } from '../../../engine/forms/served-validators';
import { FORM_AJV_OPTIONS } from '../../../engine/forms/validator';
import type { ArrayItemTemplate as ArrayItemTemplateType } from '../../../components/form-runtime/ArrayItemTemplate';
import { formTable, type EditorApi, type EditorSource } from './editor-api';
import { FormEditor, type PublishedForm } from './FormEditor';

// F11: a text typed in the editor reaches the preview's fields that show it, and nothing else of
// the preview renders again: the badges entered in the preview are not rendered anew (rjsf is
// handed the same form; only the labels showing the text change).

const served = vi.hoisted(() => ({ validators: null as unknown, itemRenders: 0, fieldRenders: 0, inputRenders: 0 }));

// The preview's validator, compiled here as the server compiles it (the browser loads it as a
// module); each render of a field's template (any field of the preview) and of a text input's (its MUI text field), counted.
vi.mock('../../../components/form-runtime/form-view', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../components/form-runtime/form-view')>();
  const MuiFieldTemplate = Templates.FieldTemplate!;
  const InputTemplate = actual.templates.BaseInputTemplate;
  return {
    ...actual,
    useServedValidators: () => ({ data: served.validators, error: undefined }),
    templates: {
      ...actual.templates,
      FieldTemplate: (props: FieldTemplateProps) => {
        served.fieldRenders++;
        return <MuiFieldTemplate {...props} />;
      },
      BaseInputTemplate: (props: BaseInputTemplateProps) => {
        served.inputRenders++;
        return <InputTemplate {...props} />;
      },
    },
  };
});
// Each render of a list item (a badge) of the preview, counted.
vi.mock('../../../components/form-runtime/ArrayItemTemplate', async (importOriginal) => {
  const { ArrayItemTemplate } = await importOriginal<{ ArrayItemTemplate: typeof ArrayItemTemplateType }>();
  return {
    ArrayItemTemplate: (props: ComponentProps<typeof ArrayItemTemplateType>) => {
      served.itemRenders++;
      return <ArrayItemTemplate {...props} />;
    },
  };
});

const known = { en: Object.fromEntries(flattenKeys((en.forms as unknown as LocaleTable).s04 as LocaleTable, 'forms.s04.').map((key) => [key, lookup(en as never, key)!])) };
const BASE = { schema: s04Schema as Record<string, unknown>, ui: s04Ui as Record<string, unknown> };
const TITLE_KEY = 'forms.s04.byEvent.AFHE2027.badges_firstName.title';

const ALL = (en: string) => ({ en, cn: en, ja: en, vi: en });

/** S04 of the event as published after `edits` (the event's own texts over the form set's). */
function publishedWith(...edits: ((form: EditorForm) => EditOutcome)[]) {
  let form: EditorForm = { formId: 's04', exhibitCode: 'AFHE2027', base: BASE, patch: null, strings: {}, known };
  for (const edit of edits) {
    const outcome = edit(form);
    if (!outcome.ok) throw new Error(outcome.error.code);
    form = { ...form, patch: outcome.patch, strings: outcome.strings };
  }
  const strings = { en: { ...known.en, ...form.strings.en } };
  return { patch: form.patch, strings, files: patchedFiles(BASE, form.patch) };
}

/** The badges' first name has a title of the event's own. */
const ownFirstNameTitle = (form: EditorForm) => setTexts(form, ['badges', 'firstName'], { title: { en: 'Given name', cn: '名', ja: '名', vi: 'Tên' } });

const PLACEHOLDER_KEY = 'forms.s04.byEvent.AFHE2027.badges_firstName.placeholder';
/** The badges' first name has a placeholder of the event's own (as the JSON tab gives one: no dialog asks for it). */
const ownFirstNamePlaceholder = (form: EditorForm): EditOutcome => {
  const files = patchedFiles(form.base, form.patch);
  const items = (files.ui.badges as { items: Record<string, Record<string, unknown>> }).items;
  items.firstName = { ...items.firstName, 'ui:placeholder': PLACEHOLDER_KEY };
  const strings = Object.fromEntries(Object.entries(ALL('As on passport')).map(([language, text]) => [language, { ...form.strings[language as 'en'], [PLACEHOLDER_KEY]: text }]));
  return { ok: true, patch: patchOf(form.base, files), strings };
};

const DEFINITION = {
  id: 's04',
  code: 'S04',
  title: 'forms.s04.title',
  screen: 'exhibitorBadges',
  mandatory: true,
  deadline: 'badges',
  prerequisites: [],
  audience: 'exhibitor',
  fee: { list: 'badges', flag: 'extra', price: '10.00', currency: 'MYR', setting: 'extraBadgeFee' },
} as unknown as FormDefinition;

beforeAll(() => {
  if (!i18next.isInitialized) {
    void i18next.use(initReactI18next).init({ resources: { en: { translation: en } }, lng: 'en', initAsync: false, interpolation: { escapeValue: false } });
  }
  configure({ asyncUtilTimeout: 5000 });
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
});
afterEach(cleanup);

/** The editor of S04 as published after `edits`, its preview in English; answers the preview. */
async function renderEditor(...edits: ((form: EditorForm) => EditOutcome)[]) {
  const { patch, strings, files } = publishedWith(...edits);
  const commonJs = compileSchemaValidatorsCode(files.schema as never, {
    extenderFn: (ajv) => addFormKeywords(ajv as never) as never,
    ajvOptionsOverrides: { ...FORM_AJV_OPTIONS },
  });
  served.validators = new Function('require', validatorBody(commonJs))(validatorRequire) as CompiledValidators;
  const source: EditorSource = {
    exhibitCode: 'AFHE2027',
    formId: 's04',
    version: { id: 7, number: 3 },
    base: BASE,
    patch,
    strings,
    draft: null,
    uploadPurposes: [],
  };
  const published: PublishedForm = {
    definition: DEFINITION,
    definitionIndex: 3,
    context: { flags: {}, quotas: { badges: 5 } },
    schema: files.schema,
    ui: files.ui,
    strings: { en: formTable('s04', strings, 'en') },
    validatorUrl: '/oga/forms/validators/s04.js',
  };
  const api = {
    load: vi.fn().mockResolvedValue(source),
    // The save answers no preview of its own: the preview stays on the published form.
    saveDraft: vi.fn().mockResolvedValue({ problems: [], preview: { schema: {}, ui: {}, strings: {}, validator: null } }),
    versions: vi.fn().mockResolvedValue([]),
  };
  render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <FormEditor api={api as unknown as EditorApi} eventId={12} formId="s04" published={published} purposes={[]} />
    </SWRConfig>,
  );

  return screen.findByRole('region', { name: i18next.t('formEditor.preview') });
}

/** The Translations tab's cell of `key` in English. */
function translationCell(key: string) {
  fireEvent.click(screen.getByRole('tab', { name: i18next.t('formEditor.translations') }));
  return screen.getByRole('textbox', { name: i18next.t('formEditor.textIn', { key, language: 'English' }) });
}

describe('F11 FormEditor preview', () => {
  it('a title or a placeholder typed in the translations shows in the preview’s badges at once, without rendering the badges, their fields or text fields again', async () => {
    const preview = await renderEditor(ownFirstNameTitle, ownFirstNamePlaceholder);
    const add = await within(preview).findByRole('button', { name: 'Add a badge' });
    for (let badge = 0; badge < 3; badge++) fireEvent.click(add);
    await waitFor(() => expect(within(preview).getAllByRole('textbox', { name: /^Given name/ })).toHaveLength(3));
    fireEvent.change(within(preview).getAllByRole('textbox', { name: /^Given name/ })[1]!, { target: { value: 'Aisyah' } });
    fireEvent.blur(within(preview).getAllByRole('textbox', { name: /^Given name/ })[1]!);

    const title = translationCell(TITLE_KEY);
    const rendersBefore = served.itemRenders;
    const fieldsBefore = served.fieldRenders;
    const inputsBefore = served.inputRenders;
    const pageTitle = i18next.t(TITLE_KEY);
    fireEvent.change(title, { target: { value: 'Name on badge' } });

    const renamed = await within(preview).findAllByRole('textbox', { name: /^Name on badge/ });
    expect(renamed).toHaveLength(3);
    expect((renamed[1] as HTMLInputElement).value).toBe('Aisyah');
    expect(within(preview).queryAllByRole('textbox', { name: /^Given name/ })).toHaveLength(0);
    // The outlined field's notch (the gap in its border) is sized from the label's text it holds.
    for (const input of renamed) expect(input.closest('.MuiOutlinedInput-root')?.querySelector('legend')?.textContent).toMatch(/^Name on badge/);
    // Only the labels changed: no badge of the preview, no field and no text field was rendered again.
    expect(served.itemRenders - rendersBefore).toBe(0);
    expect(served.fieldRenders - fieldsBefore).toBe(0);
    expect(served.inputRenders - inputsBefore).toBe(0);
    // The draft's text is the preview's alone: the rest of the page keeps the published one.
    expect(i18next.t(TITLE_KEY)).toBe(pageTitle);

    // A placeholder is an attribute of the input: it follows the typing too, nothing rendered again.
    expect(within(preview).getAllByPlaceholderText('As on passport')).toHaveLength(3);
    fireEvent.change(translationCell(PLACEHOLDER_KEY), { target: { value: 'As printed' } });
    const placeheld = await within(preview).findAllByPlaceholderText('As printed');
    expect(placeheld).toHaveLength(3);
    expect((placeheld[1] as HTMLInputElement).value).toBe('Aisyah');
    expect(within(preview).getAllByRole('textbox', { name: /^Name on badge/ })).toEqual(placeheld);
    expect(within(preview).queryAllByPlaceholderText('As on passport')).toHaveLength(0);
    expect(served.itemRenders - rendersBefore).toBe(0);
    expect(served.fieldRenders - fieldsBefore).toBe(0);
    expect(served.inputRenders - inputsBefore).toBe(0);
  }, 30_000);

  it('a choice’s label or its question’s title typed in the translations shows in every badge, without rendering a badge or a field again', async () => {
    const preview = await renderEditor(
      (form) =>
        setOptions(
          form,
          ['badges', 'gender'],
          [
            { code: 'male', labels: {} },
            { code: 'female', labels: {} },
            { code: 'other', labels: ALL('Other') },
          ],
        ),
      (form) => setTexts(form, ['badges', 'gender'], { title: ALL('Gender on badge') }),
    );
    const add = await within(preview).findByRole('button', { name: 'Add a badge' });
    for (let badge = 0; badge < 3; badge++) fireEvent.click(add);
    await waitFor(() => expect(within(preview).getAllByRole('radio', { name: 'Other' })).toHaveLength(3));
    fireEvent.click(within(preview).getAllByRole('radio', { name: 'Other' })[1]!);
    await waitFor(() => expect((within(preview).getAllByRole('radio', { name: 'Other' })[1] as HTMLInputElement).checked).toBe(true));

    const label = translationCell('forms.s04.enum.gender.other');
    const itemsBefore = served.itemRenders;
    const fieldsBefore = served.fieldRenders;
    fireEvent.change(label, { target: { value: 'Diverse' } });
    const renamed = await within(preview).findAllByRole('radio', { name: 'Diverse' });
    expect(renamed).toHaveLength(3);
    expect((renamed[1] as HTMLInputElement).checked).toBe(true);
    expect(within(preview).queryAllByRole('radio', { name: 'Other' })).toHaveLength(0);
    expect(within(preview).getAllByRole('radio', { name: 'Male' })).toHaveLength(3);

    fireEvent.change(translationCell('forms.s04.byEvent.AFHE2027.badges_gender.title'), { target: { value: 'Gender as printed' } });
    expect(await within(preview).findAllByText('Gender as printed')).toHaveLength(3);
    expect(within(preview).queryAllByText('Gender on badge')).toHaveLength(0);
    // Only the radio groups changed: no badge, and no field's template, was rendered again.
    expect(served.itemRenders - itemsBefore).toBe(0);
    expect(served.fieldRenders - fieldsBefore).toBe(0);
  }, 30_000);

  it('the list’s buttons follow a typed title of its items: “Remove Guest 1” becomes “Remove Visitor 1”, the item not rendered again', async () => {
    const preview = await renderEditor((form) => addQuestion(form, { container: [], id: 'guests', kind: 'list', title: ALL('Guest') }));
    fireEvent.click(await within(preview).findByRole('button', { name: 'Add: Guest' }));
    await within(preview).findByRole('button', { name: 'Remove Guest 1' });

    const itemsBefore = served.itemRenders;
    fireEvent.change(translationCell('forms.s04.byEvent.AFHE2027.guests.title'), { target: { value: 'Visitor' } });
    await within(preview).findByRole('button', { name: 'Remove Visitor 1' });
    within(preview).getByRole('button', { name: 'Add: Visitor' });
    expect(within(preview).queryByRole('button', { name: 'Remove Guest 1' })).toBeNull();
    expect(served.itemRenders - itemsBefore).toBe(0);
  }, 30_000);
});
