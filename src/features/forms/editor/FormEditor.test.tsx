import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { SWRConfig } from 'swr';
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import en from '../../../../locales/en.json';
import cn from '../../../../locales/cn.json';
import ja from '../../../../locales/ja.json';
import vi_ from '../../../../locales/vi.json';
import s04Schema from '../../../../schemas/forms/s04.schema.json';
import s04Ui from '../../../../schemas/forms/s04.ui.json';
import { flattenKeys, lookup, type LocaleTable } from '../../../engine/i18n';
import type { FormDefinition } from '../../../engine/forms/definitions';
import { ApiError } from '../../../lib/api-client';
import type { EditorApi, EditorSource } from './editor-api';
import { FormEditor, type PublishedForm } from './FormEditor';

// F11 in the browser, against a stand-in of the editor's API: the question list of S04 for one
// event, a new question saved as the draft (debounced) with the form's strings in full, a missing
// translation and the server's problem shown at the question, a removal that touches forms.yaml
// offering to hide instead, and a publish refused because someone published meanwhile.

const TABLES = { en, cn, ja, vi: vi_ } as unknown as Record<string, LocaleTable>;
const known = Object.fromEntries(
  Object.entries(TABLES).map(([language, table]) => [
    language,
    Object.fromEntries(flattenKeys((table.forms as LocaleTable).s04 as LocaleTable, 'forms.s04.').map((key) => [key, lookup(table, key)!])),
  ]),
);
const SOURCE: EditorSource = {
  exhibitCode: 'AFHE2027',
  formId: 's04',
  version: { id: 7, number: 3 },
  base: { schema: s04Schema as Record<string, unknown>, ui: s04Ui as Record<string, unknown> },
  patch: null,
  strings: known,
  draft: null,
  uploadPurposes: ['logo', 'productImage', 'brochure', 'boothDesign', 'passportPhoto'],
};
const DEFINITION = {
  id: 's04',
  code: 'S04',
  title: 'forms.s04.title',
  screen: 'exhibitorBadges',
  mandatory: true,
  deadline: 'badges',
  submitOnceFlag: 's04SubmitOnceOnly',
  prerequisites: [],
  audience: 'exhibitor',
  approval: { when: 'anyItemFlag', list: 'badges', flag: 'extra' },
  approvalSummary: [{ field: 'badges', show: ['firstName', 'middleName', 'lastName', 'companyOnBadge'], optional: ['lastName'] }],
  fee: { list: 'badges', flag: 'extra', price: '10.00', currency: 'MYR', setting: 'extraBadgeFee' },
} as unknown as FormDefinition;
const PUBLISHED: PublishedForm = {
  definition: DEFINITION,
  definitionIndex: 3,
  context: { flags: {}, quotas: { badges: 5 } },
  schema: SOURCE.base.schema,
  ui: SOURCE.base.ui,
  strings: {},
  validatorUrl: '/oga/forms/validators/none.js',
};

function fakeApi(): { [K in keyof EditorApi]: ReturnType<typeof vi.fn> } {
  return {
    load: vi.fn().mockResolvedValue(SOURCE),
    saveDraft: vi.fn().mockResolvedValue({ problems: [], preview: { schema: {}, ui: {}, strings: {}, validator: null } }),
    discardDraft: vi.fn().mockResolvedValue(null),
    impact: vi.fn(),
    publish: vi.fn(),
    versions: vi.fn().mockResolvedValue([]),
    diff: vi.fn(),
    rollback: vi.fn(),
  };
}

function renderEditor(api: ReturnType<typeof fakeApi>) {
  return render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <FormEditor api={api as unknown as EditorApi} eventId={12} formId="s04" published={PUBLISHED} purposes={[]} />
    </SWRConfig>,
  );
}

beforeAll(() => {
  if (!i18next.isInitialized) {
    void i18next.use(initReactI18next).init({ resources: { en: { translation: en } }, lng: 'en', initAsync: false, interpolation: { escapeValue: false } });
  }
  configure({ asyncUtilTimeout: 5000 });
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
});
afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

const t = (key: string, params: Record<string, string | number> = {}) => i18next.t(key, params);

