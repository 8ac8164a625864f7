import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client';
import { typedApi } from './api';
import { clearUserInfo, loadUserInfo } from './session';
import { tokenStore } from './storage';

// S4 offline: the signed-in frame's user info comes from the device's last copy only when the
// server cannot be reached; an answer of the server (a 401 included) is never replaced by it.

const user = {
  id: 7,
  account: 'demo',
  name: 'Demo Exhibitor',
  email: 'demo@example.com',
  role: 'exhibitor' as const,
  displayedModule: ['Leadgrab'],
  showLeftMenus: true,
  session: { idleSeconds: 1800, warningSeconds: 60, expiresAt: '2026-12-01T00:00:00.000Z' },
};
const unreachable = new ApiError({ message: 'Network error', kind: 'transport', code: 0, errorId: 'network' });
const signedOut = new ApiError({ message: 'Login required', kind: 'body', code: 401, errorId: 'invalidSession' });

describe('S4 user info offline', () => {
  beforeEach(async () => {
    localStorage.clear();
    tokenStore.set('token-of-this-test');
    await clearUserInfo();
  });
  afterEach(() => vi.restoreAllMocks());

  it('the last answer of this session, without the e-mail, when the server cannot be reached', async () => {
    const get = vi.spyOn(typedApi, 'get').mockResolvedValueOnce(user as never);
    expect(await loadUserInfo()).toEqual(user);
    get.mockRejectedValueOnce(unreachable);
    expect(await loadUserInfo()).toEqual({ ...user, email: '' });
    expect(JSON.stringify(localStorage)).not.toContain('demo@example.com');
  });

  it('a 401 is not hidden by the copy, and a new token drops the copy', async () => {
    const get = vi.spyOn(typedApi, 'get').mockResolvedValueOnce(user as never);
    await loadUserInfo();
    get.mockRejectedValueOnce(signedOut);
    await expect(loadUserInfo()).rejects.toBe(signedOut);
    tokenStore.set('another-token');
    get.mockRejectedValueOnce(unreachable);
    await expect(loadUserInfo()).rejects.toBe(unreachable);
  });
});
