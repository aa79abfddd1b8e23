import type { KeyStore } from './port';

type Found = Buffer | 'destroyed';
/** remembered: the store had no key for the member */
const NONE = 'none';

/**
 * Keys destroyed in this process, told to the caches of its other threads (the embedded
 * projections' thread decrypts the log with a cache of its own): a count in shared memory that
 * each destroy moves once the store has destroyed the key. A cache that sees it moved forgets every
 * key it holds and asks the store again, so no thread decrypts with a key destroyed before.
 */
export class KeyDestructions {
  private readonly count: Int32Array;

  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT)) {
    this.count = new Int32Array(buffer);
  }

  /** Answers the count before this destroy. */
  noteOne(): number {
    return Atomics.add(this.count, 0, 1);
  }

  seen(): number {
    return Atomics.load(this.count, 0);
  }
}

/**
 * Keys kept in memory for a short while (`ttlMs`, 10 s by default), so that appends and reads ask
 * the key store once per member and period, not per event. A destroy through this store is seen at
 * once by this process; one made through another process's store is seen here as soon as the
 * relay brings it (Redis), and within `ttlMs` whatever happens.
 * A member without a key is not remembered: another process may make it at any time.
 */
export class CachedKeyStore implements KeyStore {
  private readonly cache = new Map<string, { found: Found | typeof NONE; until: number }>();
  private readonly asking = new Map<string, Promise<Found | undefined>>();
  private secret: Promise<Buffer> | undefined;

  constructor(
    readonly inner: KeyStore,
    private readonly options: {
      ttlMs?: number;
      maxEntries?: number;
      now?: () => number;
      /** the destroys of this process's other threads (see KeyDestructions) */
      destructions?: KeyDestructions;
      /** tells the other processes of each destroy made here (see KeyDestructionRelay), closed with this store */
      relay?: { announce(): Promise<void>; close(): Promise<void> };
    } = {},
  ) {
    this.destructionsSeen = options.destructions?.seen() ?? 0;
  }

  private destructionsSeen: number;

  /** How many destroys this cache has seen; every key forgotten when another thread's comes. */
  private destructionEpoch(): number {
    const now = this.options.destructions?.seen() ?? 0;
    if (now !== this.destructionsSeen) {
      this.destructionsSeen = now;
      this.cache.clear();
    }
    return now;
  }

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
    this.destructionEpoch();
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
      const epoch = this.destructionEpoch();
      asked = this.inner.find(memberId).then(
        (found) => {
          this.asking.delete(memberId);
          // a key destroyed while the store was asked is asked again next time
          if (this.destructionEpoch() === epoch) this.remember(memberId, found ?? NONE);
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
    const epoch = this.destructionEpoch();
    try {
      const key = await this.inner.keyFor(memberId);
      if (this.destructionEpoch() === epoch) this.remember(memberId, key);
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
    const before = this.options.destructions?.noteOne();
    // this cache knows of its own destroy: it forgets nothing unless another thread's came meanwhile
    if (before === this.destructionsSeen) this.destructionsSeen = before + 1;
    await this.options.relay?.announce();
  }

  platformSecret(): Promise<Buffer> {
    this.secret ??= this.inner.platformSecret().catch((err: unknown) => {
      this.secret = undefined;
      throw err;
    });
    return this.secret;
  }

  async close(): Promise<void> {
    await this.options.relay?.close();
    await this.inner.close();
  }
}
