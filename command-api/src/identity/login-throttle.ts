import { RateLimiter } from '../http/rate-limit';

/** One login attempt holding its places in the limits until its outcome is known. */
export interface LoginAttempt {
  readonly address: string;
  readonly pair: string;
}

/**
 * Password guessing: at most `perPair` failures per address and account and `perAddress` failures
 * per address in a window (5 and 50 in 15 min). Only the pair is locked, so nobody can lock a
 * member out of their account from another address. An attempt takes its places before the
 * password is checked (requests sent in parallel each take one, so no more than the limit are
 * checked); a success, or a failure of ours, gives them back: many members behind one address
 * (or TRUST_PROXY=0) are never locked out by logging in. Counters live in this process.
 */
export class LoginThrottle {
  private readonly pairs: RateLimiter;
  private readonly addresses: RateLimiter;

  constructor(limits: { perPair?: number; perAddress?: number; windowMs?: number } = {}) {
    const windowMs = limits.windowMs ?? 15 * 60_000;
    this.pairs = new RateLimiter(limits.perPair ?? 5, windowMs);
    this.addresses = new RateLimiter(limits.perAddress ?? 50, windowMs);
  }

  /** The attempt, or undefined when its address or its address+account pair used its allowance. */
  begin(address: string, account: string, now = Date.now()): LoginAttempt | undefined {
    const pair = `${address} ${account}`;
    if (this.addresses.isBlocked(address, now) || !this.pairs.take(pair, now)) return undefined;
    if (!this.addresses.take(address, now)) {
      this.pairs.giveBack(pair, now);
      return undefined;
    }
    return { address, pair };
  }

  /** The password was right: the pair starts afresh and the address gets its place back. */
  succeeded(attempt: LoginAttempt, now = Date.now()): void {
    this.pairs.reset(attempt.pair);
    this.addresses.giveBack(attempt.address, now);
  }

  /** The attempt could not be judged (our fault, not a guess): it does not count. */
  abandoned(attempt: LoginAttempt, now = Date.now()): void {
    this.pairs.giveBack(attempt.pair, now);
    this.addresses.giveBack(attempt.address, now);
  }
}
