import { Router, type Request } from 'express';
import { AddBody, EmailParam, PurchaseBody, WithdrawBody, type CoinPack, type WalletAnswer } from '@evo/contracts';
import { COIN_PACKS, LEDGER_MESSAGES, PAYOUT_CENTS_PER_100_COINS, PAYOUT_SANDBOX } from '@evo/domain';
import { giftsQueries, ledgerQueries, identityQueries } from '@evo/projections';
import type { AppDeps } from '../deps';
import { HttpError, route } from '../http/errors';
import { currentUserId, requireAuth } from '../http/session';
import { answerCommand } from '../http/read-your-writes';
import { contextOf } from '../http/context';
import { readableMember } from '../http/actor';
import { parseInput } from '../http/request';
import { walletRequestsOf, type CoinsRouterOptions } from './wallets';
import { buyPack } from './buy-pack';
import { addCoins } from './add-coins';
import { withdrawCoins } from './withdraw-coins';

/**
 * Coins (the product API calls, "Coins"): packs, purchases, free coins, withdrawals, the wallet and
 * its history. Every write takes the member from the session: an email in the body that is not
 * theirs is refused (403).
 */
export function coinsRouter(deps: AppDeps, options: CoinsRouterOptions = {}): Router {
  const requests = walletRequestsOf(deps, options);
  const ledger = ledgerQueries(deps.read);
  const gifts = giftsQueries(deps.read);
  const users = identityQueries(deps.read);
  const subject = (req: Request, email: string) => readableMember(req, users, email);
  const r = Router();
  const emailOf = (req: Request) => parseInput(EmailParam, req.params).email;

  r.get('/coins/packs', (_req, res) => {
    res.json(COIN_PACKS satisfies readonly CoinPack[]);
  });

  r.post(
    '/coins/purchase',
    requireAuth,
    route(async (req, res) => {
      const body = parseInput(PurchaseBody, req.body);
      await answerCommand(deps.sessions, req, res, await buyPack(requests, currentUserId(req), body, contextOf(req)));
    }),
  );

  r.post(
    '/coins/add',
    requireAuth,
    route(async (req, res) => {
      // ALLOW_FREE_COINS=false: coins only come from payments and gifts
      if (!deps.config.ALLOW_FREE_COINS) throw new HttpError(403, LEDGER_MESSAGES.freeCoinsDisabled);
      const body = parseInput(AddBody, req.body);
      await answerCommand(deps.sessions, req, res, await addCoins(requests, currentUserId(req), body, contextOf(req)));
    }),
  );

  r.post(
    '/coins/withdraw',
    requireAuth,
    route(async (req, res) => {
      const body = parseInput(WithdrawBody, req.body);
      await answerCommand(
        deps.sessions,
        req,
        res,
        await withdrawCoins(requests, currentUserId(req), body, contextOf(req)),
      );
    }),
  );

  r.get(
    '/coins/balance/:email',
    requireAuth,
    route(async (req, res) => {
      const user = await subject(req, emailOf(req));
      // the vault shows the add-coins form only when the server accepts it
      res.json({
        ...(await ledger.wallet(user._id)),
        add_coins_enabled: deps.config.ALLOW_FREE_COINS,
        // the withdrawal form states what the coins are worth and where the money goes
        withdrawal_cents_per_100_coins: PAYOUT_CENTS_PER_100_COINS,
        withdrawal_payout: PAYOUT_SANDBOX,
      } satisfies WalletAnswer);
    }),
  );

  r.get(
    '/coins/transactions/:email',
    requireAuth,
    route(async (req, res) => {
      const user = await subject(req, emailOf(req));
      res.json(await ledger.transactions(user._id));
    }),
  );

  r.get(
    '/coins/received/:email',
    requireAuth,
    route(async (req, res) => {
      const user = await subject(req, emailOf(req));
      res.json(await gifts.coinGifts(user._id));
    }),
  );

  return r;
}
