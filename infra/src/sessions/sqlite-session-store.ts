import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import type { SessionData, SessionStore } from './port';

/** Expired rows are removed at most this often, on a write. */
const SWEEP_EVERY_MS = 10 * 60_000;
/** session ids whose row key is kept in memory */
const KEY_CACHE_SIZE = 10_000;

/**
 * Sessions of the embedded single process in a SQLite file of its DATA_DIR (`sessions.sqlite`),
 * so a restart logs nobody out. Rows are keyed by a SHA-256 of the session id: a copy of the file
 * gives no cookie. A session expires `ttlSeconds` after its last write, as in Redis.
 */
export class SqliteSessionStore implements SessionStore {
  private readonly db: Database.Database;
  private readonly statements: {
    get: Database.Statement<[string]>;
    set: Database.Statement<[string, string, number]>;
    destroy: Database.Statement<[string]>;
    sweep: Database.Statement<[number]>;
  };
  private lastSweep = 0;
  /**
   * the row keys of the session ids seen lately (a SHA-256 per request was 1 % of a gift send's
   * CPU): bounded, the oldest forgotten first; a pure function of the id, so never stale
   */
  private readonly keys = new Map<string, string>();

  constructor(
    readonly filePath: string,
    private readonly now: () => number = Date.now,
  ) {
    this.db = new Database(filePath, { timeout: 5000 });
    this.db.pragma('journal_mode = WAL');
    // a session lost in a power cut costs one login; no fsync on every request
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(
      'CREATE TABLE IF NOT EXISTS sessions (key TEXT PRIMARY KEY, data TEXT NOT NULL, expires_at INTEGER NOT NULL)',
    );
    this.db.exec('CREATE INDEX IF NOT EXISTS sessions_expiry ON sessions (expires_at)');
    this.statements = {
      get: this.db.prepare('SELECT data, expires_at FROM sessions WHERE key = ?'),
      set: this.db.prepare(
        'INSERT INTO sessions (key, data, expires_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET data = excluded.data, expires_at = excluded.expires_at',
      ),
      destroy: this.db.prepare('DELETE FROM sessions WHERE key = ?'),
      sweep: this.db.prepare('DELETE FROM sessions WHERE expires_at <= ?'),
    };
  }

  private key(id: string) {
    let key = this.keys.get(id);
    if (key === undefined) {
      key = createHash('sha256').update(id).digest('base64url');
      if (this.keys.size >= KEY_CACHE_SIZE) this.keys.delete(this.keys.keys().next().value!);
      this.keys.set(id, key);
    }
    return key;
  }

  async get(id: string): Promise<SessionData | undefined> {
    const key = this.key(id);
    const row = this.statements.get.get(key) as { data: string; expires_at: number } | undefined;
    if (!row) return undefined;
    if (row.expires_at <= this.now()) {
      this.statements.destroy.run(key);
      return undefined;
    }
    return JSON.parse(row.data) as SessionData;
  }

  async set(id: string, data: SessionData, ttlSeconds: number): Promise<void> {
    const now = this.now();
    this.statements.set.run(this.key(id), JSON.stringify(data), now + ttlSeconds * 1000);
    if (now - this.lastSweep >= SWEEP_EVERY_MS) {
      this.lastSweep = now;
      this.statements.sweep.run(now);
    }
  }

  async destroy(id: string): Promise<void> {
    this.statements.destroy.run(this.key(id));
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
