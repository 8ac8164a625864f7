import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { SWRConfig } from 'swr';
import { cleanup, configure, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import en from '../../../../locales/en.json';
import ja from '../../../../locales/ja.json';
import { typedApi } from '../../../lib/api';
import { ApiError } from '../../../lib/api-client';
import OrganiserContentPage from './OrganiserContentPage';

// CT1–CT4: the content editor is the form runtime over the content item's schema
// (engine/schemas/content.ts), validated with the schema the route checks the request with, in
// the user's language; a property the schema gains shows in the editor without a change to it.

/** The content item's schema with one property more than the code base knows of. */
vi.mock('../../../engine/schemas/content', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../engine/schemas/content')>();
  const schema = original.contentItemSchema;
  return { ...original, contentItemSchema: { ...schema, properties: { ...schema.properties, newSetting: { type: 'string', maxLength: 20 } } } };
});

/** The generated validators, compiled for the schema as committed, answer for the schema with that property too. */
vi.mock('../../../generated/entity-validators', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../generated/entity-validators')>();
  const { hashForSchema } = await import('@rjsf/utils');
  const { consoleFormSchema } = await import('../../../engine/schemas/console-forms');
  const { contentItemSchema } = await import('../../../engine/schemas/content');
  const committed = Object.fromEntries(Object.entries(contentItemSchema.properties).filter(([name]) => name !== 'newSetting'));
  const committedHash = hashForSchema(consoleFormSchema({ ...contentItemSchema, properties: committed }));
  const extendedHash = hashForSchema(consoleFormSchema(contentItemSchema));
  return {
    ...original,
    contentItemValidators: (require: (specifier: string) => unknown) => {
      const compiled: Record<string, unknown> = { ...original.contentItemValidators(require) };
      return { ...compiled, [extendedHash]: compiled[committedHash] };
    },
  };
});

vi.mock('../../../lib/api', () => ({ api: {}, typedApi: { call: vi.fn(), get: vi.fn(), post: vi.fn(), put: vi.fn(), del: vi.fn() } }));
vi.mock('../../../lib/session', () => ({ useAccountInfo: () => ({ data: { utcOffsetMinutes: 480 } }) }));

beforeAll(() => {
  if (!i18next.isInitialized) {
    void i18next.use(initReactI18next).init({ resources: { en: { translation: en } }, lng: 'en', initAsync: false, interpolation: { escapeValue: false } });
  }
  i18next.addResourceBundle('ja', 'translation', ja);
  configure({ asyncUtilTimeout: 5000 });
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
});
afterEach(async () => {
  cleanup();
  vi.clearAllMocks();
  await i18next.changeLanguage('en');
});

function renderPage() {
  vi.mocked(typedApi.call as (method: string, path: string) => Promise<unknown>).mockImplementation(async (_method, path) => {
    if (path === '/organiser/content') return [];
    throw new Error(`unexpected ${path}`);
  });
  render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <OrganiserContentPage />
    </SWRConfig>,
  );
}

describe('CT1 the content editor renders the content item schema', () => {
  it("shows the kind's fields and a property the schema gains, without a change to the editor", async () => {
    renderPage();
    expect(await screen.findByText(en.organiserContent.none)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: en.organiserContent.add.replace('{{kind}}', en.organiserContent.kind.manual) }));
    const dialog = await screen.findByRole('dialog', { name: en.organiserContent.kind.manual });
    expect(within(dialog).getByRole('textbox', { name: en.organiserContent.title })).toBeTruthy();
    expect(within(dialog).getByRole('textbox', { name: en.organiserContent.description })).toBeTruthy();
    expect(within(dialog).getByRole('textbox', { name: en.organiserContent.body })).toBeTruthy();
    expect(within(dialog).getByRole('checkbox', { name: en.organiserContent.mandatory })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: en.organiserContent.attachFile })).toBeTruthy();
    expect(within(dialog).queryByRole('checkbox', { name: en.organiserContent.pinned })).toBeNull();
    // The property the schema gained, labelled by its name until a UI schema names it.
    expect(within(dialog).getByRole('textbox', { name: 'newSetting' })).toBeTruthy();
  }, 30_000);

  it("says the schema's problem with a text beside the field, in the user's language, and sends nothing", async () => {
    await i18next.changeLanguage('ja');
    renderPage();
    fireEvent.click(await screen.findByRole('tab', { name: ja.organiserContent.kind.faq }));
    fireEvent.click(await screen.findByRole('button', { name: ja.organiserContent.add.replace('{{kind}}', ja.organiserContent.kind.faq) }));
    const dialog = await screen.findByRole('dialog', { name: ja.organiserContent.kind.faq });
    fireEvent.change(within(dialog).getByRole('textbox', { name: ja.organiserContent.question }), { target: { value: 'あ'.repeat(301) } });
    fireEvent.click(within(dialog).getByRole('button', { name: ja.organiser.event.save }));
    expect(await within(dialog).findByText(ja.validation.maxLength.replace('{{limit}}', '300'))).toBeTruthy();
    expect(typedApi.post).not.toHaveBeenCalled();
  }, 30_000);

  it("puts the server's coded answer beside the field it names", async () => {
    renderPage();
    expect(await screen.findByText(en.organiserContent.none)).toBeTruthy();
    vi.mocked(typedApi.post).mockRejectedValue(
      new ApiError({ message: en.errors.contentDeadlineAfterShow, kind: 'body', code: 601, errorId: 'contentDeadlineAfterShow', data: { field: 'deadline' } }),
    );
    fireEvent.click(screen.getByRole('button', { name: en.organiserContent.add.replace('{{kind}}', en.organiserContent.kind.manual) }));
    const dialog = await screen.findByRole('dialog', { name: en.organiserContent.kind.manual });
    fireEvent.change(within(dialog).getByRole('textbox', { name: en.organiserContent.title }), { target: { value: 'Stand build rules' } });
    fireEvent.click(within(dialog).getByRole('button', { name: en.organiser.event.save }));
    expect(await within(dialog).findByText(en.errors.contentDeadlineAfterShow)).toBeTruthy();
  }, 30_000);
});
