import { WithdrawBody } from '@evo/contracts';
import type { CommandContext } from '@evo/infra';
import type { AppDeps } from '../deps';
import { commandRoute } from '../http/read-your-writes';
import type { CoinAnswer, WalletRequests } from './wallets';

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
  const request = await requests.ownRequest(userId, body.user_email, ctx, 'withdraw', body.amount);
  return requests.replayOrRun(
    userId,
    request,
    ctx,
    (txId) => ({ type: 'WithdrawCoins', userId, txId, amount: body.amount, request }),
    'CoinsWithdrawn',
  );
}
