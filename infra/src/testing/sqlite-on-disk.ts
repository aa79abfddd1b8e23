import { readFileSync } from 'node:fs';

/** A SQLite database file and its WAL, as bytes on disk (what a reader of the disk would find). */
export const sqliteBytesOnDisk = (file: string): Buffer =>
  Buffer.concat(
    ['', '-wal'].map((suffix) => {
      try {
        return readFileSync(`${file}${suffix}`);
      } catch {
        return Buffer.alloc(0);
      }
    }),
  );
