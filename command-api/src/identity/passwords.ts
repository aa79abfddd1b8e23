import argon2 from 'argon2';

/** argon2id with the library's recommended cost (memory 64 MiB, 3 passes). */
export const hashPassword = (password: string) => argon2.hash(password, { type: argon2.argon2id });

// verified when the email is unknown, so that unknown and known emails take the same time
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(hash: string | undefined, password: string): Promise<boolean> {
  if (!hash) {
    dummyHash ??= hashPassword('evo-dummy-password');
    await argon2.verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return argon2.verify(hash, password).catch(() => false);
}
