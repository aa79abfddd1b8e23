import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { writeFileAtomically } from '../files/atomic-file';
import { PRIVATE_FILE_MODE } from '../files/private-files';
import path from 'node:path';
import type { EventSchema, LogPosition, RecordedEvent } from '@evo/domain';
import { DAMAGED_LOG_ADVICE, DataFileError, UnreadableEventError } from './data-file-error';
import { isSqliteDamage, type SqliteEventStore } from './sqlite-event-store';
import type { EventStore } from './port';
import { walChanges, walFrames, WalNotUnderstood } from './wal-pages';

/** What is wrong with one stored event, in French; undefined when it is sound. */
export function eventProblem(event: RecordedEvent, schemas: Record<string, EventSchema>): string | undefined {
  const schema = schemas[event.type];
  if (!schema) return `son type « ${event.type} » est inconnu de cette version d'EVO`;
  const parsed = schema.safeParse(event.data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.length ? issue.path.join('.') : '(données)';
    return `ses données ne respectent pas le schéma de ${event.type} (champ ${field} : ${issue?.message ?? 'invalide'})`;
  }
  const m = event.metadata as unknown as Record<string, unknown> | null;
  if (!m || typeof m !== 'object' || typeof m.at !== 'string')
    return 'ses métadonnées sont incomplètes (date « at » absente)';
  return undefined;
}

const describe = (e: { position: bigint; streamId: string; type: string }) =>
  `L'événement à la position ${e.position} (flux ${e.streamId}, type ${e.type})`;

/**
 * What is kept beside the log (DATA_DIR/events.verified), of one of two kinds:
 * - `clean` (written by recordVerifiedLog after a clean stop; records from before the kinds have
 *   none): the log file as it was closed (size, modification time to the nanosecond, inode), and
 *   that it then passed SQLite's check and had every event up to `position` checked by the code
 *   `code` (a hash of the event schemas' source);
 * - `running` (written by RunningLogRecorder while the server writes the log): every event up to
 *   `position` checked, no other connection having committed since the start's check, the main
 *   file as the recorder's own checkpoint left it (size, modification time, inode), and the
 *   file's schema (`schema`, a hash of sqlite_schema). After a kill -9 only the -wal may differ.
 */
interface VerifiedLog {
  format: 1;
  kind?: 'clean' | 'running';
  code: string;
  position: string;
  eventId: string;
  size: string;
  mtimeNs: string;
  ino: string;
  dev: string;
  schema?: string;
}

export interface VerifiedLogRecord {
  /** where the record is kept (DATA_DIR/events.verified) */
  file: string;
  /** identifies the checks: sourceTreeFingerprint of the event schemas' package */
  code: string;
}

export interface LogVerification {
  /** events read and checked by this call */
  checked: number;
  /** the log's last position (undefined: the log is empty) */
  last: LogPosition | undefined;
  /**
   * events up to here were checked by an earlier run, and the file is as it left it: as its clean
   * stop closed it, or, after a kill -9 (`afterCrash`), the main file as its last running record
   * found it (what its -wal holds checked again by this call)
   */
  trustedUpTo?: LogPosition;
  /** the trusted prefix comes from a running record: the run was killed (or its stop failed) */
  afterCrash?: boolean;
  /** why the record was not used, when there was one */
  recordIgnored?: string;
}

/** A hash of the `.ts` files under `dir` (tests left out): changes whenever that code does. */
export function sourceTreeFingerprint(dir: string): string {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) files.push(full);
    }
  };
  walk(dir);
  const h = createHash('sha256');
  for (const f of files.sort()) h.update(path.relative(dir, f)).update('\0').update(readFileSync(f)).update('\0');
  return h.digest('hex').slice(0, 32);
}

