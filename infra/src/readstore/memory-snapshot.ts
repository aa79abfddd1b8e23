import { createHash } from 'node:crypto';
import { closeSync, fstatSync, open as openFile, read, readSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { deserialize, serialize } from 'node:v8';
import { writeFileAtomically } from '../files/atomic-file';
import type { Doc, IndexSpec } from './port';
import { ChunkDecoder, ChunkEncoder, type DocChunk } from './snapshot-chunk';
import type { IndexOrderImage, MemoryStoreImage } from './memory-read-store';

/*
 * A MemoryReadStore image in one file:
 *
 *   "EVOSNAP4"                                   8 bytes
 *   u32 LE: the checksum's block size (below)
 *   frame*: u32 LE length, then that many bytes of v8.serialize output
 *     frame 0: the header { meta, orderCode, collections: [{ name, indexes, count, orders }] }
 *     then, collection after collection (the smallest first), its documents in chunks
 *     (snapshot-chunk.ts: columns and a string table shared by the file), then one frame per
 *     name in `orders`: that index's order as a Uint32Array of document positions
 *   u32 LE 0xFFFFFFFF (the end mark)
 *   the table: the SHA-256 of each consecutive block of that size of every byte before it
 *     (the last block shorter), 32 bytes each
 *   u32 LE: how many blocks, then the SHA-256 of the table           36 bytes
 *
 * The table lets a reader check each block on its own: a start opens the file, checks the table
 * and the header's blocks, and answers; the rest is read and hashed in the background (two worker
 * threads), and each block is checked before any of its bytes is decoded (openMemorySnapshot). A
 * torn or truncated file has no table at its end and is refused at once; an altered byte is found
 * when its block is checked, before anything of that block is used.
 *
 * The chunks keep every value a document can hold as it was (bigint, Dates, undefined, -0, NaN),
 * the meta is v8.serialize's (its position a bigint). Written to a temporary file beside the
 * target, fsynced, then renamed over it (and the folder fsynced): a reader sees the previous
 * snapshot or the new one, never a part of one.
 */

const MAGIC = Buffer.from('EVOSNAP4');
/**
 * Older formats, not read any more: before the documents were stored as columns
 * (snapshot-chunk.ts), before the checksum was one of blocks, and before the blocks' checksums
 * were written (one checksum of them all had to read the whole file before answering).
 */
const OLDER_MAGICS = [Buffer.from('EVOSNAP1'), Buffer.from('EVOSNAP2'), Buffer.from('EVOSNAP3')];
const END = 0xffffffff;
const HASH_BYTES = 32;
/** the block count and the table's SHA-256, at the very end */
const TAIL_BYTES = 4 + HASH_BYTES;
/** the checksum's block size in the files this code writes */
const HASH_BLOCK_BYTES = 16 << 20;
/** the smallest block size a file may give (tests write small ones) */
const MIN_HASH_BLOCK_BYTES = 64;
/** a writer never makes more (a damaged count could ask for billions) */
const MAX_BLOCKS = 1 << 20;
/** the magic, then the block size */
const PREAMBLE_BYTES = MAGIC.length + 4;

/**
 * The checksums of a snapshot file (see the format above), fed in order: a SHA-256 per block of
 * `blockBytes`, their table, and a SHA-256 of the table.
 */
class BlockChecksum {
  private readonly digests: Buffer[] = [];
  private hash = createHash('sha256');
  private inBlock = 0;

  constructor(private readonly blockBytes: number) {}

  update(buf: Uint8Array): void {
    for (let at = 0; at < buf.length;) {
      const take = Math.min(buf.length - at, this.blockBytes - this.inBlock);
      this.hash.update(buf.subarray(at, at + take));
      at += take;
      this.inBlock += take;
      if (this.inBlock === this.blockBytes) {
        this.digests.push(this.hash.digest());
        this.hash = createHash('sha256');
        this.inBlock = 0;
      }
    }
  }

  /** the table and the tail that end the file */
  finish(): Buffer {
    if (this.inBlock > 0) this.digests.push(this.hash.digest());
    if (this.digests.length > MAX_BLOCKS)
      throw new Error(`instantané de plus de ${MAX_BLOCKS} blocs : blocs trop petits`);
    const table = Buffer.concat(this.digests);
    const count = Buffer.allocUnsafe(4);
    count.writeUInt32LE(this.digests.length);
    return Buffer.concat([table, count, sha256(table)]);
  }
}

const sha256 = (bytes: Uint8Array): Buffer => createHash('sha256').update(bytes).digest();

/** Why a snapshot file cannot be used (missing, damaged or not a snapshot, an older format). */
export class SnapshotFileError extends Error {
  constructor(
    readonly file: string,
    readonly reason: 'missing' | 'damaged' | 'other-format',
    detail: string,
  ) {
    super(`${file}: ${detail}`);
    this.name = 'SnapshotFileError';
  }
}

export interface SnapshotWriteStats {
  bytes: number;
  /** wall time from the first byte serialised to the rename */
  ms: number;
  /** the longest the event loop was held in one go (one chunk encoded, serialised and hashed) */
  maxBlockMs: number;
}

interface Header<M> {
  meta: M;
  /** the image's orderCode: who saved the index orders */
  orderCode?: string;
  /** `orders`: the indexes whose order follows the documents (absent in files without any) */
  collections: Array<{ name: string; indexes: IndexSpec[]; count: number; orders?: string[] }>;
}

/**
 * Each document's position in its collection's documents, in 256 maps chosen by the document's
 * _id: one Map of every document would hold the event loop while it grows (a Map rehashes all its
 * entries at once when it doubles: about 100 ms past a million).
 */
class DocPositions {
  private readonly shards = Array.from({ length: 256 }, () => new Map<Doc, number>());

  private shard(doc: Doc): Map<Doc, number> {
    const id = doc._id;
    if (typeof id === 'number') return this.shards[id & 255];
    if (typeof id !== 'string' || id.length === 0) return this.shards[0];
    // a few characters of the id: ids share prefixes, so the last ones weigh most
    const n = id.length;
    const h = (n * 31 + id.charCodeAt(n - 1)) * 31 + id.charCodeAt(n >> 1) + id.charCodeAt(n - 2 < 0 ? 0 : n - 2) * 7;
    return this.shards[h & 255];
  }

  set(doc: Doc, position: number): void {
    this.shard(doc).set(doc, position);
  }

  get(doc: Doc): number | undefined {
    return this.shard(doc).get(doc);
  }
}

/** How many index entries are turned into positions between two turns of the event loop. */
const ORDINALS_PER_TURN = 5_000;

/**
 * Write `image` (and `meta`, any v8-serialisable value) to `file` atomically. Documents are
 * serialised `chunkDocs` at a time with a turn of the event loop between chunks, so that a big
 * store does not hold the loop: requests are served while the snapshot is written. The image must
 * not change meanwhile (MemoryReadStore.captureImage's documents never do).
 */
export async function writeMemorySnapshot<M>(
  file: string,
  image: MemoryStoreImage,
  meta: M,
  options: { chunkDocs?: number; hashBlockBytes?: number } = {},
): Promise<SnapshotWriteStats> {
  const chunkDocs = options.chunkDocs ?? 1000;
  const blockBytes = Math.max(options.hashBlockBytes ?? HASH_BLOCK_BYTES, MIN_HASH_BLOCK_BYTES);
  const started = performance.now();
  let maxBlockMs = 0;
  const hash = new BlockChecksum(blockBytes);
  let bytes = 0;
  /** counted in the size and the checksum (synchronous: part of the time the loop is held) */
  const count = (buf: Buffer) => {
    hash.update(buf);
    bytes += buf.length;
    return buf;
  };
  const frame = (payload: Buffer) => {
    const len = Buffer.allocUnsafe(4);
    len.writeUInt32LE(payload.length);
    return Buffer.concat([len, payload]);
  };
  await writeFileAtomically(file, async (fh) => {
    // only orders given as the image's own documents can be written as positions
    const ordersOf = (c: MemoryStoreImage['collections'][number]) =>
      (c.orders ?? []).filter(
        (o): o is { name: string; entries: ReadonlyArray<readonly Doc[]> } => o.entries !== undefined,
      );
    // the smallest collections first: a store loading the file lazily (MemoryReadStore.loadEncoded)
    // decodes in the file's order, so a query of a small collection never waits for a big one
    const collections = [...image.collections].sort((a, b) => a.docs.length - b.docs.length);
    const header: Header<M> = {
      meta,
      orderCode: image.orderCode,
      collections: collections.map((c) => ({
        name: c.name,
        indexes: c.indexes,
        count: c.docs.length,
        orders: ordersOf(c).map((o) => o.name),
      })),
    };
    const blockSize = Buffer.allocUnsafe(4);
    blockSize.writeUInt32LE(blockBytes);
    await fh.write(count(Buffer.concat([MAGIC, blockSize, frame(serialize(header))])));
    const turn = () => new Promise((r) => setImmediate(r));
    const encoder = new ChunkEncoder();
    for (const c of collections) {
      const orders = ordersOf(c);
      // each document's position, to write the index orders as positions
      const positions = orders.length > 0 ? new DocPositions() : undefined;
      for (let i = 0; i < c.docs.length; i += chunkDocs) {
        const t = performance.now();
        const docs = c.docs.slice(i, i + chunkDocs);
        if (positions) for (let j = 0; j < docs.length; j++) positions.set(docs[j], i + j);
        const buf = count(frame(serialize(encoder.encode(docs))));
        maxBlockMs = Math.max(maxBlockMs, performance.now() - t);
        await fh.write(buf);
        // fh.write already waits for the thread pool; this lets queued requests run too
        await turn();
      }
      for (const order of orders) {
        const ordinals = new Uint32Array(c.docs.length);
        let j = 0;
        let sinceTurn = 0;
        let t = performance.now();
        for (const chunk of order.entries) {
          for (const entry of chunk) {
            const p = positions!.get(entry);
            if (p === undefined || j >= ordinals.length)
              throw new Error(`index ${order.name} of ${c.name}: an entry is not one of its documents`);
            ordinals[j++] = p;
          }
          sinceTurn += chunk.length;
          if (sinceTurn >= ORDINALS_PER_TURN) {
            maxBlockMs = Math.max(maxBlockMs, performance.now() - t);
            await turn();
            sinceTurn = 0;
            t = performance.now();
          }
        }
        if (j !== ordinals.length) throw new Error(`index ${order.name} of ${c.name}: not one entry per document`);
        const buf = count(frame(serialize(ordinals)));
        maxBlockMs = Math.max(maxBlockMs, performance.now() - t);
        await fh.write(buf);
      }
    }
    const end = Buffer.allocUnsafe(4);
    end.writeUInt32LE(END);
    count(end);
    const tail = hash.finish();
    await fh.write(Buffer.concat([end, tail]));
    bytes += tail.length;
  });
  return { bytes, ms: performance.now() - started, maxBlockMs };
}

/**
 * A worker thread hashing whole blocks: it writes each block's SHA-256 into shared memory and
 * marks it done there (the reading thread may be waiting for it, Atomics.wait), then says so by
 * message (for the checks made beside the requests). The block's memory is shared and never
 * written once read: the bytes hashed are the very bytes decoded.
 */
const HASH_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const done = new Int32Array(workerData.done);
const digests = new Uint8Array(workerData.digests);
Atomics.add(new Int32Array(workerData.booted), 0, 1);
parentPort.on('message', ({ block, shared }) => {
  digests.set(createHash('sha256').update(new Uint8Array(shared)).digest(), block * 32);
  Atomics.store(done, block, 1);
  Atomics.notify(done, block);
  parentPort.postMessage(block);
});
`;

/** How many threads hash a file's blocks while it is read (the reading thread mostly waits meanwhile). */
const HASH_THREADS = 2;
/** How long a use waits for a worker's hash of a block before hashing it itself. */
const WORKER_HASH_WAIT_MS = 2_000;

const SOUND = 1;
const DAMAGED = 2;

/**
 * The blocks of a snapshot file, each checked against its SHA-256 (the file's table) before any
 * byte of it is answered. The whole file is read in the background, block after block, and hashed
 * by worker threads; a use that needs a block the reading has not reached reads and hashes it at
 * once, on its own thread (synchronously: a collection is made in one go). Blocks before the
 * decoding point are let go. The file is closed once every block is read.
 */
class CheckedBlocks {
  private readonly blocks: Array<Buffer | undefined>;
  private readonly verdicts: Uint8Array;
  /** shared with the workers: 1 once the block's digest is in `digests` */
  private readonly hashed: Int32Array;
  private readonly digests: Uint8Array;
  /** shared with the workers: how many have started (until one has, a block is hashed here) */
  private readonly booted = new Int32Array(new SharedArrayBuffer(4));
  private readonly workers: Worker[] = [];
  private judged = 0;
  private firstKept = 0;
  private failure: SnapshotFileError | undefined;
  private closed = false;
  private fdOpen = true;
  private reading: Promise<void> | undefined;
  private settle!: { resolve: () => void; reject: (e: unknown) => void };
  /** every block read and found sound; rejects with the first failure */
  readonly checked: Promise<void>;

  constructor(
    private readonly file: string,
    private readonly fd: number,
    private readonly blockBytes: number,
    /** the bytes the table covers: [0, covered) */
    private readonly covered: number,
    /** the table: the SHA-256 of each block, in order */
    private readonly expected: Buffer,
  ) {
    const n = expected.length / HASH_BYTES;
    this.blocks = new Array<Buffer | undefined>(n);
    this.verdicts = new Uint8Array(n);
    this.hashed = new Int32Array(new SharedArrayBuffer(4 * n));
    this.digests = new Uint8Array(new SharedArrayBuffer(HASH_BYTES * n));
    this.checked = new Promise<void>((resolve, reject) => (this.settle = { resolve, reject }));
    // awaited by whoever wants the whole file checked; a failure is also thrown at the next use
    this.checked.catch(() => undefined);
    const shared = { done: this.hashed.buffer, digests: this.digests.buffer, booted: this.booted.buffer };
    for (let i = 0; i < Math.min(HASH_THREADS, this.count); i++) {
      const worker = new Worker(HASH_WORKER, { eval: true, workerData: shared });
      worker.on('message', (block: number) => this.judge(block));
      worker.once('error', (e) => this.fail(this.damaged(`calcul de la somme de contrôle impossible (${e.message})`)));
      // kept referenced: a process waiting for `checked` only would otherwise exit before it settles
      // (they end once every block is judged, or at close)
      this.workers.push(worker);
    }
  }

  private get count(): number {
    return this.verdicts.length;
  }

  private lengthOf(block: number): number {
    return Math.min(this.blockBytes, this.covered - block * this.blockBytes);
  }

  private damaged(detail: string): SnapshotFileError {
    return new SnapshotFileError(this.file, 'damaged', detail);
  }

  /** starts reading the file in the background */
  start(): void {
    this.reading = this.readAll()
      // (an allocation that fails under memory pressure, say: never an unhandled rejection)
      .catch((e: unknown) => void this.readFailed(e))
      .finally(() => {
        this.reading = undefined;
        this.closeFile();
      });
  }

  private async readAll(): Promise<void> {
    for (let block = 0; block < this.count && !this.closed && !this.failure; block++) {
      if (!this.wanted(block)) continue;
      const buf = this.newBlock(block);
      try {
        await readFully(this.fd, buf, block * this.blockBytes);
      } catch (e) {
        this.readFailed(e);
        return;
      }
      // a use may have read it meanwhile
      if (this.closed || !this.wanted(block)) continue;
      this.hand(block, buf);
    }
  }

  /** memory for `block`, shared with the workers */
  private newBlock(block: number): Buffer {
    return Buffer.from(new SharedArrayBuffer(this.lengthOf(block)));
  }

  /** keeps a block read and gives it to a worker to hash */
  private hand(block: number, buf: Buffer): void {
    this.blocks[block] = buf;
    this.workers[block % this.workers.length].postMessage({ block, shared: buf.buffer });
  }

  /** the file could not be read: it fails as damaged (every later use throws the same) */
  private readFailed(e: unknown): SnapshotFileError {
    this.fail(this.damaged(`lecture impossible (${(e as Error).message})`));
    return this.failure!;
  }

  private wanted(block: number): boolean {
    return block >= this.firstKept && this.blocks[block] === undefined && this.verdicts[block] === 0;
  }

  /** a worker's digest of `block` is in: compared with the table */
  private judge(block: number): void {
    if (this.verdicts[block] !== 0 || Atomics.load(this.hashed, block) !== 1) return;
    const at = block * HASH_BYTES;
    this.verdict(block, Buffer.from(this.digests.buffer, at, HASH_BYTES));
  }

  private verdict(block: number, digest: Uint8Array): void {
    if (this.verdicts[block] !== 0) return;
    const at = block * HASH_BYTES;
    const sound = this.expected.subarray(at, at + HASH_BYTES).equals(digest);
    this.verdicts[block] = sound ? SOUND : DAMAGED;
    if (!sound) return this.fail(this.damaged('somme de contrôle fausse'));
    if (++this.judged === this.count) {
      this.stopWorkers();
      this.settle.resolve();
    }
  }

  private fail(err: SnapshotFileError): void {
    if (this.failure) return;
    this.failure = err;
    this.settle.reject(err);
    this.close();
  }

  /** `block` read and found sound, at once (throws SnapshotFileError otherwise) */
  private sound(block: number): Buffer {
    if (this.failure) throw this.failure;
    if (this.closed) throw this.damaged('instantané refermé');
    if (block < this.firstKept) throw new Error(`bloc ${block} déjà lâché`);
    // what the background has not read yet (a use ahead of it, or one that holds the loop, which
    // the background's reads need) is read now: this block and the next few, whose hashes the
    // workers compute while this one is decoded
    const upTo = Math.min(block + HASH_THREADS, this.count - 1);
    for (let next = block; next <= upTo; next++) {
      if (!this.wanted(next)) continue;
      const buf = this.newBlock(next);
      try {
        readFullySync(this.fd, buf, next * this.blockBytes);
      } catch (e) {
        throw this.readFailed(e);
      }
      this.hand(next, buf);
    }
    const bytes = this.blocks[block]!;
    if (this.verdicts[block] === 0) {
      // handed to a worker: its digest comes in shared memory (a worker that has not started yet,
      // at the open, would take longer than hashing it here)
      const deadline = Atomics.load(this.booted, 0) > 0 ? performance.now() + WORKER_HASH_WAIT_MS : 0;
      while (Atomics.load(this.hashed, block) === 0 && performance.now() < deadline)
        Atomics.wait(this.hashed, block, 0, 50);
      if (Atomics.load(this.hashed, block) === 1) this.judge(block);
      else this.verdict(block, sha256(bytes));
    }
    if (this.failure) throw this.failure;
    return bytes;
  }

  /** bytes [start, end) of the file, every block they touch checked: a view of one block, or a copy */
  bytes(start: number, end: number): Buffer {
    const first = Math.floor(start / this.blockBytes);
    const last = Math.floor((end - 1) / this.blockBytes);
    const parts: Buffer[] = [];
    for (let block = first; block <= last; block++) {
      const base = block * this.blockBytes;
      const bytes = this.sound(block);
      parts.push(bytes.subarray(Math.max(start - base, 0), Math.min(end - base, bytes.length)));
    }
    return parts.length === 1 ? parts[0] : Buffer.concat(parts);
  }

  /** the blocks wholly before `offset` are not needed any more */
  release(offset: number): void {
    const next = Math.floor(offset / this.blockBytes);
    for (; this.firstKept < next; this.firstKept++) this.blocks[this.firstKept] = undefined;
  }

  private stopWorkers(): void {
    for (const worker of this.workers.splice(0)) void worker.terminate();
  }

  private closeFile(): void {
    if (!this.fdOpen || this.reading) return;
    this.fdOpen = false;
    closeSync(this.fd);
  }

  /** lets everything go (what is left unread is not read); the file closes once a read in progress ends */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.blocks.fill(undefined);
    this.stopWorkers();
    this.closeFile();
    // not a damaged file: whoever let it go does not want it checked any more
    if (!this.failure) this.settle.reject(new Error('instantané refermé avant sa vérification'));
  }
}

async function readFully(fd: number, buf: Buffer, position: number): Promise<void> {
  for (let got = 0; got < buf.length;) {
    const bytesRead = await new Promise<number>((resolve, reject) =>
      read(fd, buf, got, buf.length - got, position + got, (err, n) => (err ? reject(err) : resolve(n))),
    );
    if (bytesRead === 0) throw new Error('fichier tronqué pendant la lecture');
    got += bytesRead;
  }
}

function readFullySync(fd: number, buf: Buffer, position: number): void {
  for (let got = 0; got < buf.length;) {
    const bytesRead = readSync(fd, buf, got, buf.length - got, position + got);
    if (bytesRead === 0) throw new Error('fichier tronqué pendant la lecture');
    got += bytesRead;
  }
}

/** Where an EncodedImage takes its frames from, in the file's order. */
export interface FrameSource {
  /** the next frame's payload; undefined past the last (throws SnapshotFileError when it cannot be read or checked) */
  next(): Buffer | undefined;
  /** resolves once every byte is checked, rejects with the first failure */
  readonly checked: Promise<void>;
  /** lets go of what is still held */
  close(): void;
}

/** Frames already in memory (a test's, or a file read another way). */
export class FramesInMemory implements FrameSource {
  readonly checked = Promise.resolve();
  private at = 0;

  constructor(private frames: Buffer[]) {}

  next(): Buffer | undefined {
    return this.frames[this.at++];
  }

  close(): void {
    this.frames = [];
  }
}

/** The frames of a snapshot file, each one checked (CheckedBlocks) when it is taken. */
class FileFrames implements FrameSource {
  private at: number;

  constructor(
    private readonly file: string,
    private readonly blocks: CheckedBlocks,
    first: number,
    /** where the end mark is */
    private readonly framesEnd: number,
  ) {
    this.at = first;
  }

  get checked(): Promise<void> {
    return this.blocks.checked;
  }

  private damaged(detail: string): SnapshotFileError {
    return new SnapshotFileError(this.file, 'damaged', detail);
  }

  next(): Buffer | undefined {
    if (this.at === this.framesEnd) {
      if (this.blocks.bytes(this.framesEnd, this.framesEnd + 4).readUInt32LE(0) !== END)
        throw this.damaged('fichier tronqué (fin absente)');
      return undefined;
    }
    if (this.at + 4 > this.framesEnd) throw this.damaged('trame tronquée');
    const len = this.blocks.bytes(this.at, this.at + 4).readUInt32LE(0);
    if (this.at + 4 + len > this.framesEnd) throw this.damaged('trame tronquée');
    const payload = len === 0 ? Buffer.alloc(0) : this.blocks.bytes(this.at + 4, this.at + 4 + len);
    this.at += 4 + len;
    // the frame keeps what it needs of its block
    this.blocks.release(this.at);
    return payload;
  }

  close(): void {
    this.blocks.close();
  }
}

/** One collection of an EncodedImage, as its header describes it. */
export interface EncodedCollection {
  name: string;
  indexes: IndexSpec[];
  count: number;
}

/** What EncodedImage.next decoded: one chunk's documents, and the whole collection when that was its last chunk. */
export interface DecodedPart {
  /** position of the collection in `EncodedImage.collections` */
  collection: number;
  /** this chunk's documents, in the collection's order (empty for a collection without documents) */
  chunk: Doc[];
  /** when the collection is complete: all its documents in order, and its saved index orders */
  complete?: { docs: Doc[]; orders: IndexOrderImage[] };
}

/**
 * A snapshot file opened, its documents still encoded: `next` decodes them one chunk at a time, in
 * the file's order (a chunk's strings may come from an earlier chunk, so the order is the only
 * one). A store can thus answer before every document is made (MemoryReadStore.loadEncoded). Each
 * frame is checked against the file's checksums when it is taken (FrameSource), and let go once
 * decoded: the file's memory goes as the documents come.
 */
export class EncodedImage {
  private readonly decoder = new ChunkDecoder();
  private current = 0;
  private docs: Doc[] = [];

  constructor(
    private readonly file: string,
    readonly collections: readonly EncodedCollection[],
    private readonly orderNames: ReadonlyArray<readonly string[]>,
    private readonly frames: FrameSource,
    readonly orderCode: string | undefined,
  ) {}

  /** resolves once every byte of the file is checked (rejects with the first failure) */
  get checked(): Promise<void> {
    return this.frames.checked;
  }

  /** lets go of the file and what is left of it (nothing more can be decoded) */
  close(): void {
    this.current = this.collections.length;
    this.frames.close();
  }

  /** every document was decoded */
  get done(): boolean {
    return this.current >= this.collections.length;
  }

  private damaged(detail: string): SnapshotFileError {
    return new SnapshotFileError(this.file, 'damaged', detail);
  }

  private nextFrame(): unknown {
    const payload = this.frames.next();
    if (payload === undefined) throw this.damaged('trame manquante');
    return deserialize(payload);
  }

  /** decodes the next chunk of documents (undefined once everything is decoded) */
  next(): DecodedPart | undefined {
    if (this.done) return undefined;
    const at = this.current;
    const c = this.collections[at];
    const before = this.docs.length;
    try {
      if (before < c.count) this.decoder.decode(this.nextFrame() as DocChunk, this.docs);
      if (this.docs.length > c.count)
        throw this.damaged(`collection ${c.name} : ${this.docs.length} documents au lieu de ${c.count}`);
      const chunk = before === 0 && this.docs.length === c.count ? this.docs : this.docs.slice(before);
      if (this.docs.length < c.count) {
        if (chunk.length === 0) throw this.damaged(`collection ${c.name} : morceau vide`);
        return { collection: at, chunk };
      }
      const orders: IndexOrderImage[] = [];
      for (const name of this.orderNames[at]) {
        const ordinals = this.nextFrame();
        if (!(ordinals instanceof Uint32Array) || ordinals.length !== c.count)
          throw this.damaged(`collection ${c.name} : ordre de l'index ${name} illisible`);
        // a copy: a view would keep its piece of the file in memory as long as the index
        orders.push({ name, ordinals: new Uint32Array(ordinals) });
      }
      const docs = this.docs;
      this.docs = [];
      this.current += 1;
      if (this.done) {
        if (this.frames.next() !== undefined) throw this.damaged('données en trop après la dernière collection');
        this.frames.close();
      }
      return { collection: at, chunk, complete: { docs, orders } };
    } catch (e) {
      // nothing more can be decoded after a failure
      this.close();
      if (e instanceof SnapshotFileError) throw e;
      throw this.damaged(`illisible (${(e as Error).message})`);
    }
  }

  /** decodes everything left: the image as captured */
  decodeAll(): MemoryStoreImage {
    const collections: MemoryStoreImage['collections'] = [];
    for (let part = this.next(); part; part = this.next()) {
      if (!part.complete) continue;
      const { name, indexes } = this.collections[part.collection];
      collections.push({ name, indexes, docs: part.complete.docs, orders: part.complete.orders });
    }
    return { collections, orderCode: this.orderCode };
  }
}

