import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import { endianness } from 'node:os';

/**
 * What a SQLite write-ahead log (-wal) changes in its database, read as SQLite's recovery reads it
 * (https://www.sqlite.org/fileformat2.html#walformat): the frames whose salts match the header and
 * whose running checksum holds, up to the last commit frame; the latest image of each page.
 */
export interface WalChanges {
  /** the positions (rowids) stored on the table leaf pages the log holds, page 1 left out */
  rowids: Set<number>;
  /** page 1 (the file header and the schema table) is among the pages */
  schemaPage: boolean;
  /**
   * a page the log holds that is none of: a b-tree page, an overflow page of a cell on one of the
   * log's table leaf pages (an overflow page changed alone, or a free page: what it belongs to is
   * unknown without walking the whole file)
   */
  unattributed: number[];
  /** pages the log holds */
  pages: number;
}

const HEADER = 32;
const FRAME_HEADER = 24;

/**
 * A -wal (or its index, the -shm) this parser does not fully account for: the start must not
 * trust its own reading of it, since SQLite may read it otherwise (see walChanges).
 */
export class WalNotUnderstood extends Error {}

interface CommittedFrames {
  pageSize: number;
  /** the latest committed image of each page */
  pages: Map<number, Buffer>;
  /** the number of frames up to the last commit frame (SQLite's mxFrame) */
  frames: number;
  /** the running checksum after that frame, and the header's salts, as the -shm keeps them */
  checksum: [number, number];
  salts: Buffer;
}

/**
 * The pages of the committed frames of `walFile`, read as SQLite's recovery reads it; throws
 * WalNotUnderstood for anything else than SQLite itself leaves: a bad header or header checksum, a
 * frame carrying the header's salts whose checksum fails or that follows a frame of an older
 * generation, bytes that are not whole frames.
 */
function committedPages(walFile: string): CommittedFrames | undefined {
  if (!existsSync(walFile)) return undefined;
  const wal = readFileSync(walFile);
  if (wal.length === 0) return undefined;
  const notUnderstood = (why: string) => new WalNotUnderstood(`le journal -wal n'est pas lisible tel quel (${why})`);
  if (wal.length < HEADER) throw notUnderstood('en-tête tronqué');
  const magic = wal.readUInt32BE(0);
  if (magic !== 0x377f0682 && magic !== 0x377f0683) throw notUnderstood('signature inconnue');
  const bigEndian = (magic & 1) === 1;
  const pageSize = wal.readUInt32BE(8) === 1 ? 65536 : wal.readUInt32BE(8);
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) throw notUnderstood('taille de page');
  const salt1 = wal.readUInt32BE(16);
  const salt2 = wal.readUInt32BE(20);
  let [s0, s1] = checksum(wal, 0, 24, 0, 0, bigEndian);
  if (s0 !== wal.readUInt32BE(24) || s1 !== wal.readUInt32BE(28)) throw notUnderstood("somme de contrôle de l'en-tête");
  if ((wal.length - HEADER) % (FRAME_HEADER + pageSize) !== 0) throw notUnderstood('trame incomplète');
  const pages = new Map<number, Buffer>();
  let uncommitted = new Map<number, Buffer>();
  let frames = 0;
  let committedChecksum: [number, number] = [s0, s1];
  let olderGeneration = false;
  for (let at = HEADER, frame = 1; at < wal.length; at += FRAME_HEADER + pageSize, frame++) {
    const current = wal.readUInt32BE(at + 8) === salt1 && wal.readUInt32BE(at + 12) === salt2;
    if (!current) {
      // frames left by an earlier generation of the log: SQLite stops at the first one
      olderGeneration = true;
      continue;
    }
    if (olderGeneration) throw notUnderstood(`trame ${frame} après une trame plus ancienne`);
    [s0, s1] = checksum(wal, at, 8, s0, s1, bigEndian);
    [s0, s1] = checksum(wal, at + FRAME_HEADER, pageSize, s0, s1, bigEndian);
    if (s0 !== wal.readUInt32BE(at + 16) || s1 !== wal.readUInt32BE(at + 20))
      throw notUnderstood(`somme de contrôle de la trame ${frame}`);
    uncommitted.set(wal.readUInt32BE(at), wal.subarray(at + FRAME_HEADER, at + FRAME_HEADER + pageSize));
    if (wal.readUInt32BE(at + 4) !== 0) {
      for (const [n, page] of uncommitted) pages.set(n, page);
      uncommitted = new Map();
      frames = frame;
      committedChecksum = [s0, s1];
    }
  }
  return { pageSize, pages, frames, checksum: committedChecksum, salts: wal.subarray(16, 24) };
}

