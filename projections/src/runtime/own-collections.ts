import type { Doc, ReadCollection, ReadStore } from '@evo/infra';
import type { Projector } from './projector';

/** A projector wrote to a collection it does not list in `collections`: one writer per document broken. */
export class ForeignWriteError extends Error {
  constructor(projector: string, collection: string) {
    super(`le projecteur « ${projector} » écrit dans « ${collection} », qui ne fait pas partie de ses collections`);
    this.name = 'ForeignWriteError';
  }
}

function readOnly<T extends Doc>(coll: ReadCollection<T>, projector: string): ReadCollection<T> {
  const refuse = () => Promise.reject(new ForeignWriteError(projector, coll.name));
  return {
    name: coll.name,
    findOne: (filter, options) => coll.findOne(filter, options),
    find: (filter, options) => coll.find(filter, options),
    countDocuments: (filter) => coll.countDocuments(filter),
    insertOne: refuse,
    updateOne: refuse,
    updateMany: refuse,
    replaceOne: refuse,
    deleteOne: refuse,
    deleteMany: refuse,
    bulkWrite: refuse,
    createIndex: refuse,
    drop: refuse,
  };
}

/**
 * The store a projector is handed: its own collections as they are, every other one read-only
 * (a write rejects with ForeignWriteError). So each read-model document has one writer, and no
 * projector depends on another having run first for the same event.
 */
export function ownCollectionsOnly(store: ReadStore, projector: Pick<Projector, 'name' | 'collections'>): ReadStore {
  const own = new Set(projector.collections);
  const refuse = (what: string) => () => Promise.reject(new ForeignWriteError(projector.name, what));
  return {
    collection: <T extends Doc>(name: string) =>
      own.has(name) ? store.collection<T>(name) : readOnly(store.collection<T>(name), projector.name),
    listCollections: () => store.listCollections(),
    withTransaction: (fn) => store.withTransaction((tx) => fn(ownCollectionsOnly(tx, projector))),
    dropAll: refuse('*'),
    close: refuse('*'),
  };
}
