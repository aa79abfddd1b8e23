import { normalize, reservationDecider, reservationStream, userStream } from '@evo/domain';
import { loadState, type EventStore } from '@evo/infra';

/**
 * Who owns an email or a pseudo, for commands: from the event store (the claim stream and the
 * owner's user stream), never from a read model. A registered member's claims are never released,
 * so positive answers are cached.
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

  async isRegistered(userId: string): Promise<boolean> {
    if (this.registered.has(userId)) return true;
    const first = (await this.events.readStream(userStream(userId)))[0];
    if (first?.type !== 'UserRegistered') return false;
    if (this.registered.size > 100_000) this.registered.clear();
    this.registered.add(userId);
    return true;
  }
}
