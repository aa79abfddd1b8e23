import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { makePrivateDatabaseFile } from '../files/private-files';
import type { SessionData, SessionStore } from './port';

/** Expired rows are removed at most this often, on a write. */
const SWEEP_EVERY_MS = 10 * 60_000;
/** sessions (and row keys) kept in memory, the least recently used forgotten first */
const CACHE_SIZE = 10_000;

/** a session's row key: a SHA-256 of its id */
const rowKey = (id: string) => createHash('sha256').update(id).digest('base64url');

interface Cached {
  /** the row key: a SHA-256 of the session id */
  key: string;
  /** the session as stored, undefined when the store has no live row for it */
  data?: SessionData;
  expiresAt: number;
}

/** A write waiting for the next group: `data` undefined deletes the row. */
interface PendingWrite {
  key: string;
  data?: string;
  expiresAt: number;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Sessions of the embedded single process in a SQLite file of its DATA_DIR (`sessions.sqlite`),
 * so a restart logs nobody out. Rows are keyed by a SHA-256 of the session id: a copy of the file
 * gives no cookie. A session expires `ttlSeconds` after its last write, as in Redis.
 *
 * The file has one writer, this store (the distributed stack keeps its sessions in Redis), so what
 * it read or wrote lately is answered from memory: a request's session costs no query. Writes
 * (every command notes its position for read-your-writes) are grouped: those made within one turn
 * of the event loop go into one transaction, and each resolves once that transaction is committed.
 */
export class SqliteSessionStore implements SessionStore {
  private readonly db: Database.Database;
  private readonly statements: {
    get: Database.Statement<[string]>;
    set: Database.Statement<[string, string, number]>;
    destroy: Database.Statement<[string]>;
    ofUser: Database.Statement<[string]>;
    sweep: Database.Statement<[number]>;
  };
  private readonly writeGroup: Database.Transaction<(writes: PendingWrite[]) => void>;
  private lastSweep = 0;
  /** session id → its row key and row, most recently used last */
  private readonly recent = new Map<string, Cached>();
  private pending: PendingWrite[] = [];

  constructor(
    readonly filePath: string,
    private readonly now: () => number = Date.now,
  ) {
    makePrivateDatabaseFile(filePath);
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
      ofUser: this.db.prepare("SELECT key FROM sessions WHERE json_extract(data, '$.userId') = ?"),
      sweep: this.db.prepare('DELETE FROM sessions WHERE expires_at <= ?'),
    };
    this.writeGroup = this.db.transaction((writes: PendingWrite[]) => {
      for (const w of writes) {
        if (w.data === undefined) this.statements.destroy.run(w.key);
        else this.statements.set.run(w.key, w.data, w.expiresAt);
      }
    });
  }

  /** The cached entry of a session id (created with its row key when absent), now the most recent. */
  private entry(id: string): Cached {
    let entry = this.recent.get(id);
    if (entry) {
      this.recent.delete(id);
    } else {
      entry = { key: rowKey(id), expiresAt: 0 };
      if (this.recent.size >= CACHE_SIZE) this.recent.delete(this.recent.keys().next().value!);
    }
    this.recent.set(id, entry);
    return entry;
  }

  async get(id: string): Promise<SessionData | undefined> {
    return this.read(id);
  }

  private read(id: string): SessionData | undefined {
    const known = this.recent.get(id);
    const entry = this.entry(id);
    if (!known) {
      // not seen lately: the row as the file has it
      const row = this.statements.get.get(entry.key) as { data: string; expires_at: number } | undefined;
      if (row) {
        entry.data = JSON.parse(row.data) as SessionData;
        entry.expiresAt = row.expires_at;
      }
    }
    if (!entry.data) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.write(entry, undefined).catch(() => undefined);
      return undefined;
    }
    return { ...entry.data };
  }

  set(id: string, data: SessionData, ttlSeconds: number): Promise<void> {
    return this.write(this.entry(id), { ...data }, this.now() + ttlSeconds * 1000);
  }

  async update(id: string, data: SessionData, ttlSeconds: number): Promise<void> {
    // the cache holds every write queued so far: an ending queued before this is seen
    if (this.read(id) !== undefined) await this.set(id, data, ttlSeconds);
  }

  destroy(id: string): Promise<void> {
    return this.write(this.entry(id), undefined);
  }

  async destroyAllOf(userId: string, keepId?: string): Promise<void> {
    // what is queued is written first, so that the file holds every session of the member
    this.flush();
    const keepKey = keepId === undefined ? undefined : rowKey(keepId);
    const keys = (this.statements.ofUser.all(userId) as Array<{ key: string }>)
      .map((r) => r.key)
      .filter((k) => k !== keepKey);
    for (const entry of this.recent.values()) {
      if (entry.key !== keepKey && entry.data?.userId === userId) {
        entry.data = undefined;
        entry.expiresAt = 0;
      }
    }
    const ended = Promise.all(keys.map((key) => this.write({ key, expiresAt: 0 }, undefined)));
    // in the file at once: a session not in memory is read from it
    this.flush();
    await ended;
  }

  /** Changes the cached entry at once and queues its row's write (undefined: delete) for the next group. */
  private write(entry: Cached, data: SessionData | undefined, expiresAt = 0): Promise<void> {
    entry.data = data;
    entry.expiresAt = expiresAt;
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ key: entry.key, data: data && JSON.stringify(data), expiresAt, resolve, reject });
      if (this.pending.length === 1) setImmediate(this.flush);
    });
  }

  /** Writes every queued change in one transaction, in the order they were made. */
  private readonly flush = (): void => {
    const writes = this.pending;
    if (writes.length === 0) return;
    this.pending = [];
    try {
      if (!this.db.open) throw new Error('SqliteSessionStore is closed');
      this.writeGroup.immediate(writes);
      const now = this.now();
      if (now - this.lastSweep >= SWEEP_EVERY_MS) {
        this.lastSweep = now;
        this.statements.sweep.run(now);
      }
    } catch (err) {
      // what the file does not hold is not remembered either: the next reads ask the file
      this.recent.clear();
      for (const w of writes) w.reject(err);
      return;
    }
    for (const w of writes) w.resolve();
  };

  async close(): Promise<void> {
    this.flush();
    if (this.db.open) this.db.close();
  }
}
