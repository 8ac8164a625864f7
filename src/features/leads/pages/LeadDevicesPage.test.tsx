import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { SWRConfig } from 'swr';
import QRCode from 'qrcode';
import { cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import en from '../../../../locales/en.json';
import { typedApi } from '../../../lib/api';
import LeadDevicesPage from './LeadDevicesPage';

// LD1 S3: the Devices page shows a QR code that opens the portal's scanner signed in on a phone,
// from a short-lived single-use sign-in link code, made anew when the code expires.

vi.mock('../../../lib/api', () => ({ typedApi: { get: vi.fn(), post: vi.fn(), del: vi.fn() } }));
vi.mock('../../../lib/session', () => ({ useAccountInfo: () => ({ data: { utcOffsetMinutes: 420 } }) }));

const post = () => vi.mocked(typedApi.post as (path: string, options?: unknown) => Promise<unknown>);

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
  vi.restoreAllMocks();
});

describe('LD1 LeadDevicesPage', () => {
  it('shows a QR code of a one-time sign-in link to the scanner, and a new one when the code expires', async () => {
    vi.mocked(typedApi.get as (path: string) => Promise<unknown>).mockResolvedValue([]);
    let made = 0;
    post().mockImplementation(async () => {
      made += 1;
      // The first code expires at once (so the page must make another), the second in ten minutes.
      const expiresAt = new Date(Date.now() + (made === 1 ? 0 : 600_000)).toISOString();
      return { code: `code-${made}`, link: `https://portal.example/?token=code-${made}`, expiresAt };
    });
    const encode = vi.spyOn(QRCode, 'toString');
    render(
      <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
        <LeadDevicesPage />
      </SWRConfig>,
    );
    fireEvent.click(await screen.findByRole('button', { name: en.leads.devices.phoneShow }));
    expect(await screen.findByRole('img', { name: en.leads.devices.phoneQr })).toBeTruthy();
    expect(post()).toHaveBeenCalledWith('/auth/link-codes', expect.anything());
    expect(encode.mock.calls[0]![0]).toBe('https://portal.example/digital-tools/scanner?token=code-1');
    await waitFor(() => expect(encode.mock.calls.map((call) => call[0])).toContain('https://portal.example/digital-tools/scanner?token=code-2'));
    expect(screen.getByText(en.leads.devices.phoneExpires, { exact: false })).toBeTruthy();
  }, 20_000);
});
