import type { Decider, DomainEvent, LogPosition, NewEvent, RecordedEvent } from '@evo/domain';
import type {
  AppendResult,
  EventStore,
  ExpectedRevision,
  SubscribeOptions,
  SubscriptionHandle,
} from '../eventstore/port';

interface Folded {
  state: unknown;
  /** revision of the last event folded into `state` (-1: none) */
  revision: number;
}

/**
 * The event store as the command side uses it, with each stream's fold kept between commands.
 *
 * Every command loads its streams and folds them. Folding a whole stream each time grows with the
 * stream (a member's `following-<id>` stream is folded for every follow and private message), so
 * the folded state of the most recently used streams is kept, per decider, and a load reads only
 * the events after the revision it holds. A stream is append-only, so a kept state is never wrong,
 * only behind, and the read of the newer events brings it up to date (the same holds across
 * processes: another API replica's appends are read like any others). Deciders' states are values
 * (evolve returns a new state), so concurrent loads may share one.
 *
 * Built by the composition root around the process's event store; everything else is delegated.
 */
export class FoldingEventStore implements EventStore {
  private readonly folds = new Map<Decider<never, never, unknown>, Map<string, Folded>>();

  constructor(
    readonly inner: EventStore,
    /** streams kept per decider, the least recently used dropped first */
    private readonly maxStreams = 20_000,
  ) {}

  /** The stream folded with `decider`, reading only what the kept fold has not seen. */
  async load<C, E extends DomainEvent, S>(
    streamId: string,
    decider: Decider<C, E, S>,
  ): Promise<{ state: S; revision: number }> {
    const key = decider as unknown as Decider<never, never, unknown>;
    let byStream = this.folds.get(key);
    if (!byStream) {
      byStream = new Map();
      this.folds.set(key, byStream);
    }
    const kept = byStream.get(streamId);
    const newer = await this.inner.readStream(streamId, kept ? kept.revision + 1 : 0);
    const base = kept ?? { state: decider.initialState(), revision: -1 };
    const state = (newer as unknown as E[]).reduce((s, e) => decider.evolve(s, e), base.state as S);
    const revision = newer.length === 0 ? base.revision : newer[newer.length - 1].revision;
    // another load may have gone further meanwhile: keep the furthest; most recently used last
    const now = byStream.get(streamId);
    byStream.delete(streamId);
    byStream.set(streamId, now && now.revision > revision ? now : { state, revision });
    if (byStream.size > this.maxStreams) byStream.delete(byStream.keys().next().value as string);
    return { state, revision };
  }

  append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    return this.inner.append(streamId, events, expected);
  }

  readStream(streamId: string, fromRevision?: number): Promise<RecordedEvent[]> {
    return this.inner.readStream(streamId, fromRevision);
  }

  readAll(from?: LogPosition, batchSize?: number): AsyncIterable<RecordedEvent[]> {
    return this.inner.readAll(from, batchSize);
  }

  subscribeToAll(handler: (event: RecordedEvent) => Promise<void>, options?: SubscribeOptions): SubscriptionHandle {
    return this.inner.subscribeToAll(handler, options);
  }

  lastPosition(): Promise<LogPosition | undefined> {
    return this.inner.lastPosition();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
