// A read store that answers every call at once and keeps nothing: the projectors' own work, with
// no store under them (the ceilings of bench-rebuild and bench-live-projection). Reads find
// nothing, so projectors skip what depends on them (a follower's timeline, a sender's pseudo):
// what they cost over it is a lower bound.
import type { Doc, ReadCollection, ReadStore, UpdateResult } from '@evo/infra';

const NOTHING_CHANGED: UpdateResult = { matchedCount: 0, modifiedCount: 0, upsertedCount: 0 };

/** A collection that answers every call at once and keeps nothing (the ceiling's store). */
class KeepsNothingCollection implements ReadCollection {
  constructor(readonly name: string) {}
  async findOne(): Promise<Doc | null> {
    return null;
  }
  async find(): Promise<Doc[]> {
    return [];
  }
  async countDocuments(): Promise<number> {
    return 0;
  }
  async insertOne(): Promise<void> {}
  async updateOne(): Promise<UpdateResult> {
    return NOTHING_CHANGED;
  }
  async updateMany(): Promise<UpdateResult> {
    return NOTHING_CHANGED;
  }
  async replaceOne(): Promise<UpdateResult> {
    return NOTHING_CHANGED;
  }
  async deleteOne(): Promise<{ deletedCount: number }> {
    return { deletedCount: 0 };
  }
  async deleteMany(): Promise<{ deletedCount: number }> {
    return { deletedCount: 0 };
  }
  async bulkWrite(): Promise<void> {}
  async createIndex(): Promise<void> {}
  async drop(): Promise<void> {}
}

export class KeepsNothingStore implements ReadStore {
  private readonly collections = new Map<string, KeepsNothingCollection>();
  collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
    let c = this.collections.get(name);
    if (!c) this.collections.set(name, (c = new KeepsNothingCollection(name)));
    return c as unknown as ReadCollection<T>;
  }
  async listCollections(): Promise<string[]> {
    return [];
  }
  withTransaction<R>(fn: (tx: ReadStore) => Promise<R>): Promise<R> {
    return fn(this);
  }
  async dropAll(): Promise<void> {}
  async close(): Promise<void> {}
}
