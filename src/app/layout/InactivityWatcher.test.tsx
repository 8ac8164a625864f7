import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import { callsTo, renderWithProviders, setupComponentTests } from '../test-utils';
import { InactivityWatcher } from './InactivityWatcher';

setupComponentTests();

const IDLE = 10;
const WARNING = 4;

let assign: ReturnType<typeof vi.fn>;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  assign = vi.fn();
  // endSession leaves for /login with a full page load, which jsdom cannot do.
  vi.stubGlobal('location', { ...window.location, pathname: '/orderForms', assign, reload: vi.fn() });
});

function renderWatcher() {
  return renderWithProviders(<InactivityWatcher idleSeconds={IDLE} warningSeconds={WARNING} />, { path: '/orderForms' });
}

/** Lets `ms` of idle time pass (the watcher checks once a second). */
async function pass(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

const dialog = () => screen.queryByRole('dialog', { name: 'Are you still there?' });

describe('InactivityWatcher (idle 10 s, warning 4 s before)', () => {
  it('S5: no warning after 5 s; at 6 s the warning with a countdown, which counts down', async () => {
    renderWatcher();
    await pass(5000);
    expect(dialog()).toBeNull();
    await pass(1000);
    expect(dialog()).not.toBeNull();
    expect(dialog()!.textContent).toContain('you will be signed out in 4 seconds because of inactivity');
    await pass(1000);
    expect(dialog()!.textContent).toContain('signed out in 3 seconds');
    expect(localStorage.getItem('oem_token')).not.toBeNull();
  });

  it('S5: "Stay signed in" closes the warning, tells the server (keepalive) and restarts the idle time', async () => {
    const { fetchMock } = renderWatcher();
    await pass(7000);
    expect(dialog()).not.toBeNull();
    expect(callsTo(fetchMock, '/oga/auth/keepalive')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Stay signed in' }));
    await pass(1000);
    expect(dialog()).toBeNull();
    const keepalive = callsTo(fetchMock, '/oga/auth/keepalive');
    expect(keepalive).toHaveLength(1);
    expect(keepalive[0]![1]?.method).toBe('POST');

    // Idle again from 7 s: no warning before 13 s, still signed in at 16 s, out at 17 s.
    await pass(4900);
    expect(dialog()).toBeNull();
    await pass(1100);
    expect(dialog()).not.toBeNull();
    await pass(2000);
    expect(localStorage.getItem('oem_token')).not.toBeNull();
    expect(assign).not.toHaveBeenCalled();
    await pass(1000);
    await vi.waitFor(() => expect(localStorage.getItem('oem_token')).toBeNull());
  });

  it('S5: after 10 s without activity the session ends: token removed, reason stored, off to /login', async () => {
    const { fetchMock } = renderWatcher();
    await pass(9000);
    expect(localStorage.getItem('oem_token')).not.toBeNull();
    await pass(1000);
    await vi.waitFor(() => expect(localStorage.getItem('oem_token')).toBeNull());
    expect(sessionStorage.getItem('oem_logout_reason')).toBe('sessionInactive');
    expect(assign).toHaveBeenCalledWith('/login');
    expect(callsTo(fetchMock, '/oga/auth/logout').map(([, init]) => init?.method)).toEqual(['POST']);
  });

  it('S5: activity before the warning postpones it', async () => {
    renderWatcher();
    await pass(5000);
    fireEvent.pointerDown(window);
    await pass(2000);
    expect(dialog()).toBeNull();
    await pass(3900);
    expect(dialog()).toBeNull();
    await pass(100);
    expect(dialog()).not.toBeNull();
  });

  it('S5: activity in another tab (shared last-activity time) counts too', async () => {
    renderWatcher();
    await pass(5000);
    localStorage.setItem('oem_last_activity', String(Date.now()));
    await pass(3000);
    expect(dialog()).toBeNull();
  });

  it('S5: while the warning shows, a stray mouse move does not keep the session', async () => {
    renderWatcher();
    await pass(6000);
    expect(dialog()).not.toBeNull();
    fireEvent.mouseMove(window);
    fireEvent.keyDown(window, { key: 'Shift' });
    await pass(4000);
    await vi.waitFor(() => expect(localStorage.getItem('oem_token')).toBeNull());
    expect(sessionStorage.getItem('oem_logout_reason')).toBe('sessionInactive');
  });

  it('S5: "Log out now" ends the session without an inactivity notice', async () => {
    const { fetchMock } = renderWatcher();
    await pass(6000);
    fireEvent.click(screen.getByRole('button', { name: 'Log out now' }));
    await vi.waitFor(() => expect(localStorage.getItem('oem_token')).toBeNull());
    expect(sessionStorage.getItem('oem_logout_reason')).toBeNull();
    expect(assign).toHaveBeenCalledWith('/login');
    expect(callsTo(fetchMock, '/oga/auth/logout')).toHaveLength(1);
  });
});
