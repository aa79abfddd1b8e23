import { MongoReadStore, childLogger, type ReadStore } from '@evo/infra';
import type { FreshReadModels, ReadModelGenerations } from './read-model-files';
import { SwitchableReadStore } from './switchable-read-store';

const log = childLogger('read-models');

/** The pointer document: which database queries use, and which one a rebuild finished beside it. */
interface GenerationPointer {
  _id: 'read-models';
  /** the database queries read (and the projections service writes) */
  current: string;
  /** a database `npm run replay` built, not yet caught up and switched to by the projections service */
  built?: string;
}

/** How long readers may still be on the previous database after a switch before it is dropped. */
const DROP_AFTER_MS = 30_000;

/**
 * The read models on MongoDB: one database per generation, as SqliteReadModelFiles keeps one file
 * per generation. MONGO_URL's database is the first; a rebuild fills `<base>_g<n>` while the
 * current one answers. The pointer lives in `<base>_meta` (a database no generation drops):
 * `npm run replay` sets `built` once its database holds the whole log; the projections service
 * (the one writer) catches that database up, switches to it and sets `current`; the API
 * processes follow `current` (FollowingReadStore). The previous database is dropped by whoever
 * switched, once readers had time to follow; a crash before the pointer moved leaves the old one
 * current, and the stray is emptied by the next rebuild's `fresh()` or dropped by `sweep()` (the
 * projections service's start).
 */
export class MongoReadModelGenerations implements ReadModelGenerations {
  private opened: MongoReadStore | undefined;
  private pointer: GenerationPointer;
  private readonly meta: MongoReadStore;

  private constructor(
    readonly url: string,
    readonly base: string,
    pointer: GenerationPointer,
    meta: MongoReadStore,
  ) {
    this.pointer = pointer;
    this.meta = meta;
  }

  /** Reads the pointer (made on first use: MONGO_URL's own database is the first generation). */
  static async open(url: string): Promise<MongoReadModelGenerations> {
    const base = new MongoReadStore(url).databaseName;
    const meta = new MongoReadStore(url, { dbName: `${base}_meta` });
    const generations = new MongoReadModelGenerations(url, base, { _id: 'read-models', current: base }, meta);
    await generations.refresh();
    return generations;
  }

  private get pointers() {
    return this.meta.db.collection<GenerationPointer>('generations');
  }

  /** The pointer as stored now (and remembered). */
  async refresh(): Promise<GenerationPointer> {
    const found = await this.pointers.findOne({ _id: 'read-models' });
    if (found) this.pointer = found;
    return this.pointer;
  }

  /** `built` set by a process that only builds; `current` (and `built` cleared) by the one that switched. */
  private async setPointer(update: { built: string } | { current: string }): Promise<void> {
    await this.pointers.updateOne(
      { _id: 'read-models' },
      'built' in update
        ? { $set: { built: update.built }, $setOnInsert: { current: this.pointer.current } }
        : { $set: { current: update.current }, $unset: { built: '' } },
      { upsert: true },
    );
    await this.refresh();
  }

  /** The database queries use now. */
  get currentDatabase(): string {
    return this.pointer.current;
  }

  private store(dbName: string): MongoReadStore {
    return new MongoReadStore(this.url, { dbName });
  }

  current(): ReadStore {
    return (this.opened ??= this.store(this.pointer.current));
  }

  /** A MongoDB database is not a file that can be half written: a damaged one is the server's to repair. */
  replaceDamaged(reason: string): ReadStore {
    log.warn({ reason, database: this.pointer.current }, 'modèles de lecture illisibles sur MongoDB');
    return this.current();
  }

  /** The database `npm run replay` built beside the one this process writes, to be caught up and switched to. */
  async newerSet(): Promise<FreshReadModels | undefined> {
    const pointer = await this.refresh();
    const newer = pointer.built ?? pointer.current;
    if (!this.opened || newer === this.opened.databaseName) return undefined;
    return this.generation(this.store(newer));
  }

  async fresh(): Promise<FreshReadModels> {
    const numbers = [this.pointer.current, this.pointer.built ?? ''].map((name) => this.generationNumber(name) ?? 1);
    const store = this.store(`${this.base}_g${Math.max(...numbers) + 1}`);
    // a stray of an interrupted rebuild under the same name starts empty
    await store.dropDatabase();
    return this.generation(store);
  }

