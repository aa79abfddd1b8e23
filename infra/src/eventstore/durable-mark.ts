/**
 * Where the durable part of an embedded log ends, shared between the thread that appends to it and
 * the threads that follow it through connections of their own (the embedded projections' thread).
 * The appending store answers an append once its transaction is committed and fsynced; a commit
 * is visible to other connections before its fsync, so a follower must not hand out what lies at
 * or after `firstNotDurable()`: a power cut could still take it back.
 *
 * The appending store lowers the mark inside the transaction, before its commit; a follower reads
 * its rows first and the mark after. So any row a follower sees was committed after the mark was
 * lowered for it, and the mark it reads next is that low or the row is durable by then.
 */
export class DurableMark {
  /** [0]: the first position not durable (NONE: everything committed is durable); [1]: changes */
  private readonly cells: BigInt64Array;

  static readonly NONE = Number.MAX_SAFE_INTEGER;

  constructor(readonly buffer: SharedArrayBuffer = DurableMark.newBuffer()) {
    this.cells = new BigInt64Array(buffer);
  }

  private static newBuffer(): SharedArrayBuffer {
    const buffer = new SharedArrayBuffer(2 * BigInt64Array.BYTES_PER_ELEMENT);
    new BigInt64Array(buffer)[0] = BigInt(DurableMark.NONE);
    return buffer;
  }

  /** The appending store: positions from `position` on are committed and not yet durable. */
  set(firstNotDurable: number): void {
    Atomics.store(this.cells, 0, BigInt(firstNotDurable));
    Atomics.add(this.cells, 1, 1n);
    Atomics.notify(this.cells, 1);
  }

  firstNotDurable(): number {
    return Number(Atomics.load(this.cells, 0));
  }

  /** How many times the mark was set: a follower waits for it to change with `changedSince`. */
  changes(): bigint {
    return Atomics.load(this.cells, 1);
  }

  /** Resolves once the mark is set after `seen` was read (at once if it already was), or after `timeoutMs`. */
  async changedSince(seen: bigint, timeoutMs: number): Promise<void> {
    const waiting = Atomics.waitAsync(this.cells, 1, seen, timeoutMs);
    if (waiting.async) await waiting.value;
  }
}