/**
 * Open a snapshot written by writeMemorySnapshot, its documents left encoded (see EncodedImage).
 * What is checked before this answers: the format, the table of block checksums (its own SHA-256),
 * that the file is as long as that table says and ends with the end mark (a torn or truncated file
 * is refused here), and the blocks of the header. The rest is read and hashed in the background
 * (`image.checked`), and every block is checked before any byte of it is decoded: nothing of an
 * altered block ever reaches a store. A later block found altered fails the decoding that needs it
 * (and every later one) with SnapshotFileError 'damaged'. Throws SnapshotFileError (missing,
 * damaged, or written in an older format).
 */
export async function openMemorySnapshot<M>(file: string): Promise<{ meta: M; image: EncodedImage; bytes: number }> {
  let fd: number;
  try {
    fd = await new Promise<number>((resolve, reject) =>
      openFile(file, 'r', (err, n) => (err ? reject(err) : resolve(n))),
    );
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT')
      throw new SnapshotFileError(file, 'missing', 'aucun instantané');
    throw e;
  }
  const damaged = (detail: string) => new SnapshotFileError(file, 'damaged', detail);
  let blocks: CheckedBlocks | undefined;
  try {
    const size = fstatSync(fd).size;
    const at = (position: number, length: number) => {
      const buf = Buffer.alloc(length);
      readFullySync(fd, buf, position);
      return buf;
    };
    if (size < MAGIC.length) throw damaged("ce n'est pas un instantané EVO (ou il est tronqué)");
    const magic = at(0, MAGIC.length);
    if (OLDER_MAGICS.some((older) => magic.equals(older)))
      throw new SnapshotFileError(file, 'other-format', "instantané d'un format plus ancien");
    if (!magic.equals(MAGIC)) throw damaged("ce n'est pas un instantané EVO");
    if (size < PREAMBLE_BYTES + 4 + HASH_BYTES + TAIL_BYTES) throw damaged('instantané tronqué');
    const blockBytes = at(MAGIC.length, 4).readUInt32LE(0);
    if (blockBytes < MIN_HASH_BLOCK_BYTES) throw damaged('taille de bloc de la somme de contrôle invalide');
    const tail = at(size - TAIL_BYTES, TAIL_BYTES);
    const count = tail.readUInt32LE(0);
    const covered = size - TAIL_BYTES - count * HASH_BYTES;
    // a torn file's tail is not a table of as many blocks as the file has
    if (count < 1 || count > MAX_BLOCKS || covered < PREAMBLE_BYTES + 4 || Math.ceil(covered / blockBytes) !== count)
      throw damaged('instantané tronqué (table des sommes de contrôle absente)');
    const table = at(covered, count * HASH_BYTES);
    if (!sha256(table).equals(tail.subarray(4))) throw damaged('table des sommes de contrôle fausse');
    const framesEnd = covered - 4;
    if (at(framesEnd, 4).readUInt32LE(0) !== END) throw damaged('fichier tronqué (fin absente)');
    blocks = new CheckedBlocks(file, fd, blockBytes, covered, table);
    const frames = new FileFrames(file, blocks, PREAMBLE_BYTES, framesEnd);
    let header: Header<M>;
    try {
      const first = frames.next();
      if (first === undefined) throw damaged('en-tête absent');
      header = deserialize(first) as Header<M>;
    } catch (e) {
      if (e instanceof SnapshotFileError) throw e;
      throw damaged(`illisible (${(e as Error).message})`);
    }
    if (!Array.isArray(header?.collections)) throw damaged('en-tête illisible');
    blocks.start();
    const image = new EncodedImage(
      file,
      header.collections.map(({ name, indexes, count }) => ({ name, indexes, count })),
      header.collections.map((c) => c.orders ?? []),
      frames,
      header.orderCode,
    );
    return { meta: header.meta, image, bytes: size };
  } catch (e) {
    if (blocks) blocks.close();
    else closeSync(fd);
    throw e;
  }
}

/**
 * Read a snapshot written by writeMemorySnapshot, every byte checked before anything is decoded
 * (openMemorySnapshot, `image.checked`, then EncodedImage.decodeAll). Throws SnapshotFileError
 * (missing, damaged, or written in an older format) instead of answering part of a file.
 */
export async function readMemorySnapshot<M>(
  file: string,
): Promise<{ meta: M; image: MemoryStoreImage; bytes: number }> {
  const { meta, image, bytes } = await openMemorySnapshot<M>(file);
  try {
    await image.checked;
  } catch (e) {
    image.close();
    throw e;
  }
  return { meta, image: image.decodeAll(), bytes };
}
