import type {
  AllStreamRecordedEvent,
  AllStreamSubscription,
  AppendExpectedRevision,
  EventData,
  EventStoreDBClient,
  JSONType,
  Position,
  RecordedEvent as EsdbRecordedEvent,
} from '@eventstore/db-client';
import { esdbClient } from '../distributed-clients';
import type { EventMetadata, LogPosition, NewEvent, RecordedEvent } from '@evo/domain';
import {
  IDEMPOTENCY_WINDOW,
  WrongExpectedRevisionError,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type SubscribeOptions,
  type SubscriptionHandle,
} from './port';

/** The methods of @eventstore/db-client 6.2.1's EventStoreDBClient this adapter uses. */
export type EsdbClient = Pick<
  EventStoreDBClient,
  'appendToStream' | 'readStream' | 'readAll' | 'subscribeToAll' | 'dispose'
>;

export interface EventStoreDbEventStoreOptions {
  /** first delay before a dropped subscription resubscribes (ms); doubles on each failure; default 100 */
  retryInitialMs?: number;
  /** cap of the resubscription delay (ms); default 5000 */
  retryMaxMs?: number;
  /** how many events an append reads back from the stream's head to find its ids; default IDEMPOTENCY_WINDOW */
  idempotencyWindow?: number;
}

const DEFAULT_BATCH = 1000;
const MASK_64 = (1n << 64n) - 1n;
/** What servers before 22.6 send for commit and prepare on stream reads. */
const NO_POSITION = MASK_64;

/** commit in the high 64 bits, prepare in the low ones: bigint order is the log order. */
export function encodePosition(p: Position): LogPosition {
  return (p.commit << 64n) | p.prepare;
}

export function decodePosition(p: LogPosition): Position {
  return { commit: p >> 64n, prepare: p & MASK_64 };
}

/**
 * The client builds a position object for every event and every append answer, so "no position"
 * arrives as 0/0 (a field the server left out) or 2^64-1 (servers before 22.6, on stream reads).
 */
export function logPositionOf(p: Position | undefined): LogPosition | undefined {
  if (p === undefined) return undefined;
  if (p.commit === NO_POSITION || p.prepare === NO_POSITION) return undefined;
  if (p.commit === 0n && p.prepare === 0n) return undefined;
  return encodePosition(p);
}

/** The server gave an event without its log position: EVO cannot order or checkpoint it. */
export class MissingPositionError extends Error {
  constructor(streamId: string, revision: bigint) {
    super(
      `EventStoreDB sent event ${String(revision)} of ${streamId} without its log position ` +
        '(servers before 22.6 do so on stream reads); EVO needs EventStoreDB 22.6 or later',
    );
    this.name = 'MissingPositionError';
  }
}

