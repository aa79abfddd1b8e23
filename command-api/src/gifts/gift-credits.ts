import type { GiftSent, LogPosition, RecordedEvent } from '@evo/domain';
import {
  PositionWaiters,
  childLogger,
  eventIdAt,
  type CommandContext,
  type EventStore,
  type SubscriptionHandle,
} from '@evo/infra';
import { WalletRepository } from '../coins/wallets';

const log = childLogger('gift-credits');

export interface GiftCreditOptions {
  /** the wallet repository of this process (one per process, built by its composition root) */
  wallets?: WalletRepository;
  /** credits running at once (different receivers are credited in parallel) */
  maxInFlight?: number;
  /** first retry delay of a failed credit (ms), doubled up to 5 s */
  retryMs?: number;
  onError?: (err: unknown) => void;
  /**
   * Where to start from instead of the first event: the gifts in transit at a position, and that
   * position's event id (the embedded process reads them from its read models, which keep them
   * with their checkpoint: giftsInTransit in @evo/projections)
   */
  resumeFrom?: () => Promise<TransitState | undefined>;
  /**
   * each event of the start scan, for the other start-up folds of the process (the workers service
   * reads the log once at start, for the credits and its video jobs and files alike)
   */
  onScanned?: (event: RecordedEvent) => void;
}

/** The process's fold of the log: the gifts sent and not received up to the event at `position`. */
export interface TransitState {
  position: LogPosition;
  /** id of the event at `position` (a replaced log with as many events is told apart) */
  eventId: string;
  transit: RecordedEvent[];
}

/** The id every process derives for a gift's credit: the same gift always gives the same event id. */
export const giftCreditKey = (giftId: number) => `gift-received-${giftId}`;

/**
 * Process manager: every `GiftSent` (sender's wallet) gets exactly one `GiftReceived` on the
 * receiver's wallet (`wallet-<receiverId>`).
 *
 * - Exactly once: the receiver's wallet decider answers nothing for a gift id it already has, and
 *   the credit's event id is derived from the gift id (`gift-received-<id>` as idempotency key), so
 *   two deliveries — a redelivery, a restart, two processes running this manager — store it once.
 * - Crash-safe: at start it scans the log (GiftSent minus GiftReceived = gifts still in transit),
 *   credits those, then follows the log live from where the scan ended. Its state is a fold of the
 *   log: with `resumeFrom`, the fold at a position (the embedded read models keep it with their
 *   checkpoint) and a start folds only the events after it; one beyond the end of the log or of
 *   another log (not the same event at its position) is ignored with a log line, and the whole
 *   log is scanned.
 * - Credits run concurrently (bounded); a failed one is retried with backoff until it succeeds.
 */
export class GiftCreditProcess {
  private subscription: SubscriptionHandle | undefined;
  private stopped = false;
  private seen: LogPosition | undefined;
  /** gifts sent and not received in the log up to `folded` (a position and the id of its event) */
  private readonly transit = new Map<number, RecordedEvent>();
  private folded: { position: LogPosition; eventId: string } | undefined;
  private readonly inFlight = new Map<string, { position: LogPosition; done: Promise<void> }>();
  private readonly waiters = new PositionWaiters((position) => this.reached(position));
  private readonly maxInFlight: number;
  private readonly retryMs: number;
  private readonly wallets: WalletRepository;
  /** credits written by this process (for tests and logs) */
  credited = 0;

  constructor(
    private readonly events: EventStore,
    private readonly options: GiftCreditOptions = {},
  ) {
    this.maxInFlight = options.maxInFlight ?? 64;
    this.retryMs = options.retryMs ?? 50;
    // the composition root passes the process's repository (shared with the gift commands' cache)
    this.wallets = options.wallets ?? new WalletRepository(events);
  }

  /**
   * Scan the log (from the checkpoint when there is a usable one), credit what is in transit, then
   * follow the log. Resolves after the scan.
   */
  async start(): Promise<void> {
    const from = await this.resume();
    const alsoFold = this.options.onScanned;
    for await (const batch of this.events.readAll(from, 2000)) {
      for (const e of batch) {
        this.fold(e);
        alsoFold?.(e);
      }
    }
    const last = this.folded?.position;
    this.seen = last;
    if (this.transit.size > 0) log.info({ gifts: this.transit.size }, 'crediting gifts left in transit');
    for (const e of [...this.transit.values()]) await this.enqueue(e);
    this.notify();
    this.subscription = this.events.subscribeToAll(
      async (e) => {
        this.fold(e);
        if (e.type === 'GiftSent') await this.enqueue(e);
        this.seen = e.position;
        this.notify();
      },
      { from: last, onError: this.options.onError },
    );
  }

