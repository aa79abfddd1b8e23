import { DuplicateKeyError, type Doc, type ReadCollection, type ReadStore } from '@evo/infra';

/**
 * A ReadStore whose transactions fail the way MongoDB's do after a duplicate key: the error
 * aborts the transaction even when `fn` catches it, every later operation in it fails
 * (NoSuchTransaction) and so does the commit. The memory store alone would let a projector that
 * inserts-and-catches look correct.
 */
export function withMongoTransactionAborts(inner: ReadStore): ReadStore & { duplicateKeys: number } {
  const outer = {
    duplicateKeys: 0,
    collection: <T extends Doc = Doc>(name: string) => inner.collection<T>(name),
    listCollections: () => inner.listCollections(),
    dropAll: () => inner.dropAll(),
    close: () => inner.close(),
    async withTransaction<R>(fn: (tx: ReadStore) => Promise<R>): Promise<R> {
      return inner.withTransaction(async (tx) => {
        let aborted: DuplicateKeyError | undefined;
        const guard = <T extends Doc>(coll: ReadCollection<T>): ReadCollection<T> =>
          new Proxy(coll, {
            get(target, prop, receiver) {
              const value: unknown = Reflect.get(target, prop, receiver);
              if (typeof value !== 'function') return value;
              return async (...args: unknown[]) => {
                if (aborted)
                  throw new Error(`NoSuchTransaction: aborted by an earlier duplicate key (${aborted.message})`);
                try {
                  return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
                } catch (err) {
                  if (err instanceof DuplicateKeyError) {
                    aborted = err;
                    outer.duplicateKeys += 1;
                  }
                  throw err;
                }
              };
            },
          });
        const txStore: ReadStore = {
          collection: <T extends Doc = Doc>(name: string) => guard(tx.collection<T>(name)),
          listCollections: () => tx.listCollections(),
          withTransaction: (inner2) => inner2(txStore),
          dropAll: () => tx.dropAll(),
          close: async () => undefined,
        };
        const result = await fn(txStore);
        if (aborted)
          throw new Error(`NoSuchTransaction: cannot commit, aborted by a duplicate key (${aborted.message})`);
        return result;
      });
    },
  };
  return outer;
}
