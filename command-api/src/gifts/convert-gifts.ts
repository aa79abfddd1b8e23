import type { RequestHandler } from 'express';
import { ConvertBody } from '@evo/contracts';
import type { CommandContext } from '@evo/infra';
import type { AppDeps } from '../deps';
import { commandRoute } from '../http/read-your-writes';
import type { CoinAnswer, WalletRequests } from '../coins/wallets';

/** POST /api/coins/convert-gifts (the product API calls list it with the coins). */
export const convertGiftsRoute = (deps: AppDeps, requests: WalletRequests): RequestHandler[] =>
  commandRoute(deps.sessions, ConvertBody, (me, body, ctx) => convertGifts(requests, me, body, ctx));

/** "Récupérer tous mes cadeaux": every unclaimed gift's coins onto the balance. */
export async function convertGifts(
  requests: WalletRequests,
  userId: string,
  body: ConvertBody,
  ctx: CommandContext,
): Promise<CoinAnswer> {
  const request = await requests.ownRequest(userId, body.user_email, ctx, 'convert');
  return requests.replayOrRun(
    userId,
    request,
    ctx,
    (txId) => ({ type: 'ConvertGifts', userId, txId, request }),
    'GiftsConverted',
  );
}
