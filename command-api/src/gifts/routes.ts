import express, { Router, type Request, type RequestHandler } from 'express';
import type { GiftBalanceAnswer } from '@evo/contracts';
import { DomainError, LEDGER_MESSAGES } from '@evo/domain';
import { giftsQueries, ledgerQueries, identityQueries } from '@evo/projections';
import type { AppDeps } from '../deps';
import { HttpError, route } from '../http/errors';
import { currentUserId, requireAuth } from '../http/session';
import { csrfGuard } from '../http/csrf';
import { awaitOwnWrites } from '../http/read-your-writes';
import { contextOf } from '../http/context';
import { readableMember } from '../http/actor';
import { answerCoins, walletRequestsOf, type CoinsRouterOptions } from '../coins/routes';
import { ClaimBody, ConvertBody, EmailParam, SendGiftBody } from '../ledger/schemas';
import { sendGift } from './send-gift';
import { claimGift } from './claim-gift';
import { convertGifts } from './convert-gifts';
import { parseInput } from '../http/request';
import { memberLimit } from '../http/member-limits';

/** The handlers both mounts of `/gifts/send` and `/gifts/balance/:email` share. */
function giftHandlers(deps: AppDeps, options: CoinsRouterOptions) {
  const requests = walletRequestsOf(deps, options);
  const ledger = ledgerQueries(deps.read);
  const users = identityQueries(deps.read);
  const subject = (req: Request, email: string) => readableMember(req, users, email);
  return {
    requests,
    send: route(async (req, res) => {
      const body = parseInput(SendGiftBody, req.body);
      await answerCoins(deps, req, res, await sendGift(requests, currentUserId(req), body, contextOf(req)));
    }),
    balance: route(async (req, res) => {
      const user = await subject(req, parseInput(EmailParam, req.params).email);
      res.json({ balance: (await ledger.wallet(user._id)).coins_balance } satisfies GiftBalanceAnswer);
    }),
  };
}

/** Gifts under /api (the product API calls, "Gifts"). */
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
  r.post('/gifts/send', requireAuth, memberLimit(deps.limits, 'gift', deps.config.MEMBER_LIMITS), handlers.send);
  r.get('/gifts/balance/:email', requireAuth, handlers.balance);

  r.get(
    '/gifts/received/:email',
    requireAuth,
    route(async (req, res) => {
      const user = await subject(req, parseInput(EmailParam, req.params).email);
      res.json(await gifts.received(user._id));
    }),
  );

  r.post(
    '/gifts/claim',
    requireAuth,
    route(async (req, res) => {
      const body = parseInput(ClaimBody, req.body);
      const me = currentUserId(req);
      try {
        await answerCoins(deps, req, res, await claimGift(handlers.requests, me, body, contextOf(req)));
      } catch (e) {
        // not in the member's wallet: someone else's gift is refused as such, an unknown one is 404
        if (e instanceof DomainError && e.kind === 'not_found') {
          const gift = await gifts.receivedGift(body.gift_id);
          if (gift && gift.receiver_id !== me) throw new HttpError(403, LEDGER_MESSAGES.actionForbidden);
        }
        throw e;
      }
    }),
  );

  r.post(
    '/coins/convert-gifts',
    requireAuth,
    route(async (req, res) => {
      const body = parseInput(ConvertBody, req.body);
      await answerCoins(
        deps,
        req,
        res,
        await convertGifts(handlers.requests, currentUserId(req), body, contextOf(req)),
      );
    }),
  );

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
    requireAuth,
  ];
  const r = Router();
  r.post('/gifts/send', ...pre, memberLimit(deps.limits, 'gift', deps.config.MEMBER_LIMITS), handlers.send);
  r.get('/gifts/balance/:email', ...pre, handlers.balance);
  return r;
}
