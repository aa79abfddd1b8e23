import type { LimitRule, RateLimitStore } from '@evo/infra';

/** One login attempt holding its places in the counters until its outcome is known. */
export interface LoginAttempt {
  readonly address: string;
  readonly account: string;
}

const WINDOW_MS = 15 * 60_000;

export interface LoginLimits {
  /** failures one address may make on one account: then that pair waits for the window's end */
  perPair: number;
  /**
   * failures on one account, from anywhere: then only addresses that have not failed on it may
   * still try (the member at home gets in; the addresses guessing are stopped)
   */
  perAccount: number;
  /** failures one address may make over every account before it may only try accounts it has not failed on */
  perAddress: number;
  /** failures one address may make over every account before it is stopped altogether (password spraying) */
  perAddressHard: number;
  windowMs: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginLimits = {
  perPair: 5,
  perAccount: 20,
  perAddress: 50,
  perAddressHard: 1000,
  windowMs: WINDOW_MS,
};

/**
 * Password guessing (issue 11 item 4, issue 29 item 7). Failures are counted per (account,
 * address), per account and per address, in the rate-limit store (Redis with REDIS_URL: every API
 * replica counts in one place). An attempt is refused before its password is checked when:
 * - its address already failed `perPair` times on this account; or
 * - it already failed on this account at least once, and the account (from anywhere) or the
 *   address (over every account) has had too many failures (`perAccount`, `perAddress`); or
 * - its address has failed `perAddressHard` times.
 * So a correct password for an account this address has not failed on is always checked (below
 * the much higher hard cap): one client behind a shared address (or TRUST_PROXY=0) cannot lock
 * the others out, and guessing from many addresses cannot lock the member out of their own.
 * An attempt takes its places before the check (parallel requests each take one); a success
 * clears its pair and gives the others back, an attempt of ours that failed gives all back.
 * An administrator clears an account's failures (`clearAccount`).
 */
export class LoginThrottle {
  private readonly limits: LoginLimits;
  private readonly pair: LimitRule;
  private readonly account: LimitRule;
  private readonly address: LimitRule;

  constructor(
    private readonly store: RateLimitStore,
    limits: Partial<LoginLimits> = {},
  ) {
    this.limits = { ...DEFAULT_LOGIN_LIMITS, ...limits };
    const windowMs = this.limits.windowMs;
    this.pair = { name: 'login-pair', limit: this.limits.perPair, windowMs };
    this.account = { name: 'login-account', limit: Number.POSITIVE_INFINITY, windowMs };
    this.address = { name: 'login-address', limit: Number.POSITIVE_INFINITY, windowMs };
  }

  /** the pair's key: the account first, so that an account's pairs share a prefix (clearAccount) */
  private pairKey = (address: string, account: string) => `${account} ${address}`;

  /** The attempt, or how long to wait when it is refused (see the class comment). */
  async begin(address: string, account: string): Promise<LoginAttempt | { refusedForMs: number }> {
    const pair = await this.store.take(this.pair, this.pairKey(address, account));
    if (!pair.taken) return { refusedForMs: pair.resetInMs };
    const [onAccount, fromAddress] = await Promise.all([
      this.store.take(this.account, account),
      this.store.take(this.address, address),
    ]);
    const failedHereBefore = pair.count - 1 > 0;
    const refused =
      fromAddress.count - 1 >= this.limits.perAddressHard ||
      (failedHereBefore &&
        (onAccount.count - 1 >= this.limits.perAccount || fromAddress.count - 1 >= this.limits.perAddress));
    const attempt = { address, account };
    if (refused) {
      await this.abandoned(attempt);
      return { refusedForMs: Math.max(onAccount.resetInMs, fromAddress.resetInMs) };
    }
    return attempt;
  }

  /** The password was right: the pair starts afresh and the counters get their place back. */
  async succeeded(attempt: LoginAttempt): Promise<void> {
    await Promise.all([
      this.store.reset(this.pair, this.pairKey(attempt.address, attempt.account)),
      this.store.giveBack(this.account, attempt.account),
      this.store.giveBack(this.address, attempt.address),
    ]);
  }

  /** The attempt could not be judged (our fault, not a guess), or was refused: it does not count. */
  async abandoned(attempt: LoginAttempt): Promise<void> {
    await Promise.all([
      this.store.giveBack(this.pair, this.pairKey(attempt.address, attempt.account)),
      this.store.giveBack(this.account, attempt.account),
      this.store.giveBack(this.address, attempt.address),
    ]);
  }

  /** Failed logins on the account in the current window (what the back-office shows). */
  async failures(account: string): Promise<number> {
    return (await this.store.count(this.account, account)).count;
  }

  /** An administrator's unlock: the account's failures and every pair of it start afresh. */
  async clearAccount(account: string): Promise<void> {
    await Promise.all([this.store.reset(this.account, account), this.store.resetPrefix(this.pair, `${account} `)]);
  }
}
