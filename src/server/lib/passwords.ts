import { hash, verify } from '@node-rs/argon2';

/** Algorithm.Argon2id; the package exports it as a const enum, which isolated modules cannot read. */
const ARGON2ID = 2;

// argon2id with at least the OWASP minimum (m = 19 MiB, t = 2, p = 1).
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/** Verifies against a throw-away hash so an unknown account costs as much time as a wrong password. */
export async function spendVerifyTime(password: string): Promise<void> {
  dummyHash ??= hashPassword('not-a-real-password-for-timing');
  await verifyPassword(await dummyHash, password);
}