const identity = (file: string) => {
  const s = statSync(file, { bigint: true });
  return { size: s.size.toString(), mtimeNs: s.mtimeNs.toString(), ino: s.ino.toString(), dev: s.dev.toString() };
};
type FileIdentity = ReturnType<typeof identity>;
const sameIdentity = (a: FileIdentity, b: FileIdentity) =>
  a.size === b.size && a.mtimeNs === b.mtimeNs && a.ino === b.ino && a.dev === b.dev;
const schemaHash = (store: SqliteEventStore) =>
  createHash('sha256').update(store.schemaText()).digest('hex').slice(0, 32);

/** The id of the event at `position` (SQLite positions are contiguous: it follows position - 1). */
async function eventIdAt(store: SqliteEventStore, position: LogPosition): Promise<string | undefined> {
  if (position < 1n) return undefined;
  for await (const batch of store.readAll(position - 1n, 1)) {
    const e = batch[0];
    return e && e.position === position ? e.id : undefined;
  }
  return undefined;
}

/**
 * The position up to which the record lets this start trust the log, or why not. Always: the same
 * checks (`code`), the main file exactly as the record found it (same size, modification time to
 * the nanosecond and inode: an edit in place, a copy, a restore, a truncation or a checkpoint made
 * by another program change them), and still the same event at the recorded position.
 *
 * After a clean stop: no journal (-wal) holding writes made since.
 *
 * After a kill -9 (a `running` record): the -wal may hold pages written after the record, by the
 * killed run or by anyone since. Every event stored on a page it holds is to be checked again
 * (`walPositions`, besides the events after the record): an edit of an old event, by SQLite's
 * tools before or after the kill, lands there. A -wal page that cannot be tied to the events it
 * holds (an overflow page changed alone, a free page) or a changed schema: the whole check.
 */
async function trustedPrefix(
  store: SqliteEventStore,
  file: string,
  record: VerifiedLogRecord,
): Promise<{ upTo?: LogPosition; ignored?: string; afterCrash?: boolean; walPositions?: number[] }> {
  let saved: VerifiedLog;
  try {
    saved = JSON.parse(await readFile(record.file, 'utf8')) as VerifiedLog;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
    return { ignored: `illisible (${(e as Error).message})` };
  }
  if (saved?.format !== 1) return { ignored: 'format inconnu' };
  if (saved.code !== record.code) return { ignored: "fait par une autre version des schémas d'événements" };
  const afterCrash = saved.kind === 'running';
  if (!sameIdentity(identity(file), saved))
    return {
      ignored: afterCrash
        ? 'le fichier a changé depuis le dernier enregistrement du processus arrêté brutalement'
        : 'le fichier a changé depuis le dernier arrêt propre',
    };
  const position = BigInt(saved.position);
  let walPositions: number[] | undefined;
  if (afterCrash) {
    if (saved.schema !== schemaHash(store)) return { ignored: 'le schéma du fichier a changé' };
    const wal = walChanges(file);
    if (wal && wal.unattributed.length > 0)
      return {
        ignored: `le journal -wal contient ${wal.unattributed.length} page(s) non rattachée(s) à des événements`,
      };
    walPositions = wal ? [...wal.rowids].filter((p) => p <= Number(position)).sort((a, b) => a - b) : [];
  } else {
    const wal = `${file}-wal`;
    if (existsSync(wal) && statSync(wal).size > 0) return { ignored: 'le journal -wal contient des écritures' };
  }
  if ((await eventIdAt(store, position)) !== saved.eventId)
    return { ignored: `l'événement ${position} n'est pas celui du dernier enregistrement` };
  return { upTo: position, afterCrash, walPositions };
}

/**
 * Read the embedded log before anything else uses it: SQLite's own page check, then every event
 * read back and validated against its schema. The first problem found stops the start with a
 * DataFileError naming the file, the position and what to do.
 *
 * With `record`: when the last clean stop recorded (recordVerifiedLog) that the file passed these
 * checks, and the file is exactly as it left it, only the events after the recorded position are
 * read (none after a clean stop); otherwise the whole log is checked, as without a record.
 *
 * `reader` reads the events to check: the store as the processes read it (its personal fields
 * decrypted), by default the file's own.
 */
