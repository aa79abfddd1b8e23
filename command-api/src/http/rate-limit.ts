/**
 * Fixed-window counters kept in this process (per API process in the distributed stack).
 * Used to slow password guessing and registrations: per address+account pair and per client address.
 */
export class RateLimiter {
  private readonly hits = new Map<string, { count: number; resetAt: number }>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** true when `key` has already used its allowance in the current window */
  isBlocked(key: string, now = Date.now()): boolean {
    const h = this.hits.get(key);
    return !!h && h.resetAt > now && h.count >= this.limit;
  }

  hit(key: string, now = Date.now()): void {
    const h = this.hits.get(key);
    if (!h || h.resetAt <= now) {
      this.hits.set(key, { count: 1, resetAt: now + this.windowMs });
      if (this.hits.size > 100_000) this.sweep(now);
    } else {
      h.count++;
    }
  }

  /**
   * Counts one attempt if the allowance has room, in one synchronous step: requests sent in
   * parallel each take their own place, so no more than `limit` get through. false when blocked.
   */
  take(key: string, now = Date.now()): boolean {
    if (this.isBlocked(key, now)) return false;
    this.hit(key, now);
    return true;
  }

  /** Gives back an attempt taken in this window (it turned out not to count, e.g. a success). */
  giveBack(key: string, now = Date.now()): void {
    const h = this.hits.get(key);
    if (h && h.resetAt > now && h.count > 0) h.count--;
  }

  reset(key: string): void {
    this.hits.delete(key);
  }

  private sweep(now: number) {
    for (const [k, h] of this.hits) if (h.resetAt <= now) this.hits.delete(k);
  }
}
