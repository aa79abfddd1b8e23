import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { walChanges, WalNotUnderstood } from './wal-pages';

const dirs: string[] = [];
const open: Database.Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A table of 50 rows whose writes stay in the -wal (the connection kept open, no checkpoint). */
function fileWithWal() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'evo-wal-pages-'));
  dirs.push(dir);
  const file = path.join(dir, 'db.sqlite');
  const db = new Database(file);
  open.push(db);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
  db.pragma('wal_checkpoint(TRUNCATE)');
  const insert = db.prepare('INSERT INTO t (id, v) VALUES (?, ?)');
  for (let i = 1; i <= 50; i++) insert.run(i, `valeur-${i}`);
  return { file, wal: `${file}-wal` };
}

describe('walChanges', () => {
  it('names the rows on the table pages the -wal holds', () => {
    const { file } = fileWithWal();
    const changes = walChanges(file)!;
    expect([...changes.rowids].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(changes.unattributed).toEqual([]);
  });

  it('a byte of a frame changed in place: not understood (its checksum fails)', () => {
    const { file, wal } = fileWithWal();
    const bytes = readFileSync(wal);
    const at = bytes.lastIndexOf('valeur-25');
    bytes.write('valeur-2x', at);
    writeFileSync(wal, bytes);
    expect(() => walChanges(file)).toThrow(WalNotUnderstood);
  });

  it('a header whose checksum fails, or bytes that are not a whole frame: not understood', () => {
    const { file, wal } = fileWithWal();
    const bytes = readFileSync(wal);
    writeFileSync(wal, Buffer.concat([bytes, Buffer.alloc(10)]));
    expect(() => walChanges(file)).toThrow(/trame incomplète/);
    bytes[12] ^= 1;
    writeFileSync(wal, bytes);
    expect(() => walChanges(file)).toThrow(/en-tête/);
  });

  it('an -shm index that counts more frames than the -wal holds: not understood', () => {
    const { file, wal } = fileWithWal();
    const bytes = readFileSync(wal);
    const frameSize = 24 + bytes.readUInt32BE(8);
    // the last frame re-salted: a reading of the -wal alone stops before it, SQLite's index does not
    const last = bytes.length - frameSize;
    bytes.writeUInt32BE((bytes.readUInt32BE(16) - 1) >>> 0, last + 8);
    writeFileSync(wal, bytes);
    expect(() => walChanges(file)).toThrow(/index -shm/);
  });
});
