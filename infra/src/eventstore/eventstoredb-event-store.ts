import {
  ANY,
  BACKWARDS,
  END,
  EventStoreDBClient,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  type AllStreamRecordedEvent,
  type AllStreamSubscription,
  type AppendExpectedRevision,
  type EventData,
  type JSONType,
  type Position,
  type RecordedEvent as EsdbRecordedEvent,
} from '@eventstore/db-client';
import type { EventMetadata, LogPosition, NewEvent, RecordedEvent } from '@evo/domain';
import {
  WrongExpectedRevisionError,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type SubscribeOptions,
  type SubscriptionHandle,
} from './port';

export interface EventStoreDbEventStoreOptions {
  /** first delay before a dropped subscription resubscribes (ms); doubles on each failure; default 100 */
  retryInitialMs?: number;
  /** cap of the resubscription delay (ms); default 5000 */
  retryMaxMs?: number;
}

const DEFAULT_BATCH = 1000;
const MASK_64 = (1n << 64n) - 1n;

/** commit in the high 64 bits, prepare in the low ones: bigint order is the log order. */
export function encodePosition(p: Position): LogPosition {
  return (p.commit << 64n) | p.prepare;
}

export function decodePosition(p: LogPosition): Position {
  return { commit: p >> 64n, prepare: p & MASK_64 };
}

function toEsdbExpected(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    case 'any':
      return ANY;
    default:
      if (!Number.isSafeInteger(expected) || expected < 0) {
        throw new RangeError(`Expected revision must be a non-negative integer, got ${expected}`);
      }
      return BigInt(expected);
  }
}

function toEventData(e: NewEvent): EventData {
  return {
    id: e.id,
    contentType: 'application/json',
    type: e.type,
    // The client JSON.stringifies any value; JSONType is narrower than what JSON allows (numbers, null).
    data: (e.data === undefined ? null : e.data) as JSONType,
    metadata: e.metadata,
  };
}

const isUserEvent = (type: string): boolean => !type.startsWith('$');

/** Maps a recorded ESDB event; undefined when it has no position (should not happen on 22.6+ servers). */
function fromEsdb(e: EsdbRecordedEvent | AllStreamRecordedEvent): RecordedEvent | undefined {
  if (e.position === undefined) return undefined;
  return {
    id: e.id,
    type: e.type,
    data: e.data as unknown,
    metadata: (e.metadata ?? {}) as EventMetadata,
    streamId: e.streamId,
    revision: Number(e.revision),
    position: encodePosition(e.position),
  };
}

/**
 * EventStore on EventStoreDB (gRPC client). Only user events are exposed: system events (types
 * starting with '$') are left out of readAll, subscribeToAll and lastPosition.
 */
export class EventStoreDbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;
  private readonly retryInitialMs: number;
  private readonly retryMaxMs: number;
  private readonly subscriptions = new Set<EsdbSubscription>();
  private closed = false;

  constructor(connectionString: string, options: EventStoreDbEventStoreOptions = {}) {
    this.client = EventStoreDBClient.connectionString(connectionString);
    this.retryInitialMs = options.retryInitialMs ?? 100;
    this.retryMaxMs = options.retryMaxMs ?? 5000;
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new RangeError(`Append to ${streamId} needs at least one event`);
    try {
      const result = await this.client.appendToStream(streamId, events.map(toEventData), {
        expectedRevision: toEsdbExpected(expected),
      });
      if (result.position !== undefined) {
        const nextRevision = Number(result.nextExpectedRevision);
        // The answered position is the write's; for several events, read the last one's own position so
        // that "a checkpoint at or after this position has seen the append" holds.
        const position =
          events.length > 1
            ? ((await this.positionAt(streamId, nextRevision)) ?? encodePosition(result.position))
            : encodePosition(result.position);
        return { nextRevision, position };
      }
      // ESDB answers an idempotent re-append without a position: look the stored events up.
      const stored = await this.findStored(streamId, events);
      if (stored) return stored;
      throw new Error(`Append to ${streamId} succeeded without a position and its events are not in the stream`);
    } catch (err) {
      if (!(err instanceof WrongExpectedVersionError)) throw err;
      // ESDB only recognises a retry whose expected revision is the original one; the port promises
      // idempotency whatever the expected revision, so look for the ids before reporting a conflict.
      const stored = await this.findStored(streamId, events);
      if (stored) return stored;
      const actual = err.actualVersion === NO_STREAM ? -1 : Number(err.actualVersion);
      throw new WrongExpectedRevisionError(streamId, expected, actual);
    }
  }

  private async positionAt(streamId: string, revision: number): Promise<LogPosition | undefined> {
    for await (const resolved of this.client.readStream(streamId, { fromRevision: BigInt(revision), maxCount: 1 })) {
      const e = resolved.event && fromEsdb(resolved.event);
      if (e) return e.position;
    }
    return undefined;
  }

  /** When every event id is already in the stream, the idempotent answer; otherwise undefined. */
  private async findStored(streamId: string, events: NewEvent[]): Promise<AppendResult | undefined> {
    const wanted = new Set(events.map((e) => e.id));
    const all = await this.readStream(streamId);
    let found = 0;
    let position = 0n;
    for (const e of all) {
      if (wanted.has(e.id)) {
        found++;
        if (e.position > position) position = e.position;
      }
    }
    if (found !== wanted.size || all.length === 0) return undefined;
    return { nextRevision: all[all.length - 1].revision, position };
  }

  async readStream(streamId: string, fromRevision = 0): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(streamId, { fromRevision: BigInt(fromRevision) })) {
        const e = resolved.event && fromEsdb(resolved.event);
        if (e) out.push(e);
      }
    } catch (err) {
      if (err instanceof StreamNotFoundError) return [];
      throw err;
    }
    return out;
  }

  async *readAll(from?: LogPosition, batchSize = DEFAULT_BATCH): AsyncIterable<RecordedEvent[]> {
    if (!Number.isSafeInteger(batchSize) || batchSize < 1) throw new RangeError(`Bad batch size ${batchSize}`);
    // ESDB reads $all from a position inclusively; the port is exclusive, hence the skip below.
    const read = this.client.readAll({ fromPosition: from === undefined ? START : decodePosition(from) });
    let batch: RecordedEvent[] = [];
    try {
      for await (const resolved of read) {
        const raw = resolved.event;
        if (!raw || !isUserEvent(raw.type)) continue;
        const e = fromEsdb(raw);
        if (!e || (from !== undefined && e.position <= from)) continue;
        batch.push(e);
        if (batch.length >= batchSize) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
    } finally {
      // The consumer may stop early: release the gRPC call.
      await read.cancel().catch(() => undefined);
    }
  }

  subscribeToAll(handler: (event: RecordedEvent) => Promise<void>, options: SubscribeOptions = {}): SubscriptionHandle {
    if (this.closed) throw new Error('EventStoreDbEventStore is closed');
    const sub = new EsdbSubscription(this.client, handler, options, this.retryInitialMs, this.retryMaxMs, () =>
      this.subscriptions.delete(sub),
    );
    this.subscriptions.add(sub);
    sub.start();
    return { stop: () => sub.stop() };
  }

  async lastPosition(): Promise<LogPosition | undefined> {
    const read = this.client.readAll({ direction: BACKWARDS, fromPosition: END });
    try {
      for await (const resolved of read) {
        const raw = resolved.event;
        if (!raw || !isUserEvent(raw.type)) continue;
        const e = fromEsdb(raw);
        if (e) return e.position;
      }
    } finally {
      await read.cancel().catch(() => undefined);
    }
    return undefined;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    await this.client.dispose();
  }
}

