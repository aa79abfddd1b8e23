import { randomUUID } from 'node:crypto';
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  DEFAULT_GIFT_CATALOGUE,
  DomainError,
  LEDGER_MESSAGES,
  LedgerAuditor,
  giftFee,
  packById,
  userBalanceAccount,
  userBonusAccount,
  userEarningsAccount,
  userGiftsAccount,
} from '@evo/domain';
import { IdBlocks, SqliteReadStore, SqliteEventStore, type CommandContext } from '@evo/infra';
import { allProjectors, ledgerQueries, rebuildReadModels, ProjectionRunner } from '@evo/projections';
import { dumpReadModels } from '@evo/projections/testing/read-model-dump';
import { GiftCreditProcess } from '../gifts/gift-credits';
import { registerUser } from '../identity/commands';
import { HttpError } from '../http/errors';
import { WalletRequests, ensureGiftCatalogue, ledgerRepositories } from '../coins/wallets';
import { buyPack } from '../coins/buy-pack';
import { addCoins } from '../coins/add-coins';
import { withdrawCoins } from '../coins/withdraw-coins';
import { sendGift } from '../gifts/send-gift';
import { claimGift } from '../gifts/claim-gift';
import { convertGifts } from '../gifts/convert-gifts';
import { SandboxPaymentProvider } from '../coins/payment-provider';

const FEE_PERCENT = 20;
const MEMBERS = 3;
const KEYS = ['k1', 'k2', 'k3'];
/**
 * At start each member adds 20 coins for free and buys the first pack (110 coins), then sends the
 * next member a Croissant (10, paid with bonus coins) and a Ballon (25: 10 bonus and 15 bought
 * coins), and converts what they received: every member starts with bonus, bought and earned coins.
 */
const START: Op[] = [
  ...Array.from({ length: MEMBERS }, (_, m): Op[] => [
    { kind: 'add', m, amount: 20 },
    { kind: 'purchase', m, packId: 1 },
  ]).flat(),
  ...Array.from({ length: MEMBERS }, (_, m): Op[] => [
    { kind: 'send', m, to: (m + 1) % MEMBERS, giftId: 3 },
    { kind: 'send', m, to: (m + 1) % MEMBERS, giftId: 4 },
  ]).flat(),
  ...Array.from({ length: MEMBERS }, (_, m): Op => ({ kind: 'convert', m })),
];

type Op =
  | { kind: 'purchase'; m: number; packId: number; key?: string }
  | { kind: 'add'; m: number; amount: number; key?: string }
  | { kind: 'send'; m: number; to: number; giftId: number; key?: string }
  | { kind: 'claim'; m: number; pick: number; key?: string; giftId?: number }
  | { kind: 'convert'; m: number; key?: string }
  | { kind: 'withdraw'; m: number; amount: number; key?: string }
  | { kind: 'redeliver'; pick: number }
  /** the previous call again, as is: a retry when it had a key */
  | { kind: 'again' };

const member = fc.integer({ min: 0, max: MEMBERS - 1 });
const key = fc.option(fc.constantFrom(...KEYS), { nil: undefined, freq: 2 });
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('purchase' as const),
      m: member,
      packId: fc.integer({ min: 1, max: 9 }),
      key,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('add' as const),
      m: member,
      amount: fc.oneof(fc.integer({ min: 1, max: 60 }), fc.constantFrom(0, -5, 100_001)),
      key,
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('send' as const),
      m: member,
      to: fc.oneof({ weight: 8, arbitrary: member }, { weight: 1, arbitrary: fc.constant(MEMBERS) }),
      giftId: fc.oneof(
        { weight: 8, arbitrary: fc.integer({ min: 1, max: 4 }) },
        { weight: 1, arbitrary: fc.integer({ min: 5, max: 9 }) },
      ),
      key,
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('claim' as const), m: member, pick: fc.nat(), key }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('convert' as const), m: member, key }) },
  // small amounts mostly, so that earned coins (claimed gifts) are often enough
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('withdraw' as const),
      m: member,
      amount: fc.oneof(
        { weight: 3, arbitrary: fc.integer({ min: 1, max: 4 }) },
        { weight: 1, arbitrary: fc.integer({ min: 1, max: 12 }) },
        { weight: 1, arbitrary: fc.integer({ min: -2, max: 120 }) },
      ),
      key,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('redeliver' as const), pick: fc.nat() }) },
  { weight: 4, arbitrary: fc.constant({ kind: 'again' as const }) },
);

