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
 *   "EVOSNAP2"                                   8 bytes
 *   frame*: u32 LE length, then that many bytes of v8.serialize output
 *     frame 0: the header { meta, orderCode, collections: [{ name, indexes, count, orders }] }
 *     then, collection after collection (the smallest first), its documents in chunks
 *     (snapshot-chunk.ts: columns and a string table shared by the file), then one frame per
 *     name in `orders`: that index's order as a Uint32Array of document positions
 *   u32 LE 0xFFFFFFFF, then the SHA-256 of every byte before it   36 bytes
 *
 * The chunks keep every value a document can hold as it was (bigint, Dates, undefined, -0, NaN),
 * the meta is v8.serialize's (its position a bigint). The checksum covers the whole file and is
 * compared before a read answers anything: a torn, truncated or altered file never reaches a
 * store. Written to a temporary file beside the target, fsynced, then renamed over it (and the
 * folder fsynced): a reader sees the previous snapshot or the new one, never a part of one.
 */

const MAGIC = Buffer.from('EVOSNAP2');
/** the format before the documents were stored as columns (snapshot-chunk.ts): not read any more */
const OLDER_MAGIC = Buffer.from('EVOSNAP1');
const END = 0xffffffff;
const HASH_BYTES = 32;

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
  options: { chunkDocs?: number } = {},
): Promise<SnapshotWriteStats> {
  const chunkDocs = options.chunkDocs ?? 1000;
  const started = performance.now();
  let maxBlockMs = 0;
  const hash = createHash('sha256');
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
    await fh.write(count(Buffer.concat([MAGIC, frame(serialize(header))])));
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
 * The SHA-256 of the pieces it is given, in order, computed on a worker thread while the reading
 * thread decodes them: the other core hashes. The pieces are shared memory, never written once
 * read, so the bytes hashed are the very bytes decoded.
 */
const HASH_WORKER = `
const { parentPort } = require('node:worker_threads');
const hash = require('node:crypto').createHash('sha256');
parentPort.on('message', (piece) => {
  if (piece !== null) return void hash.update(new Uint8Array(piece.shared, 0, piece.length));
  parentPort.postMessage(hash.digest());
  parentPort.close();
});
`;

class BackgroundHash {
  private readonly worker = new Worker(HASH_WORKER, { eval: true });
  readonly digest = new Promise<Buffer>((resolve, reject) => {
    this.worker.once('message', (digest: Uint8Array) => resolve(Buffer.from(digest)));
    this.worker.once('error', reject);
    this.worker.once('exit', () => reject(new Error('le calcul de la somme de contrôle s’est arrêté')));
  });

  constructor() {
    // read at the end, or dropped with the worker when the file turns out damaged first
    this.digest.catch(() => undefined);
  }

  /** the first `length` bytes of `shared` come next */
  add(shared: SharedArrayBuffer, length: number): void {
    if (length > 0) this.worker.postMessage({ shared, length });
  }

  /** every byte was given: the digest follows */
  end(): void {
    this.worker.postMessage(null);
  }

  stop(): void {
    void this.worker.terminate();
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
    if (size < MAGIC.length + 4 + 4 + HASH_BYTES) throw damaged("ce n'est pas un instantané EVO (ou il est tronqué)");
    /** the checksum covers everything before it; frames end before the end mark */
    const hashed = size - HASH_BYTES;
    const framesEnd = hashed - 4;
    const sums = (hash = new BackgroundHash());
    const input = (pieces = new FilePieces(
      fh,
      size,
      options.pieceBytes ?? PIECE_BYTES,
      (shared, start) => sums.add(shared, Math.min(shared.byteLength, hashed - start)),
      () => damaged('fichier tronqué pendant la lecture'),
    ));
    await input.need(MAGIC.length);
    const magic = input.bytes(0, MAGIC.length);
    if (magic.equals(OLDER_MAGIC))
      throw new SnapshotFileError(file, 'other-format', "instantané d'un format plus ancien");
    if (!magic.equals(MAGIC)) throw damaged("ce n'est pas un instantané EVO");
    let at = MAGIC.length;
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
    sums.end();
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
