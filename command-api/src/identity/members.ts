import {
  ADMIN_ROLE,
  DomainError,
  MESSAGES,
  normalize,
  notFound,
  reservationDecider,
  reservationStream,
  userDecider,
  userStream,
  type UserState,
} from '@evo/domain';
import { loadState, type EventStore } from '@evo/infra';
import { AUTH_MESSAGES } from '../http/session';

/**
 * Who a command acts for and on, from the event store (commands never read read models): the one
 * place where the command side looks members up. The session side (who is logged in, whose data a
 * path names) is `http/actor.ts`.
 */

export type Member = UserState & { status: 'registered' };

/** A member from their stream; undefined when the id names no registered member. */
export async function loadMember(events: EventStore, userId: string): Promise<Member | undefined> {
  const { state } = await loadState(events, userStream(userId), userDecider);
  return state.status === 'registered' ? state : undefined;
}

/** The member holding a pseudo or an email (uniqueness claim, then their stream). */
export async function findMemberBy(
  events: EventStore,
  kind: 'email' | 'pseudo',
  value: string,
): Promise<Member | undefined> {
  const { state: claim } = await loadState(events, reservationStream(kind, value), reservationDecider);
  return claim.ownerId ? loadMember(events, claim.ownerId) : undefined;
}

/** As `findMemberBy`, 404 'Utilisateur introuvable.' when none. */
export async function requireMemberBy(events: EventStore, kind: 'email' | 'pseudo', value: string): Promise<Member> {
  const m = await findMemberBy(events, kind, value);
  if (!m) throw notFound(MESSAGES.unknownUser);
  return m;
}

/** The registered member behind a session: 401 'Tu dois être connecté(e).' when there is none. */
export async function sessionMember(events: EventStore, userId: string): Promise<Member> {
  const member = await loadMember(events, userId);
  if (!member) throw new DomainError(AUTH_MESSAGES.unauthenticated, 'unauthenticated');
  return member;
}

/** Does the member's own stream give them the administrator role? (what commands decide from) */
export async function isAdminByStream(events: EventStore, userId: string): Promise<boolean> {
  return (await loadMember(events, userId))?.role === ADMIN_ROLE;
}

export const sameEmail = (a: string, b: string) => normalize(a) === normalize(b);

/**
 * A body or path email naming the actor must be the session member's: absent (undefined, null,
 * blank) is fine, anything else that is not their email is refused.
 */
export function claimsOtherUser(claimed: unknown, sessionEmail: string): boolean {
  if (claimed === undefined || claimed === null || (typeof claimed === 'string' && claimed.trim() === '')) return false;
  return typeof claimed !== 'string' || !sameEmail(claimed, sessionEmail);
}

/**
 * Who owns an email or a pseudo, cached, for the hot command paths (coins and gifts): from the
 * event store (the claim stream and the owner's user stream). A registered member's claims are
 * never released, so positive answers are cached. One per process, built by the composition root.
 */
export class MemberDirectory {
  /** `email:<normalised>` / `pseudo:<normalised>` → user id */
  private readonly owners = new Map<string, string>();
  private readonly registered = new Set<string>();

  constructor(private readonly events: EventStore) {}

  /** the registered member owning `email`, undefined when none */
  userIdOf(email: string): Promise<string | undefined> {
    return this.ownerOf('email', email);
  }

  /** the registered member holding `pseudo` (case aside), undefined when none */
  userIdOfPseudo(pseudo: string): Promise<string | undefined> {
    return this.ownerOf('pseudo', pseudo);
  }

  private async ownerOf(kind: 'email' | 'pseudo', value: string): Promise<string | undefined> {
    const key = `${kind}:${normalize(value)}`;
    const cached = this.owners.get(key);
    if (cached) return cached;
    const { state } = await loadState(this.events, reservationStream(kind, normalize(value)), reservationDecider);
    if (!state.ownerId || !(await this.isRegistered(state.ownerId))) return undefined;
    if (this.owners.size > 100_000) this.owners.clear();
    this.owners.set(key, state.ownerId);
    return state.ownerId;
  }

  /** A member who deleted their account: their pseudo and email name nobody any more. */
  forget(userId: string): void {
    this.registered.delete(userId);
    for (const [key, owner] of this.owners) if (owner === userId) this.owners.delete(key);
  }

  async isRegistered(userId: string): Promise<boolean> {
    if (this.registered.has(userId)) return true;
    // registered and not deleted since
    if ((await loadState(this.events, userStream(userId), userDecider)).state.status !== 'registered') return false;
    if (this.registered.size > 100_000) this.registered.clear();
    this.registered.add(userId);
    return true;
  }
}
