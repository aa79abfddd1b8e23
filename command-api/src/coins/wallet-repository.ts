import {
  DomainError,
  keyMapGet,
  walletDecider,
  walletStream,
  type LogPosition,
  type NewEvent,
  type RequestRecord,
  type WalletCommand,
  type WalletEvent,
  type WalletState,
} from '@evo/domain';
import { WrongExpectedRevisionError, toNewEvents, type CommandContext, type EventStore } from '@evo/infra';

export interface WalletView {
  state: WalletState;
  /** revision of the wallet stream's last event, -1 when it does not exist */
  revision: number;
  /** position of its last event */
  position?: LogPosition;
}

export interface WalletOutcome {
  /** events this command wrote (none for a retry of a keyed request, or when nothing changes) */
  events: WalletEvent[];
  /** the wallet right after this command's events */
  state: WalletState;
  /** for a command with a `request`: what that request did, first call or retry (read back from the stream) */
  record?: RequestRecord;
  /** position of the append that carried this command's events, or of the wallet's last event */
  position?: LogPosition;
}

interface Pending {
  command: WalletCommand;
  ctx: CommandContext;
  resolve: (o: WalletOutcome) => void;
  reject: (e: unknown) => void;
}

interface Entry extends WalletView {
  userId: string;
  /** the stream was read into this entry at least once (else its state is only the initial one) */
  loaded: boolean;
  queue: Pending[];
  running: boolean;
}

const MAX_BATCH = 256;
const MAX_CONFLICTS = 100;
const MAX_CACHED = 20_000;

/**
 * The command side of wallets, as `handleCommand` does it (fold, decide, append with the expected
 * revision, decide again on a conflict), with two things for throughput:
 * - the folded wallet is cached per stream (the stream is append-only, so a cache is never wrong,
 *   only behind) and a decision is taken on it WITHOUT reading the stream first: the append's
 *   expected revision is the check. When another process appended meanwhile (a gift credit, a
 *   replica), the append is refused, the newer events are read, and the batch is decided again. So
 *   a send from a wallet this process keeps up to date costs one round trip to the store (the
 *   append), not two (a read, then the append);
 * - commands for one wallet queue in this process and are decided one after the other against
 *   the state left by the previous one, then appended together, at the expected revision, in ONE
 *   append. A refused command gets its own error; a conflict with another process re-decides the
 *   whole batch. So N concurrent spends from one wallet cost one append, not N rounds of conflicts,
 *   and can never overdraw it.
 * Under an Idempotency-Key, event ids derive from the key (`toNewEvents`), and the answer is read
 * from the stream's record of the request, so a retry (or a concurrent duplicate from another
 * process) answers exactly what the first call did.
 */
export class WalletRepository {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly events: EventStore) {}

  /** The wallet as the log has it now. */
  async view(userId: string): Promise<WalletView> {
    const entry = this.entry(userId);
    await this.refresh(entry);
    return { state: entry.state, revision: entry.revision, position: entry.position };
  }

  execute(command: WalletCommand, ctx: CommandContext): Promise<WalletOutcome> {
    const entry = this.entry(command.userId);
    return new Promise<WalletOutcome>((resolve, reject) => {
      entry.queue.push({ command, ctx, resolve, reject });
      if (!entry.running) void this.run(entry);
    });
  }

  private entry(userId: string): Entry {
    let entry = this.entries.get(userId);
    if (entry) {
      // most recently used last, for eviction
      this.entries.delete(userId);
    } else {
      entry = {
        userId,
        state: walletDecider.initialState(),
        revision: -1,
        position: undefined,
        loaded: false,
        queue: [],
        running: false,
      };
      if (this.entries.size >= MAX_CACHED) this.evict();
    }
    this.entries.set(userId, entry);
    return entry;
  }

  private evict() {
    for (const [id, e] of this.entries) {
      if (this.entries.size < MAX_CACHED * 0.9) return;
      if (!e.running && e.queue.length === 0) this.entries.delete(id);
    }
  }

  private async refresh(entry: Entry): Promise<void> {
    const newer = await this.events.readStream(walletStream(entry.userId), entry.revision + 1);
    for (const e of newer) {
      // a concurrent refresh may already have moved the entry past this event
      if (e.revision <= entry.revision) continue;
      entry.state = walletDecider.evolve(entry.state, e as unknown as WalletEvent);
      entry.revision = e.revision;
      entry.position = e.position;
    }
    entry.loaded = true;
  }

  private async run(entry: Entry): Promise<void> {
    entry.running = true;
    try {
      while (entry.queue.length > 0) {
        const batch = entry.queue.splice(0, MAX_BATCH);
        await this.processBatch(entry, batch);
      }
    } finally {
      entry.running = false;
    }
  }

  private async processBatch(entry: Entry, batch: Pending[]): Promise<void> {
    const streamId = walletStream(entry.userId);
    for (let attempt = 1; ; attempt++) {
      try {
        // the first attempt decides on the cached wallet (the append's expected revision checks it);
        // after a refused append, or for a wallet never read, the newer events are read first
        if (!entry.loaded || attempt > 1) await this.refresh(entry);
      } catch (e) {
        for (const p of batch) p.reject(e);
        return;
      }
      // decide each command against the state the previous ones leave
      let state = entry.state;
      const accepted: Array<{ p: Pending; rows: NewEvent[]; events: WalletEvent[]; state: WalletState }> = [];
      const refused: Array<{ p: Pending; error: unknown }> = [];
      for (const p of batch) {
        try {
          const decided = walletDecider.decide(p.command, state);
          const rows = decided.length ? toNewEvents(decided, streamId, p.ctx) : [];
          const events = rows.map((r) => ({ type: r.type, data: r.data }) as WalletEvent);
          state = events.reduce(walletDecider.evolve, state);
          accepted.push({ p, rows, events, state });
        } catch (error) {
          // a rule refused it (French DomainError); anything else (an event failing its schema) is our fault: 5xx
          refused.push({
            p,
            error:
              error instanceof DomainError
                ? error
                : new Error(`wallet ${entry.userId}: ${String(error)}`, { cause: error }),
          });
        }
      }
      const rows = accepted.flatMap((a) => a.rows);
      const keyed = accepted.some((a) => a.rows.length > 0 && a.p.ctx.idempotencyKey);
      let position = entry.position;
      if (rows.length > 0) {
        try {
          const r = await this.events.append(streamId, rows, entry.revision < 0 ? 'no_stream' : entry.revision);
          position = r.position;
          if (!keyed && r.nextRevision === entry.revision + rows.length) {
            entry.state = state;
            entry.revision = r.nextRevision;
            entry.position = r.position;
          } else {
            // ids derived from a key may already have been stored by another call: read what is there
            await this.refresh(entry);
          }
        } catch (e) {
          if (e instanceof WrongExpectedRevisionError && attempt < MAX_CONFLICTS) {
            await new Promise((r) => setTimeout(r, Math.random() * Math.min(20, attempt * 2)));
            continue;
          }
          for (const p of batch) p.reject(e);
          return;
        }
      }
      for (const { p, error } of refused) p.reject(error);
      for (const a of accepted) {
        const request = 'request' in a.p.command ? a.p.command.request : undefined;
        const record = request ? keyMapGet(entry.state.requests, request.key) : undefined;
        if (request && !record) {
          a.p.reject(new Error(`request ${request.key} has no record in wallet ${entry.userId} after its append`));
          continue;
        }
        a.p.resolve({ events: a.events, state: a.state, record, position: a.rows.length ? position : entry.position });
      }
      return;
    }
  }
}
