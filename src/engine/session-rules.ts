// Session timing rules (S5), shared by the server (which decides) and the browser (which
// warns): a session ends after `idleSeconds` without activity or `absoluteSeconds` after login.

export interface SessionTimes {
  createdAt: number;
  lastSeenAt: number;
}

export interface SessionPolicy {
  idleSeconds: number;
  absoluteSeconds: number;
}

export type SessionState = 'active' | 'idle-expired' | 'absolute-expired';

export function sessionState(times: SessionTimes, policy: SessionPolicy, now: number): SessionState {
  if (now - times.createdAt >= policy.absoluteSeconds * 1000) return 'absolute-expired';
  if (now - times.lastSeenAt >= policy.idleSeconds * 1000) return 'idle-expired';
  return 'active';
}

/** When the session would end if nothing more happens. */
export function sessionEndsAt(times: SessionTimes, policy: SessionPolicy): number {
  return Math.min(times.createdAt + policy.absoluteSeconds * 1000, times.lastSeenAt + policy.idleSeconds * 1000);
}

/**
 * The warning lead time: the configured lead (2 minutes by default), but never more than half
 * the idle time, so a short idle timeout still leaves time to be active before the warning.
 */
export function warningLeadMs(idleSeconds: number, warningSeconds: number): number {
  return Math.min(warningSeconds, idleSeconds / 2) * 1000;
}

export type InactivityPhase = 'active' | 'warning' | 'ended';

/** What the browser should show, given the last user activity. */
export function inactivityPhase(lastActivityAt: number, now: number, idleSeconds: number, warningSeconds: number): InactivityPhase {
  const idleMs = idleSeconds * 1000;
  const elapsed = now - lastActivityAt;
  if (elapsed >= idleMs) return 'ended';
  if (elapsed >= idleMs - warningLeadMs(idleSeconds, warningSeconds)) return 'warning';
  return 'active';
}