describe('F11 FormEditor', () => {
  it('a new question in the badges, saved as the draft with the strings in full; its missing translations and the server’s problem at the question', async () => {
    const api = fakeApi();
    api.saveDraft.mockResolvedValue({
      problems: [{ file: 'events/AFHE2027/s04.patch.json', path: '/schema/properties/badges/items/properties/dietary/title', message: 'title key missing in locales/cn.json' }],
      preview: { schema: {}, ui: {}, strings: {}, validator: null },
    });
    renderEditor(api);
    expect(await screen.findByRole('listitem', { name: 'First name' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: t('formEditor.addQuestionTo', { where: 'Badges' }) }));
    const dialog = screen.getByRole('dialog', { name: t('formEditor.addQuestionTitle') });
    fireEvent.change(within(dialog).getByLabelText(t('formEditor.questionId'), { exact: false }), { target: { value: 'dietary' } });
    fireEvent.change(within(dialog).getByLabelText(t('formEditor.inLanguage', { what: t('formEditor.questionTitle'), language: 'English' })), {
      target: { value: 'Dietary needs' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: t('formEditor.add') }));

    const row = await screen.findByRole('listitem', { name: 'Dietary needs' });
    const key = 'forms.s04.byEvent.AFHE2027.badges_dietary.title';
    expect(within(row).getByText(t('formEditor.missingIn', { key, languages: 'Chinese, Japanese, Vietnamese' }))).toBeTruthy();
    await waitFor(() => expect(api.saveDraft).toHaveBeenCalledTimes(1));
    const [eventId, formId, body] = api.saveDraft.mock.calls[0]!;
    expect([eventId, formId, body.basedOn]).toEqual([12, 's04', 3]);
    expect(body.patch.schema.properties.badges.items.properties.dietary).toEqual({ type: 'string', maxLength: 200, title: key });
    // The form's strings in full: the event's new one and every existing one.
    expect(body.strings.en[key]).toBe('Dietary needs');
    expect(body.strings.en['forms.s04.email']).toBe('Email');
    expect(await within(row).findByText('title key missing in locales/cn.json')).toBeTruthy();
    expect(screen.getByText(t('formEditor.problemCount', { count: 1 }))).toBeTruthy();
  }, 20_000);

  it('a file question offers the upload purposes forms.yaml declares, though the form uses none of them yet', async () => {
    const api = fakeApi();
    renderEditor(api);
    expect(await screen.findByRole('listitem', { name: 'First name' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: t('formEditor.addQuestionTo', { where: t('formEditor.theForm') }) }));
    const dialog = screen.getByRole('dialog', { name: t('formEditor.addQuestionTitle') });
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: t('formEditor.kind') }));
    fireEvent.click(await screen.findByRole('option', { name: t('formEditor.kinds.file') }));
    const purpose = within(dialog).getByRole('combobox', { name: t('formEditor.purpose') });
    fireEvent.mouseDown(purpose);
    fireEvent.keyDown(purpose, { key: 'ArrowDown' });
    const offered = (await screen.findAllByRole('option')).map((option) => option.textContent);
    expect(offered).toEqual(['logo', 'productImage', 'brochure', 'boothDesign', 'passportPhoto']);
    fireEvent.click(screen.getByRole('option', { name: 'brochure' }));
    fireEvent.change(within(dialog).getByLabelText(t('formEditor.questionId'), { exact: false }), { target: { value: 'catalogue' } });
    fireEvent.change(within(dialog).getByLabelText(t('formEditor.inLanguage', { what: t('formEditor.questionTitle'), language: 'English' })), {
      target: { value: 'Catalogue' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: t('formEditor.add') }));
    await waitFor(() => expect(api.saveDraft).toHaveBeenCalledTimes(1));
    expect(api.saveDraft.mock.calls[0]![2].patch.schema.properties.catalogue).toMatchObject({ file: 'brochure' });
  }, 20_000);

  it('removing a field forms.yaml names (the fee’s flag) says which, and hiding it instead keeps the field', async () => {
    const api = fakeApi();
    renderEditor(api);
    const extra = await screen.findByRole('listitem', { name: 'Extra badge (beyond your quota)' });
    fireEvent.click(within(extra).getByRole('button', { name: t('formEditor.removeOf', { question: 'Extra badge (beyond your quota)' }) }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText(t('formEditor.referenceRequired', { field: 'badges.extra', at: '/forms/3/fee/flag' }))).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: t('formEditor.hideInstead') }));
    await waitFor(() => expect(api.saveDraft).toHaveBeenCalledTimes(1));
    const body = api.saveDraft.mock.calls[0]![2];
    expect(body.patch.ui.badges.items.extra['ui:field']).toBe('hidden');
    expect(body.patch.schema).toBeUndefined();
  }, 20_000);

  it('removing a name an approval summary shows offers, in the same step, to list it under the entry’s optional: in forms.yaml; the draft carries it', async () => {
    const api = fakeApi();
    renderEditor(api);
    const company = await screen.findByRole('listitem', { name: 'Company name on badge' });
    fireEvent.click(within(company).getByRole('button', { name: t('formEditor.removeOf', { question: 'Company name on badge' }) }));
    const dialog = screen.getByRole('dialog');
    expect(
      within(dialog).getByText(t('formEditor.referenceOptionable', { field: 'badges.companyOnBadge', at: '/forms/3/approvalSummary/0/show/3', name: 'companyOnBadge' })),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: t('formEditor.removeAndList', { names: 'companyOnBadge' }) }));
    await waitFor(() => expect(api.saveDraft).toHaveBeenCalledTimes(1));
    const body = api.saveDraft.mock.calls[0]![2];
    expect(body.listings).toEqual([{ entry: '/forms/3/approvalSummary/0', name: 'companyOnBadge' }]);
    expect(body.patch.schema.properties.badges.items.properties.companyOnBadge).toBeNull();
    expect(screen.getByText(t('formEditor.listed', { names: 'companyOnBadge (/forms/3/approvalSummary/0)' }))).toBeTruthy();
  }, 20_000);

  it('a publish refused because another was published meanwhile says so; nothing else changes', async () => {
    const api = fakeApi();
    api.publish.mockRejectedValue(new ApiError({ message: 'Someone published a change to the forms after you started (version 4).', kind: 'body', code: 601, status: 409 }));
    renderEditor(api);
    const required = await screen.findByRole('listitem', { name: 'Middle name' });
    fireEvent.click(within(required).getByLabelText(t('formEditor.required')));
    await waitFor(() => expect(api.saveDraft).toHaveBeenCalledTimes(1));
    const publish = screen.getByRole('button', { name: t('formEditor.publish') });
    await waitFor(() => expect((publish as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(publish);
    expect(await screen.findByText('Someone published a change to the forms after you started (version 4).')).toBeTruthy();
    expect(api.publish).toHaveBeenCalledWith(12, 's04', { basedOn: 3, comment: '', submissions: 'keep' });
  }, 20_000);
});