export async function verifyEventLog(
  store: SqliteEventStore,
  file: string,
  schemas: Record<string, EventSchema>,
  record?: VerifiedLogRecord,
  reader: Pick<EventStore, 'readAll'> = store,
): Promise<LogVerification> {
  // Anything the quick path cannot read as expected (a -wal it does not understand, SQLite finding
  // the pages it serves damaged, a malformed page): the record is ignored and the whole check,
  // which refuses a damaged log with a DataFileError, runs.
  const trust: Awaited<ReturnType<typeof trustedPrefix>> = record
    ? await trustedPrefix(store, file, record).catch((err: unknown) => ({
        ignored:
          err instanceof WalNotUnderstood
            ? err.message
            : `lecture rapide impossible (${err instanceof Error ? err.message : String(err)})`,
      }))
    : {};
  if (trust.upTo === undefined) checkPages(store, file);
  let checked = 0;
  // after a kill -9: the events on the pages the -wal holds, up to the trusted position
  for (const [from, to] of runs(trust.walPositions ?? []))
    checked += (await checkEvents(reader, file, schemas, BigInt(from - 1), BigInt(to))).checked;
  const tail = await checkEvents(reader, file, schemas, trust.upTo);
  return {
    checked: checked + tail.checked,
    last: tail.last ?? trust.upTo,
    trustedUpTo: trust.upTo,
    ...(trust.afterCrash ? { afterCrash: true } : {}),
    recordIgnored: trust.ignored,
  };
}

/** Sorted positions as runs of consecutive ones: [first, last] each. */
function runs(positions: number[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const p of positions) {
    const run = out[out.length - 1];
    if (run && p === run[1] + 1) run[1] = p;
    else out.push([p, p]);
  }
  return out;
}

/**
 * While the server writes the embedded log: records how far it is checked (a `running`
 * VerifiedLog), so that a start after a kill -9 checks only what the -wal holds and what follows
 * the record, whatever the log's size.
 *
 * The recorder owns the checkpoints of the server's connection (SQLite's automatic ones are off).
 * Every `everyMs` it checks the events appended since (reads only). It records at a checkpoint of
 * its own: a PASSIVE checkpoint copies the -wal into the main file, then the record names the main
 * file as that left it. A checkpoint costs two fsyncs (the -wal, then the main file, at
 * synchronous=NORMAL) on the request thread, so it comes no more often than SQLite's automatic
 * ones would: once the -wal holds `walPages` frames (1000, SQLite's default; asked after each
 * commit), or, when the log grew slowly, `maxDelayMs` (10 s) after the last record. The -wal stays
 * near 1000 pages, and what a start after a kill checks beyond the record is bounded by the same.
 * A turn that fails (anything but a damaged log, which ends the recording at once) three times in
 * a row ends the recording too, so that checkpoints never stay manual with nobody making them.
 * Anything it did not do itself ends the recording for this run (the last record stays
 * the last trustworthy point, SQLite's automatic checkpoints come back):
 * - a commit by another connection (`data_version` moved since the start's check began): the
 *   recorder would copy it into the main file unchecked;
 * - the main file changed since the recorder's last checkpoint (a checkpoint by another program,
 *   an edit of its bytes).
 */
export class RunningLogRecorder {
  private checked: LogPosition | undefined;
  private recordedAt: LogPosition | undefined;
  private dataVersion: number | undefined;
  /** the main file as the recorder's last checkpoint (or the start) left it */
  private mainFile: FileIdentity | undefined;
  private schema: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private work: Promise<void> | undefined;
  private stopped = false;
  /** why the recording ended before the stop, if it did */
  private ended: string | undefined;
  /** turns failed in a row */
  private failures = 0;
  private lastRecordAt = Date.now();
  /** the -wal's frames the last checkpoint could not copy (a reader needed them) */
  private walLeft = 0;
  private stopCommitWatch: (() => void) | undefined;

