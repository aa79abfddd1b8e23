import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { writeFileAtomically } from '../files/atomic-file';
import path from 'node:path';
import type { EventSchema, LogPosition, RecordedEvent } from '@evo/domain';
import { DAMAGED_LOG_ADVICE, DataFileError, UnreadableEventError } from './data-file-error';
import { isSqliteDamage, type SqliteEventStore } from './sqlite-event-store';
import type { EventStore } from './port';

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
 *   that it then passed SQLite's page check and had every event up to `position` checked by the
 *   code `code` (a hash of the event schemas' source);
 * - `running` (written by RunningLogRecorder while a process writes the log): every event up to
 *   `position` is checked, and the file is that inode, at least `size` bytes long. What the process
 *   wrote after it is unknown: a start after a kill -9 checks the events after `position` only.
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
   * events up to here were checked by an earlier run, and the file is the one it left: as its clean
   * stop closed it, or, after a kill -9, as it was writing it (`afterCrash`)
   */
  trustedUpTo?: LogPosition;
  /** the trusted prefix is the one a run recorded while writing: the run was killed (or its stop failed) */
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

/** The id of the event at `position` (SQLite positions are contiguous: it follows position - 1). */
async function eventIdAt(store: SqliteEventStore, position: LogPosition): Promise<string | undefined> {
  if (position < 1n) return undefined;
  for await (const batch of store.readAll(position - 1n, 1)) {
    const e = batch[0];
    return e && e.position === position ? e.id : undefined;
  }
  return undefined;
}

const walSize = (file: string): number => {
  const wal = `${file}-wal`;
  return existsSync(wal) ? statSync(wal).size : 0;
};

/**
 * The position up to which the record lets this start trust the log, or why not. Always: the same
 * checks (`code`), the same file (inode and device: a copy, or a file renamed over it, is another),
 * and still the same event at the recorded position (a restored or rewritten log has another or none).
 *
 * After a clean stop (`clean`): the file exactly as that stop left it (same size and modification
 * time: an edit, a restore in place or a truncation changes them), and no journal (-wal) holding
 * writes made since.
 *
 * After a kill -9 (`running`: the process died after recording how far it had checked): the file
 * may have grown since (the appends after the record), never shrunk (SQLite's file does not shrink
 * without a VACUUM: shorter means truncated), and it must still be as the killed process left it:
 * its -wal present (a process killed after writing leaves it; any program that opened the file
 * since and closed it, to edit it or only to read it, checkpointed it into the file and removed it,
 * which sends this start to the whole check), or, with no -wal, the file untouched since the record.
 */
async function trustedPrefix(
  store: SqliteEventStore,
  file: string,
  record: VerifiedLogRecord,
): Promise<{ upTo?: LogPosition; ignored?: string; afterCrash?: boolean }> {
  let saved: VerifiedLog;
  try {
    saved = JSON.parse(await readFile(record.file, 'utf8')) as VerifiedLog;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
    return { ignored: `illisible (${(e as Error).message})` };
  }
  if (saved?.format !== 1) return { ignored: 'format inconnu' };
  if (saved.code !== record.code) return { ignored: "fait par une autre version des schémas d'événements" };
  const now = identity(file);
  const sameFile = now.ino === saved.ino && now.dev === saved.dev;
  const untouched = sameFile && now.size === saved.size && now.mtimeNs === saved.mtimeNs;
  const afterCrash = saved.kind === 'running';
  if (afterCrash) {
    if (!sameFile) return { ignored: 'le fichier a été remplacé depuis le dernier enregistrement' };
    if (BigInt(now.size) < BigInt(saved.size))
      return { ignored: 'le fichier a raccourci depuis le dernier enregistrement' };
    if (walSize(file) === 0 && !untouched)
      return { ignored: "le fichier a été ouvert et modifié depuis l'arrêt brutal du dernier processus" };
  } else {
    if (!untouched) return { ignored: 'le fichier a changé depuis le dernier arrêt propre' };
    if (walSize(file) > 0) return { ignored: 'le journal -wal contient des écritures' };
  }
  const position = BigInt(saved.position);
  if ((await eventIdAt(store, position)) !== saved.eventId)
    return { ignored: `l'événement ${position} n'est pas celui du dernier enregistrement` };
  return { upTo: position, afterCrash };
}

/**
 * Read the embedded log before anything else uses it: SQLite's own page check, then every event
 * read back and validated against its schema. The first problem found stops the start with a
 * DataFileError naming the file, the position and what to do.
 *
 * With `record`: when an earlier run recorded how far it had checked the log (see VerifiedLog), and
 * the file is still the one it left (see trustedPrefix), only the events after the recorded
 * position are read: none after a clean stop, what the killed process wrote after its last record
 * after a kill -9. Otherwise the whole log is checked, as without a record.
 *
 * SQLite's page check (quick_check, which reads every page of the file: about a second per 100k
 * events here) runs only when the whole log is checked. After a clean stop it ran at the stop, on
 * the file as closed. After a kill -9 it is not needed: a killed process does not damage a SQLite
 * file in WAL mode. Its committed transactions are whole in the -wal (each frame checksummed, the
 * torn tail of a write in flight discarded when the file is next opened) and a checkpoint cut
 * short is copied again from the -wal, which is kept until the copy completes. What damages pages
 * is the disk, or a program writing into the file: the disk is checked by the page check of each
 * clean stop and of each whole check (and a damaged page read meanwhile fails with SQLite's
 * corruption error, which the event check below reports like the page check), and a program that
 * opened the file since the kill removed the -wal, so trustedPrefix sends the start to the whole check.
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
  const trust = record ? await trustedPrefix(store, file, record) : {};
  if (trust.upTo === undefined) checkPages(store, file);
  const { checked, last } = await checkEvents(reader, file, schemas, trust.upTo);
  return {
    checked,
    last: last ?? trust.upTo,
    trustedUpTo: trust.upTo,
    ...(trust.afterCrash ? { afterCrash: true } : {}),
    recordIgnored: trust.ignored,
  };
}

/** The running record of `store` at `position` (undefined: no event there, nothing to vouch for). */
async function runningRecord(
  store: SqliteEventStore,
  file: string,
  code: string,
  position: LogPosition | undefined,
): Promise<VerifiedLog | undefined> {
  const eventId = position === undefined ? undefined : await eventIdAt(store, position);
  if (position === undefined || eventId === undefined) return undefined;
  return { format: 1, kind: 'running', code, position: position.toString(), eventId, ...identity(file) };
}

/**
 * While a process writes the embedded log: records, every `everyMs` when the log grew, how far it
 * is checked (a `running` VerifiedLog), so that a start after a kill -9 checks only what follows,
 * whatever the log's size. Off the requests' path: a timer, one stat and one small file written.
 *
 * What counts as checked: the events the start checked (or trusted), and the events this process
 * appended since. Those were checked as they were written: every append of the product goes
 * through the command side's toNewEvents, which parses each event with its schema (an unknown type
 * or a field out of its schema throws before anything is written) and always sets the metadata's
 * date. When other processes appended too (`npm run admin:grant` beside the server, seen when the
 * log grew by more events than this process inserted), the new events are read back and checked
 * here, as at a start. A problem found stops the recording: the last record stays before it, and
 * the next start checks from there and refuses the log.
 */
export class RunningLogRecorder {
  private checked: LogPosition | undefined;
  /** store.insertedEvents() when the log ended at `checked` */
  private insertedAt = 0;
  private recordedAt: LogPosition | undefined;
  private timer: NodeJS.Timeout | undefined;
  private work: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly store: SqliteEventStore,
    private readonly file: string,
    private readonly record: VerifiedLogRecord,
    private readonly schemas: Record<string, EventSchema>,
    private readonly options: {
      /** the position the start checked (or trusted) the log up to: its last event */
      from: LogPosition | undefined;
      /** reads the events of other processes to check (see verifyEventLog's `reader`) */
      reader?: Pick<EventStore, 'readAll'>;
      /** how often the record is brought up to date; default 1000 ms */
      everyMs?: number;
      /** a recording that failed (the recording goes on at the next turn, unless it found a bad event) */
      onError?: (err: unknown) => void;
    },
  ) {
    this.checked = options.from;
  }

  /** The first record, before this process appends anything: what the start checked. */
  async start(): Promise<void> {
    this.insertedAt = this.store.insertedEvents().count;
    await this.write(this.checked).catch((err: unknown) => this.options.onError?.(err));
    this.timer = setInterval(() => void this.runOnce(), this.options.everyMs ?? 1000);
    this.timer.unref();
  }

  /** The position checked so far (by the start, by this process's appends, or read back here). */
  get checkedUpTo(): LogPosition | undefined {
    return this.checked;
  }

  /** Brings the record up to date now (at most one at a time). */
  runOnce(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.work ??= this.advance()
      .catch((err: unknown) => {
        if (err instanceof DataFileError) this.halt();
        this.options.onError?.(err);
      })
      .finally(() => (this.work = undefined));
    return this.work;
  }

  /**
   * Stops recording, once brought up to date (at a clean stop, with nothing appending any more);
   * answers the position checked up to.
   */
  async stop(): Promise<LogPosition | undefined> {
    await this.runOnce();
    this.halt();
    await this.work;
    return this.checked;
  }

  private halt(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }

  private async advance(): Promise<void> {
    const { count: inserted, last } = this.store.insertedEvents();
    if (last === undefined || last === this.checked) return;
    const grew = last - (this.checked ?? 0n);
    if (grew !== BigInt(inserted - this.insertedAt)) {
      // another process appended too: its events (and this one's among them) read back and checked
      await checkEvents(this.options.reader ?? this.store, this.file, this.schemas, this.checked, last);
    }
    this.checked = last;
    this.insertedAt = inserted;
    await this.write(last);
  }

  private async write(position: LogPosition | undefined): Promise<void> {
    if (position === undefined || position === this.recordedAt) return;
    const content = await runningRecord(this.store, this.file, this.record.code, position);
    if (!content) return;
    await writeFileAtomically(this.record.file, (fh) => fh.writeFile(JSON.stringify(content)));
    this.recordedAt = position;
  }
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
    reading: for await (const batch of store.readAll(from, 2000)) {
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
