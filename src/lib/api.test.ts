import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { endSession } from './api';

// S5: when several requests find the session over at once, the user still lands on /login once,
// with the reason the first one gave (a second navigation would reload /login without it).

describe('S5 endSession', () => {
  const assign = vi.fn();
  beforeEach(() => {
    localStorage.setItem('oem_token', 'token-of-this-test');
    sessionStorage.clear();
    vi.stubGlobal('location', { ...window.location, pathname: '/home', assign });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    assign.mockReset();
  });

  it('S5 clears the token, remembers why and goes to /login', () => {
    endSession('sessionInactive');
    expect(localStorage.getItem('oem_token')).toBeNull();
    expect(sessionStorage.getItem('oem_logout_reason')).toBe('sessionInactive');
    expect(assign).toHaveBeenCalledWith('/login');
  });

  it('S5 a second ending of the same session neither navigates again nor changes the reason', () => {
    endSession('sessionInactive');
    endSession('invalidSession');
    expect(assign).toHaveBeenCalledTimes(1);
    expect(sessionStorage.getItem('oem_logout_reason')).toBe('sessionInactive');
  });
});
