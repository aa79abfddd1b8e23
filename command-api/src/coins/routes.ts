import { Router, type Request } from 'express';
import { EmailParam, type CoinPack, type WalletAnswer } from '@evo/contracts';
import { COIN_PACKS, PAYOUT_CENTS_PER_100_COINS, PAYOUT_SANDBOX } from '@evo/domain';
import { giftsQueries, ledgerQueries, identityQueries, type UserDoc } from '@evo/projections';
import type { AppDeps } from '../deps';
import { route } from '../http/errors';
import { requireAuth } from '../http/session';
import { readableMember } from '../http/actor';
import { parseInput } from '../http/request';
import { walletRequestsOf, type CoinsRouterOptions } from './wallets';
import { buyPackRoute } from './buy-pack';
import { addCoinsRoute } from './add-coins';
import { withdrawCoinsRoute } from './withdraw-coins';

/**
 * Coins (the product API calls, "Coins"): packs, the wallet and its history; each command's route
 * (purchase, free coins, withdrawal) is in its own file. Every write takes the member from the
 * session: an email in the body that is not theirs is refused (403).
 */
export function coinsRouter(deps: AppDeps, options: CoinsRouterOptions = {}): Router {
  const requests = walletRequestsOf(deps, options);
  const ledger = ledgerQueries(deps.read);
  const gifts = giftsQueries(deps.read);
  const users = identityQueries(deps.read);
  const r = Router();
  const emailOf = (req: Request) => parseInput(EmailParam, req.params).email;

  r.get('/coins/packs', (_req, res) => {
    res.json(COIN_PACKS satisfies readonly CoinPack[]);
  });

  r.post('/coins/purchase', ...buyPackRoute(deps, requests));
  r.post('/coins/add', ...addCoinsRoute(deps, requests));
  r.post('/coins/withdraw', ...withdrawCoinsRoute(deps, requests));

  /** GET …/:email: what `answer` reads of the member the path names (themselves, or anyone for an administrator). */
  const memberRead = (answer: (user: UserDoc) => Promise<unknown>) =>
    route(async (req, res) => {
      res.json(await answer(await readableMember(req, users, emailOf(req))));
    });

  /**
   * The wallet, and what the vault's forms need: the add-coins form shows only when the server
   * accepts it; the withdrawal form states what the coins are worth and where the money goes.
   */
  const walletOf = async (user: UserDoc): Promise<WalletAnswer> => ({
    ...(await ledger.wallet(user._id)),
    add_coins_enabled: deps.config.ALLOW_FREE_COINS,
    withdrawal_cents_per_100_coins: PAYOUT_CENTS_PER_100_COINS,
    withdrawal_payout: PAYOUT_SANDBOX,
  });

  r.get('/coins/balance/:email', requireAuth, memberRead(walletOf));
  r.get(
    '/coins/transactions/:email',
    requireAuth,
    memberRead((user) => ledger.transactions(user._id)),
  );
  r.get(
    '/coins/received/:email',
    requireAuth,
    memberRead((user) => gifts.coinGifts(user._id)),
  );

  return r;
}
