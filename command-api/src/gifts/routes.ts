import express, { Router, type Request, type RequestHandler } from 'express';
import { EmailParam, type GiftBalanceAnswer } from '@evo/contracts';
import { giftsQueries, ledgerQueries, identityQueries } from '@evo/projections';
import type { AppDeps } from '../deps';
import { route } from '../http/errors';
import { requireAuth } from '../http/session';
import { csrfGuard } from '../http/csrf';
import { awaitOwnWrites } from '../http/read-your-writes';
import { readableMember } from '../http/actor';
import { parseInput } from '../http/request';
import { walletRequestsOf, type CoinsRouterOptions } from '../coins/wallets';
import { sendGiftRoute } from './send-gift';
import { claimGiftRoute } from './claim-gift';
import { convertGiftsRoute } from './convert-gifts';

/** What both mounts of `/gifts/send` and `/gifts/balance/:email` share. */
function giftHandlers(deps: AppDeps, options: CoinsRouterOptions) {
  const requests = walletRequestsOf(deps, options);
  const ledger = ledgerQueries(deps.read);
  const users = identityQueries(deps.read);
  return {
    requests,
    send: sendGiftRoute(deps, requests),
    balance: route(async (req, res) => {
      const user = await readableMember(req, users, parseInput(EmailParam, req.params).email);
      res.json({ balance: (await ledger.wallet(user._id)).coins_balance } satisfies GiftBalanceAnswer);
    }),
  };
}

/** Gifts under /api (the product API calls, "Gifts"); each command's route is in its own file. */
export function giftsRouter(deps: AppDeps, options: CoinsRouterOptions = {}): Router {
  const handlers = giftHandlers(deps, options);
  const gifts = giftsQueries(deps.read);
  const users = identityQueries(deps.read);
  const subject = (req: Request, email: string) => readableMember(req, users, email);
  const r = Router();

  r.get(
    '/gifts/catalog',
    route(async (_req, res) => {
      res.json(await gifts.catalog());
    }),
  );
  r.post('/gifts/send', ...handlers.send);
  r.get('/gifts/balance/:email', requireAuth, handlers.balance);

  r.get(
    '/gifts/received/:email',
    requireAuth,
    route(async (req, res) => {
      const user = await subject(req, parseInput(EmailParam, req.params).email);
      res.json(await gifts.received(user._id));
    }),
  );

  r.post('/gifts/claim', ...claimGiftRoute(deps, handlers.requests));
  r.post('/coins/convert-gifts', ...convertGiftsRoute(deps, handlers.requests));

  return r;
}

/**
 * The two calls the product specification also shows without /api (`/gifts/send`, `/gifts/balance/:email`), mounted at
 * the root of the app before the web app's fallback, with the same session, CSRF and
 * read-your-writes handling as /api.
 */
export function giftsRootRouter(deps: AppDeps, options: CoinsRouterOptions = {}): Router {
  const handlers = giftHandlers(deps, options);
  const pre: RequestHandler[] = [
    deps.sessions.middleware(),
    csrfGuard,
    express.json({ limit: '100kb' }),
    awaitOwnWrites(deps.progress),
  ];
  const r = Router();
  r.post('/gifts/send', ...pre, ...handlers.send);
  r.get('/gifts/balance/:email', ...pre, requireAuth, handlers.balance);
  return r;
}
