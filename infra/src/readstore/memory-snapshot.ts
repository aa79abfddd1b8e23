import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { deserialize, serialize } from 'node:v8';
import { writeFileAtomically } from '../files/atomic-file';
import type { Doc, IndexSpec } from './port';
import { ChunkDecoder, ChunkEncoder, type DocChunk } from './snapshot-chunk';
import type { IndexOrderImage, MemoryStoreImage } from './memory-read-store';

/*
 * A MemoryReadStore image in one file:
 *
 *   "EVOSNAP3"                                   8 bytes
 *   u32 LE: the checksum's block size (below)
 *   frame*: u32 LE length, then that many bytes of v8.serialize output
 *     frame 0: the header { meta, orderCode, collections: [{ name, indexes, count, orders }] }
 *     then, collection after collection (the smallest first), its documents in chunks
 *     (snapshot-chunk.ts: columns and a string table shared by the file), then one frame per
 *     name in `orders`: that index's order as a Uint32Array of document positions
 *   u32 LE 0xFFFFFFFF, then the checksum of every byte before it   36 bytes
 *
 * The checksum is a SHA-256 of the SHA-256s of consecutive blocks of that size (the last one
 * shorter): the same strength as one SHA-256 of everything, but a reader hashes two blocks at
 * once on two threads (one SHA-256 stream was most of a start: 1.2 s for a 1.2 GB file).
 *
 * The chunks keep every value a document can hold as it was (bigint, Dates, undefined, -0, NaN),
 * the meta is v8.serialize's (its position a bigint). The checksum covers the whole file and is
 * compared before a read answers anything: a torn, truncated or altered file never reaches a
 * store. Written to a temporary file beside the target, fsynced, then renamed over it (and the
 * folder fsynced): a reader sees the previous snapshot or the new one, never a part of one.
 */

const MAGIC = Buffer.from('EVOSNAP3');
/**
 * Older formats, not read any more: before the documents were stored as columns
 * (snapshot-chunk.ts), and before the checksum was one of blocks.
 */
const OLDER_MAGICS = [Buffer.from('EVOSNAP1'), Buffer.from('EVOSNAP2')];
const END = 0xffffffff;
const HASH_BYTES = 32;
/** the checksum's block size in the files this code writes */
const HASH_BLOCK_BYTES = 16 << 20;
/** the smallest block size a file may give (tests write small ones) */
const MIN_HASH_BLOCK_BYTES = 64;
/** the magic, then the block size */
const PREAMBLE_BYTES = MAGIC.length + 4;

/**
 * The checksum of a snapshot file (see the format above), fed in order: a SHA-256 per block of
 * `blockBytes`, then a SHA-256 of those.
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

  digest(): Buffer {
    if (this.inBlock > 0) this.digests.push(this.hash.digest());
    return combinedDigest(this.digests);
  }
}

function combinedDigest(blockDigests: readonly Uint8Array[]): Buffer {
  const hash = createHash('sha256');
  for (const d of blockDigests) hash.update(d);
  return hash.digest();
}

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
    await fh.write(Buffer.concat([end, hash.digest()]));
    bytes += HASH_BYTES;
  });
  return { bytes, ms: performance.now() - started, maxBlockMs };
}

/** How much of the file is read at a time (the next piece is read while the last one is decoded). */
const PIECE_BYTES = 16 << 20;

/**
 * A worker thread hashing blocks: it is given parts of blocks in order (shared memory, never
 * written once read, so the bytes hashed are the very bytes decoded) and answers each block's
 * SHA-256 once its last part came.
 */
