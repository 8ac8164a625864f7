import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { cleanup, configure, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import en from '../../../../locales/en.json';
import { typedApi } from '../../../lib/api';
import EventEditPage from './EventEditPage';

// O2: the event's edit page is rendered from the event schema (engine/schemas/event.ts) by the
// form runtime: a property the schema gains shows on the page without a change to the page.

/** The event schema with one property more than the code base knows of. */
vi.mock('../../../engine/schemas/event', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../engine/schemas/event')>();
  const schema = original.eventInputSchema;
  return { ...original, eventInputSchema: { ...schema, properties: { ...schema.properties, newSetting: { type: 'string', maxLength: 20 } } } };
});

/** Validators for that schema (the generated ones are compiled for the schema as committed). */
vi.mock('../../../generated/entity-validators', async () => {
  const { hashForSchema } = await import('@rjsf/utils');
  const { consoleFormSchema } = await import('../../../engine/schemas/console-forms');
  const { eventInputSchema } = await import('../../../engine/schemas/event');
  const accept = Object.assign(() => true, { errors: null });
  return { eventValidators: () => ({ [hashForSchema(consoleFormSchema(eventInputSchema))]: accept }) };
});

vi.mock('../../../lib/api', () => {
  const get = vi.fn();
  // The page reads through useApi (`call('GET', …)`): those reads answer from `get` as direct ones do.
  const call = (method: string, path: string, options?: unknown) => (method === 'GET' ? get(path, options) : Promise.reject(new Error(`unexpected ${method} ${path}`)));
  return { api: {}, typedApi: { get, call, post: vi.fn(), put: vi.fn() } };
});

const VOCABULARY = {
  modules: ['Forms', 'Support'],
  flags: ['s01CompanyShow'],
  flagGroups: { sections: ['s01CompanyShow'] },
  deadlineNames: ['badges'],
  quotaNames: ['badgeQuota'],
  settings: [{ name: 'extraBadgeFee', kind: 'money', default: '10.00', currency: 'MYR' }],
  languages: ['en', 'cn', 'ja', 'vi'],
};

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

describe('O2 EventEditPage renders the event schema', () => {
  it("shows the schema's fields, and a property the schema gains, without a change to the page", async () => {
    vi.mocked(typedApi.get as (path: string) => Promise<unknown>).mockImplementation(async (path) => {
      if (path === '/organiser/vocabulary') return VOCABULARY;
      throw new Error(`unexpected ${path}`);
    });
    render(
      <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
        <MemoryRouter initialEntries={['/organiser/events/edit']}>
          <EventEditPage />
        </MemoryRouter>
      </SWRConfig>,
    );
    const general = await screen.findByRole('region', { name: en.organiser.event.general });
    expect(within(general).getByRole('textbox', { name: en.organiser.event.code })).toBeTruthy();
    expect(within(general).getByRole('textbox', { name: en.organiser.event.nameIn.replace('{{language}}', 'English') })).toBeTruthy();
    expect(within(general).getByRole('textbox', { name: en.organiser.event.venue })).toBeTruthy();
    // The property the schema gained, labelled by its name until a UI schema names it.
    expect(within(general).getByRole('textbox', { name: 'newSetting' })).toBeTruthy();
    const showDays = screen.getByRole('region', { name: en.organiser.event.showDays });
    expect(within(showDays).getByLabelText(en.organiser.event.opens)).toBeTruthy();
    const settings = screen.getByRole('region', { name: en.organiser.event.formSettings });
    expect(within(settings).getByRole('textbox', { name: `${en.organiser.names.extraBadgeFee} (MYR)` })).toBeTruthy();
  }, 30_000);
});
