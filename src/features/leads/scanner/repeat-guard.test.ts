import { describe, expect, it } from 'vitest';
import { createRepeatGuard } from './repeat-guard';

const BADGE = 'AFHE2027-V0000123';
const OTHER = 'AFHE2027-V0000124';

describe('createRepeatGuard', () => {
  it('passes a badge held in view for several seconds on once', () => {
    const guard = createRepeatGuard(1500);
    const passed = [];
    for (let now = 0; now < 5000; now += 100) passed.push(...guard.accept([BADGE], now));
    expect(passed).toEqual([BADGE]);
  });

  it('does not count frames the reader missed as the badge leaving', () => {
    const guard = createRepeatGuard(1500);
    expect(guard.accept([BADGE], 0)).toEqual([BADGE]);
    expect(guard.accept([], 100)).toEqual([]);
    expect(guard.accept([], 1000)).toEqual([]);
    expect(guard.accept([BADGE], 1400)).toEqual([]);
  });

  it('passes the badge again after it was out of view for a moment', () => {
    const guard = createRepeatGuard(1500);
    guard.accept([BADGE], 0);
    expect(guard.accept([BADGE], 1000)).toEqual([]);
    expect(guard.accept([], 1200)).toEqual([]);
    expect(guard.accept([BADGE], 2600)).toEqual([BADGE]);
  });

  it('passes a badge again when another code was read in between', () => {
    const guard = createRepeatGuard(1500);
    expect(guard.accept([BADGE], 0)).toEqual([BADGE]);
    expect(guard.accept([OTHER], 300)).toEqual([OTHER]);
    expect(guard.accept([BADGE], 600)).toEqual([BADGE]);
  });

  it('passes two badges in one frame once each', () => {
    const guard = createRepeatGuard(1500);
    expect(guard.accept([BADGE, OTHER, BADGE], 0)).toEqual([BADGE, OTHER]);
    expect(guard.accept([OTHER, BADGE], 100)).toEqual([]);
  });

  it('forgets everything on reset', () => {
    const guard = createRepeatGuard(1500);
    guard.accept([BADGE], 0);
    guard.reset();
    expect(guard.accept([BADGE], 100)).toEqual([BADGE]);
  });
});
