import type { LogPosition, NewEvent, RecordedEvent } from '@evo/domain';

/**
 * What the writer expects of the stream before appending:
 * - 'no_stream': the stream must not exist yet
 * - 'stream_exists': it must exist
 * - 'any': no check
 * - a number: the revision of the stream's last event must be exactly this
 */
export type ExpectedRevision = 'no_stream' | 'stream_exists' | 'any' | number;

export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    /** the stream's actual last revision, -1 when it does not exist (when known) */
    readonly actual: number | undefined,
  ) {
    super(`Wrong expected revision on ${streamId}: expected ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedRevisionError';
  }
}

export interface AppendResult {
  /** revision of the stream's last event after the append (for an idempotent re-append: the stream's head) */
  nextRevision: number;
  /** position of the last event written (for an idempotent re-append: the stored position of the last of them) */
  position: LogPosition;
  /**
   * true when this call wrote the events (at the expected revision); absent or false when they were
   * found stored (a retry) or when the adapter cannot tell: a caller that caches the stream must
   * then read what is there
   */
  written?: boolean;
}

/**
 * How far back an append is guaranteed to look for its event ids: a re-append is recognised while
 * the stored events are among the stream's last IDEMPOTENCY_WINDOW events.
 */
export const IDEMPOTENCY_WINDOW = 100;

export interface SubscriptionHandle {
  /** stop delivering events; resolves once no handler call is running */
  stop(): Promise<void>;
}

export interface SubscribeOptions {
  /** deliver events strictly after this position; undefined = from the start of the log */
  from?: LogPosition;
  /** called when the subscription fails and is about to retry (it always retries, with backoff) */
  onError?: (err: unknown) => void;
  /** called once the catch-up phase has delivered everything that existed at subscribe time */
  onCaughtUp?: () => void;
}

/**
 * The log of every event. Streams are ordered by revision; the whole log is ordered by position.
 *
 * Appends are idempotent by event id, whatever the expected revision: re-appending events whose
 * ids are all in the stream stores nothing and succeeds, answering the stream's head revision and
 * the stored position of the last of them; when only some of them are there, the append fails
 * with WrongExpectedRevisionError. This is guaranteed while those events are among the stream's
 * last IDEMPOTENCY_WINDOW events (SQLite looks at the whole stream, EventStoreDB reads that window
 * backwards); an older re-append counts as a new append. An append that repeats an event id
 * within itself is refused with a RangeError and stores nothing.
 */
export interface EventStore {
  append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;
  /** read a whole stream in revision order; [] when it does not exist */
  readStream(streamId: string, fromRevision?: number): Promise<RecordedEvent[]>;
  /** read the whole log after `from` (exclusive) in batches of at most `batchSize` events */
  readAll(from?: LogPosition, batchSize?: number): AsyncIterable<RecordedEvent[]>;
  /** catch-up from `from` then live; the handler is awaited event by event, in order */
  subscribeToAll(handler: (event: RecordedEvent) => Promise<void>, options?: SubscribeOptions): SubscriptionHandle;
  /** position of the last event in the log, undefined when empty */
  lastPosition(): Promise<LogPosition | undefined>;
  close(): Promise<void>;
}