/**
 * Mostly one call; sometimes a short scenario that chance alone makes too rare for the counts
 * checked below. A retried claim needs a keyed claim that succeeded just before: left to chance it
 * came up about twice in 100 runs, sometimes never.
 */
const opOrScenario: fc.Arbitrary<Op[]> = fc.oneof(
  { weight: 30, arbitrary: op.map((o) => [o]) },
  {
    weight: 1,
    arbitrary: fc
      .record({ kind: fc.constant('claim' as const), m: member, pick: fc.nat(), key: fc.constantFrom(...KEYS) })
      .map((o): Op[] => [o, { kind: 'again' }]),
  },
  // free coins passed on as a gift, whose receiver takes it and asks to withdraw: left to chance,
  // the refusal of such coins came up 9 to 21 times in 100 runs, against more than 10 counted below
  {
    weight: 1,
    arbitrary: fc
      .record({
        m: member,
        to: member,
        free: fc.integer({ min: 20, max: 60 }),
        giftId: fc.integer({ min: 1, max: 4 }),
        amount: fc.integer({ min: 1, max: 12 }),
      })
      .map(({ m, to, free, giftId, amount }): Op[] => [
        { kind: 'add', m, amount: free },
        { kind: 'send', m, to, giftId },
        { kind: 'convert', m: to },
        { kind: 'withdraw', m: to, amount },
      ]),
  },
);

type Answer = { body?: Record<string, unknown>; error?: string };

/**
 * The simplest model of the rules: numbers in maps. A member's coins are `balance` (bought:
 * spendable only), `bonus` (added for free, or received through gifts paid with such coins:
 * spendable only, whoever holds them) and `earned` (claimed gifts paid with bought coins: spendable
 * and withdrawable); a gift spends bonus coins first, then bought ones, and carries its bonus
 * coins to its receiver, the fee taken from them first.
 */
class Shadow {
  balance = Array.from({ length: MEMBERS }, () => 0);
  bonus = Array.from({ length: MEMBERS }, () => 0);
  earned = Array.from({ length: MEMBERS }, () => 0);
  /** received gifts not claimed: id → coins credited and, of those, the bonus ones */
  unclaimed = Array.from({ length: MEMBERS }, () => new Map<number, { amount: number; bonus: number }>());
  claimed = Array.from({ length: MEMBERS }, () => new Set<number>());
  keys = Array.from({ length: MEMBERS }, () => new Map<string, { sig: string; answer: Answer; giftId?: unknown }>());
  /** every gift id ever sent, to pick claims from (and some unknown ones) */
  gifts: Array<{ id: number; to: number }> = [];
  /** coins withdrawn and bought by everyone: the first never above the second */
  withdrawn = 0;
  bought = 0;
  gifts_(m: number) {
    let t = 0;
    for (const v of this.unclaimed[m].values()) t += v.amount;
    return t;
  }
  bonusUnclaimed(m: number) {
    let t = 0;
    for (const v of this.unclaimed[m].values()) t += v.bonus;
    return t;
  }

