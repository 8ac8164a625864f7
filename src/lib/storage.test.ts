import { beforeEach, describe, expect, it } from 'vitest';
import { offlineSessionStore, tokenStore } from './storage';

describe('offlineSessionStore', () => {
  beforeEach(() => localStorage.clear());

  it("keeps the session's answers for the token they were answered to", () => {
    tokenStore.set('token-a');
    offlineSessionStore.set('/user/info', { name: 'Demo' });
    offlineSessionStore.set('/system/project/exhibirotCode', { exhibitName: 'Borneo Botanica' });
    expect(offlineSessionStore.get('/user/info')).toEqual({ name: 'Demo' });
    expect(offlineSessionStore.get('/system/project/exhibirotCode')).toEqual({ exhibitName: 'Borneo Botanica' });
  });

  it('gives nothing to another session, and nothing after sign-out', () => {
    tokenStore.set('token-a');
    offlineSessionStore.set('/user/info', { name: 'Demo' });
    tokenStore.set('token-b');
    expect(offlineSessionStore.get('/user/info')).toBeUndefined();
    offlineSessionStore.set('/user/info', { name: 'Other' });
    tokenStore.clear();
    expect(localStorage.length).toBe(0);
    tokenStore.set('token-b');
    expect(offlineSessionStore.get('/user/info')).toBeUndefined();
  });

  it('keeps nothing without a session', () => {
    offlineSessionStore.set('/user/info', { name: 'Demo' });
    expect(localStorage.length).toBe(0);
  });
});
