import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { makePrivateDatabaseFile } from '../files/private-files';
import { KEY_BYTES, MemberKeyDestroyedError, type KeyStore } from './port';

/** the platform secret's row: no member id starts with '$' (they are uuids) */
export const PLATFORM_SECRET_ID = '$platform';

/**
 * The members' keys of the embedded mode, in a SQLite file of their own in DATA_DIR (`keys.sqlite`),
 * apart from the log: a copy of the log holds no key. `secure_delete` makes SQLite overwrite a
 * destroyed key's bytes in the file, and the WAL is checkpointed and truncated after a destroy so
 * its copy of the page goes too. `synchronous = FULL`: a key is on disk before any event it
 * encrypts is appended (a lost key is lost data).
 */
export class SqliteKeyStore implements KeyStore {
  private readonly db: Database.Database;
  private readonly statements: {
    get: Database.Statement<[string]>;
    insert: Database.Statement<[string, Buffer]>;
    tombstone: Database.Statement<[string, string]>;
  };

  constructor(readonly filePath: string) {
    makePrivateDatabaseFile(filePath);
    this.db = new Database(filePath, { timeout: 5000 });
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('secure_delete = ON');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS member_keys (
        member_id TEXT PRIMARY KEY,
        key BLOB,
        destroyed_at TEXT
      ) WITHOUT ROWID;
    `);
    this.statements = {
      get: this.db.prepare('SELECT key, destroyed_at FROM member_keys WHERE member_id = ?'),
      insert: this.db.prepare('INSERT OR IGNORE INTO member_keys (member_id, key) VALUES (?, ?)'),
      tombstone: this.db.prepare(
        `INSERT INTO member_keys (member_id, key, destroyed_at) VALUES (?, NULL, ?)
         ON CONFLICT (member_id) DO UPDATE SET key = NULL, destroyed_at = coalesce(destroyed_at, excluded.destroyed_at)`,
      ),
    };
  }

  private row(id: string): { key: Buffer | null; destroyed_at: string | null } | undefined {
    return this.statements.get.get(id) as { key: Buffer | null; destroyed_at: string | null } | undefined;
  }

  /** the row's key, made when missing (another process may make it first: its key is the one) */
  private keyOrMake(id: string): Buffer {
    let row = this.row(id);
    if (!row) {
      this.statements.insert.run(id, randomBytes(KEY_BYTES));
      row = this.row(id)!;
    }
    if (row.key === null) throw new MemberKeyDestroyedError(id);
    return row.key;
  }

  async keyFor(memberId: string): Promise<Buffer> {
    return this.keyOrMake(memberId);
  }

  async find(memberId: string): Promise<Buffer | 'destroyed' | undefined> {
    const row = this.row(memberId);
    if (!row) return undefined;
    return row.key ?? 'destroyed';
  }

  async destroy(memberId: string): Promise<void> {
    const row = this.row(memberId);
    if (row && row.key === null) return;
    this.statements.tombstone.run(memberId, new Date().toISOString());
    // the WAL holds the page with the key until a checkpoint copies it back (overwritten there
    // by secure_delete): checkpoint now, and truncate the WAL
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  async platformSecret(): Promise<Buffer> {
    return this.keyOrMake(PLATFORM_SECRET_ID);
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