const WAL_INDEX_HEADER = 48;

/**
 * The -shm's header (https://www.sqlite.org/walformat.html, "The WAL-Index Header"), which a
 * connection opening the file uses instead of reading the -wal again whenever another connection
 * keeps the file open: throws WalNotUnderstood unless it says what `committed` says (the same
 * last commit frame, salts and running checksum), so that the pages checked are those SQLite serves.
 */
function checkWalIndex(shmFile: string, committed: CommittedFrames | undefined): void {
  const differs = (why: string) => new WalNotUnderstood(`l'index -shm ne correspond pas au journal -wal (${why})`);
  const header = readWalIndexHeader(shmFile, 2 * WAL_INDEX_HEADER);
  if (!header) {
    if (committed && committed.frames > 0) throw differs('index absent');
    return;
  }
  const { shm, u32 } = header;
  if (shm.length < 2 * WAL_INDEX_HEADER) throw differs('en-tête tronqué');
  if (!shm.subarray(0, WAL_INDEX_HEADER).equals(shm.subarray(WAL_INDEX_HEADER))) throw differs('deux en-têtes');
  if (u32(0) !== 3007000 || shm[12] !== 1) throw differs('version');
  // the header's checksum is in the native byte order, as SQLite writes it
  const [c0, c1] = checksum(shm, 0, 40, 0, 0, endianness() === 'BE');
  if (c0 !== u32(40) || c1 !== u32(44)) throw differs("somme de contrôle de l'en-tête");
  const mxFrame = u32(16);
  const frames = committed?.frames ?? 0;
  if (mxFrame !== frames) throw differs(`${mxFrame} trame(s) validée(s) selon l'index, ${frames} selon le journal`);
  if (frames === 0) return;
  if (!shm.subarray(32, 40).equals(committed!.salts)) throw differs('sels');
  if (u32(24) !== committed!.checksum[0] || u32(28) !== committed!.checksum[1]) throw differs('somme de contrôle');
}

/** SQLite's WAL checksum over `length` bytes (a multiple of 8) from `at`, continuing (s0, s1). */
function checksum(b: Buffer, at: number, length: number, s0: number, s1: number, bigEndian: boolean): [number, number] {
  for (let i = at; i < at + length; i += 8) {
    const x0 = bigEndian ? b.readUInt32BE(i) : b.readUInt32LE(i);
    const x1 = bigEndian ? b.readUInt32BE(i + 4) : b.readUInt32LE(i + 4);
    s0 = (s0 + x0 + s1) >>> 0;
    s1 = (s1 + x1 + s0) >>> 0;
  }
  return [s0, s1];
}

/** A SQLite varint at `at`: its value (rowids and sizes here fit a double exactly) and its length. */
function varint(b: Buffer, at: number): [number, number] {
  let v = 0;
  for (let i = 0; i < 8; i++) {
    const byte = b[at + i];
    v = v * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return [v, i + 1];
  }
  return [v * 256 + b[at + 8], 9];
}

const TABLE_LEAF = 0x0d;
const BTREE_PAGES = new Set([0x02, 0x05, 0x0a, TABLE_LEAF]);

