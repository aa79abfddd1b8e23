import { sequenceDecider, sequenceStream, type IdAssigned, type SequenceState } from '@evo/domain';
import { WrongExpectedRevisionError, type EventStore } from '../eventstore/port';
import { toNewEvents, type CommandContext } from './command-handler';

/** Where command handlers draw the numeric ids of what they create (videos, comments, gifts, ...). */
export interface IdAllocator {
  /**
   * A new id of `sequence` (a positive integer), never given by any allocator on the same log
   * before; above `options.above` when given (e.g. above the last message of a conversation).
   */
  next(sequence: string, ctx: CommandContext, options?: { above?: number }): Promise<number>;
}

/**
 * Ids reserved per append to `sequence-<name>`, by sequence. A block costs one append every
 * `size` ids instead of one append per id, waited for on every command's path: that append, queued
 * behind every other of the process on one stream, was the main cost of a comment under load. What
 * a block costs is its unused ids when the process stops (a gap in the numbering, at most size - 1
 * per process start, and per API replica in the distributed stack), and ids that follow the order
 * of the calls within one process only (two replicas hand out ids from two blocks at once).
 * - comments, messages, coin transactions (every purchase, top-up, gift sent): the frequent writes,
 *   64 ids per append (the ledger's block since it had one);
 * - videos: 8, uploads are rare (a few per member) and their ids are in every video's address,
 *   where a jump of 63 after each restart would show; 8 still takes the append off 7 uploads in 8;
 * - reports: 4, the rarest write (a member reports a video at most once), contention is nil and
 *   an append per 4 reports is nothing;
 * - any other sequence: 16.
 */
export const ID_BLOCK_SIZES: Readonly<Record<string, number>> = {
  comment: 64,
  message: 64,
  'coin-transaction': 64,
  video: 8,
  report: 4,
};
export const DEFAULT_ID_BLOCK_SIZE = 16;

export interface IdBlocksOptions {
  /** ids reserved per append, for a sequence (default: ID_BLOCK_SIZES, else DEFAULT_ID_BLOCK_SIZE) */
  blockSize?: (sequence: string) => number;
  /** attempts of a reservation racing other writers of the sequence before giving up (default 100) */
  maxAttempts?: number;
}

/** What this allocator knows of one sequence: its block [next, end) and the stream as last read. */
interface SequenceBlock {
  next: number;
  /** first id not in the block */
  end: number;
  state: SequenceState;
  revision: number;
  reserving: Promise<void> | undefined;
}

/**
 * Numeric ids by blocks: one `IdAssigned` appended with the sequence stream's expected revision
 * reserves `size` ids for this allocator, which then hands them out from memory, in increasing
 * order. Unique across processes (a reservation that loses a race re-reads the stream and retries
 * above what the winner took) and within the process (one reservation of a sequence in flight at a
 * time; JavaScript hands out the block's ids one call at a time). An allocator dropped with ids left
 * (a crash, a restart) leaves a gap, never a duplicate: its successor reserves above the highest
 * value appended. Streams written one id per event (before blocks) are continued after their
 * highest value. The ids are carried in the events that use them, so a replay gives the same ids.
 *
 * Build one per process (the composition root) and pass it to the command handlers: two allocators
 * of one process are two writers racing on the sequence streams, correct but slower.
 */
export class IdBlocks implements IdAllocator {
  private readonly sequences = new Map<string, SequenceBlock>();
  private readonly blockSize: (sequence: string) => number;
  private readonly maxAttempts: number;

  constructor(
    private readonly events: EventStore,
    options: IdBlocksOptions = {},
  ) {
    this.blockSize = options.blockSize ?? ((s) => ID_BLOCK_SIZES[s] ?? DEFAULT_ID_BLOCK_SIZE);
    this.maxAttempts = options.maxAttempts ?? 100;
  }

  async next(sequence: string, ctx: CommandContext, options: { above?: number } = {}): Promise<number> {
    const above = options.above ?? 0;
    const s = this.blockOf(sequence);
    for (;;) {
      // ids of the block at or below `above` are skipped (a gap): the block's ids are this
      // allocator's alone, so any of them above `above` is still free
      if (s.next <= above) s.next = Math.min(above + 1, s.end);
      if (s.next < s.end) return s.next++;
      // one reservation at a time: callers arriving meanwhile wait for it, then take from it
      s.reserving ??= this.reserve(sequence, s, above, ctx).finally(() => (s.reserving = undefined));
      await s.reserving;
    }
  }

  private blockOf(sequence: string): SequenceBlock {
    let s = this.sequences.get(sequence);
    if (!s) {
      s = { next: 1, end: 1, state: sequenceDecider.initialState(), revision: -1, reserving: undefined };
      this.sequences.set(sequence, s);
    }
    return s;
  }

  private async reserve(sequence: string, s: SequenceBlock, above: number, ctx: CommandContext): Promise<void> {
    const streamId = sequenceStream(sequence);
    const count = this.blockSize(sequence);
    for (let attempt = 1; ; attempt++) {
      // only what was appended since this allocator last read the stream
      for (const e of await this.events.readStream(streamId, s.revision + 1)) {
        s.state = sequenceDecider.evolve(s.state, e as unknown as IdAssigned);
        s.revision = e.revision;
      }
      const [assigned] = sequenceDecider.decide({ type: 'ReserveIds', count, above }, s.state);
      try {
        // never derive this event's id from an idempotency key: each reservation is a new one
        const r = await this.events.append(
          streamId,
          toNewEvents([assigned], streamId, { ...ctx, idempotencyKey: undefined }),
          s.revision < 0 ? 'no_stream' : s.revision,
        );
        s.state = sequenceDecider.evolve(s.state, assigned);
        s.revision = r.nextRevision;
        s.next = assigned.data.value - count + 1;
        s.end = assigned.data.value + 1;
        return;
      } catch (e) {
        if (!(e instanceof WrongExpectedRevisionError) || attempt >= this.maxAttempts) throw e;
        await new Promise((r) => setTimeout(r, Math.random() * Math.min(20, attempt * 2)));
      }
    }
  }
}
