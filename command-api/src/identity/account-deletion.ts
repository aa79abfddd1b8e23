import { DELETION_MESSAGES, userDecider, userStream } from '@evo/domain';
import { childLogger, handleCommand, type CommandContext, type LimitRule } from '@evo/infra';
import { erasureJobOptions } from '@evo/domain';
import type { AppDeps } from '../deps';
import { HttpError } from '../http/errors';
import { setRetryAfter } from '../http/member-limits';
import type { Response } from 'express';
import { sessionMember } from './members';

const log = childLogger('account-deletion');

/** Passwords typed to delete an account, per member: a stolen session cannot guess one. */
export const DELETION_ATTEMPTS: LimitRule = { name: 'account-deletion', limit: 5, windowMs: 15 * 60_000 };
export const TOO_MANY_DELETION_ATTEMPTS = 'Trop d’essais de mot de passe. Réessaie dans quelques minutes.';

/**
 * "Supprimer mon compte" (issue 31): the password typed again, checked here; the rules (an
 * administrator's account, coins left to withdraw) are the user decider's. `AccountDeleted` is the
 * point of no return: the wallet is closed at once (the erasure process closes it too, should this
 * process die first), the member is forgotten by this process's directory and the erasure job is
 * queued (files, key, `MemberErased`). The caller ends the sessions.
 */
export async function deleteAccount(
  deps: AppDeps,
  userId: string,
  password: string,
  ctx: CommandContext,
  res: Response,
): Promise<void> {
  const attempt = await deps.limits.take(DELETION_ATTEMPTS, userId);
  if (!attempt.taken) {
    setRetryAfter(res, attempt.resetInMs);
    throw new HttpError(429, TOO_MANY_DELETION_ATTEMPTS);
  }
  const member = await sessionMember(deps.events, userId);
  const passwordMatches = await deps.passwords.verify(member.passwordHash, password);
  // withdrawable coins are withdrawn by their owner first (decided with the account's rules)
  const wallet = await deps.ledger.wallets.view(userId);
  await handleCommand(
    deps.events,
    userStream(userId),
    userDecider,
    { type: 'DeleteAccount', userId, passwordMatches, withdrawableCoins: wallet.state.earnings },
    ctx,
  );
  deps.ledger.members.forget(userId);
  try {
    await deps.ledger.wallets.execute({ type: 'CloseWallet', userId }, ctx);
  } catch (err) {
    log.warn({ err, userId }, 'portefeuille non fermé : le processus d’effacement le fermera');
  }
  await deps.jobs.add('account.erase', { userId }, erasureJobOptions(userId));
}

export { DELETION_MESSAGES };