  constructor(
    private readonly store: SqliteEventStore,
    private readonly file: string,
    private readonly record: VerifiedLogRecord,
    private readonly schemas: Record<string, EventSchema>,
    private readonly options: {
      /** reads the events to check (see verifyEventLog's `reader`) */
      reader?: Pick<EventStore, 'readAll'>;
      /** how often the events appended since are checked; default 1000 ms */
      everyMs?: number;
      /** the -wal's size, in frames, from which a checkpoint and a record are due; default 1000 */
      walPages?: number;
      /** the longest time a grown log waits for a record; default 10 s */
      maxDelayMs?: number;
      /** a turn that failed, or the recording ended (then `ended` says why) */
      onError?: (err: unknown) => void;
    } = {},
  ) {}

  /**
   * Before the start's check reads anything: from here on, a commit by another connection is
   * seen, and checkpoints are the recorder's.
   */
  begin(): void {
    // a run killed between writing its next record and renaming it over the last leaves this
    const tmpPrefix = `${path.basename(this.record.file)}.tmp-`;
    const dir = path.dirname(this.record.file);
    for (const name of readdirSync(dir)) if (name.startsWith(tmpPrefix)) rmSync(path.join(dir, name), { force: true });
    this.dataVersion = this.store.dataVersion();
    this.store.manualCheckpoints(true);
    this.mainFile = identity(this.file);
    this.schema = schemaHash(this.store);
    const walPages = this.options.walPages ?? 1000;
    this.stopCommitWatch = this.store.onCommit(() => {
      if (this.work === undefined && walFrames(this.file) >= this.walLeft + walPages) void this.runTurn(false);
    });
  }

  /** Once the start checked (or trusted) the log up to `from`, its last event: the first record, then one per turn. */
  async start(from: LogPosition | undefined): Promise<void> {
    this.checked = from;
    await this.runOnce();
    this.timer = setInterval(() => void this.runTurn(false), this.options.everyMs ?? 1000);
    this.timer.unref();
  }

  /** The position checked so far; undefined also when the recording ended (see `endedBecause`). */
  get checkedUpTo(): LogPosition | undefined {
    return this.ended === undefined ? this.checked : undefined;
  }

  /** Why the recording ended before the stop (another connection wrote, the file changed), if it did. */
  get endedBecause(): string | undefined {
    return this.ended;
  }

  /** Brings the record up to date now, checkpoint included (at most one turn at a time). */
  runOnce(): Promise<void> {
    return this.runTurn(true);
  }

  private runTurn(recordNow: boolean): Promise<void> {
    if (this.stopped || this.ended !== undefined) return Promise.resolve();
    this.work ??= this.turn(recordNow)
      .then(() => {
        this.failures = 0;
      })
      .catch((err: unknown) => {
        this.options.onError?.(err);
        if (err instanceof DataFileError) this.end(err.message);
        else if (++this.failures >= 3)
          this.end(`trois tours de suite ont échoué (${err instanceof Error ? err.message : String(err)})`);
      })
      .finally(() => (this.work = undefined));
    return this.work;
  }

  /**
   * At a clean stop, with nothing appending any more: a last turn, then no more. Answers whether
   * this run may still vouch for the log (no other connection wrote, nothing touched the file).
   */
  async stop(): Promise<boolean> {
    await this.runOnce();
    await this.work;
    this.stopped = true;
    clearInterval(this.timer);
    this.stopCommitWatch?.();
    return this.ended === undefined && this.untouched();
  }

  /** No other connection has committed to the file since `begin` (asked again right before the store closes). */
  untouched(): boolean {
    return this.store.dataVersion() === this.dataVersion;
  }

  private end(why: string): void {
    this.ended = why;
    clearInterval(this.timer);
    this.stopCommitWatch?.();
    this.store.manualCheckpoints(false);
    this.options.onError?.(new Error(`enregistrement de la vérification du journal arrêté : ${why}`));
  }

