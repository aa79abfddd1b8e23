import { randomBytes } from 'node:crypto';
import type { Collection, MongoClient } from 'mongodb';
import { mongodb } from '../distributed-clients';
import { KEY_BYTES, MemberKeyDestroyedError, type KeyStore } from './port';
import { PLATFORM_SECRET_ID } from './sqlite-key-store';

interface KeyDoc {
  _id: string;
  /** null once destroyed */
  key: Buffer | null;
  destroyedAt?: Date;
}

const DUPLICATE_KEY = 11000;

/**
 * The members' keys when the log is on EventStoreDB (which has no place for them): a collection
 * (`member_keys`) in a database of its own (`evo_keys` by default) on the MONGO_URL server, apart
 * from the read models. A destroy sets the key to null; MongoDB (WiredTiger) and FerretDB reuse
 * the freed space but do not overwrite it at once: `compact` the collection, and the journal and
 * backups hold the old document until they are recycled or expire.
 */
export class MongoKeyStore implements KeyStore {
  private readonly client: MongoClient;
  private readonly keys: Collection<KeyDoc>;

  constructor(url: string, options: { dbName?: string } = {}) {
    this.client = new (mongodb().MongoClient)(url);
    this.keys = this.client.db(options.dbName ?? 'evo_keys').collection<KeyDoc>('member_keys');
  }

  /** Connects now, to fail early at start. */
  async ready(): Promise<void> {
    await this.client.connect();
  }

  private static bytes(key: unknown): Buffer {
    // the driver answers BSON binaries as Binary objects
    const b = key as { buffer?: Uint8Array } | Buffer;
    return Buffer.isBuffer(b) ? b : Buffer.from((b as { buffer: Uint8Array }).buffer);
  }

  private async keyOrMake(id: string): Promise<Buffer> {
    let doc = await this.keys.findOne({ _id: id });
    if (!doc) {
      try {
        await this.keys.insertOne({ _id: id, key: randomBytes(KEY_BYTES) });
      } catch (err) {
        // another process made it first: its key is the one
        if ((err as { code?: unknown }).code !== DUPLICATE_KEY) throw err;
      }
      doc = await this.keys.findOne({ _id: id });
      if (!doc) throw new Error(`key of ${id} neither made nor found`);
    }
    if (doc.key === null) throw new MemberKeyDestroyedError(id);
    return MongoKeyStore.bytes(doc.key);
  }

  keyFor(memberId: string): Promise<Buffer> {
    return this.keyOrMake(memberId);
  }

  async find(memberId: string): Promise<Buffer | 'destroyed' | undefined> {
    const doc = await this.keys.findOne({ _id: memberId });
    if (!doc) return undefined;
    return doc.key === null ? 'destroyed' : MongoKeyStore.bytes(doc.key);
  }

  async destroy(memberId: string): Promise<void> {
    await this.keys.updateOne({ _id: memberId }, { $set: { key: null, destroyedAt: new Date() } }, { upsert: true });
  }

  platformSecret(): Promise<Buffer> {
    return this.keyOrMake(PLATFORM_SECRET_ID);
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