function toEsdbExpected(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'no_stream':
      return esdbClient().NO_STREAM;
    case 'stream_exists':
      return esdbClient().STREAM_EXISTS;
    case 'any':
      return esdbClient().ANY;
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

/** The batch's ids; the server would store a repeated id twice, SQLite refuses it: refuse it here too. */
function distinctIds(streamId: string, events: NewEvent[]): Set<string> {
  const ids = new Set<string>();
  for (const e of events) {
    if (ids.has(e.id)) throw new RangeError(`Event id ${e.id} appears twice in one append to ${streamId}`);
    ids.add(e.id);
  }
  return ids;
}

/** The server-side filter's predicate (excludeSystemEvents: `^[^$].*`), so both sides agree. */
const isUserEvent = (type: string): boolean => /^[^$]/.test(type);

function fromEsdb(e: EsdbRecordedEvent | AllStreamRecordedEvent): RecordedEvent {
  const position = logPositionOf(e.position);
  if (position === undefined) throw new MissingPositionError(e.streamId, e.revision);
  return {
    id: e.id,
    type: e.type,
    data: e.data as unknown,
    metadata: (e.metadata ?? {}) as EventMetadata,
    streamId: e.streamId,
    revision: Number(e.revision),
    position,
  };
}

/** The stream's last events, read backwards: its head and where the wanted ids sit. */
interface Tail {
  /** -1 when the stream does not exist */
  head: number;
  found: Map<string, LogPosition>;
}

/**
 * EventStore on EventStoreDB 22.6+ through @eventstore/db-client 6.2.1 (gRPC). Only user events
 * are exposed: system events (types starting with '$') are left out of readAll and subscribeToAll
 * (filtered on the server) and lastPosition (filtered here: the client cannot filter reads of $all).
 *
 * Idempotency: the server recognises a repeated event id only in some cases (an expected revision
 * older than the head with the same ids at those revisions, or its recent-write cache for any /
 * stream_exists); with the expected revision equal to the head it writes them again. So before
 * appending, the adapter reads the stream's last `idempotencyWindow` events and answers from them
 * when the ids are there (and refuses a mismatched expectation without appending). A concurrent
 * duplicate that slips between that read and the append is caught by the server: a numeric or
 * no_stream expectation no longer matches (the server recognises the ids, or the conflict path
 * finds them), and any / stream_exists meet its recent-write cache.
 */
export class EventStoreDbEventStore implements EventStore {
  private readonly client: EsdbClient;
  private readonly retryInitialMs: number;
  private readonly retryMaxMs: number;
  private readonly idempotencyWindow: number;
  private readonly subscriptions = new Set<EsdbSubscription>();
  private closed = false;

  /** `client`: a connection string (esdb:// or esdb+discover://), or a client built elsewhere. */
  constructor(client: string | EsdbClient, options: EventStoreDbEventStoreOptions = {}) {
    this.client = typeof client === 'string' ? esdbClient().EventStoreDBClient.connectionString(client) : client;
    this.retryInitialMs = options.retryInitialMs ?? 100;
    this.retryMaxMs = options.retryMaxMs ?? 5000;
    this.idempotencyWindow = options.idempotencyWindow ?? IDEMPOTENCY_WINDOW;
    if (!Number.isSafeInteger(this.idempotencyWindow) || this.idempotencyWindow < 1) {
      throw new RangeError(`Bad idempotency window ${this.idempotencyWindow}`);
    }
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new RangeError(`Append to ${streamId} needs at least one event`);
    const expectedRevision = toEsdbExpected(expected);
    const ids = distinctIds(streamId, events);
    const data = events.map(toEventData);

    // Look for the ids first, whatever the expectation: the server's own answer to a repeat does not
    // tell a recognised retry from a fresh write when the revisions happen to match.
    const tail = await this.readTail(streamId, ids);
    const stored = storedAnswer(streamId, expected, tail, ids);
    if (stored) return stored;
    const { head } = tail;
    const matches =
      expected === 'any' ||
      (expected === 'no_stream' ? head < 0 : expected === 'stream_exists' ? head >= 0 : expected === head);
    if (!matches) throw new WrongExpectedRevisionError(streamId, expected, head);

    let result;
    try {
      result = await this.client.appendToStream(streamId, data, { expectedRevision });
    } catch (err) {
      if (err instanceof esdbClient().WrongExpectedVersionError) return this.afterConflict(streamId, expected, ids);
      throw err;
    }
    // With throwOnAppendFailure=false in the connection string a conflict is an answer, not an error
    // (and 6.2.1's batch append then reports a wrong current revision: read it instead).
    if (!result.success) return this.afterConflict(streamId, expected, ids);

    const next = Number(result.nextExpectedRevision);
    const n = events.length;
    const freshAt = expected === 'no_stream' ? n - 1 : typeof expected === 'number' ? expected + n : undefined;
    const fresh = freshAt !== undefined ? next === freshAt : next >= head + n;
    if (fresh) {
      // The answered position is the write's; for several events, read the last one's own position
      // so that "a checkpoint at or after this position has seen the append" holds.
      const position = n === 1 ? logPositionOf(result.position) : undefined;
      return { nextRevision: next, position: position ?? (await this.eventAt(streamId, next, ids)).position };
    }
    // The server recognised the ids at earlier revisions and answered the original write's
    // revision (servers 20.x+): the port answers the stream's head and the stored position.
    const last = await this.eventAt(streamId, next, ids);
    return { nextRevision: await this.headOf(streamId), position: last.position };
  }

  /** After a conflict: the ids may be stored (a concurrent duplicate, a retried no_stream). */
  private async afterConflict(streamId: string, expected: ExpectedRevision, ids: Set<string>): Promise<AppendResult> {
    const tail = await this.readTail(streamId, ids);
    const stored = storedAnswer(streamId, expected, tail, ids);
    if (stored) return stored;
    throw new WrongExpectedRevisionError(streamId, expected, tail.head);
  }

  /** Reads back at most `idempotencyWindow` events from the head, stopping once every id is found. */
  private async readTail(streamId: string, ids: Set<string>): Promise<Tail> {
    const found = new Map<string, LogPosition>();
    let head = -1;
    const read = this.client.readStream(streamId, {
      direction: esdbClient().BACKWARDS,
      fromRevision: esdbClient().END,
      maxCount: this.idempotencyWindow,
    });
    try {
      for await (const resolved of read) {
        const raw = resolved.event;
        if (!raw) continue;
        const e = fromEsdb(raw);
        if (head < 0) head = e.revision;
        if (ids.has(e.id)) {
          found.set(e.id, e.position);
          if (found.size === ids.size) break;
        }
      }
    } catch (err) {
      if (err instanceof esdbClient().StreamNotFoundError) return { head: -1, found };
      throw err;
    } finally {
      await read.cancel().catch(() => undefined);
    }
    return { head, found };
  }

  private async headOf(streamId: string): Promise<number> {
    return (await this.readTail(streamId, new Set())).head;
  }

  /** The event at `revision`, which must be one of the append's own. */
  private async eventAt(streamId: string, revision: number, ids: Set<string>): Promise<RecordedEvent> {
    const [e] = await this.readStreamRange(streamId, revision, 1);
    if (!e || !ids.has(e.id)) {
      throw new Error(
        `EventStoreDB answered revision ${revision} of ${streamId} for an append whose events are not there`,
      );
    }
    return e;
  }

  async readStream(streamId: string, fromRevision = 0): Promise<RecordedEvent[]> {
    return this.readStreamRange(streamId, fromRevision);
  }

  private async readStreamRange(streamId: string, fromRevision: number, maxCount?: number): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(streamId, { fromRevision: BigInt(fromRevision), maxCount })) {
        // every event of a stream counts: a missing position fails the read instead of hiding the event
        if (resolved.event) out.push(fromEsdb(resolved.event));
      }
    } catch (err) {
      if (err instanceof esdbClient().StreamNotFoundError) return [];
      throw err;
    }
    return out;
  }

  /**
   * 6.2.1's readAll sends no filter (in this client only subscribeToAll filters on the server), so
   * reading $all would carry every system event, `$>` link events included, to be dropped here.
   * Instead: read the last user event's position, then take a catch-up subscription with the
   * server-side filter from `from` up to that position. It ends there, or on the server's
   * caught-up signal (23.10+) if that event somehow never comes.
   */
  async *readAll(from?: LogPosition, batchSize = DEFAULT_BATCH): AsyncIterable<RecordedEvent[]> {
    if (!Number.isSafeInteger(batchSize) || batchSize < 1) throw new RangeError(`Bad batch size ${batchSize}`);
    const target = await this.lastPosition();
    if (target === undefined || (from !== undefined && from >= target)) return;
    const sub = this.client.subscribeToAll({
      fromPosition: from === undefined ? esdbClient().START : decodePosition(from),
      filter: esdbClient().excludeSystemEvents(),
    });
    // 'caughtUp' comes in stream order: what it follows is buffered, so ending the stream keeps it
    sub.on('caughtUp', () => void sub.unsubscribe().catch(() => undefined));
    let batch: RecordedEvent[] = [];
    try {
      for await (const resolved of sub) {
        const raw = resolved.event;
        if (!raw || !isUserEvent(raw.type)) continue;
        const e = fromEsdb(raw);
        // the server may start at `from` itself (the port is exclusive)
        if (from !== undefined && e.position <= from) continue;
        if (e.position > target) break;
        batch.push(e);
        if (batch.length >= batchSize) {
          yield batch;
          batch = [];
        }
        if (e.position === target) break;
      }
      if (batch.length > 0) yield batch;
    } finally {
      // done, or the consumer stopped early: release the gRPC call
      await sub.unsubscribe().catch(() => undefined);
    }
  }

  subscribeToAll(handler: (event: RecordedEvent) => Promise<void>, options: SubscribeOptions = {}): SubscriptionHandle {
    if (this.closed) throw new Error('EventStoreDbEventStore is closed');
    const sub = new EsdbSubscription(
      this.client,
      handler,
      options,
      () => this.lastPosition(),
      { initialMs: this.retryInitialMs, maxMs: this.retryMaxMs },
      () => this.subscriptions.delete(sub),
    );
    this.subscriptions.add(sub);
    sub.start();
    return { stop: () => sub.stop() };
  }

  /**
   * Reads $all backwards to the first user event: the system events after it are read and skipped
   * (6.2.1 cannot filter a read on the server); without system projections they are few.
   */
  async lastPosition(): Promise<LogPosition | undefined> {
    const read = this.client.readAll({ direction: esdbClient().BACKWARDS, fromPosition: esdbClient().END });
    try {
      for await (const resolved of read) {
        const raw = resolved.event;
        if (raw && isUserEvent(raw.type)) return fromEsdb(raw).position;
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

/** The idempotent answer when every id is in the tail; a conflict when only some are; else undefined. */
function storedAnswer(
  streamId: string,
  expected: ExpectedRevision,
  tail: Tail,
  ids: Set<string>,
): AppendResult | undefined {
  if (tail.found.size === 0) return undefined;
  if (tail.found.size < ids.size) throw new WrongExpectedRevisionError(streamId, expected, tail.head);
  let position = 0n;
  for (const p of tail.found.values()) if (p > position) position = p;
  return { nextRevision: tail.head, position };
}

/** Resubscribes after errors or an unexpected end, from the last delivered position. */
class EsdbSubscription {
  private last: LogPosition | undefined;
  /**
   * The last user event's position when the subscription started: once it is delivered the
   * catch-up is over (servers before 23.10 send no caught-up signal). null until read.
   */
  private target: LogPosition | undefined | null = null;
  private stopped = false;
  private caughtUpCalled = false;
  private current: AllStreamSubscription | undefined;
  private wakeSleeper: (() => void) | undefined;
  private loop: Promise<void> = Promise.resolve();

  constructor(
    private readonly client: EsdbClient,
    private readonly handler: (event: RecordedEvent) => Promise<void>,
    private readonly options: SubscribeOptions,
    private readonly lastPosition: () => Promise<LogPosition | undefined>,
    private readonly retry: { initialMs: number; maxMs: number },
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
        const delay = Math.min(this.retry.maxMs, this.retry.initialMs * 2 ** failures);
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

  private reachedTarget(): boolean {
    if (this.target === null) return false;
    return this.target === undefined || (this.last !== undefined && this.last >= this.target);
  }

  private caughtUp(): void {
    if (this.caughtUpCalled) return;
    this.caughtUpCalled = true;
    this.options.onCaughtUp?.();
  }

  /** One subscription call; returns when it ends, throws when it or the handler fails. */
  private async consumeOnce(onDelivered: () => void): Promise<void> {
    if (this.target === null && !this.caughtUpCalled) this.target = await this.lastPosition();
    if (this.stopped) return;
    if (this.reachedTarget()) this.caughtUp();

    const sub = this.client.subscribeToAll({
      fromPosition: this.last === undefined ? esdbClient().START : decodePosition(this.last),
      filter: esdbClient().excludeSystemEvents(),
    });
    this.current = sub;
    let handling = false;
    let serverCaughtUp = false;
    // The server's caught-up signal may arrive while earlier events still wait in the stream buffer:
    // report it only once those are handled (or skipped).
    const maybeCaughtUp = () => {
      if (this.caughtUpCalled) return;
      if (this.reachedTarget() || (serverCaughtUp && !handling && sub.readableLength === 0)) this.caughtUp();
    };
    sub.on('caughtUp', () => {
      serverCaughtUp = true;
      maybeCaughtUp();
    });
    try {
      for await (const resolved of sub) {
        if (this.stopped) return;
        const raw = resolved.event;
        const e = raw && isUserEvent(raw.type) ? fromEsdb(raw) : undefined;
        // After a resubscription the server may resend the boundary event: never deliver it twice.
        if (!e || (this.last !== undefined && e.position <= this.last)) {
          maybeCaughtUp();
          continue;
        }
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
