// PostgreSQL aborts one of two transactions that wait on each other's row locks (deadlock,
// 40P01) or that a serializable snapshot cannot order (40001). Either is undone whole, so running
// the same work again is correct; a user should never see it as a failure (devices
// scanning the same badges in different orders at once).
const TRANSIENT_CODES = new Set(['40P01', '40001']);

/** Times the work is tried before the database's error is let through. */
const ATTEMPTS = 6;

/**
 * Before trying again, a random pause that grows with the attempts: statements that deadlocked
 * together and started again at once met again in the same order (devices sending the same
 * badges at once), until the attempts ran out.
 */
const pauseBeforeAttempt = (attempt: number) => new Promise((resume) => setTimeout(resume, Math.random() * 10 * attempt));

function isTransient(error: unknown): boolean {
  return TRANSIENT_CODES.has((error as { code?: unknown } | null)?.code as string);
}

/** Runs `work` again when the database aborted it for a deadlock or a serialization failure. */
export async function retryTransient<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= ATTEMPTS || !isTransient(error)) throw error;
    }
    await pauseBeforeAttempt(attempt);
  }
}
