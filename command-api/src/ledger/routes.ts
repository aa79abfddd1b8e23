import { Router, type Request } from 'express';
import { z } from 'zod';
import { EmailParam, type LedgerAuditAnswer, type LedgerReconciliation } from '@evo/contracts';
import { ledgerQueries, identityQueries } from '@evo/projections';
import { reconcileLedger } from './reconcile';
import type { AppDeps } from '../deps';
import { route } from '../http/errors';
import { readableMember } from '../http/actor';
import { requireAdmin } from '../admin/require-admin';
import { parseInput } from '../http/request';

/** `?asOf=`: the audit up to a date (ISO). */
const AsOfQuery = z.object({
  asOf: z
    .string({ invalid_type_error: 'Date invalide (format ISO attendu).' })
    .refine((v) => !Number.isNaN(Date.parse(v)), 'Date invalide (format ISO attendu).')
    .transform((v) => new Date(v).toISOString())
    .optional(),
});

/** How the admin lists name a deleted member (projections' adminTransactions). */
const DELETED_MEMBER_ALIAS = /^membre ([0-9a-f-]{36})$/;

/** The administrators' ledger: every coin movement, the reconciliation and a member's audit. */
export function ledgerRouter(deps: AppDeps): Router {
  const ledger = ledgerQueries(deps.read);
  const users = identityQueries(deps.read);
  const subject = (req: Request, email: string) => readableMember(req, users, email);
  const admin = requireAdmin(deps);
  const r = Router();
  const emailOf = (req: Request) => parseInput(EmailParam, req.params).email;

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
