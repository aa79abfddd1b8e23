import { Readable } from 'node:stream';
import {
  BACKWARDS,
  END,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  type AppendResult,
  type EventData,
  type Filter,
  type Position,
  type ReadPosition,
  type ReadRevision,
  type ResolvedEvent,
} from '@eventstore/db-client';
import type { EsdbClient } from '../eventstoredb-event-store';

/**
 * In-memory stand-in for @eventstore/db-client 6.2.1's EventStoreDBClient, for the adapter's unit
 * tests (no server can run here). It answers in the client's shapes (see the client's
 * streams/appendToStream/*.js, streams/utils/ReadStream.js, streams/utils/Subscription.js,
 * utils/convertGrpcEvent.js) and behaves like the server where the adapter depends on it:
 *
 * - idempotency by event id only where the server has it: an expected revision older than the
 *   head with the same ids at the following revisions, no_stream with the ids at 0.., or (any /
 *   stream_exists) ids still in the recent-write cache; an expected revision equal to the head
 *   always writes, and a batch repeating an id is stored twice (KurrentDB #1898, #2274);
 * - an idempotent answer carries the original write's revision and position (servers 20.x+);
 * - servers before 22.6 send 2^64-1 as the position of events read from a stream;
 * - the 'caughtUp' subscription message exists from 23.10 on;
 * - system projections write a `$>` link event to `$et-<type>` after every event, visible in $all.
 */
export interface FakeServerBehaviour {
  /** `throwOnAppendFailure=false` in the connection string: a conflict resolves with success false */
  throwOnAppendFailure?: boolean;
  /** 22.6+: stream reads carry positions; false: 2^64-1 as the client then builds it */
  streamReadPositions?: boolean;
  /** 23.10+: subscriptions send 'caughtUp' */
  caughtUpSignal?: boolean;
  /** system projections on: a `$>` link event after each event */
  linkEvents?: boolean;
}

interface StoredRecord {
  streamId: string;
  id: string;
  type: string;
  data: unknown;
  metadata: unknown;
  revision: bigint;
  commit: bigint;
  prepare: bigint;
}

const U64_MAX = (1n << 64n) - 1n;

/** A record's or a position's place in the log, one number (commit, then prepare). */
const logKey = (p: { commit: bigint; prepare: bigint }) => (p.commit << 64n) | p.prepare;

/** Where a forward read or a subscription starts (that position included); undefined: past the end. */
const forwardFrom = (p: ReadPosition): bigint | undefined => (p === START ? 0n : p === END ? undefined : logKey(p));

type Resolved = ResolvedEvent & AllStreamResolvedEvent;

/** What the client's ReadStream is to the adapter: an object-mode Readable with cancel(). */
function readStreamOf(
  items: StoredRecord[] | Error,
  convert: (r: StoredRecord) => Resolved,
): Readable & { cancel(): Promise<void> } {
  // records are converted as the adapter pulls them: the real stream also stops with backpressure
  const stream = (
    items instanceof Error
      ? new Readable({ objectMode: true, read() {} })
      : Readable.from(
          (function* () {
            for (const r of items) yield convert(r);
          })(),
          { objectMode: true, highWaterMark: 1 },
        )
  ) as Readable & { cancel(): Promise<void> };
  // the client destroys the stream with the error when the server says "stream not found"
  if (items instanceof Error) setImmediate(() => stream.destroy(items));
  stream.cancel = async () => {
    stream.destroy();
  };
  return stream;
}

export class FakeEsdbClient {
  readonly behaviour: Required<FakeServerBehaviour>;
  private readonly streams = new Map<string, StoredRecord[]>();
  /** $all in log order */
  private readonly log: StoredRecord[] = [];
  /** the server's recent-write cache: event id → stream, original write's last revision and position */
  private recent = new Map<string, { streamId: string; revision: bigint; position: Position }>();
  private offset = 1000n;
  private readonly subscribers = new Set<{ push: (r: StoredRecord) => void }>();
  /** system events ('$…' types) handed to the adapter so far, by reads and subscriptions */
  systemEventsSent = 0;
  /** every call the adapter made, by method name */
  readonly calls: Array<{ method: string; args: unknown[] }> = [];
  /** called with every append before the server handles it (to interleave a concurrent write) */
  beforeAppend: ((streamId: string) => Promise<void> | void) | undefined;

  constructor(behaviour: FakeServerBehaviour = {}) {
    this.behaviour = {
      throwOnAppendFailure: behaviour.throwOnAppendFailure ?? true,
      streamReadPositions: behaviour.streamReadPositions ?? true,
      caughtUpSignal: behaviour.caughtUpSignal ?? true,
      linkEvents: behaviour.linkEvents ?? false,
    };
  }

