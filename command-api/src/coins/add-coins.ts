import { normalize } from '@evo/domain';
import type { CommandContext } from '@evo/infra';
import { requestRef, type CoinAnswer, type WalletRequests } from './wallets';

/** Free coins (ALLOW_FREE_COINS): the route refuses them when the platform does not give any. */
export async function addCoins(
  requests: WalletRequests,
  userId: string,
  body: { email: string; amount: number },
  ctx: CommandContext,
): Promise<CoinAnswer> {
  await requests.assertOwnEmail(userId, body.email);
  const request = requestRef(ctx, 'add', normalize(body.email), body.amount);
  const replayed = await requests.replay(userId, request);
  if (replayed) return replayed;
  const txId = await requests.txId(ctx);
  return requests.run({ type: 'AddCoins', userId, txId, amount: body.amount, request }, ctx, 'CoinsAdded');
}
