import { describe, expect, it } from 'vitest';
import { retryTransient } from './transient';

const pgError = (code: string) => Object.assign(new Error(`database error ${code}`), { code });

describe('retryTransient', () => {
  it('runs the work again after a deadlock or a serialization failure, and answers what the work answered', async () => {
    const failures = [pgError('40P01'), pgError('40001')];
    let calls = 0;
    const answer = await retryTransient(async () => {
      calls++;
      const failure = failures.shift();
      if (failure) throw failure;
      return 'stored';
    });
    expect(answer).toBe('stored');
    expect(calls).toBe(3);
  });

  it('lets any other error through at once', async () => {
    let calls = 0;
    await expect(
      retryTransient(async () => {
        calls++;
        throw pgError('23505');
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(calls).toBe(1);
  });

  it('gives up after a few attempts and lets the last deadlock through', async () => {
    let calls = 0;
    await expect(
      retryTransient(async () => {
        calls++;
        throw pgError('40P01');
      }),
    ).rejects.toMatchObject({ code: '40P01' });
    expect(calls).toBeGreaterThan(1);
    expect(calls).toBeLessThan(10);
  });
});