  /** One more event of the log into the gifts in transit. */
  private fold(e: RecordedEvent): void {
    if (e.type === 'GiftSent') this.transit.set((e.data as GiftSent['data']).giftId, e);
    // forfeited: it reached a closed wallet (its receiver deleted their account)
    else if (e.type === 'GiftReceived' || e.type === 'GiftForfeited')
      this.transit.delete((e.data as { giftId: number }).giftId);
    this.folded = { position: e.position, eventId: e.id };
  }

  /** The fold to start from when it fits this log; undefined (scan from the first event) otherwise. */
  private async resume(): Promise<LogPosition | undefined> {
    let saved: TransitState | undefined;
    try {
      saved = await this.options.resumeFrom?.();
    } catch (err) {
      log.warn({ err }, `cadeaux en transit illisibles (${(err as Error).message}) : relecture du journal entier`);
      return undefined;
    }
    if (!saved) return undefined;
    const last = (await this.events.lastPosition()) ?? 0n;
    const problem =
      saved.position > last
        ? `au-delà de la fin du journal (${last})`
        : (await eventIdAt(this.events, saved.position)) !== saved.eventId
          ? `l'événement ${saved.position} du journal n'est pas le sien`
          : undefined;
    if (problem) {
      log.warn(
        { position: saved.position.toString() },
        `cadeaux en transit ignorés (${problem}) : relecture du journal entier`,
      );
      return undefined;
    }
    for (const e of saved.transit) this.transit.set((e.data as GiftSent['data']).giftId, e);
    this.folded = { position: saved.position, eventId: saved.eventId };
    return saved.position;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.subscription?.stop();
    this.subscription = undefined;
    await Promise.allSettled([...this.inFlight.values()].map((f) => f.done));
    this.waiters.cancelAll();
  }

  /** Credit one sent gift to its receiver (one attempt). Safe to call any number of times. */
  async credit(sent: RecordedEvent): Promise<boolean> {
    const data = sent.data as GiftSent['data'];
    const ctx: CommandContext = {
      // on behalf of the sender, caused by their GiftSent
      userId: data.userId,
      correlationId: sent.metadata.correlationId,
      causationId: sent.id,
      idempotencyKey: giftCreditKey(data.giftId),
      now: new Date(),
    };
    const outcome = await this.wallets.execute(
      { type: 'ReceiveGift', userId: data.receiverId, sent: data, sentAt: sent.metadata.at },
      ctx,
    );
    if (outcome.events.length > 0) this.credited++;
    return outcome.events.length > 0;
  }

  /** Resolves true once every gift sent at or before `position` has been credited. */
  waitFor(position: LogPosition, timeoutMs: number): Promise<boolean> {
    return this.waiters.wait(position, timeoutMs);
  }

  private reached(position: LogPosition): boolean {
    if (this.seen === undefined || this.seen < position) return false;
    for (const f of this.inFlight.values()) if (f.position <= position) return false;
    return true;
  }

  private notify() {
    this.waiters.notify();
  }

  private async enqueue(sent: RecordedEvent): Promise<void> {
    while (this.inFlight.size >= this.maxInFlight) await Promise.race([...this.inFlight.values()].map((f) => f.done));
    const key = sent.id;
    if (this.inFlight.has(key)) return;
    const done = this.creditWithRetry(sent).finally(() => {
      this.inFlight.delete(key);
      this.notify();
    });
    this.inFlight.set(key, { position: sent.position, done });
  }

  private async creditWithRetry(sent: RecordedEvent): Promise<void> {
    for (let attempt = 0; !this.stopped; attempt++) {
      try {
        await this.credit(sent);
        return;
      } catch (err) {
        if (this.stopped) return;
        this.options.onError?.(err);
        log.warn({ err, giftId: (sent.data as GiftSent['data']).giftId, attempt }, 'gift credit failed, retrying');
        await new Promise((r) => setTimeout(r, Math.min(5000, this.retryMs * 2 ** attempt)));
      }
    }
  }
}