const HASH_WORKER = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const open = new Map();
parentPort.on('message', ({ block, shared, offset, length, last }) => {
  let hash = open.get(block);
  if (!hash) open.set(block, (hash = createHash('sha256')));
  hash.update(new Uint8Array(shared, offset, length));
  if (!last) return;
  open.delete(block);
  parentPort.postMessage({ block, digest: hash.digest() });
});
`;

/** How many threads hash a file's blocks while it is read (the reading thread mostly waits meanwhile). */
const HASH_THREADS = 2;

/**
 * The checksum of the first `covered` bytes of a file (BlockChecksum's), computed on worker
 * threads while the reading thread finds the frames: block i goes to thread i % HASH_THREADS.
 */
class BackgroundHash {
  private readonly workers: Worker[] = [];
  private readonly digests: Uint8Array[] = [];
  private received = 0;
  private readonly blocks: number;
  readonly digest: Promise<Buffer>;

  constructor(
    private readonly covered: number,
    private readonly blockBytes: number,
  ) {
    this.blocks = Math.ceil(covered / blockBytes);
    this.digest = new Promise<Buffer>((resolve, reject) => {
      const stopped = () => reject(new Error('le calcul de la somme de contrôle s’est arrêté'));
      for (let i = 0; i < Math.min(HASH_THREADS, this.blocks); i++) {
        const worker = new Worker(HASH_WORKER, { eval: true });
        worker.on('message', ({ block, digest }: { block: number; digest: Uint8Array }) => {
          this.digests[block] = digest;
          if (++this.received === this.blocks) resolve(combinedDigest(this.digests));
        });
        worker.once('error', reject);
        worker.once('exit', stopped);
        this.workers.push(worker);
      }
    });
    // read at the end, or dropped with the workers when the file turns out damaged first
    this.digest.catch(() => undefined);
  }

  /** the file's bytes [start, start + length) are the first `length` bytes of `shared` */
  add(shared: SharedArrayBuffer, start: number, length: number): void {
    for (let at = 0; at < length && start + at < this.covered;) {
      const offset = start + at;
      const block = Math.floor(offset / this.blockBytes);
      const blockEnd = Math.min((block + 1) * this.blockBytes, this.covered);
      const take = Math.min(length - at, blockEnd - offset);
      this.workers[block % this.workers.length].postMessage({
        block,
        shared,
        offset: at,
        length: take,
        last: offset + take === blockEnd,
      });
      at += take;
    }
  }

  stop(): void {
    for (const worker of this.workers) {
      worker.removeAllListeners('exit');
      void worker.terminate();
    }
  }
}

/**
 * A file read piece after piece, each piece in its own shared memory: the pieces decoded are let
 * go (`release`), so a load never holds the whole file at once, and the hash worker reads the
 * same memory.
 */
class FilePieces {
  private readonly pieces: Array<{ start: number; buf: Buffer }> = [];
  /** bytes read so far */
  read = 0;
  private reading: Promise<void> | undefined;

  constructor(
    private readonly fh: FileHandle,
    readonly size: number,
    private readonly pieceBytes: number,
    private readonly onPiece: (shared: SharedArrayBuffer, start: number) => void,
    private readonly truncated: () => Error,
  ) {}

  private async readPiece(): Promise<void> {
    const start = this.read;
    const length = Math.min(this.pieceBytes, this.size - start);
    const shared = new SharedArrayBuffer(length);
    const buf = Buffer.from(shared);
    for (let got = 0; got < length;) {
      const { bytesRead } = await this.fh.read(buf, got, length - got, start + got);
      if (bytesRead === 0) throw this.truncated();
      got += bytesRead;
    }
    this.pieces.push({ start, buf });
    this.read = start + length;
    this.onPiece(shared, start);
  }

  private readNext(): Promise<void> {
    this.reading ??= this.readPiece().finally(() => (this.reading = undefined));
    return this.reading;
  }

  /** waits until the first `end` bytes are read, and starts reading the next piece */
  async need(end: number): Promise<void> {
    while (this.read < end) await this.readNext();
    if (this.read < this.size) void this.readNext().catch(() => undefined);
  }

  /** bytes [start, end), all read: a view of one piece, or a copy of the parts of several */
  bytes(start: number, end: number): Buffer {
    const parts: Buffer[] = [];
    for (const { start: at, buf } of this.pieces) {
      if (at + buf.length <= start || at >= end) continue;
      parts.push(buf.subarray(Math.max(start - at, 0), Math.min(end - at, buf.length)));
    }
    return parts.length === 1 ? parts[0] : Buffer.concat(parts);
  }

  /** the pieces wholly before `offset` are not needed any more */
  release(offset: number): void {
    while (this.pieces.length > 0 && this.pieces[0].start + this.pieces[0].buf.length <= offset) this.pieces.shift();
  }

  /** waits for a read in progress (before the file is closed) */
  async settle(): Promise<void> {
    await this.reading?.catch(() => undefined);
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
 * A snapshot file read whole and checked (its checksum, and frames that end where the file says),
 * its documents still encoded: `next` decodes them one chunk at a time, in the file's order (a
 * chunk's strings may come from an earlier chunk, so the order is the only one). A store can thus
 * answer before every document is made (MemoryReadStore.loadEncoded). The frames are dropped as
 * they are decoded, so the file's memory goes as the documents come.
 */
export class EncodedImage {
  private readonly decoder = new ChunkDecoder();
  private frame = 0;
  private current = 0;
  private docs: Doc[] = [];

  constructor(
    private readonly file: string,
    readonly collections: readonly EncodedCollection[],
    private readonly orderNames: ReadonlyArray<readonly string[]>,
    private readonly frames: Array<Buffer | undefined>,
    readonly orderCode: string | undefined,
  ) {}

  /** every document was decoded */
  get done(): boolean {
    return this.current >= this.collections.length;
  }

  private damaged(detail: string): SnapshotFileError {
    return new SnapshotFileError(this.file, 'damaged', detail);
  }

  private nextFrame(): unknown {
    const payload = this.frames[this.frame];
    if (payload === undefined) throw this.damaged('trame manquante');
    this.frames[this.frame++] = undefined;
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
      if (this.done && this.frame !== this.frames.length)
        throw this.damaged('données en trop après la dernière collection');
      return { collection: at, chunk, complete: { docs, orders } };
    } catch (e) {
      // nothing more can be decoded after a failure
      this.current = this.collections.length;
      this.frames.length = 0;
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
 * Open a snapshot written by writeMemorySnapshot: the whole file is read and checked before this
 * answers, its documents left encoded (see EncodedImage). The file is read in pieces (the next one
 * while the frames of the last one are found); a worker thread computes the checksum of each piece
 * meanwhile, and it is compared before anything is answered: nothing of a torn, truncated or altered
 * file reaches a store. Throws SnapshotFileError (missing, damaged, or written in an older format)
 * instead of answering part of a file.
 */
export async function openMemorySnapshot<M>(
  file: string,
  options: { pieceBytes?: number } = {},
): Promise<{ meta: M; image: EncodedImage; bytes: number }> {
  let fh: FileHandle;
  try {
    fh = await open(file, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT')
      throw new SnapshotFileError(file, 'missing', 'aucun instantané');
    throw e;
  }
  const damaged = (detail: string) => new SnapshotFileError(file, 'damaged', detail);
  let hash: BackgroundHash | undefined;
  let pieces: FilePieces | undefined;
  try {
    const size = (await fh.stat()).size;
    if (size < MAGIC.length + 4 + HASH_BYTES) throw damaged("ce n'est pas un instantané EVO (ou il est tronqué)");
    /** the checksum covers everything before it; frames end before the end mark */
    const hashed = size - HASH_BYTES;
    const framesEnd = hashed - 4;
    /** pieces read before the checksum's block size is known (in the first bytes) */
    const early: Array<[SharedArrayBuffer, number]> = [];
    const input = (pieces = new FilePieces(
      fh,
      size,
      options.pieceBytes ?? PIECE_BYTES,
      (shared, start) => (hash ? hash.add(shared, start, shared.byteLength) : early.push([shared, start])),
      () => damaged('fichier tronqué pendant la lecture'),
    ));
    await input.need(MAGIC.length);
    const magic = input.bytes(0, MAGIC.length);
    if (OLDER_MAGICS.some((older) => magic.equals(older)))
      throw new SnapshotFileError(file, 'other-format', "instantané d'un format plus ancien");
    if (!magic.equals(MAGIC)) throw damaged("ce n'est pas un instantané EVO");
    if (size < PREAMBLE_BYTES + 4 + 4 + HASH_BYTES) throw damaged('instantané tronqué');
    await input.need(PREAMBLE_BYTES);
    const blockBytes = input.bytes(MAGIC.length, PREAMBLE_BYTES).readUInt32LE(0);
    // a damaged size could ask for billions of blocks: a writer never makes more than a million
    if (blockBytes < MIN_HASH_BLOCK_BYTES || hashed / blockBytes > 1 << 20)
      throw damaged('taille de bloc de la somme de contrôle invalide');
    const sums = (hash = new BackgroundHash(hashed, blockBytes));
    for (const [shared, start] of early.splice(0)) sums.add(shared, start, shared.byteLength);
    let at = PREAMBLE_BYTES;
    /** the next frame's bytes (a view of its piece, or a copy when it spans two) */
    const next = async (): Promise<Buffer> => {
      await input.need(at + 4);
      if (at + 4 > framesEnd) throw damaged('trame manquante');
      const len = input.bytes(at, at + 4).readUInt32LE(0);
      if (at + 4 + len > framesEnd) throw damaged('trame tronquée');
      await input.need(at + 4 + len);
      const payload = input.bytes(at + 4, at + 4 + len);
      at += 4 + len;
      // the frames keep what they need of a piece
      input.release(at);
      return payload;
    };
    let header: Header<M>;
    try {
      header = deserialize(await next()) as Header<M>;
    } catch (e) {
      if (e instanceof SnapshotFileError) throw e;
      throw damaged(`illisible (${(e as Error).message})`);
    }
    const frames: Buffer[] = [];
    while (at < framesEnd) frames.push(await next());
    await input.need(size);
    if (input.bytes(framesEnd, hashed).readUInt32LE(0) !== END) throw damaged('fichier tronqué (fin absente)');
    if (!(await sums.digest).equals(input.bytes(hashed, size))) throw damaged('somme de contrôle fausse');
    if (!Array.isArray(header?.collections)) throw damaged('en-tête illisible');
    const image = new EncodedImage(
      file,
      header.collections.map(({ name, indexes, count }) => ({ name, indexes, count })),
      header.collections.map((c) => c.orders ?? []),
      frames,
      header.orderCode,
    );
    return { meta: header.meta, image, bytes: size };
  } finally {
    await pieces?.settle();
    hash?.stop();
    await fh.close();
  }
}

/**
 * Read a snapshot written by writeMemorySnapshot, every document decoded (openMemorySnapshot,
 * then EncodedImage.decodeAll). Throws SnapshotFileError (missing, damaged, or written in an older
 * format) instead of answering part of a file.
 */
export async function readMemorySnapshot<M>(
  file: string,
  options: { pieceBytes?: number } = {},
): Promise<{ meta: M; image: MemoryStoreImage; bytes: number }> {
  const { meta, image, bytes } = await openMemorySnapshot<M>(file, options);
  return { meta, image: image.decodeAll(), bytes };
}
