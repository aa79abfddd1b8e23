import argon2 from 'argon2';
import type { PasswordHasher } from './commands';

/**
 * How dear a password's hash is. `standard`: argon2id at the library's recommended cost (memory
 * 64 MiB, 3 passes, ~0.2 s of CPU). `minimal`: argon2id at its least cost, for the test suites only
 * (PASSWORD_HASHING=minimal, refused where other machines reach the server), which register
 * thousands of members. A check reads the cost from the hash, so each checks the other's hashes.
 */
export const PASSWORD_HASHING_COSTS = {
  standard: { type: argon2.argon2id },
  minimal: { type: argon2.argon2id, memoryCost: 1024, timeCost: 2, parallelism: 1 },
} as const;
export type PasswordHashing = keyof typeof PASSWORD_HASHING_COSTS;

/** Hashing and checking members' passwords with argon2id, built once by the composition root. */
export function passwordHasher(cost: PasswordHashing = 'standard'): PasswordHasher {
  const options = PASSWORD_HASHING_COSTS[cost];
  const hash = (password: string) => argon2.hash(password, options);
  // checked when the email is unknown, so that unknown and known emails take the same time
  let dummyHash: Promise<string> | undefined;
  return {
    hash,
    async verify(stored, password) {
      if (!stored) {
        dummyHash ??= hash('evo-dummy-password');
        await argon2.verify(await dummyHash, password).catch(() => false);
        return false;
      }
      return argon2.verify(stored, password).catch(() => false);
    },
  };
}
