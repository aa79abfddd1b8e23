import type { RequestHandler } from 'express';
import { AddBody } from '@evo/contracts';
import { LEDGER_MESSAGES } from '@evo/domain';
import type { CommandContext } from '@evo/infra';
import type { AppDeps } from '../deps';
import { HttpError } from '../http/errors';
import { commandRoute } from '../http/read-your-writes';
import type { CoinAnswer, WalletRequests } from './wallets';

/** POST /api/coins/add; with ALLOW_FREE_COINS=false coins only come from payments and gifts (403). */
export const addCoinsRoute = (deps: AppDeps, requests: WalletRequests) => {
  const freeCoinsAllowed: RequestHandler = (_req, _res, next) =>
    next(deps.config.ALLOW_FREE_COINS ? undefined : new HttpError(403, LEDGER_MESSAGES.freeCoinsDisabled));
  return commandRoute(deps.sessions, AddBody, (me, body, ctx) => addCoins(requests, me, body, ctx), freeCoinsAllowed);
};

/** Free coins (ALLOW_FREE_COINS): the route refuses them when the platform does not give any. */
export async function addCoins(
  requests: WalletRequests,
  userId: string,
  body: { email: string; amount: number },
  ctx: CommandContext,
): Promise<CoinAnswer> {
  const request = await requests.ownRequest(userId, body.email, ctx, 'add', body.amount);
  return requests.replayOrRun(
    userId,
    request,
    ctx,
    (txId) => ({ type: 'AddCoins', userId, txId, amount: body.amount, request }),
    'CoinsAdded',
  );
}
