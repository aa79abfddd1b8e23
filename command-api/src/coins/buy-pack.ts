import { createHash } from 'node:crypto';
import { PurchaseBody } from '@evo/contracts';
import {
  DomainError,
  LEDGER_MESSAGES,
  notFound,
  packById,
  packPriceCents,
  purchaseRequestDecider,
  purchaseRequestStream,
  type RequestRef,
} from '@evo/domain';
import { handleCommand, loadState, type CommandContext } from '@evo/infra';
import type { AppDeps } from '../deps';
import { HttpError } from '../http/errors';
import { walletCommandRoute, type CoinAnswer, type WalletRequests } from './wallets';

/** POST /api/coins/purchase */
export const buyPackRoute = (deps: AppDeps, requests: WalletRequests) =>
  walletCommandRoute(deps, requests, PurchaseBody, buyPack);

/** how long a purchase waits for a concurrent one under the same key before answering 409 */
const CONCURRENT_PURCHASE_WAIT_MS = 5000;

/** a fixed-length name for a member's key (keys are up to 200 characters of anything) */
const keyDigest = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 32);

/**
 * A reservation stream holds several events of one key (reserved, released, reserved again): their
 * ids must not derive from the key, or the later ones would be taken for the first. The expected
 * revision is their guard.
 */
const reservationContext = (ctx: CommandContext): CommandContext => ({ ...ctx, idempotencyKey: undefined });

/** A pack bought: under a key, the key is reserved before the provider is charged (one key, one charge). */
export async function buyPack(
  requests: WalletRequests,
  userId: string,
  body: { email: string; packId: number },
  ctx: CommandContext,
): Promise<CoinAnswer> {
  const request = await requests.ownRequest(userId, body.email, ctx, 'purchase', body.packId);
  const pack = packById(body.packId);
  if (!pack) throw notFound(LEDGER_MESSAGES.packNotFound);
  const replayed = await requests.replay(userId, request);
  if (replayed) return replayed;
  // under a key, the key is reserved before the provider is called: one key, one charge
  const reservation = request ? await reservePurchase(requests, userId, request, pack.id, ctx) : undefined;
  if (reservation && 'answer' in reservation) return reservation.answer;
  const txId = reservation?.txId ?? (await requests.txId(ctx));
  const release = (reason: string) =>
    request
      ? handleCommand(
          requests.events,
          purchaseRequestStream(userId, keyDigest(request.key)),
          purchaseRequestDecider,
          { type: 'ReleasePurchase', userId, request, reason },
          reservationContext(ctx),
        )
      : undefined;
  let payment;
  try {
    payment = await requests.options.payment.charge({
      userId,
      packId: pack.id,
      amountCents: packPriceCents(pack),
      currency: 'EUR',
      description: `EVO — pack ${pack.name} (${pack.coins_amount} coins)`,
      reference: `achat-${txId}`,
      idempotencyKey: ctx.idempotencyKey,
    });
  } catch (e) {
    // the outcome is unknown: the key is freed, its retry charges again with the same reference and key
    await release('Erreur du prestataire de paiement.');
    throw e;
  }
  if (payment.status !== 'approved') {
    await release(LEDGER_MESSAGES.paymentDeclined);
    throw new HttpError(402, LEDGER_MESSAGES.paymentDeclined);
  }
  return requests.run(
    {
      type: 'PurchaseCoins',
      userId,
      txId,
      pack,
      provider: requests.options.payment.name,
      paymentRef: payment.reference,
      request,
    },
    ctx,
    'CoinsPurchased',
  );
}

/**
 * Reserve a purchase's key (`purchase-request-…`, expected revision): answers its transaction id,
 * or, when a request with this key is already being charged, the answer of that request once
 * the wallet records it (409 if it does not within a few seconds).
 */
async function reservePurchase(
  requests: WalletRequests,

  userId: string,
  request: RequestRef,
  packId: number,
  ctx: CommandContext,
): Promise<{ txId: number } | { answer: CoinAnswer }> {
  const stream = purchaseRequestStream(userId, keyDigest(request.key));
  let fresh: number | undefined;
  const { state } = await loadState(requests.events, stream, purchaseRequestDecider);
  if (state.txId === null) fresh = await requests.txId(ctx);
  try {
    const r = await handleCommand(
      requests.events,
      stream,
      purchaseRequestDecider,
      (s) => ({
        type: 'ReservePurchase' as const,
        userId,
        request,
        txId: s.txId ?? fresh ?? 0,
        packId,
        now: ctx.now,
      }),
      reservationContext(ctx),
    );
    return { txId: r.state.txId! };
  } catch (e) {
    if (!(e instanceof DomainError) || e.message !== LEDGER_MESSAGES.purchaseInProgress) throw e;
    const deadline = Date.now() + CONCURRENT_PURCHASE_WAIT_MS;
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      const answer = await requests.replay(userId, request);
      if (answer) return { answer };
    }
    throw e;
  }
}
