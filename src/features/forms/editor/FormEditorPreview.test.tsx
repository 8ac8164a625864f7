import type { ComponentProps } from 'react';
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
import { patchedFiles, setTexts, type EditorForm } from '../../../engine/forms/patch-editor';
import { validatorBody, validatorRequire, type CompiledValidators } from '../../../engine/forms/served-validators';
import { FORM_AJV_OPTIONS } from '../../../engine/forms/validator';
import type { ArrayItemTemplate as ArrayItemTemplateType } from '../../../components/form-runtime/ArrayItemTemplate';
import { formTable, type EditorApi, type EditorSource } from './editor-api';
import { FormEditor, type PublishedForm } from './FormEditor';

// F11: a text typed in the editor reaches the preview's fields that show it, and nothing else of
// the preview renders again: the badges entered in the preview are not rendered anew (rjsf is
// handed the same form; only the labels showing the text change).

const served = vi.hoisted(() => ({ validators: null as unknown, itemRenders: 0 }));

// The preview's validator, compiled here as the server compiles it (the browser loads it as a module).
vi.mock('../../../components/form-runtime/form-view', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../components/form-runtime/form-view')>()),
  useServedValidators: () => ({ data: served.validators, error: undefined }),
}));
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

/** S04 of the event as published: the badges' first name has a title of the event's own. */
function publishedWithOwnTitle() {
  const form: EditorForm = { formId: 's04', exhibitCode: 'AFHE2027', base: BASE, patch: null, strings: {}, known };
  const outcome = setTexts(form, ['badges', 'firstName'], { title: { en: 'Given name', cn: '名', ja: '名', vi: 'Tên' } });
  if (!outcome.ok) throw new Error(outcome.error.code);
  const strings = { en: { ...known.en, ...outcome.strings.en } };
  const files = patchedFiles(BASE, outcome.patch);
  return { patch: outcome.patch, strings, files };
}

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

describe('F11 FormEditor preview', () => {
  it('a title typed in the translations shows in the preview’s badges at once, without rendering the badges again', async () => {
    const { patch, strings, files } = publishedWithOwnTitle();
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

    const preview = await screen.findByRole('region', { name: i18next.t('formEditor.preview') });
    const add = await within(preview).findByRole('button', { name: 'Add a badge' });
    for (let badge = 0; badge < 3; badge++) fireEvent.click(add);
    await waitFor(() => expect(within(preview).getAllByRole('textbox', { name: /^Given name/ })).toHaveLength(3));
    fireEvent.change(within(preview).getAllByRole('textbox', { name: /^Given name/ })[1]!, { target: { value: 'Aisyah' } });
    fireEvent.blur(within(preview).getAllByRole('textbox', { name: /^Given name/ })[1]!);

    fireEvent.click(screen.getByRole('tab', { name: i18next.t('formEditor.translations') }));
    const title = screen.getByRole('textbox', { name: i18next.t('formEditor.textIn', { key: TITLE_KEY, language: 'English' }) });
    const rendersBefore = served.itemRenders;
    fireEvent.change(title, { target: { value: 'Name on badge' } });

    const renamed = await within(preview).findAllByRole('textbox', { name: /^Name on badge/ });
    expect(renamed).toHaveLength(3);
    expect((renamed[1] as HTMLInputElement).value).toBe('Aisyah');
    expect(within(preview).queryAllByRole('textbox', { name: /^Given name/ })).toHaveLength(0);
    // Only the labels changed: no badge of the preview was rendered again.
    expect(served.itemRenders - rendersBefore).toBe(0);
  }, 30_000);
});
