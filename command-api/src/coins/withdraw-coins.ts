import { WithdrawBody } from '@evo/contracts';
import { normalize } from '@evo/domain';
import type { CommandContext } from '@evo/infra';
import type { AppDeps } from '../deps';
import { commandRoute } from '../http/read-your-writes';
import { requestRef, type CoinAnswer, type WalletRequests } from './wallets';

/** POST /api/coins/withdraw */
export const withdrawCoinsRoute = (deps: AppDeps, requests: WalletRequests) =>
  commandRoute(deps.sessions, WithdrawBody, (me, body, ctx) => withdrawCoins(requests, me, body, ctx));

/** Earned coins paid out (the only ones a withdrawal takes). */
export async function withdrawCoins(
  requests: WalletRequests,
  userId: string,
  body: { user_email: string; amount: number },
  ctx: CommandContext,
): Promise<CoinAnswer> {
  await requests.assertOwnEmail(userId, body.user_email);
  const request = requestRef(ctx, 'withdraw', normalize(body.user_email), body.amount);
  const replayed = await requests.replay(userId, request);
  if (replayed) return replayed;
  const txId = await requests.txId(ctx);
  return requests.run({ type: 'WithdrawCoins', userId, txId, amount: body.amount, request }, ctx, 'CoinsWithdrawn');
}
