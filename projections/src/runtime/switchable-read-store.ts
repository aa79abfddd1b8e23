import type { Doc, ReadCollection, ReadStore } from '@evo/infra';

/**
 * A ReadStore that forwards every call to its current target and can be switched to another
 * target at once: the product keeps serving from the old read models while new ones are rebuilt
 * beside them, then switches. A collection handed out before a switch follows it too.
 */
export class SwitchableReadStore implements ReadStore {
  constructor(private target: ReadStore) {}

  get current(): ReadStore {
    return this.target;
  }

  /** Serve from `next` from now on; answers the previous target (to be closed by the caller). */
  switchTo(next: ReadStore): ReadStore {
    const previous = this.target;
    this.target = next;
    return previous;
  }

  collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
    // every method looked up on the collection of the target current at the call
    return new Proxy({ name } as ReadCollection<T>, {
      get: (base, key) => {
        if (key === 'name') return name;
        const c = this.target.collection<T>(name);
        const value: unknown = Reflect.get(c, key);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(c) : value;
      },
    });
  }
  listCollections() {
    return this.target.listCollections();
  }
  withTransaction<R>(fn: (tx: ReadStore) => Promise<R>): Promise<R> {
    return this.target.withTransaction(fn);
  }
  dropAll() {
    return this.target.dropAll();
  }
  close() {
    return this.target.close();
  }
}
