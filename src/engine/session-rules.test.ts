import { describe, expect, it } from 'vitest';
import { SESSION_DEFAULTS } from './constants';
import { inactivityPhase, sessionEndsAt, sessionState, warningLeadMs } from './session-rules';

// A fake clock: plain millisecond numbers.
const T0 = 1_800_000_000_000;
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

const policy = { idleSeconds: 30 * 60, absoluteSeconds: 12 * 60 * 60 };

describe('S5 sessionState', () => {
  it('S5 a fresh session is active', () => {
    expect(sessionState({ createdAt: T0, lastSeenAt: T0 }, policy, T0)).toBe('active');
  });

  it('S5 stays active just before the idle limit', () => {
    expect(sessionState({ createdAt: T0, lastSeenAt: T0 }, policy, T0 + 30 * MINUTE - 1)).toBe('active');
  });

  it('S5 ends on inactivity at exactly the idle limit', () => {
    expect(sessionState({ createdAt: T0, lastSeenAt: T0 }, policy, T0 + 30 * MINUTE)).toBe('idle-expired');
  });

  it('S5 activity moves the idle limit', () => {
    const times = { createdAt: T0, lastSeenAt: T0 + 2 * HOUR };
    expect(sessionState(times, policy, T0 + 2 * HOUR + 29 * MINUTE)).toBe('active');
    expect(sessionState(times, policy, T0 + 2 * HOUR + 30 * MINUTE)).toBe('idle-expired');
  });

  it('S5 ends at the absolute limit even with recent activity', () => {
    const times = { createdAt: T0, lastSeenAt: T0 + 12 * HOUR - MINUTE };
    expect(sessionState(times, policy, T0 + 12 * HOUR - 1)).toBe('active');
    expect(sessionState(times, policy, T0 + 12 * HOUR)).toBe('absolute-expired');
  });

  it('S5 reports the absolute expiry when both limits have passed', () => {
    expect(sessionState({ createdAt: T0, lastSeenAt: T0 }, policy, T0 + 13 * HOUR)).toBe('absolute-expired');
  });

  it('S5 uses the policy given, not the defaults', () => {
    const short = { idleSeconds: 60, absoluteSeconds: 300 };
    expect(sessionState({ createdAt: T0, lastSeenAt: T0 }, short, T0 + 59 * SECOND)).toBe('active');
    expect(sessionState({ createdAt: T0, lastSeenAt: T0 }, short, T0 + 60 * SECOND)).toBe('idle-expired');
  });
});

describe('S5 sessionEndsAt', () => {
  it('S5 is the idle limit when that comes first', () => {
    expect(sessionEndsAt({ createdAt: T0, lastSeenAt: T0 + HOUR }, policy)).toBe(T0 + HOUR + 30 * MINUTE);
  });

  it('S5 is the absolute limit when that comes first', () => {
    expect(sessionEndsAt({ createdAt: T0, lastSeenAt: T0 + 11 * HOUR + 50 * MINUTE }, policy)).toBe(T0 + 12 * HOUR);
  });
});

describe('S5 warning lead time', () => {
  it('S5 defaults to a 2-minute lead with the default 30-minute idle time', () => {
    expect(warningLeadMs(SESSION_DEFAULTS.idleSeconds, SESSION_DEFAULTS.warningSeconds)).toBe(2 * MINUTE);
  });

  it('S5 caps the lead at half a short idle time', () => {
    expect(warningLeadMs(60, 120)).toBe(30 * SECOND);
    expect(warningLeadMs(240, 120)).toBe(2 * MINUTE);
    expect(warningLeadMs(200, 120)).toBe(100 * SECOND);
  });
});

describe('S5 inactivityPhase', () => {
  const { idleSeconds, warningSeconds } = SESSION_DEFAULTS;

  it('S5 is active until two minutes before the idle limit (defaults)', () => {
    expect(inactivityPhase(T0, T0, idleSeconds, warningSeconds)).toBe('active');
    expect(inactivityPhase(T0, T0 + 28 * MINUTE - 1, idleSeconds, warningSeconds)).toBe('active');
  });

  it('S5 warns during the last two minutes (defaults)', () => {
    expect(inactivityPhase(T0, T0 + 28 * MINUTE, idleSeconds, warningSeconds)).toBe('warning');
    expect(inactivityPhase(T0, T0 + 30 * MINUTE - 1, idleSeconds, warningSeconds)).toBe('warning');
  });

  it('S5 has ended at the idle limit (defaults)', () => {
    expect(inactivityPhase(T0, T0 + 30 * MINUTE, idleSeconds, warningSeconds)).toBe('ended');
    expect(inactivityPhase(T0, T0 + 5 * HOUR, idleSeconds, warningSeconds)).toBe('ended');
  });

  it('S5 with a 60-second idle time warns only in the second half', () => {
    expect(inactivityPhase(T0, T0 + 29_999, 60, 120)).toBe('active');
    expect(inactivityPhase(T0, T0 + 30_000, 60, 120)).toBe('warning');
    expect(inactivityPhase(T0, T0 + 59_999, 60, 120)).toBe('warning');
    expect(inactivityPhase(T0, T0 + 60_000, 60, 120)).toBe('ended');
  });

  it('S5 counts from the last activity, not from login', () => {
    const lastActivity = T0 + 3 * HOUR;
    expect(inactivityPhase(lastActivity, lastActivity + 10 * MINUTE, idleSeconds, warningSeconds)).toBe('active');
  });
});
