/**
 * Rate limits: fixed-window counters, one per (rule, key). Every limit of the product goes through
 * this port (login and registration attempts, the members' writes, the daily upload bytes), so
 * that with REDIS_URL every API process counts in the same place: two replicas give the same
 * budget as one (issue 28 item 3). Embedded, the counters live in the process.
 */
export interface LimitRule {
  /** part of every key of the rule: one name per rule */
  readonly name: string;
  /** most `cost` a key may add up within a window; Infinity for a counter that only counts */
  readonly limit: number;
  readonly windowMs: number;
}

export interface LimitCount {
  /** the key's count in the current window (0 when none) */
  count: number;
  /** milliseconds until the window ends (0 when none runs) */
  resetInMs: number;
}

export interface TakeResult extends LimitCount {
  /** whether `cost` was added: the count stayed within the limit */
  taken: boolean;
}

export interface RateLimitStore {
  /**
   * Adds `cost` (1 by default) to the key's count if it stays within the rule's limit, in one
   * atomic step: requests sent in parallel each take their own place, so no more than the limit
   * get through. A key's first take starts its window. Answers the count after it (or as it was,
   * when refused).
   */
  take(rule: LimitRule, key: string, cost?: number): Promise<TakeResult>;
  /** The key's count and the time left in its window. */
  count(rule: LimitRule, key: string): Promise<LimitCount>;
  /** Takes back `cost` taken in the current window (it turned out not to count); never below 0. */
  giveBack(rule: LimitRule, key: string, cost?: number): Promise<void>;
  /** The key starts afresh. */
  reset(rule: LimitRule, key: string): Promise<void>;
  /** Every key of the rule that starts with `prefix` starts afresh (an administrator's unlock). */
  resetPrefix(rule: LimitRule, prefix: string): Promise<void>;
  close(): Promise<void>;
}