  private async turn(recordNow: boolean): Promise<void> {
    if (this.store.dataVersion() !== this.dataVersion) return this.end('une autre connexion a écrit dans le journal');
    const last = await this.store.lastPosition();
    if (last !== undefined && last !== this.checked) {
      // what was appended since the last turn, read back and checked as a start would
      this.checked =
        (await checkEvents(this.options.reader ?? this.store, this.file, this.schemas, this.checked, last)).last ??
        this.checked;
    }
    if (this.checked === undefined || this.checked === this.recordedAt) return;
    const due =
      recordNow ||
      walFrames(this.file) >= this.walLeft + (this.options.walPages ?? 1000) ||
      Date.now() - this.lastRecordAt >= (this.options.maxDelayMs ?? 10_000);
    if (!due) return;
    const position = this.checked;
    const eventId = await eventIdAt(this.store, position);
    if (eventId === undefined) return;
    // From here to the record, all synchronous: no append of this process comes in between, and a
    // kill -9 falls before the checkpoint (the last record holds), during it (the main file no
    // longer matches any record: the whole check) or after the record.
    if (this.store.dataVersion() !== this.dataVersion) return this.end('une autre connexion a écrit dans le journal');
    if (!sameIdentity(identity(this.file), this.mainFile!))
      return this.end('le fichier principal a été modifié par un autre programme');
    const checkpoint = this.store.checkpoint();
    this.walLeft = checkpoint.complete ? 0 : checkpoint.walFrames;
    const mainFile = identity(this.file);
    this.mainFile = mainFile;
    // a commit by another connection during the checkpoint may be in the main file now
    if (this.store.dataVersion() !== this.dataVersion) return this.end('une autre connexion a écrit dans le journal');
    const content: VerifiedLog = {
      format: 1,
      kind: 'running',
      code: this.record.code,
      position: position.toString(),
      eventId,
      ...mainFile,
      schema: this.schema,
    };
    // Renamed over the last record, without an fsync: a record lost in a power cut leaves the one
    // before, which no longer matches the main file, and the start checks the whole log.
    const tmp = `${this.record.file}.tmp-${process.pid}`;
    writeFileSync(tmp, JSON.stringify(content), { mode: PRIVATE_FILE_MODE });
    renameSync(tmp, this.record.file);
    this.recordedAt = position;
    this.lastRecordAt = Date.now();
  }
}

/**
 * The clean stop of a log `recorder` followed: the events appended since its last turn checked,
 * and SQLite's page check, then the store closed and the clean record written. When another
 * connection committed during the run (or up to the close, which would copy it into the file), or
 * the recording ended, or a check fails: the store is closed, no record is kept and the next start
 * checks the whole log. Answers what was recorded, or why not.
 */
export async function closeVerifiedLog(
  store: SqliteEventStore,
  file: string,
  schemas: Record<string, EventSchema>,
  record: VerifiedLogRecord,
  recorder: RunningLogRecorder,
  reader: Pick<EventStore, 'readAll'> = store,
): Promise<{ recorded?: LogPosition; notRecorded?: string; error?: unknown }> {
  let verified: Awaited<ReturnType<typeof verifyBeforeClose>>;
  let notRecorded: string | undefined;
  let error: unknown;
  try {
    if (await recorder.stop()) verified = await verifyBeforeClose(store, file, schemas, recorder.checkedUpTo, reader);
    else notRecorded = recorder.endedBecause ?? 'une autre connexion a écrit dans le journal';
    if (verified && !recorder.untouched()) {
      verified = undefined;
      notRecorded = 'une autre connexion a écrit dans le journal';
    }
  } catch (err) {
    error = err;
  }
  await store.close();
  if (!verified) {
    await rm(record.file, { force: true });
    return { notRecorded: notRecorded ?? (error ? undefined : 'rien à enregistrer'), error };
  }
  await recordVerifiedLog(file, record, verified);
  return { recorded: verified.position };
}

