import { describe, expect, it } from 'vitest';
import { delayAfterFailures, loginWaitSeconds, type LoginThrottlePolicy } from './login-throttle';

const policy: LoginThrottlePolicy = { freeFailuresPerAccountAddress: 5, freeFailuresPerAddress: 20, maxFailuresPerAddress: 300, maxDelaySeconds: 900, windowSeconds: 3600 };
const none = { count: 0, lastAt: null, firstAt: null };
const NOW = 1_000_000_000;

describe('S1 login throttle', () => {
  it('doubles the delay after the free failures, up to the ceiling', () => {
    expect([4, 5, 6, 7, 8, 40].map((n) => delayAfterFailures(n, 5, 900))).toEqual([0, 1, 2, 4, 8, 900]);
  });

  it('lets an account+address pair try again once its delay has passed', () => {
    const pair = { count: 8, lastAt: NOW - 3_000, firstAt: NOW - 60_000 };
    expect(loginWaitSeconds(pair, none, policy, NOW)).toBe(5);
    expect(loginWaitSeconds(pair, none, policy, NOW + 5_000)).toBe(0);
  });

  it('does not slow down a fresh address whatever the account has suffered elsewhere', () => {
    expect(loginWaitSeconds(none, none, policy, NOW)).toBe(0);
  });

  it('slows down an address spraying many accounts, and refuses it past the hard limit until the window passes', () => {
    expect(loginWaitSeconds(none, { count: 22, lastAt: NOW, firstAt: NOW - 10_000 }, policy, NOW)).toBe(4);
    expect(loginWaitSeconds(none, { count: 300, lastAt: NOW - 3_000_000, firstAt: NOW - 3_500_000 }, policy, NOW)).toBe(100);
  });
});
