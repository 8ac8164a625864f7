import { describe, expect, it } from 'vitest';
import * as constants from './constants';

const MiB = 1024 * 1024;

describe('K3 constants of spec §9', () => {
  it('C1 API base is /oga', () => {
    expect(constants.API_BASE).toBe('/oga');
  });

  it('S3 storage keys share the oem_ prefix and are distinct', () => {
    expect(constants.STORAGE_PREFIX).toBe('oem_');
    const keys = Object.values(constants.STORAGE_KEYS);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) expect(key.startsWith('oem_')).toBe(true);
    expect(new Set(keys).size).toBe(keys.length);
    expect(constants.STORAGE_KEYS.token).toBe('oem_token');
    expect(constants.STORAGE_KEYS.language).toBe('oem_language');
  });

  it('K3 toast lasts 5000 ms and the logout redirect waits 1000 ms', () => {
    expect(constants.TOAST_DURATION_MS).toBe(5000);
    expect(constants.LOGOUT_REDIRECT_DELAY_MS).toBe(1000);
  });

  it('Y7 scroll to top takes 800 ms', () => {
    expect(constants.SCROLL_TO_TOP_MS).toBe(800);
  });

  it('C4 duplicate-submit window is 1000 ms with a 5 MB cap', () => {
    expect(constants.DUPLICATE_SUBMIT_WINDOW_MS).toBe(1000);
    expect(constants.DUPLICATE_SUBMIT_SIZE_CAP_BYTES).toBe(5 * MiB);
  });

  it('Y8 pagination: page 1, limit 20, sizes 10/20/30/50, layout, pager 5 below 992 px else 7', () => {
    expect(constants.PAGINATION).toEqual({
      defaultPage: 1,
      defaultLimit: 20,
      pageSizes: [10, 20, 30, 50],
      layout: ['total', 'prev', 'pager', 'next', 'jumper'],
      pagerCountNarrow: 5,
      pagerCountWide: 7,
      narrowBelowPx: 992,
    });
    expect(constants.PAGINATION.pageSizes).toContain(constants.PAGINATION.defaultLimit);
  });

  it('V5 custom tags: at most 3, at most 10 choices each', () => {
    expect(constants.CUSTOM_TAGS_MAX).toBe(3);
    expect(constants.CUSTOM_TAG_CHOICES_MAX).toBe(10);
  });

  it("V3 the portal's own uploads (business cards, manual attachments): images up to 2 MB, documents up to 10 MB (form purposes: forms.yaml uploads:)", () => {
    expect(constants.IMAGE_MAX_BYTES).toBe(2 * MiB);
    expect(constants.DOCUMENT_MAX_BYTES).toBe(10 * MiB);
  });

  it('H3 password length is 8 to 64', () => {
    expect(constants.PASSWORD_MIN_LENGTH).toBe(8);
    expect(constants.PASSWORD_MAX_LENGTH).toBe(64);
    expect(constants.PASSWORD_MIN_LENGTH).toBeLessThan(constants.PASSWORD_MAX_LENGTH);
  });

  it('S5 session defaults: 30 min idle, 12 h absolute, 2 min warning', () => {
    expect(constants.SESSION_DEFAULTS).toEqual({ idleSeconds: 1800, absoluteSeconds: 43_200, warningSeconds: 120 });
  });

  it('P4 support email is an email address', () => {
    expect(constants.SUPPORT_EMAIL).toMatch(/^[^@\s]+@[^@\s]+\.[^@\s]+$/);
  });
});
