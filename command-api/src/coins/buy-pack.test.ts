import { randomUUID } from 'node:crypto';
import { describe, it, expect } from 'vitest';
import { IdBlocks, SqliteEventStore, type CommandContext } from '@evo/infra';
import { closedAfterEach } from '@evo/projections/testing/test-lifecycle';
import { registerUser } from '../identity/commands';
import { WalletRequests, ensureGiftCatalogue } from './wallets';
import { buyPack } from './buy-pack';
import type { PaymentProvider, PaymentRequest, PaymentResult } from './payment-provider';

const open = closedAfterEach<SqliteEventStore>();
const ctx = (userId?: string, idempotencyKey?: string): CommandContext => ({
  userId,
  correlationId: randomUUID(),
  idempotencyKey,
  now: new Date(),
});

/** A log of its own with the gift catalogue and one registered member, the buyer. */
async function logWithBuyer(email: string, pseudo: string) {
  const events = new SqliteEventStore(':memory:');
  open.push(events);
  await ensureGiftCatalogue(events, ctx());
  const { userId } = await registerUser(events, { email, pseudo, passwordHash: 'h', bio: '' }, undefined, ctx());
  return { events, userId };
}

/** Every CoinsPurchased of the log. */
async function purchasesIn(events: SqliteEventStore) {
  const purchased = [];
  for await (const b of events.readAll()) purchased.push(...b.filter((e) => e.type === 'CoinsPurchased'));
  return purchased;
}

/**
 * A payment provider that keeps every charge asked of it, each answered as `answer` says from the
 * charges so far; and the wallet requests of one API process paying with it.
 */
function recordingProvider(
  name: string,
  answer: (charges: PaymentRequest[]) => Promise<PaymentResult> | PaymentResult,
) {
  const charges: PaymentRequest[] = [];
  const provider: PaymentProvider = {
    name,
    async charge(request) {
      charges.push(request);
      return answer(charges);
    },
  };
  const requestsOn = (events: SqliteEventStore) =>
    new WalletRequests(events, { payment: provider, feePercent: 0, ids: new IdBlocks(events) });
  return { charges, requestsOn };
}

/** What a purchase answers: the member's coins right after it (bought ones only), and its transaction `id`. */
const purchaseAnswer = (coinsBalance: number, id: unknown = expect.any(Number)) => ({
  message: '✅ Achat effectué avec succès !',
  // the purchase's transaction: its receipt (/coins/recu/:id)
  id,
  coins_balance: coinsBalance,
  coins_withdrawable: 0,
  coins_bonus: 0,
});

describe('purchases through the payment port', () => {
  it('appends nothing for a declined payment, and passes the key and reference to the provider', async () => {
    const { events, userId } = await logWithBuyer('a@test.fr', 'acheteur');
    let approve = false;
    const { charges: seen, requestsOn } = recordingProvider('carte-test', (charges) =>
      approve
        ? { status: 'approved', reference: `pay-${charges.length}` }
        : { status: 'declined', reason: 'carte refusée' },
    );
    const commands = requestsOn(events);
    const before = await events.lastPosition();
    await expect(buyPack(commands, userId, { email: 'a@test.fr', packId: 8 }, ctx(userId))).rejects.toMatchObject({
      status: 402,
      message: 'Paiement refusé.',
    });
    // the block of transaction ids reserved by the first purchase is the only write
    const stored = [];
    for await (const b of events.readAll(before)) stored.push(...b);
    expect(stored.map((e) => e.type)).toEqual(['IdAssigned']);
    expect(seen[0]).toMatchObject({
      userId,
      packId: 8,
      amountCents: 4500,
      currency: 'EUR',
      reference: expect.stringMatching(/^achat-\d+$/),
    });

    approve = true;
    const ok = await buyPack(commands, userId, { email: 'a@test.fr', packId: 8 }, ctx(userId, 'cle-1'));
    expect(ok.body).toEqual(purchaseAnswer(5000));
    expect(seen[1].idempotencyKey).toBe('cle-1');
    // the retry is answered from the wallet: the provider is not called again
    const retry = await buyPack(commands, userId, { email: 'a@test.fr', packId: 8 }, ctx(userId, 'cle-1'));
    expect(retry.body).toEqual(ok.body);
    expect(seen).toHaveLength(2);
    const purchased = await purchasesIn(events);
    expect(purchased).toHaveLength(1);
    expect(purchased[0].data).toMatchObject({
      provider: 'carte-test',
      paymentRef: 'pay-2',
      priceCents: 4500,
      coins: 5000,
    });
  });

  it('charges once for concurrent purchases under one Idempotency-Key, and each answers what that charge bought', async () => {
    const { events, userId } = await logWithBuyer('b@test.fr', 'acheteuse');
    const { charges, requestsOn } = recordingProvider('carte-lente', async (charges) => {
      // a real provider takes its time: every concurrent request is in flight meanwhile
      await new Promise((r) => setTimeout(r, 300));
      return { status: 'approved', reference: `pay-${charges.length}` };
    });
    // two API processes' worth of command objects on one log, each with its own id allocator
    const [first, second] = [requestsOn(events), requestsOn(events)];
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        buyPack(i % 2 ? first : second, userId, { email: 'b@test.fr', packId: 2 }, ctx(userId, 'cle-concurrente')),
      ),
    );
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({
      idempotencyKey: 'cle-concurrente',
      reference: expect.stringMatching(/^achat-\d+$/),
    });
    // one charge: every answer names the same transaction
    const { id } = answers[0].body as { id: number };
    expect(charges[0].reference).toBe(`achat-${id}`);
    for (const a of answers) expect(a.body).toEqual(purchaseAnswer(220, id));
    const purchased = await purchasesIn(events);
    expect(purchased).toHaveLength(1);
  });

  it('a declined payment frees its key: the retry charges again, with the same reference', async () => {
    const { events, userId } = await logWithBuyer('c@test.fr', 'refusee');
    const { charges, requestsOn } = recordingProvider('carte-test', (charges) =>
      charges.length === 1 ? { status: 'declined', reason: 'refus' } : { status: 'approved', reference: 'pay-ok' },
    );
    const commands = requestsOn(events);
    await expect(
      buyPack(commands, userId, { email: 'c@test.fr', packId: 1 }, ctx(userId, 'cle-2')),
    ).rejects.toMatchObject({ status: 402 });
    const ok = await buyPack(commands, userId, { email: 'c@test.fr', packId: 1 }, ctx(userId, 'cle-2'));
    expect(ok.body).toEqual(purchaseAnswer(110));
    expect(charges).toHaveLength(2);
    expect(charges[1].reference).toBe(charges[0].reference);
    // another request under the key: refused, nothing charged
    await expect(
      buyPack(commands, userId, { email: 'c@test.fr', packId: 3 }, ctx(userId, 'cle-2')),
    ).rejects.toMatchObject({ kind: 'conflict' });
    expect(charges).toHaveLength(2);
  });
});
