import { normalize } from '@evo/domain';
import type { CommandContext } from '@evo/infra';
import { requestRef, type CoinAnswer, type WalletRequests } from '../coins/wallet-requests';

/** "Récupérer tous mes cadeaux": every unclaimed gift's coins onto the balance. */
export async function convertGifts(
  requests: WalletRequests,
  userId: string,
  body: { user_email: string },
  ctx: CommandContext,
): Promise<CoinAnswer> {
  await requests.assertOwnEmail(userId, body.user_email);
  const request = requestRef(ctx, 'convert', normalize(body.user_email));
  const replayed = await requests.replay(userId, request);
  if (replayed) return replayed;
  const txId = await requests.txId(ctx);
  return requests.run({ type: 'ConvertGifts', userId, txId, request }, ctx, 'GiftsConverted');
}
