import { readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import {
  SqliteReadStore,
  ReadModelFormatError,
  childLogger,
  makePrivateDir,
  writeFileAtomically,
  type Config,
  type ReadStore,
} from '@evo/infra';
import { FollowingReadStore, MongoReadModelGenerations } from './mongo-generations';

const log = childLogger('read-models');

/** What the embedded process keeps of its read models: the set queries use, and fresh ones for rebuilds. */
export interface ReadModelGenerations {
  /** the read models as they are (opened once) */
  current(): ReadStore;
  /** an empty set beside the current one, for a rebuild; `promote` makes it the current one for good */
  fresh(): Promise<FreshReadModels>;
  /** the current set is unusable (damaged): set it aside and start an empty one */
  replaceDamaged(reason: string): ReadStore;
  /**
   * A set another process made current since this one opened its own (`npm run replay` beside a
   * running server): to be caught up and switched to, then `promote`d (which removes the old one).
   */
  newerSet?(): Promise<FreshReadModels | undefined>;
  /** what the generations hold open beyond the read models themselves (MongoDB: the pointer's connection) */
  close?(): Promise<void>;
}

export interface FreshReadModels {
  store: ReadStore;
  /** from now on (and after a restart) this set is the current one; the previous one is removed once closed */
  promote(): Promise<void>;
  /** a failed rebuild: close and remove it */
  discard(): Promise<void>;
}

const POINTER = 'read-models.current';
const FIRST = 'read-models.sqlite';
/** files of the in-memory store that came before (snapshots and the gift credits' checkpoint) */
const LEGACY = /^(read-models\.snapshot.*|gift-credits\.checkpoint.*)$/;
const GENERATION = /^read-models(-\d+)?\.sqlite$/;

const removeDatabase = (file: string) => {
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
};

/**
 * The embedded read models in DATA_DIR: SQLite files, one per generation. `read-models.current`
 * names the one in use (`read-models.sqlite` until the first rebuild); a rebuild fills
 * `read-models-<n>.sqlite` beside it while the current one answers, then the pointer is replaced
 * atomically (writeFileAtomically) and the old file removed. A crash before the pointer moved
 * leaves the old set current and the new file a stray, removed at the next start.
 */
export class SqliteReadModelFiles implements ReadModelGenerations {
  private opened: SqliteReadStore | undefined;

  constructor(private readonly dataDir: string) {}

  private get pointer(): string {
    return path.join(this.dataDir, POINTER);
  }

  /** The file the pointer names (a name only, never a path out of DATA_DIR). */
  currentFile(): string {
    let name = FIRST;
    try {
      const named = readFileSync(this.pointer, 'utf8').trim();
      if (GENERATION.test(named)) name = named;
    } catch {
      // no pointer yet: the first file
    }
    return path.join(this.dataDir, name);
  }

  /**
   * Leftovers removed: generations that are not current (an interrupted rebuild), and the files
   * of the in-memory store of earlier versions (their read models are rebuilt from the log once).
   */
  sweep(): void {
    const current = path.basename(this.currentFile());
    let names: string[] = [];
    try {
      names = readdirSync(this.dataDir);
    } catch {
      return;
    }
    for (const name of names) {
      const base = name.replace(/-(wal|shm)$/, '');
      if (GENERATION.test(base) && base !== current) {
        rmSync(path.join(this.dataDir, name), { force: true });
        log.info({ file: name }, 'modèles de lecture : fichier d’une reconstruction interrompue supprimé');
      } else if (LEGACY.test(name)) {
        rmSync(path.join(this.dataDir, name), { force: true });
        log.info({ file: name }, 'modèles de lecture : fichier de l’ancien stockage en mémoire supprimé');
      }
    }
  }

  current(): SqliteReadStore {
    if (this.opened) return this.opened;
    this.sweep();
    const file = this.currentFile();
    try {
      this.opened = openChecked(file);
    } catch (err) {
      // an earlier version's file is not damaged, only outdated: nothing in it is worth keeping
      this.opened =
        err instanceof ReadModelFormatError && err.older
          ? this.replaceOutdated(file)
          : this.setAside(file, (err as Error).message);
    }
    return this.opened;
  }

  replaceDamaged(reason: string): ReadStore {
    const file = this.opened?.file ?? this.currentFile();
    const closing = this.opened;
    this.opened = undefined;
    void closing?.close().catch(() => undefined);
    this.opened = this.setAside(file, reason);
    return this.opened;
  }

  /** Removes a file an earlier version wrote in its own format and opens an empty one in its place. */
  private replaceOutdated(file: string): SqliteReadStore {
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
    log.info(
      { file },
      'modèles de lecture au format d’une version précédente : fichier supprimé, reconstruction depuis le journal',
    );
    return openChecked(file);
  }

  /** Renames a damaged file aside (kept for a look, never deleted) and opens an empty one in its place. */
  private setAside(file: string, reason: string): SqliteReadStore {
    const aside = `${file}.illisible-${Date.now()}`;
    for (const suffix of ['', '-wal', '-shm']) {
      try {
        renameSync(file + suffix, aside + suffix);
      } catch {
        // absent
      }
    }
    log.warn(
      { file, aside, reason },
      `modèles de lecture illisibles (${reason}) : fichier mis de côté, reconstruction depuis le journal`,
    );
    return new SqliteReadStore(file);
  }

  async newerSet(): Promise<FreshReadModels | undefined> {
    const file = this.currentFile();
    if (!this.opened || file === this.opened.file) return undefined;
    const store = openChecked(file);
    return {
      store,
      promote: async () => {
        const previous = this.opened;
        this.opened = store;
        if (previous) {
          await previous.close();
          removeDatabase(previous.file);
        }
      },
      discard: () => store.close(),
    };
  }

  async fresh(): Promise<FreshReadModels> {
    const current = path.basename(this.currentFile());
    const n = Number(/-(\d+)\./.exec(current)?.[1] ?? 1) + 1;
    const file = path.join(this.dataDir, `read-models-${n}.sqlite`);
    removeDatabase(file);
    const store = new SqliteReadStore(file);
    return {
      store,
      // the previous set is removed by whoever has it open (here, or a running server that
      // switches to this one); if nobody has, the next start sweeps it
      promote: async () => {
        const previous = this.opened;
        await writeFileAtomically(this.pointer, (fh) => fh.writeFile(`${path.basename(file)}\n`));
        this.opened = store;
        if (previous) {
          await previous.close();
          removeDatabase(previous.file);
        }
      },
      discard: async () => {
        await store.close();
        removeDatabase(file);
      },
    };
  }
}

/**
 * Opens a read-model file, refusing one SQLite cannot trust: not a database, of another format,
 * or shorter than its header says (truncated). Damage further in is found when a page is read.
 */
function openChecked(file: string): SqliteReadStore {
  const store = new SqliteReadStore(file);
  try {
    const pages = store.pageCount();
    const size = statSync(file).size;
    // pages still in the WAL (after a crash) are not in the file yet
    if (!pages.wal && size < pages.count * pages.size)
      throw new Error(`fichier tronqué (${size} octets sur ${pages.count * pages.size})`);
    return store;
  } catch (err) {
    void store.close();
    throw err;
  }
}

/**
 * The read models to query: on MongoDB the database the generations' pointer names, followed
 * when a rebuild switches to another (an API process: the projections service writes); else the
 * embedded SQLite file in use.
 */
export async function openReadStore(config: Config): Promise<ReadStore> {
  if (!config.MONGO_URL) return embedded(config).current();
  return FollowingReadStore.open(await MongoReadModelGenerations.open(config.MONGO_URL));
}

/** The read models and their rebuilds: SQLite files in DATA_DIR, or MongoDB databases. */
export async function openReadModelGenerations(config: Config): Promise<ReadModelGenerations> {
  if (config.MONGO_URL) return MongoReadModelGenerations.open(config.MONGO_URL);
  return embedded(config);
}

function embedded(config: Config): SqliteReadModelFiles {
  makePrivateDir(config.DATA_DIR);
  return new SqliteReadModelFiles(config.DATA_DIR);
}
