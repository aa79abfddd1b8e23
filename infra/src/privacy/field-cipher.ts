import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** An encrypted field's string form: `enc:v1:` then base64 of IV (12 bytes), GCM tag (16), ciphertext. */
export const ENCRYPTED_PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Random IVs drawn by blocks: one randomBytes call per 256 fields instead of one each. */
let ivPool = Buffer.alloc(0);
let ivNext = 0;
function nextIv(): Buffer {
  if (ivNext + IV_BYTES > ivPool.length) {
    ivPool = randomBytes(IV_BYTES * 256);
    ivNext = 0;
  }
  const iv = ivPool.subarray(ivNext, ivNext + IV_BYTES);
  ivNext += IV_BYTES;
  return iv;
}

/**
 * AES-256-GCM of `clear` under `key`, bound to `context` (the event type and field: a ciphertext
 * moved to another field does not decrypt).
 */
export function encryptField(key: Buffer, context: string, clear: string): string {
  const iv = nextIv();
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(clear, 'utf8'), cipher.final()]);
  return ENCRYPTED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

export const isEncrypted = (value: unknown): value is string =>
  typeof value === 'string' && value.startsWith(ENCRYPTED_PREFIX);

/** The clear text, or undefined when `value` is not a field this key encrypted in this context. */
export function decryptField(key: Buffer, context: string, value: string): string | undefined {
  if (!isEncrypted(value)) return undefined;
  const raw = Buffer.from(value.slice(ENCRYPTED_PREFIX.length), 'base64');
  if (raw.length < IV_BYTES + TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