  asClient(): EsdbClient {
    return this as unknown as EsdbClient;
  }

  private readonly hidden = new Set<string>();

  /** Subscriptions no longer deliver this event (reads still do). */
  hideFromSubscriptions(eventId: string): void {
    this.hidden.add(eventId);
  }

  /** The server restarted, or the ids left its cache. */
  forgetRecentWrites(): void {
    this.recent = new Map();
  }

  stream(streamId: string): StoredRecord[] {
    return this.streams.get(streamId) ?? [];
  }

  allRecords(): StoredRecord[] {
    return [...this.log];
  }

  count(method: string): number {
    return this.calls.filter((c) => c.method === method).length;
  }

  async appendToStream(
    streamName: string,
    event: EventData | EventData[],
    { expectedRevision = 'any' }: { expectedRevision?: AppendExpectedRevision } = {},
  ): Promise<AppendResult> {
    this.calls.push({ method: 'appendToStream', args: [streamName, event, { expectedRevision }] });
    await this.beforeAppend?.(streamName);
    const events = Array.isArray(event) ? event : [event];
    const stream = this.stream(streamName);
    const head = BigInt(stream.length - 1);

    const idempotentAt = (from: bigint): AppendResult | undefined => {
      // the ids must sit at the revisions right after the expected one
      const matches = events.every((e, i) => stream[Number(from) + 1 + i]?.id === e.id);
      if (!matches) return undefined;
      const last = stream[Number(from) + events.length];
      const first = stream[Number(from) + 1];
      return {
        success: true,
        nextExpectedRevision: last.revision,
        position: { commit: first.commit, prepare: first.prepare },
      };
    };
    const fromCache = (): AppendResult | undefined => {
      const hits = events.map((e) => this.recent.get(e.id));
      if (!hits.every((h) => h?.streamId === streamName)) return undefined;
      const h = hits[hits.length - 1]!;
      return { success: true, nextExpectedRevision: h.revision, position: h.position };
    };

    switch (expectedRevision) {
      case 'any':
        return fromCache() ?? this.write(streamName, events);
      case 'stream_exists':
        if (head < 0n) return this.conflict(streamName, expectedRevision, head);
        return fromCache() ?? this.write(streamName, events);
      case 'no_stream':
        if (head < 0n) return this.write(streamName, events);
        return idempotentAt(-1n) ?? this.conflict(streamName, expectedRevision, head);
      default:
        // equal to the head: written, whatever ids the stream already holds
        if (expectedRevision === head) return this.write(streamName, events);
        if (expectedRevision < head)
          return idempotentAt(expectedRevision) ?? this.conflict(streamName, expectedRevision, head);
        return this.conflict(streamName, expectedRevision, head);
    }
  }

  private conflict(streamName: string, expected: AppendExpectedRevision, head: bigint): AppendResult {
    if (this.behaviour.throwOnAppendFailure) {
      throw new WrongExpectedVersionError(undefined as never, {
        streamName,
        current: head < 0n ? 'no_stream' : head,
        expected,
      });
    }
    // 6.2.1's batch append: BigInt(wrongExpectedVersion.hasCurrentStreamRevision()), i.e. 1n or 0n
    return { success: false, nextExpectedRevision: BigInt(true), position: undefined };
  }

  private write(streamName: string, events: EventData[]): AppendResult {
    const stream = this.stream(streamName);
    this.streams.set(streamName, stream);
    const commit = this.offset;
    let first: Position | undefined;
    for (const e of events) {
      const record: StoredRecord = {
        streamId: streamName,
        id: e.id,
        type: e.type,
        data: e.data,
        metadata: e.metadata,
        revision: BigInt(stream.length),
        commit,
        prepare: this.offset,
      };
      this.offset += 100n;
      first ??= { commit: record.commit, prepare: record.prepare };
      stream.push(record);
      this.record(record);
    }
    const revision = BigInt(stream.length - 1);
    for (const e of events) this.recent.set(e.id, { streamId: streamName, revision, position: first! });
    if (this.behaviour.linkEvents) {
      for (const e of events) {
        const link = `$et-${e.type}`;
        const linkStream = this.stream(link);
        this.streams.set(link, linkStream);
        const record: StoredRecord = {
          streamId: link,
          id: crypto.randomUUID(),
          type: '$>',
          data: `${linkStream.length}@${streamName}`,
          metadata: undefined,
          revision: BigInt(linkStream.length),
          commit: this.offset,
          prepare: this.offset,
        };
        this.offset += 100n;
        linkStream.push(record);
        this.record(record);
      }
    }
    return { success: true, nextExpectedRevision: revision, position: first };
  }

