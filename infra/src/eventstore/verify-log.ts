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
 * What a clean stop leaves beside the log (`record` below): the log file as it was closed (size,
 * modification time to the nanosecond, inode), and that it then passed SQLite's check and had every
 * event up to `position` checked by the code `code` (a hash of the event schemas' source).
 */
interface VerifiedLog {
  format: 1;
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
  /** events up to here were checked before the last clean stop, and the file is as that stop left it */
  trustedUpTo?: LogPosition;
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

/**
 * The position up to which the record lets this start trust the log, or why not: the same checks
 * (`code`), the file exactly as the clean stop that wrote the record left it (same size,
 * modification time and inode: an edit, a copy, a restore or a truncation changes them), no
 * journal (-wal) holding writes made since, and the same event at the recorded position.
 */
async function trustedPrefix(
  store: SqliteEventStore,
  file: string,
  record: VerifiedLogRecord,
): Promise<{ upTo?: LogPosition; ignored?: string }> {
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
  if (now.size !== saved.size || now.mtimeNs !== saved.mtimeNs || now.ino !== saved.ino || now.dev !== saved.dev)
    return { ignored: 'le fichier a changé depuis le dernier arrêt propre' };
  const wal = `${file}-wal`;
  if (existsSync(wal) && statSync(wal).size > 0) return { ignored: 'le journal -wal contient des écritures' };
  const position = BigInt(saved.position);
  if ((await eventIdAt(store, position)) !== saved.eventId)
    return { ignored: `l'événement ${position} n'est pas celui du dernier arrêt` };
  return { upTo: position };
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
  const trust = record ? await trustedPrefix(store, file, record) : {};
  if (trust.upTo === undefined) checkPages(store, file);
  const { checked, last } = await checkEvents(reader, file, schemas, trust.upTo);
  return { checked, last: last ?? trust.upTo, trustedUpTo: trust.upTo, recordIgnored: trust.ignored };
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

/** Every event after `from` read back and checked against its schema; DataFileError on the first bad one. */
async function checkEvents(
  store: Pick<EventStore, 'readAll'>,
  file: string,
  schemas: Record<string, EventSchema>,
  from: LogPosition | undefined,
): Promise<{ checked: number; last: LogPosition | undefined }> {
  let checked = 0;
  let last: bigint | undefined;
  try {
    for await (const batch of store.readAll(from, 2000)) {
      for (const event of batch) {
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