/** Resubscribes after errors or an unexpected end, from the last delivered position. */
class EsdbSubscription {
  private last: LogPosition | undefined;
  private stopped = false;
  private caughtUpCalled = false;
  private current: AllStreamSubscription | undefined;
  private wakeSleeper: (() => void) | undefined;
  private loop: Promise<void> = Promise.resolve();

  constructor(
    private readonly client: EventStoreDBClient,
    private readonly handler: (event: RecordedEvent) => Promise<void>,
    private readonly options: SubscribeOptions,
    private readonly retryInitialMs: number,
    private readonly retryMaxMs: number,
    private readonly onDone: () => void,
  ) {
    this.last = options.from;
  }

  start(): void {
    this.loop = this.run().finally(this.onDone);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeSleeper?.();
    await this.current?.unsubscribe().catch(() => undefined);
    await this.loop;
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      try {
        await this.consumeOnce(() => {
          failures = 0;
        });
        if (this.stopped) return;
        throw new Error('EventStoreDB subscription ended unexpectedly');
      } catch (err) {
        if (this.stopped) return;
        this.options.onError?.(err);
        const delay = Math.min(this.retryMaxMs, this.retryInitialMs * 2 ** failures);
        failures++;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay);
          this.wakeSleeper = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wakeSleeper = undefined;
      }
    }
  }

  /** One subscription call; returns when it ends, throws when it or the handler fails. */
  private async consumeOnce(onDelivered: () => void): Promise<void> {
    const sub = this.client.subscribeToAll({
      fromPosition: this.last === undefined ? START : decodePosition(this.last),
      filter: excludeSystemEvents(),
    });
    this.current = sub;
    let handling = false;
    let serverCaughtUp = false;
    // The server's caught-up signal may arrive while earlier events still wait in the stream buffer:
    // report it only once those are handled.
    const maybeCaughtUp = () => {
      if (this.caughtUpCalled || !serverCaughtUp || handling || sub.readableLength > 0) return;
      this.caughtUpCalled = true;
      this.options.onCaughtUp?.();
    };
    sub.on('caughtUp', () => {
      serverCaughtUp = true;
      maybeCaughtUp();
    });
    try {
      for await (const resolved of sub) {
        if (this.stopped) return;
        const raw = resolved.event;
        if (!raw || !isUserEvent(raw.type)) continue;
        const e = fromEsdb(raw);
        // After a resubscription the server may resend the boundary event: never deliver it twice.
        if (!e || (this.last !== undefined && e.position <= this.last)) continue;
        handling = true;
        try {
          await this.handler(e);
        } finally {
          handling = false;
        }
        this.last = e.position;
        onDelivered();
        maybeCaughtUp();
      }
    } finally {
      this.current = undefined;
      await sub.unsubscribe().catch(() => undefined);
    }
  }
}
