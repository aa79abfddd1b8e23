import type { RequestHandler } from 'express';
import type { z } from 'zod';
import { AddBody } from '@evo/contracts';
import { LEDGER_MESSAGES } from '@evo/domain';
import type { AppDeps } from '../deps';
import { HttpError } from '../http/errors';
import { walletCommandRoute, type WalletCommandHandler, type WalletRequests } from './wallets';

/** POST /api/coins/add; with ALLOW_FREE_COINS=false coins only come from payments and gifts (403). */
export const addCoinsRoute = (deps: AppDeps, requests: WalletRequests) => {
  const freeCoinsAllowed: RequestHandler = (_req, _res, next) =>
    next(deps.config.ALLOW_FREE_COINS ? undefined : new HttpError(403, LEDGER_MESSAGES.freeCoinsDisabled));
  return walletCommandRoute(deps, requests, AddBody, addCoins, freeCoinsAllowed);
};

/** Free coins (ALLOW_FREE_COINS): the route refuses them when the platform does not give any. */
export const addCoins: WalletCommandHandler<z.output<typeof AddBody>> = (requests, userId, body, ctx) =>
  requests.moveOwnCoins(userId, body.email, body.amount, 'add', ctx);
