import type { RequestHandler } from 'express';
import { ClaimBody } from '@evo/contracts';
import { DomainError, NOT_YOURS } from '@evo/domain';
import type { CommandContext } from '@evo/infra';
import { giftsQueries } from '@evo/projections';
import type { AppDeps } from '../deps';
import { HttpError } from '../http/errors';
import { commandRoute } from '../http/read-your-writes';
import { requestRef, type CoinAnswer, type WalletRequests } from '../coins/wallets';

/** POST /api/gifts/claim: not in the member's wallet, someone else's gift is refused as such (403), an unknown one is 404. */
export const claimGiftRoute = (deps: AppDeps, requests: WalletRequests): RequestHandler[] => {
  const gifts = giftsQueries(deps.read);
  return commandRoute(deps.sessions, ClaimBody, async (me, body, ctx) => {
    try {
      return await claimGift(requests, me, body, ctx);
    } catch (e) {
      if (e instanceof DomainError && e.kind === 'not_found') {
        const gift = await gifts.receivedGift(body.gift_id);
        if (gift && gift.receiver_id !== me) throw new HttpError(403, NOT_YOURS.action);
      }
      throw e;
    }
  });
};

/** One received gift's coins onto the balance. */
export async function claimGift(
  requests: WalletRequests,
  userId: string,
  body: ClaimBody,
  ctx: CommandContext,
): Promise<CoinAnswer> {
  const request = requestRef(ctx, 'claim', body.gift_id);
  return requests.replayOrRun(
    userId,
    request,
    ctx,
    (txId) => ({ type: 'ClaimGift', userId, txId, giftId: body.gift_id, request }),
    'GiftClaimed',
  );
}
