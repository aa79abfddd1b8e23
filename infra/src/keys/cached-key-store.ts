import type { KeyStore } from './port';

type Found = Buffer | 'destroyed';
/** remembered: the store had no key for the member */
const NONE = 'none';

/**
 * Keys kept in memory for a short while (`ttlMs`, 10 s by default), so that appends and reads ask
 * the key store once per member and period, not per event. A destroy through this store is seen at
 * once by this process; one made through another process's store is seen here within `ttlMs`.
 * A member without a key is not remembered: another process may make it at any time.
 */
export class CachedKeyStore implements KeyStore {
  private readonly cache = new Map<string, { found: Found | typeof NONE; until: number }>();
  private readonly asking = new Map<string, Promise<Found | undefined>>();
  private secret: Promise<Buffer> | undefined;

  constructor(
    readonly inner: KeyStore,
    private readonly options: { ttlMs?: number; maxEntries?: number; now?: () => number } = {},
  ) {}

  private get now(): number {
    return (this.options.now ?? Date.now)();
  }

  private remember(memberId: string, found: Found | typeof NONE): void {
    const max = this.options.maxEntries ?? 50_000;
    if (this.cache.size >= max) {
      // the oldest entry goes (Map keeps insertion order)
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.delete(memberId);
    this.cache.set(memberId, { found, until: this.now + (this.options.ttlMs ?? 10_000) });
  }

  private cached(memberId: string): Found | typeof NONE | undefined {
    const hit = this.cache.get(memberId);
    if (!hit) return undefined;
    // destroyed is for ever
    if (hit.found !== 'destroyed' && hit.until <= this.now) {
      this.cache.delete(memberId);
      return undefined;
    }
    return hit.found;
  }

  /** find, one question to the store at a time per member */
  find(memberId: string): Promise<Found | undefined> {
    const hit = this.cached(memberId);
    if (hit !== undefined) return Promise.resolve(hit === NONE ? undefined : hit);
    return this.ask(memberId);
  }

  /** find, asking the store even when it had no key for the member lately */
  findFresh(memberId: string): Promise<Found | undefined> {
    const hit = this.cached(memberId);
    if (hit !== undefined && hit !== NONE) return Promise.resolve(hit);
    return this.ask(memberId);
  }

  private ask(memberId: string): Promise<Found | undefined> {
    let asked = this.asking.get(memberId);
    if (!asked) {
      asked = this.inner.find(memberId).then(
        (found) => {
          this.asking.delete(memberId);
          this.remember(memberId, found ?? NONE);
          return found;
        },
        (err: unknown) => {
          this.asking.delete(memberId);
          throw err;
        },
      );
      this.asking.set(memberId, asked);
    }
    return asked;
  }

  async keyFor(memberId: string): Promise<Buffer> {
    const hit = this.cached(memberId);
    if (hit instanceof Buffer) return hit;
    // destroyed, unknown or expired: the store decides (and throws MemberKeyDestroyedError)
    try {
      const key = await this.inner.keyFor(memberId);
      this.remember(memberId, key);
      return key;
    } catch (err) {
      if ((err as Error).name === 'MemberKeyDestroyedError') this.remember(memberId, 'destroyed');
      throw err;
    }
  }

  async destroy(memberId: string): Promise<void> {
    // forgotten first: nothing of this process encrypts or decrypts with it from now on
    this.remember(memberId, 'destroyed');
    await this.inner.destroy(memberId);
  }

  platformSecret(): Promise<Buffer> {
    this.secret ??= this.inner.platformSecret().catch((err: unknown) => {
      this.secret = undefined;
      throw err;
    });
    return this.secret;
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
