import { Router, type Request, type Response } from 'express';
import type { CoinPack, LedgerAuditAnswer, LedgerReconciliation, WalletAnswer } from '@evo/contracts';
import { COIN_PACKS, LEDGER_MESSAGES, PAYOUT_CENTS_PER_100_COINS, PAYOUT_SANDBOX } from '@evo/domain';
import { giftsQueries, ledgerQueries, identityQueries } from '@evo/projections';
import { reconcileLedger } from './reconcile';
import type { AppDeps } from '../deps';
import { HttpError, route } from '../http/errors';
import { currentUserId, requireAuth } from '../http/session';
import { answerWrite } from '../http/read-your-writes';
import { contextOf } from '../http/context';
import { readableMember } from '../http/actor';
import { LedgerCommands, type LedgerAnswer } from './commands';
import { SandboxPaymentProvider, type PaymentProvider } from './payment-provider';
import { AddBody, AsOfQuery, ConvertBody, EmailParam, PurchaseBody, WithdrawBody } from './schemas';
import { requireAdmin } from '../admin/require-admin';
import { parseInput } from '../http/request';

export interface LedgerRouterOptions {
  /** where pack purchases are paid; the sandbox approves at once */
  payment?: PaymentProvider;
}

/** The commands of a router, built once per app from its deps. */
export const ledgerCommandsOf = (deps: AppDeps, options: LedgerRouterOptions = {}) =>
  new LedgerCommands(deps.events, {
    payment: options.payment ?? new SandboxPaymentProvider(),
    feePercent: deps.config.GIFT_FEE_PERCENT,
    ids: deps.ids,
    repositories: deps.ledger,
  });

/** Answer a coin command: its position for read-your-writes, then its JSON. */
export async function answerLedger(deps: AppDeps, req: Request, res: Response, answer: LedgerAnswer): Promise<void> {
  await answerWrite(deps.sessions, req, res, answer.position);
  res.json(answer.body);
}

/**
 * Coins (the product API calls, "Coins") and the administrators' ledger audit. Every write takes the
 * member from the session: an email in the body that is not theirs is refused (403).
 */
/** How the admin lists name a deleted member (projections' adminTransactions). */
const DELETED_MEMBER_ALIAS = /^membre ([0-9a-f-]{36})$/;

export function ledgerRouter(deps: AppDeps, options: LedgerRouterOptions = {}): Router {
  const commands = ledgerCommandsOf(deps, options);
  const ledger = ledgerQueries(deps.read);
  const gifts = giftsQueries(deps.read);
  const users = identityQueries(deps.read);
  const subject = (req: Request, email: string) => readableMember(req, users, email);
  const admin = requireAdmin(deps);
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
      await answerLedger(deps, req, res, await commands.purchase(currentUserId(req), body, contextOf(req)));
    }),
  );

  r.post(
    '/coins/add',
    requireAuth,
    route(async (req, res) => {
      // ALLOW_FREE_COINS=false: coins only come from payments and gifts
      if (!deps.config.ALLOW_FREE_COINS) throw new HttpError(403, LEDGER_MESSAGES.freeCoinsDisabled);
      const body = parseInput(AddBody, req.body);
      await answerLedger(deps, req, res, await commands.add(currentUserId(req), body, contextOf(req)));
    }),
  );

  r.post(
    '/coins/withdraw',
    requireAuth,
    route(async (req, res) => {
      const body = parseInput(WithdrawBody, req.body);
      await answerLedger(deps, req, res, await commands.withdraw(currentUserId(req), body, contextOf(req)));
    }),
  );

  r.post(
    '/coins/convert-gifts',
    requireAuth,
    route(async (req, res) => {
      const body = parseInput(ConvertBody, req.body);
      await answerLedger(deps, req, res, await commands.convert(currentUserId(req), body, contextOf(req)));
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

  r.get(
    '/coins/admin/transactions',
    ...admin,
    route(async (_req, res) => {
      res.json(await ledger.adminTransactions());
    }),
  );

  r.get(
    '/admin/ledger/reconcile',
    ...admin,
    route(async (_req, res) => {
      res.json((await reconcileLedger(deps.events)) satisfies LedgerReconciliation);
    }),
  );

  r.get(
    '/admin/ledger/:email',
    ...admin,
    route(async (req, res) => {
      const { asOf } = parseInput(AsOfQuery, req.query);
      // a deleted member has no email any more: the lists name them 'membre <id>', and so does this path
      const deleted = DELETED_MEMBER_ALIAS.exec(emailOf(req));
      const user = deleted
        ? { id: deleted[1], email: '', pseudo: `membre ${deleted[1]}` }
        : await subject(req, emailOf(req)).then((u) => ({ id: u._id, email: u.email, pseudo: u.pseudo }));
      const audit = await ledger.audit(user.id, asOf);
      res.json({ user, ...audit } satisfies LedgerAuditAnswer);
    }),
  );

  return r;
}
