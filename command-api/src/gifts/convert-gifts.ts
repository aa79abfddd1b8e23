import type { RequestHandler } from 'express';
import { ConvertBody } from '@evo/contracts';
import type { CommandContext } from '@evo/infra';
import type { AppDeps } from '../deps';
import { walletCommandRoute, type CoinAnswer, type WalletRequests } from '../coins/wallets';

/** POST /api/coins/convert-gifts (the product API calls list it with the coins). */
export const convertGiftsRoute = (deps: AppDeps, requests: WalletRequests): RequestHandler[] =>
  walletCommandRoute(deps, requests, ConvertBody, convertGifts);

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