  /** n for `<base>_g<n>` (never another database that merely starts alike, such as `<base>_gifts`) */
  private generationNumber(name: string): number | undefined {
    const n = new RegExp(`^${escape(this.base)}_g(\\d+)$`).exec(name)?.[1];
    return n === undefined ? undefined : Number(n);
  }

  private generation(store: MongoReadStore): FreshReadModels {
    return {
      store,
      promote: async () => {
        const previous = this.opened;
        if (!previous) {
          // a process that only builds (npm run replay): the projections service switches to it
          await this.setPointer({ built: store.databaseName });
          await store.close();
          return;
        }
        await this.setPointer({ current: store.databaseName });
        this.opened = store;
        // readers following the pointer switch within their polling period: the old one goes after
        const timer = setTimeout(() => void dropAndClose(previous), DROP_AFTER_MS);
        timer.unref();
        this.pendingDrops.push({ timer, store: previous });
      },
      discard: async () => {
        await store.dropDatabase().catch(() => undefined);
        await store.close();
      },
    };
  }

  private readonly pendingDrops: { timer: NodeJS.Timeout; store: MongoReadStore }[] = [];

  /** Drops what a switch left to drop now (at stop) and closes the meta connection. */
  async close(): Promise<void> {
    for (const { timer, store } of this.pendingDrops.splice(0)) {
      clearTimeout(timer);
      await dropAndClose(store);
    }
    await this.meta.close();
  }

  /** Generations that are neither current nor built: an interrupted rebuild's, or a drop a crash cut short. */
  async sweep(): Promise<string[]> {
    const { databases } = await this.meta.db.admin().listDatabases({ nameOnly: true });
    const keep = new Set([this.pointer.current, this.pointer.built]);
    const stray = databases
      .map((d) => d.name)
      .filter((name) => (name === this.base || this.generationNumber(name) !== undefined) && !keep.has(name));
    for (const name of stray) {
      const store = this.store(name);
      await dropAndClose(store);
      log.info({ database: name }, 'modèles de lecture : base d’une reconstruction interrompue supprimée');
    }
    return stray;
  }
}

async function dropAndClose(store: MongoReadStore): Promise<void> {
  try {
    await store.dropDatabase();
  } catch (err) {
    log.warn({ err, database: store.databaseName }, 'ancienne base des modèles de lecture non supprimée');
  } finally {
    await store.close().catch(() => undefined);
  }
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The read models of an API process on MongoDB: the database the pointer names as current,
 * switched to another when the projections service makes a rebuilt one current (looked for every
 * `everyMs`). The previous connection is closed once queries under way had time to end.
 */
export class FollowingReadStore extends SwitchableReadStore {
  private readonly watcher: NodeJS.Timeout;
  private looking: Promise<void> | undefined;

  private constructor(
    private readonly generations: MongoReadModelGenerations,
    everyMs: number,
  ) {
    super(generations.current());
    this.watcher = setInterval(() => {
      this.looking ??= this.follow()
        .catch((err: unknown) => log.warn({ err }, 'pointeur des modèles de lecture illisible'))
        .finally(() => {
          this.looking = undefined;
        });
    }, everyMs);
    this.watcher.unref();
  }

  static open(generations: MongoReadModelGenerations, everyMs = 2000): FollowingReadStore {
    return new FollowingReadStore(generations, everyMs);
  }

  /** Switches to the database the pointer names, if it is another one. */
  async follow(): Promise<void> {
    const { current } = await this.generations.refresh();
    if ((this.current as MongoReadStore).databaseName === current) return;
    const previous = this.switchTo(new MongoReadStore(this.generations.url, { dbName: current }));
    log.info({ database: current }, 'modèles de lecture reconstruits : requêtes servies par la nouvelle base');
    setTimeout(() => void previous.close().catch(() => undefined), CLOSE_AFTER_MS).unref();
  }

  override async close(): Promise<void> {
    clearInterval(this.watcher);
    await this.looking;
    await super.close();
    await this.generations.close();
  }
}

/** Queries under way on the previous database end well within this. */
const CLOSE_AFTER_MS = 5_000;
