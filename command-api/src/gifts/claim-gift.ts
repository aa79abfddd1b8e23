import type { CommandContext } from '@evo/infra';
import { requestRef, type CoinAnswer, type WalletRequests } from '../coins/wallet-requests';

/** One received gift's coins onto the balance. */
export async function claimGift(
  requests: WalletRequests,
  userId: string,
  body: { gift_id: number },
  ctx: CommandContext,
): Promise<CoinAnswer> {
  const request = requestRef(ctx, 'claim', body.gift_id);
  const replayed = await requests.replay(userId, request);
  if (replayed) return replayed;
  const txId = await requests.txId(ctx);
  return requests.run({ type: 'ClaimGift', userId, txId, giftId: body.gift_id, request }, ctx, 'GiftClaimed');
}
