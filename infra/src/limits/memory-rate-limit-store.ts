import type { LimitCount, LimitRule, RateLimitStore, TakeResult } from './port';

interface Window {
  count: number;
  resetAt: number;
}

/** most windows kept before the ended ones are swept */
const SWEEP_ABOVE = 100_000;

/** The counters of one process (the embedded product): a map of windows, swept as it grows. */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly now: () => number = Date.now) {}

  private current(rule: LimitRule, key: string, now: number): Window | undefined {
    const w = this.windows.get(`${rule.name}\u0000${key}`);
    return w && w.resetAt > now ? w : undefined;
  }

  async take(rule: LimitRule, key: string, cost = 1): Promise<TakeResult> {
    const now = this.now();
    const id = `${rule.name}\u0000${key}`;
    const w = this.current(rule, key, now);
    const count = w?.count ?? 0;
    if (count + cost > rule.limit) return { taken: false, count, resetInMs: w ? w.resetAt - now : 0 };
    if (w) {
      w.count += cost;
      return { taken: true, count: w.count, resetInMs: w.resetAt - now };
    }
    this.windows.set(id, { count: cost, resetAt: now + rule.windowMs });
    if (this.windows.size > SWEEP_ABOVE) this.sweep(now);
    return { taken: true, count: cost, resetInMs: rule.windowMs };
  }

  async count(rule: LimitRule, key: string): Promise<LimitCount> {
    const now = this.now();
    const w = this.current(rule, key, now);
    return { count: w?.count ?? 0, resetInMs: w ? w.resetAt - now : 0 };
  }

  async giveBack(rule: LimitRule, key: string, cost = 1): Promise<void> {
    const w = this.current(rule, key, this.now());
    if (w) w.count = Math.max(0, w.count - cost);
  }

  async reset(rule: LimitRule, key: string): Promise<void> {
    this.windows.delete(`${rule.name}\u0000${key}`);
  }

  async resetPrefix(rule: LimitRule, prefix: string): Promise<void> {
    const start = `${rule.name}\u0000${prefix}`;
    for (const id of [...this.windows.keys()]) if (id.startsWith(start)) this.windows.delete(id);
  }

  async close(): Promise<void> {
    this.windows.clear();
  }

  private sweep(now: number) {
    for (const [id, w] of this.windows) if (w.resetAt <= now) this.windows.delete(id);
  }
}