  /** what a call should answer; `apply` runs its effects (given the real gift id for a send) */
  expect(
    o: Exclude<Op, { kind: 'redeliver' | 'again' }>,
    giftIdOf: (o: Op) => number | undefined,
  ): { answer: Answer; apply?: (realGiftId?: number) => void; sig: string } {
    const m = o.m;
    const sig = JSON.stringify(o.kind === 'claim' ? [o.kind, giftIdOf(o)] : { ...o, key: undefined });
    const fail = (error: string): { answer: Answer; sig: string } => ({ answer: { error }, sig });
    if (o.kind === 'purchase' && !packById(o.packId)) return fail(LEDGER_MESSAGES.packNotFound);
    if (o.key) {
      const prev = this.keys[m].get(o.key);
      if (prev) return prev.sig === sig ? { answer: prev.answer, sig } : fail(LEDGER_MESSAGES.idempotencyConflict);
    }
    const b = this.balance[m];
    const e = this.earned[m];
    const f = this.bonus[m];
    /** the coins an answer states, after a change of the bought, earned and bonus ones */
    const coins = (db: number, de: number, df = 0) => ({
      coins_balance: b + db + e + de + f + df,
      coins_withdrawable: e + de,
      coins_bonus: f + df,
    });
    switch (o.kind) {
      case 'purchase': {
        const n = packById(o.packId)!.coins_amount;
        return {
          answer: { body: { message: LEDGER_MESSAGES.purchased, ...coins(n, 0) } },
          apply: () => {
            this.balance[m] += n;
            this.bought += n;
          },
          sig,
        };
      }
      case 'add':
        if (o.amount <= 0) return fail(LEDGER_MESSAGES.amountPositive);
        if (o.amount > 100_000) return fail(LEDGER_MESSAGES.amountTooLarge);
        return {
          answer: { body: { message: LEDGER_MESSAGES.added(o.amount), ...coins(0, 0, o.amount) } },
          apply: () => (this.bonus[m] += o.amount),
          sig,
        };
      case 'withdraw':
        if (o.amount <= 0) return fail(LEDGER_MESSAGES.withdrawInvalid);
        // bought or bonus coins never leave, only earned ones
        if (o.amount > e) return fail(LEDGER_MESSAGES.notWithdrawable);
        return {
          answer: { body: { message: LEDGER_MESSAGES.withdrawn(o.amount), ...coins(0, -o.amount) } },
          apply: () => {
            this.earned[m] -= o.amount;
            this.withdrawn += o.amount;
          },
          sig,
        };
      case 'send': {
        if (o.to >= MEMBERS) return fail(LEDGER_MESSAGES.receiverNotFound);
        if (o.to === m) return fail(LEDGER_MESSAGES.selfGift);
        const gift = DEFAULT_GIFT_CATALOGUE[o.giftId - 1];
        if (!gift) return fail(LEDGER_MESSAGES.giftNotFound);
        if (gift.coinCost > b + e + f) return fail(LEDGER_MESSAGES.insufficient);
        const fee = giftFee(gift.coinCost, FEE_PERCENT);
        const credited = gift.coinCost - fee;
        const fromBonus = Math.min(f, gift.coinCost);
        const fromBalance = Math.min(b, gift.coinCost - fromBonus);
        const fromEarned = gift.coinCost - fromBonus - fromBalance;
        // the receiver gets the gift's bonus coins as bonus coins, less the fee
        const bonusCredited = Math.min(credited, Math.max(0, fromBonus - fee));
        return {
          answer: {
            body: { message: LEDGER_MESSAGES.giftSent, ...coins(-fromBalance, -fromEarned, -fromBonus) },
          },
          apply: (id) => {
            this.bonus[m] -= fromBonus;
            this.balance[m] -= fromBalance;
            this.earned[m] -= fromEarned;
            this.unclaimed[o.to].set(id!, { amount: credited, bonus: bonusCredited });
            this.gifts.push({ id: id!, to: o.to });
          },
          sig,
        };
      }
      case 'claim': {
        const id = giftIdOf(o)!;
        const gift = this.unclaimed[m].get(id);
        if (gift === undefined)
          return fail(this.claimed[m].has(id) ? LEDGER_MESSAGES.alreadyClaimed : LEDGER_MESSAGES.giftNotFound);
        return {
          answer: {
            body: {
              message: LEDGER_MESSAGES.claimed,
              ...coins(0, gift.amount - gift.bonus, gift.bonus),
              gifts_unclaimed: this.gifts_(m) - gift.amount,
            },
          },
          apply: () => {
            this.unclaimed[m].delete(id);
            this.claimed[m].add(id);
            this.earned[m] += gift.amount - gift.bonus;
            this.bonus[m] += gift.bonus;
          },
          sig,
        };
      }
      case 'convert': {
        const total = this.gifts_(m);
        const bonus = this.bonusUnclaimed(m);
        return {
          answer: {
            body: {
              message: total > 0 ? LEDGER_MESSAGES.converted(total) : LEDGER_MESSAGES.nothingToConvert,
              transferred: total,
              ...coins(0, total - bonus, bonus),
              gifts_unclaimed: 0,
            },
          },
          apply: () => {
            for (const id of this.unclaimed[m].keys()) this.claimed[m].add(id);
            this.unclaimed[m].clear();
            this.earned[m] += total - bonus;
            this.bonus[m] += bonus;
          },
          sig,
        };
      }
    }
  }
}

async function world() {
  const events = new SqliteEventStore(':memory:');
  const ctx = (userId?: string, idempotencyKey?: string): CommandContext => ({
    userId,
    correlationId: randomUUID(),
    idempotencyKey,
    now: new Date(),
  });
  await ensureGiftCatalogue(events, ctx());
  const ids: string[] = [];
  for (let i = 0; i < MEMBERS; i++) {
    ids.push(
      (
        await registerUser(
          events,
          { email: `m${i}@test.fr`, pseudo: `membre${i}`, passwordHash: 'h', bio: '' },
          undefined,
          ctx(),
        )
      ).userId,
    );
  }
  // one set of repositories for the process, as the composition root builds it
  const repositories = ledgerRepositories(events);
  const pm = new GiftCreditProcess(events, { wallets: repositories.wallets });
  await pm.start();
  const commands = new WalletRequests(events, {
    payment: new SandboxPaymentProvider(),
    feePercent: FEE_PERCENT,
    ids: new IdBlocks(events),
    repositories,
  });
  return { events, ctx, ids, pm, commands, repositories };
}

