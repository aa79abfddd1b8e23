/**
 * Members' encryption keys, kept apart from the event log (crypto-shredding, issue 31): the
 * personal fields of a member's events are encrypted with their key, and destroying the key erases
 * them everywhere the log is copied, backups included, once the key's own copies are gone.
 */

/** A member's key is destroyed: their personal data can no longer be written nor read. */
export class MemberKeyDestroyedError extends Error {
  constructor(readonly memberId: string) {
    super(`La clé du membre ${memberId} est détruite : ses données personnelles sont effacées.`);
    this.name = 'MemberKeyDestroyedError';
  }
}

/** The length of every key: AES-256 */
export const KEY_BYTES = 32;

export interface KeyStore {
  /**
   * The member's key, made (32 random bytes, stored durably before it is answered) when they have
   * none; MemberKeyDestroyedError once it was destroyed: a destroyed key leaves a tombstone and is
   * never made again.
   */
  keyFor(memberId: string): Promise<Buffer>;
  /** The member's key, 'destroyed', or undefined when none was ever made. */
  find(memberId: string): Promise<Buffer | 'destroyed' | undefined>;
  /** Destroys the member's key for good (idempotent; a member without a key gets a tombstone). */
  destroy(memberId: string): Promise<void>;
  /**
   * The platform's secret for keyed hashes (names of the uniqueness streams), made once and kept
   * here, never destroyed.
   */
  platformSecret(): Promise<Buffer>;
  close(): Promise<void>;
}