  private record(r: StoredRecord): void {
    this.log.push(r);
    for (const s of this.subscribers) s.push(r);
  }

  private resolved(r: StoredRecord, positions: boolean): Resolved {
    if (r.type.startsWith('$')) this.systemEventsSent++;
    const position = positions ? { commit: r.commit, prepare: r.prepare } : { commit: U64_MAX, prepare: U64_MAX };
    return {
      event: {
        streamId: r.streamId,
        id: r.id,
        revision: r.revision,
        type: r.type,
        data: r.data,
        metadata: r.metadata,
        isJson: true,
        created: new Date(0),
        position,
      },
    } as Resolved;
  }

  readStream(
    streamName: string,
    {
      maxCount = Number.MAX_SAFE_INTEGER,
      fromRevision = START,
      direction = 'forwards',
    }: { maxCount?: number | bigint; fromRevision?: ReadRevision; direction?: string } = {},
  ) {
    this.calls.push({ method: 'readStream', args: [streamName, { maxCount, fromRevision, direction }] });
    const stream = this.streams.get(streamName);
    if (!stream) return readStreamOf(new StreamNotFoundError(undefined as never, streamName), () => ({}) as Resolved);
    let items: StoredRecord[];
    if (direction === BACKWARDS) {
      const from = fromRevision === END ? stream.length - 1 : fromRevision === START ? 0 : Number(fromRevision);
      items = stream.slice(0, from + 1).reverse();
    } else {
      const from = fromRevision === START ? 0 : fromRevision === END ? stream.length : Number(fromRevision);
      items = stream.slice(from);
    }
    return readStreamOf(items.slice(0, Number(maxCount)), (r) => this.resolved(r, this.behaviour.streamReadPositions));
  }

  readAll({
    maxCount = Number.MAX_SAFE_INTEGER,
    fromPosition = START,
    direction = 'forwards',
  }: { maxCount?: number | bigint; fromPosition?: ReadPosition; direction?: string } = {}) {
    this.calls.push({ method: 'readAll', args: [{ maxCount, fromPosition, direction }] });
    let items: StoredRecord[];
    if (direction === BACKWARDS) {
      const upTo = fromPosition === END ? undefined : fromPosition === START ? -1n : logKey(fromPosition);
      items = this.log.filter((r) => upTo === undefined || logKey(r) <= upTo).reverse();
    } else {
      const from = forwardFrom(fromPosition);
      items = from === undefined ? [] : this.log.filter((r) => logKey(r) >= from);
    }
    return readStreamOf(items.slice(0, Number(maxCount)), (r) => this.resolved(r, true));
  }

  /** Filters recorded by subscribeToAll, in call order. */
  readonly subscriptionFilters: Array<Filter | undefined> = [];

  subscribeToAll({ fromPosition = START, filter }: { fromPosition?: ReadPosition; filter?: Filter } = {}) {
    this.calls.push({ method: 'subscribeToAll', args: [{ fromPosition, filter }] });
    this.subscriptionFilters.push(filter);
    const regex = filter && 'regex' in filter && filter.filterOn === 'eventType' ? new RegExp(filter.regex) : undefined;
    const passes = (r: StoredRecord) => !this.hidden.has(r.id) && (!regex || regex.test(r.type));
    const sub = new Readable({ objectMode: true, read() {} }) as Readable & { unsubscribe(): Promise<void> };
    const subscriber = { push: (r: StoredRecord) => passes(r) && sub.push(this.resolved(r, true)) };
    sub.unsubscribe = () =>
      new Promise<void>((resolve) =>
        setImmediate(() => {
          // the client cancels the gRPC call, which ends the stream
          this.subscribers.delete(subscriber);
          sub.push(null);
          resolve();
        }),
      );
    setImmediate(() => {
      if (sub.destroyed || sub.readableEnded) return;
      // from a position the server starts at that position: the boundary event comes again
      const from = forwardFrom(fromPosition);
      if (from !== undefined)
        for (const r of this.log) if (logKey(r) >= from && passes(r)) sub.push(this.resolved(r, true));
      // the client emits 'caughtUp' in stream order: the events before it are already buffered
      if (this.behaviour.caughtUpSignal) sub.emit('caughtUp');
      this.subscribers.add(subscriber);
    });
    return sub;
  }

  async dispose(): Promise<void> {
    this.calls.push({ method: 'dispose', args: [] });
  }
}