describe('coin ledger, property', () => {
  it('matches a shadow model after every step, and the invariants hold at every position', async () => {
    // what the runs really exercised (so the property is not passing on refusals only)
    const done = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.array(opOrScenario, { minLength: 15, maxLength: 50 }).map((o) => o.flat()),
        async (ops) => {
          const w = await world();
          const shadow = new Shadow();
          try {
            let previousCall: Exclude<Op, { kind: 'redeliver' | 'again' }> | undefined;
            for (const [index, raw] of [...START, ...ops].entries()) {
              const counted = index >= START.length;
              let o = raw.kind === 'again' ? previousCall : raw;
              if (!o) continue;
              if (o.kind === 'redeliver') {
                // the process manager sees a gift again: nothing more happens
                if (shadow.gifts.length === 0) continue;
                const target = shadow.gifts[o.pick % shadow.gifts.length];
                for await (const batch of w.events.readAll()) {
                  for (const e of batch)
                    if (e.type === 'GiftSent' && (e.data as { giftId: number }).giftId === target.id)
                      expect(await w.pm.credit(e)).toBe(false);
                }
                continue;
              }
              // a claim picks mostly one of the member's own gifts, sometimes anyone's, sometimes an unknown id
              const giftIdOf = (x: Op) => {
                if (x.kind !== 'claim') return undefined;
                if (x.giftId !== undefined) return x.giftId;
                const own = shadow.gifts.filter((g) => g.to === x.m);
                const unclaimed = [...shadow.unclaimed[x.m].keys()];
                // half of the claims are of a gift still to claim, so that keyed retries of a successful
                // claim are common enough to be counted below (at 1 in 4 they sometimes were not)
                if (x.pick % 8 <= 3 && unclaimed.length) return unclaimed[x.pick % unclaimed.length];
                if (x.pick % 8 <= 5 && own.length) return own[x.pick % own.length].id;
                if (x.pick % 8 === 6 && shadow.gifts.length) return shadow.gifts[x.pick % shadow.gifts.length].id;
                return 10_000 + x.pick;
              };
              // a claim is of one gift: fixed now, so that the same call again claims the same gift
              if (o.kind === 'claim') o = { ...o, giftId: giftIdOf(o) };
              previousCall = o;
              const expected = shadow.expect(o, giftIdOf);
              const email = `m${o.m}@test.fr`;
              const c = w.ctx(w.ids[o.m], o.key);
              let actual: Answer;
              try {
                const a = await (async () => {
                  switch (o.kind) {
                    case 'purchase':
                      return buyPack(w.commands, w.ids[o.m], { email, packId: o.packId }, c);
                    case 'add':
                      return addCoins(w.commands, w.ids[o.m], { email, amount: o.amount }, c);
                    case 'withdraw':
                      return withdrawCoins(w.commands, w.ids[o.m], { user_email: email, amount: o.amount }, c);
                    case 'send':
                      return sendGift(
                        w.commands,
                        w.ids[o.m],
                        { sender_email: email, receiver_email: `m${o.to}@test.fr`, gift_id: o.giftId },
                        c,
                      );
                    case 'claim':
                      return claimGift(w.commands, w.ids[o.m], { gift_id: giftIdOf(o)! }, c);
                    case 'convert':
                      return convertGifts(w.commands, w.ids[o.m], { user_email: email }, c);
                  }
                })();
                actual = { body: a.body };
              } catch (e) {
                if (!(e instanceof DomainError) && !(e instanceof HttpError)) throw e;
                actual = { error: e.message };
              }
              const { id: giftId, ...body } = actual.body ?? {};
              expect(actual.error ? { error: actual.error } : { body }, JSON.stringify(o)).toEqual(
                expected.answer.body ? { body: expected.answer.body } : expected.answer,
              );
              const label = `${o.kind}:${actual.error ?? (o.key && shadow.keys[o.m].has(o.key) ? 'retry' : 'ok')}`;
              if (counted) done.set(label, (done.get(label) ?? 0) + 1);
              // a withdrawal refused although the member held enough coins received as gifts: bonus ones
              if (
                counted &&
                o.kind === 'withdraw' &&
                actual.error === LEDGER_MESSAGES.notWithdrawable &&
                o.amount <= shadow.earned[o.m] + shadow.bonus[o.m] &&
                shadow.bonus[o.m] > 0
              )
                done.set('withdraw:refused-bonus', (done.get('withdraw:refused-bonus') ?? 0) + 1);
              if (actual.body) {
                const previous = o.key ? shadow.keys[o.m].get(o.key) : undefined;
                if (previous) {
                  // a replayed answer (the same gift id too) and no effect
                  expect(giftId).toBe(previous.giftId);
                } else {
                  expected.apply?.(giftId as number | undefined);
                  if (o.key) shadow.keys[o.m].set(o.key, { sig: expected.sig, answer: { body }, giftId });
                }
              }

              // after every step: the receiver is credited, the wallets equal the shadow, the log reconciles
              expect(await w.pm.waitFor((await w.events.lastPosition())!, 5000)).toBe(true);
              const auditor = new LedgerAuditor();
              for await (const batch of w.events.readAll()) for (const e of batch) auditor.apply(e);
              const report = auditor.report();
              expect(report.first_violation).toBeNull();
              expect(report.pending_gifts.count).toBe(0);
              // coins withdrawn never exceed coins bought
              expect(report.totals.external_withdrawals).toBe(shadow.withdrawn);
              expect(report.totals.external_payments + shadow.bought).toBe(0);
              expect(shadow.withdrawn).toBeLessThanOrEqual(shadow.bought);
              for (let i = 0; i < MEMBERS; i++) {
                const view = await w.repositories.wallets.view(w.ids[i]);
                const expectedAccounts = [shadow.balance[i], shadow.bonus[i], shadow.earned[i], shadow.gifts_(i)];
                expect(
                  [view.state.balance, view.state.bonus, view.state.earnings, view.state.gifts],
                  `membre ${i}`,
                ).toEqual(expectedAccounts);
                const accounts = [userBalanceAccount, userBonusAccount, userEarningsAccount, userGiftsAccount].map(
                  (a) => auditor.balance(a(w.ids[i])),
                );
                expect(accounts).toEqual(expectedAccounts);
              }
            }

            // the read models agree with the shadow, and live equals a rebuild
            const live = SqliteReadStore.temporary();
            const rebuilt = SqliteReadStore.temporary();
            try {
              const runner = new ProjectionRunner({ events: w.events, read: live, projectors: allProjectors });
              await runner.start();
              await runner.stop();
              for (let i = 0; i < MEMBERS; i++) {
                expect(await ledgerQueries(live).wallet(w.ids[i])).toEqual({
                  coins_balance: shadow.balance[i] + shadow.earned[i] + shadow.bonus[i],
                  coins_withdrawable: shadow.earned[i],
                  coins_bonus: shadow.bonus[i],
                  gifts_unclaimed: shadow.gifts_(i),
                });
              }
              await rebuildReadModels({ events: w.events, read: rebuilt, projectors: allProjectors, batchSize: 3 });
              expect(await dumpReadModels(rebuilt)).toEqual(await dumpReadModels(live));
            } finally {
              await live.close();
              await rebuilt.close();
            }
          } finally {
            await w.pm.stop();
            await w.events.close();
          }
        },
      ),
      { numRuns: 100 },
    );
    if (process.env.LEDGER_PROPERTY_STATS) console.warn(Object.fromEntries([...done].sort()));
    for (const label of ['purchase:ok', 'add:ok', 'send:ok', 'claim:ok', 'convert:ok', 'withdraw:ok'])
      expect(done.get(label) ?? 0, label).toBeGreaterThan(10);
    for (const label of ['purchase:retry', 'add:retry', 'send:retry', 'claim:retry', 'convert:retry', 'withdraw:retry'])
      expect(done.get(label) ?? 0, label).toBeGreaterThan(1);
    // bought and bonus coins were refused for withdrawal many times, earned ones withdrawn many times;
    // among the refusals, many of coins received as gifts paid with free coins
    expect(done.get(`withdraw:${LEDGER_MESSAGES.notWithdrawable}`) ?? 0).toBeGreaterThan(10);
    expect(done.get('withdraw:refused-bonus') ?? 0).toBeGreaterThan(10);
    for (const error of [
      LEDGER_MESSAGES.insufficient,
      LEDGER_MESSAGES.alreadyClaimed,
      LEDGER_MESSAGES.idempotencyConflict,
      LEDGER_MESSAGES.selfGift,
      LEDGER_MESSAGES.notWithdrawable,
    ]) {
      expect(
        [...done.keys()].some((k) => k.endsWith(`:${error}`)),
        error,
      ).toBe(true);
    }
  }, 300_000);
});
