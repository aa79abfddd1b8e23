import Database from 'better-sqlite3';

/** Marks a closed read-model file as written in `format` (what an earlier or a later version leaves). */
export function setReadModelFormat(file: string, format: number): void {
  const db = new Database(file);
  try {
    db.prepare(`UPDATE _evo_meta SET value = ? WHERE key = 'format'`).run(format);
  } finally {
    db.close();
  }
}
