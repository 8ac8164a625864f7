// S1 login throttling as a pure rule, so the server and its tests share one definition.
//
// Failures are counted per account *and* address: a stranger who guesses wrong a hundred times
// slows down only their own address for that account, never the owner signing in elsewhere.
// After a few free failures each further attempt waits twice as long as the previous one, up
// to a ceiling. Failures of one address across all accounts (spraying) grow a delay of their own.

export interface LoginThrottlePolicy {
  /** Failures of one account from one address before delays start. */
  freeFailuresPerAccountAddress: number;
  /** Failures of one address over all accounts before that address is slowed down. */
  freeFailuresPerAddress: number;
  /** Failures of one address in the window after which it is refused until the window passes. */
  maxFailuresPerAddress: number;
  /** The longest delay between two attempts. */
  maxDelaySeconds: number;
  /** Failures older than this no longer count. */
  windowSeconds: number;
}

export interface FailureCount {
  count: number;
  /** Time of the latest counted failure (ms since epoch), when there is one. */
  lastAt: number | null;
  /** Time of the earliest counted failure (ms since epoch), when there is one. */
  firstAt: number | null;
}

/** The delay after `count` failures, once `free` of them are used up: 1 s, 2 s, 4 s, … up to the ceiling. */
export function delayAfterFailures(count: number, free: number, maxDelaySeconds: number): number {
  if (count < free) return 0;
  return Math.min(2 ** Math.min(count - free, 30), maxDelaySeconds);
}

/** Seconds (rounded up) until a login attempt may be tried, 0 when it may be tried now. */
export function loginWaitSeconds(pair: FailureCount, address: FailureCount, policy: LoginThrottlePolicy, now: number): number {
  const waits: number[] = [0];
  if (pair.lastAt !== null) {
    waits.push(pair.lastAt + delayAfterFailures(pair.count, policy.freeFailuresPerAccountAddress, policy.maxDelaySeconds) * 1000 - now);
  }
  if (address.lastAt !== null) {
    waits.push(address.lastAt + delayAfterFailures(address.count, policy.freeFailuresPerAddress, policy.maxDelaySeconds) * 1000 - now);
    // Past the hard limit the address waits until its oldest counted failure leaves the window.
    if (address.count >= policy.maxFailuresPerAddress && address.firstAt !== null) waits.push(address.firstAt + policy.windowSeconds * 1000 - now);
  }
  return Math.max(0, Math.ceil(Math.max(...waits) / 1000));
}
