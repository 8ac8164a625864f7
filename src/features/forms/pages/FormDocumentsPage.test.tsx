import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import en from '../../../../locales/en.json';
import { api, typedApi } from '../../../lib/api';
import FormDocumentsPage from './FormDocumentsPage';

// F7 in the browser: the documents of the screen's form (screens.yaml documentsOf: S06's letters),
// viewed from a blob (the PDF needs the bearer token) or downloaded in the chosen language; an
// empty state that leads to the form.

// The real typed client over a stand-in ApiClient, so a download is seen where it leaves for the network.
vi.mock('../../../lib/api', async () => {
  const { createTypedApi } = await import('../../../lib/typed-api');
  const api = { download: vi.fn(), request: vi.fn() };
  const typed = createTypedApi(api as never);
  const get = vi.fn();
  // The page reads through useApi (`call('GET', …)`): those reads answer from `get` as direct ones do.
  const call = (method: string, path: string, options?: unknown) => (method === 'GET' ? get(path, options) : typed.call(method as never, path as never, options as never));
  return { api, typedApi: { ...typed, get, call } };
});

const LIST = '/forms/s06/documents';
const LIST_ROUTE = '/forms/{id}/documents';
const PDF_ROUTE = '/forms/{id}/documents/{document}/{index}.pdf';
/** typedApi.get answers by route; the mock takes any route and options. */
const get = () => vi.mocked(typedApi.get as (path: string, options?: unknown) => Promise<unknown>);
const letters = (items: unknown[]) => [
  { id: 'invitationLetter', title: 'Visa invitation letter', intro: 'One letter per applicant.', none: 'No letters yet.', columns: ['Full name', 'Passport number'], items },
];
const LETTERS = letters([
  { index: 0, name: 'Tan Wei Ming', summary: ['A12345678'], reference: 'AFHE2027-1-1', fileName: 'visa-invitation-Tan-Wei-Ming.pdf' },
  { index: 1, name: 'Nguyễn Văn Đức', summary: ['C7654321'], reference: 'AFHE2027-1-2', fileName: 'visa-invitation-Nguyễn-Văn-Đức.pdf' },
]);
const viewName = (name: string) => en.documents.viewOf.replace('{{document}}', 'Visa invitation letter').replace('{{name}}', name);
const downloadName = (name: string) => en.documents.downloadOf.replace('{{document}}', 'Visa invitation letter').replace('{{name}}', name);

function renderPage() {
  return render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <MemoryRouter initialEntries={['/orderForms/visaInvitationDetail']}>
        <FormDocumentsPage />
      </MemoryRouter>
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
  vi.unstubAllGlobals();
});

describe('F7 FormDocumentsPage', () => {
  it('before S06 is submitted: says so (in the words the answer brings) and links to the S06 form', async () => {
    get().mockResolvedValue(letters([]));
    renderPage();
    expect(await screen.findByText('No letters yet.')).toBeTruthy();
    const link = screen.getByRole('link', { name: en.documents.openForm.replace('{{form}}', en.screens.visaInvitation) });
    expect(link.getAttribute('href')).toBe(`/myParticipation/visaInvitation?orderName=${encodeURIComponent(en.screens.visaInvitation)}`);
    expect(typedApi.get).toHaveBeenCalledWith(LIST_ROUTE, { path: { id: 's06' } });
  });

  it('lists each applicant with passport number and reference', async () => {
    get().mockResolvedValue(LETTERS);
    renderPage();
    expect(await screen.findByText('Tan Wei Ming')).toBeTruthy();
    expect(screen.getByText('Nguyễn Văn Đức')).toBeTruthy();
    expect(screen.getByText('A12345678')).toBeTruthy();
    expect(screen.getByText('AFHE2027-1-2')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Passport number' })).toBeTruthy();
    expect(screen.getAllByRole('button', { name: new RegExp(`^${en.documents.view}`) })).toHaveLength(2);
  });

  it('View letter fetches the PDF as a blob with the session and shows it in a tab opened on the click', async () => {
    const blob = new Blob(['%PDF-1.7'], { type: 'application/pdf' });
    get().mockImplementation(async (path: string) => (path === LIST_ROUTE ? LETTERS : blob));
    const tab = { location: { href: '' }, close: vi.fn() };
    const open = vi.fn(() => tab);
    vi.stubGlobal('open', open);
    const createObjectURL = vi.fn(() => 'blob:http://localhost/letter-1');
    vi.stubGlobal('URL', Object.assign(Object.create(URL), { createObjectURL, revokeObjectURL: vi.fn() }));
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: viewName('Nguyễn Văn Đức') }));
    expect(open).toHaveBeenCalledWith('', '_blank');
    await waitFor(() => expect(tab.location.href).toBe('blob:http://localhost/letter-1'));
    expect(typedApi.get).toHaveBeenCalledWith(PDF_ROUTE, { path: { id: 's06', document: 'invitationLetter', index: '1' }, query: { lang: 'en' }, responseType: 'blob' });
    expect(createObjectURL).toHaveBeenCalledWith(blob);
  });

  it('a failed View closes the tab it opened (the API client shows the error)', async () => {
    get().mockImplementation(async (path: string) => {
      if (path === LIST_ROUTE) return LETTERS;
      throw new Error('The resource does not exist.');
    });
    const tab = { location: { href: '' }, close: vi.fn() };
    vi.stubGlobal(
      'open',
      vi.fn(() => tab),
    );
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: viewName('Tan Wei Ming') }));
    await waitFor(() => expect(tab.close).toHaveBeenCalledTimes(1));
    expect(tab.location.href).toBe('');
  });

  it('Download saves the PDF under its file name', async () => {
    get().mockResolvedValue(LETTERS);
    vi.mocked(api.download).mockResolvedValue(undefined);
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: downloadName('Tan Wei Ming') }));
    await waitFor(() => expect(api.download).toHaveBeenCalledWith(`${LIST}/invitationLetter/0.pdf`, 'visa-invitation-Tan-Wei-Ming.pdf', { params: { download: '1', lang: 'en' } }));
  });
});