/**
 * At a clean stop, before the store closes (nothing appends any more): check what the start did not
 * (the events after `from`, the position the start verified up to, and SQLite's page check of the
 * file as it is now). Answers what recordVerifiedLog writes once the store is closed; throws
 * DataFileError like verifyEventLog when something is wrong (then no record is written, and the
 * next start checks everything).
 */
export async function verifyBeforeClose(
  store: SqliteEventStore,
  file: string,
  schemas: Record<string, EventSchema>,
  from: LogPosition | undefined,
  reader: Pick<EventStore, 'readAll'> = store,
): Promise<{ position: LogPosition; eventId: string } | undefined> {
  checkPages(store, file);
  const { last } = await checkEvents(reader, file, schemas, from);
  const position = last ?? from;
  if (position === undefined) return undefined;
  if ((await store.lastPosition()) !== position) return undefined; // appended meanwhile: nothing to vouch for
  const eventId = await eventIdAt(store, position);
  return eventId === undefined ? undefined : { position, eventId };
}

/** Write the record (after the store closed: the file is then as the next start will find it). */
export async function recordVerifiedLog(
  file: string,
  record: VerifiedLogRecord,
  verified: { position: LogPosition; eventId: string },
): Promise<void> {
  const wal = `${file}-wal`;
  if (existsSync(wal) && statSync(wal).size > 0) return; // not closed cleanly after all
  const content: VerifiedLog = {
    format: 1,
    kind: 'clean',
    code: record.code,
    position: verified.position.toString(),
    eventId: verified.eventId,
    ...identity(file),
  };
  await writeFileAtomically(record.file, (fh) => fh.writeFile(JSON.stringify(content)));
}

/** SQLite's quick_check of the whole file; DataFileError on a finding. */
function checkPages(store: SqliteEventStore, file: string): void {
  let findings: string[];
  try {
    findings = store.checkIntegrity();
  } catch (e) {
    if (!isSqliteDamage(e)) throw e;
    findings = [(e as Error).message];
  }
  if (findings.length > 0) {
    throw new DataFileError(
      file,
      `Le journal d'événements est endommagé : ${findings.slice(0, 3).join(' ; ')}.`,
      DAMAGED_LOG_ADVICE,
    );
  }
}

/**
 * Every event after `from` (up to `to`, when given) read back and checked against its schema;
 * DataFileError on the first bad one.
 */
async function checkEvents(
  store: Pick<EventStore, 'readAll'>,
  file: string,
  schemas: Record<string, EventSchema>,
  from: LogPosition | undefined,
  to?: LogPosition,
): Promise<{ checked: number; last: LogPosition | undefined }> {
  let checked = 0;
  let last: bigint | undefined;
  try {
    reading: for await (const batch of store.readAll(
      from,
      to === undefined ? 2000 : Math.min(2000, Number(to - (from ?? 0n))),
    )) {
      for (const event of batch) {
        if (to !== undefined && event.position > to) break reading;
        const problem = eventProblem(event, schemas);
        if (problem)
          throw new DataFileError(
            file,
            `${describe(event)} est illisible : ${problem}.`,
            DAMAGED_LOG_ADVICE,
            event.position,
          );
        last = event.position;
        checked++;
      }
    }
  } catch (e) {
    if (e instanceof UnreadableEventError) {
      throw new DataFileError(file, `${describe(e)} est illisible : ${e.detail}.`, DAMAGED_LOG_ADVICE, e.position);
    }
    if (isSqliteDamage(e)) {
      const at = last ?? from;
      const where = at === undefined ? 'dès le premier événement' : `après la position ${at}`;
      throw new DataFileError(
        file,
        `Le journal d'événements est endommagé : lecture impossible ${where} (${(e as Error).message}).`,
        DAMAGED_LOG_ADVICE,
        at,
      );
    }
    throw e;
  }
  return { checked, last };
}