/**
 * The changes `walFile` makes to `dbFile` (its main file, read for the pages of overflow chains the
 * log does not hold); undefined when there is no log to apply. Throws WalNotUnderstood when the
 * -wal holds anything else than SQLite leaves there, or when its index (the -shm, read with the
 * file open: SQLite has recovered it or taken it as another connection kept it) does not say what
 * the -wal says.
 */
export function walChanges(dbFile: string, walFile = `${dbFile}-wal`): WalChanges | undefined {
  const committed = committedPages(walFile);
  checkWalIndex(`${dbFile}-shm`, committed);
  if (!committed || committed.pages.size === 0) return undefined;
  const { pageSize, pages } = committed;
  const fd = openSync(dbFile, 'r');
  try {
    const header = Buffer.alloc(100);
    readSync(fd, header, 0, 100, 0);
    const usable = pageSize - (pages.get(1)?.[20] ?? header[20]);
    const pageAt = (n: number): Buffer => {
      const inWal = pages.get(n);
      if (inWal) return inWal;
      const b = Buffer.alloc(pageSize);
      readSync(fd, b, 0, pageSize, (n - 1) * pageSize);
      return b;
    };
    const rowids = new Set<number>();
    const attributed = new Set<number>();
    for (const [n, page] of pages) {
      const hdr = n === 1 ? 100 : 0;
      if (!BTREE_PAGES.has(page[hdr])) continue;
      attributed.add(n);
      if (page[hdr] !== TABLE_LEAF || n === 1) continue;
      const cells = page.readUInt16BE(hdr + 3);
      for (let c = 0; c < cells; c++) {
        const cell = page.readUInt16BE(hdr + 8 + 2 * c);
        const [payload, a] = varint(page, cell);
        const [rowid, b] = varint(page, cell + a);
        rowids.add(rowid);
        // the cell's overflow chain (fileformat2, "Cell Payload Overflow Pages")
        const maxLocal = usable - 35;
        if (payload <= maxLocal) continue;
        const minLocal = Math.floor(((usable - 12) * 32) / 255) - 23;
        const k = minLocal + ((payload - minLocal) % (usable - 4));
        const local = k <= maxLocal ? k : minLocal;
        let next = page.readUInt32BE(cell + a + b + local);
        for (let left = payload - local; next !== 0 && left > 0; left -= usable - 4) {
          attributed.add(next);
          next = pageAt(next).readUInt32BE(0);
        }
      }
    }
    const unattributed = [...pages.keys()].filter((n) => n !== 1 && !attributed.has(n));
    return { rowids, schemaPage: pages.has(1), unattributed, pages: pages.size };
  } finally {
    closeSync(fd);
  }
}

/**
 * How many frames the -wal holds up to its last commit, as its index (`${dbFile}-shm`, kept by
 * the open connections) says: 0 without an index. Cheap (one read of 48 bytes): asked after commits.
 */
export function walFrames(dbFile: string): number {
  const header = readWalIndexHeader(`${dbFile}-shm`, WAL_INDEX_HEADER);
  return header && header.shm.length === WAL_INDEX_HEADER ? header.u32(16) : 0;
}

/**
 * The first `bytes` of the -shm (fewer if it is shorter), read as SQLite writes it: in the native
 * byte order. Undefined without a -shm.
 */
function readWalIndexHeader(shmFile: string, bytes: number): { shm: Buffer; u32: (at: number) => number } | undefined {
  let fd: number;
  try {
    fd = openSync(shmFile, 'r');
  } catch {
    return undefined;
  }
  let shm: Buffer;
  try {
    const buffer = Buffer.alloc(bytes);
    shm = buffer.subarray(0, readSync(fd, buffer, 0, bytes, 0));
  } finally {
    closeSync(fd);
  }
  const le = endianness() === 'LE';
  return { shm, u32: (at) => (le ? shm.readUInt32LE(at) : shm.readUInt32BE(at)) };
}
