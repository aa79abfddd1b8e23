import type { RequestHandler } from 'express';
import { SendGiftBody } from '@evo/contracts';
import { DomainError, LEDGER_MESSAGES, normalize, notFound } from '@evo/domain';
import type { CommandContext } from '@evo/infra';
import type { AppDeps } from '../deps';
import { memberLimit } from '../http/member-limits';
import { walletCommandRoute, type CoinAnswer, type WalletRequests } from '../coins/wallets';

/**
 * POST /api/gifts/send (and /gifts/send, gifts/routes.ts): the member from the session, the body
 * parsed with the contract's `SendGiftBody`, then the answer (`CoinCommandAnswer`) with its
 * position for read-your-writes. It does not wait for the receiver's credit (gift-credits.ts).
 */
export const sendGiftRoute = (deps: AppDeps, requests: WalletRequests): RequestHandler[] =>
  walletCommandRoute(
    deps,
    requests,
    SendGiftBody,
    sendGift,
    memberLimit(deps.limits, 'gift', deps.config.MEMBER_LIMITS),
  );

/**
 * A gift sent: the receiver by pseudo (or email), the gift from the catalogue, then the sender's
 * wallet decides (not oneself, a listed gift, enough coins) and appends `GiftSent`; the gift credits
 * (gift-credits.ts) credit the receiver afterwards.
 */
export async function sendGift(
  requests: WalletRequests,
  userId: string,
  body: SendGiftBody,
  ctx: CommandContext,
): Promise<CoinAnswer> {
  // the request as sent: an email as before (same hash for old clients' retries), a pseudo marked apart
  const receiverRef = [body.receiver_email, body.receiver_pseudo && `@${body.receiver_pseudo}`]
    .filter((v): v is string => Boolean(v))
    .map(normalize);
  const request = await requests.ownRequest(userId, body.sender_email, ctx, 'send', ...receiverRef, body.gift_id);
  const replayed = await requests.replay(userId, request);
  if (replayed) return replayed;
  const byEmail = body.receiver_email ? await requests.members.userIdOf(body.receiver_email) : undefined;
  const byPseudo = body.receiver_pseudo ? await requests.members.userIdOfPseudo(body.receiver_pseudo) : undefined;
  const receiverId = byPseudo ?? byEmail;
  if (!receiverId) throw notFound(LEDGER_MESSAGES.receiverNotFound);
  if (body.receiver_email && body.receiver_pseudo && byEmail !== byPseudo) {
    throw new DomainError(LEDGER_MESSAGES.receiverMismatch, 'invalid');
  }
  // the rules (not to oneself, a gift of the catalogue, enough coins) are the decider's
  const gift = await requests.catalogue.gift(body.gift_id);
  const giftId = await requests.txId(ctx);
  return requests.run(
    {
      type: 'SendGift',
      userId,
      giftId,
      receiverId,
      gift: gift ? { id: gift.id, name: gift.name, emoji: gift.emoji, coinCost: gift.coinCost } : null,
      feePercent: requests.options.feePercent,
      request,
    },
    ctx,
    'GiftSent',
  );
}
