import type { RequestHandler } from 'express';
import { ConvertBody } from '@evo/contracts';
import { normalize } from '@evo/domain';
import type { CommandContext } from '@evo/infra';
import type { AppDeps } from '../deps';
import { commandRoute } from '../http/read-your-writes';
import { requestRef, type CoinAnswer, type WalletRequests } from '../coins/wallets';

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
  await requests.assertOwnEmail(userId, body.user_email);
  const request = requestRef(ctx, 'convert', normalize(body.user_email));
  const replayed = await requests.replay(userId, request);
  if (replayed) return replayed;
  const txId = await requests.txId(ctx);
  return requests.run({ type: 'ConvertGifts', userId, txId, request }, ctx, 'GiftsConverted');
}
