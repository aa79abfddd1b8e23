import { normalize, reservationDecider, reservationStream, userStream } from '@evo/domain';
import { loadState, type EventStore } from '@evo/infra';

/**
 * Who owns an email, for commands: from the event store (the email's claim stream and the owner's
 * user stream), never from a read model. A registered member's claim is never released, so
 * positive answers are cached.
 */
export class MemberDirectory {
  private static readonly byStore = new WeakMap<EventStore, MemberDirectory>();
  static for(events: EventStore): MemberDirectory {
    let d = MemberDirectory.byStore.get(events);
    if (!d) MemberDirectory.byStore.set(events, (d = new MemberDirectory(events)));
    return d;
  }

  private readonly byEmail = new Map<string, string>();
  private readonly registered = new Set<string>();

  constructor(private readonly events: EventStore) {}

  /** the registered member owning `email`, undefined when none */
  async userIdOf(email: string): Promise<string | undefined> {
    const key = normalize(email);
    const cached = this.byEmail.get(key);
    if (cached) return cached;
    const { state } = await loadState(this.events, reservationStream('email', key), reservationDecider);
    if (!state.ownerId || !(await this.isRegistered(state.ownerId))) return undefined;
    if (this.byEmail.size > 100_000) this.byEmail.clear();
    this.byEmail.set(key, state.ownerId);
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
