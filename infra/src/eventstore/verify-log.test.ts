import { afterEach, describe, expect, it, vi } from 'vitest';
import { spawn } from 'node:child_process';
import { copyFile, mkdtemp, rename, rm, stat, truncate } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { existsSync, readFileSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { z } from 'zod/v4';
import { DataFileError } from './data-file-error';
import { SqliteEventStore } from './sqlite-event-store';
import { useFrenchZodErrors, type RecordedEvent } from '@evo/domain';
import {
  eventProblem,
  recordVerifiedLog,
  RunningLogRecorder,
  verifyBeforeClose,
  verifyEventLog,
  type VerifiedLogRecord,
} from './verify-log';

const schemas = { Noted: z.object({ n: z.number() }) };
const dirs: string[] = [];
const open: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function logWith(count: number) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'evo-verify-'));
  dirs.push(dir);
  const file = path.join(dir, 'events.sqlite');
  const store = new SqliteEventStore(file);
  for (let i = 1; i <= count; i++)
    await store.append(
      `s-${i % 3}`,
      [{ id: `e${i}`, type: 'Noted', data: { n: i }, metadata: { at: 'x' } as never }],
      'any',
    );
  await store.close();
  const record: VerifiedLogRecord = { file: path.join(dir, 'events.verified'), code: 'schemas-v1' };
  return { dir, file, record };
}

/** A start (verify), then a clean stop that records it, as the server does. */
async function startAndStop(file: string, record: VerifiedLogRecord, append = 0) {
  const store = new SqliteEventStore(file);
  const v = await verifyEventLog(store, file, schemas, record);
  const last = v.last ?? 0n;
  for (let i = 1; i <= append; i++) {
    const n = Number(last) + i;
    await store.append(
      's-late',
      [{ id: `late${n}`, type: 'Noted', data: { n }, metadata: { at: 'x' } as never }],
      'any',
    );
  }
  const verified = await verifyBeforeClose(store, file, schemas, v.last);
  await store.close();
  if (verified) await recordVerifiedLog(file, record, verified);
  return v;
}

async function verify(file: string, record: VerifiedLogRecord) {
  const store = new SqliteEventStore(file);
  try {
    return await verifyEventLog(store, file, schemas, record);
  } finally {
    await store.close();
  }
}

function edit(file: string, position: number, data: string) {
  const db = new Database(file);
  db.prepare('UPDATE events SET data = ? WHERE position = ?').run(data, position);
  db.close();
}

describe('event log verification, after a clean stop', () => {
  it('checks the whole log without a record, then trusts what a clean stop recorded (its appends included)', async () => {
    const { file, record } = await logWith(50);
    expect(await startAndStop(file, record, 5)).toMatchObject({ checked: 50, last: 50n, trustedUpTo: undefined });
    expect(await verify(file, record)).toEqual({ checked: 0, last: 55n, trustedUpTo: 55n, recordIgnored: undefined });
  });

  it('an event edited in place after the stop is still found, at its position', async () => {
    const { file, record } = await logWith(50);
    await startAndStop(file, record);
    edit(file, 17, '{"n": "dix-sept"}');
    const err = await verify(file, record).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataFileError);
    expect((err as DataFileError).message).toContain('position 17');
  });

  it('a copy, a record of other checks, or a journal holding writes since: the whole log is checked', async () => {
    const { dir, file, record } = await logWith(30);
    await startAndStop(file, record);
    // a copy of the file (another inode, another modification time), with the record beside it
    const copy = path.join(dir, 'copy.sqlite');
    await copyFile(file, copy);
    await copyFile(record.file, path.join(dir, 'copy.verified'));
    expect(await verify(copy, { ...record, file: path.join(dir, 'copy.verified') })).toMatchObject({
      checked: 30,
      trustedUpTo: undefined,
      recordIgnored: 'le fichier a changé depuis le dernier arrêt propre',
    });
    // other schemas
    expect(await verify(file, { ...record, code: 'schemas-v2' })).toMatchObject({
      checked: 30,
      trustedUpTo: undefined,
    });
    // a crash after an edit: the file itself unchanged, the edit in its -wal
    const db = new Database(file);
    open.push(db);
    db.pragma('wal_autocheckpoint = 0');
    db.prepare('UPDATE events SET data = ? WHERE position = 5').run('{"n":"cinq"}');
    const err = await verify(file, record).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataFileError);
    expect((err as DataFileError).message).toContain('position 5');
  });

  it('a stop that finds a bad event among the appends of its run records nothing', async () => {
    const { file, record } = await logWith(10);
    const store = new SqliteEventStore(file);
    const v = await verifyEventLog(store, file, schemas, record);
    await store.append(
      's-bad',
      [{ id: 'bad', type: 'Noted', data: { n: 'onze' }, metadata: { at: 'x' } as never }],
      'any',
    );
    await expect(verifyBeforeClose(store, file, schemas, v.last)).rejects.toThrow(/position 11/);
    await store.close();
    expect(await verify(file, record).catch((e: unknown) => e)).toBeInstanceOf(DataFileError);
  });
});

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * A process checks the log as a start does, records as it runs, appends `recorded` events and
 * records them, appends `after` more, and is killed (kill -9): the file as such a crash leaves it.
 */
async function killedAfterWrites(
  file: string,
  record: VerifiedLogRecord,
  recorded: number,
  after: number,
  bad = false,
) {
  const script = path.join(here, 'testing', 'record-then-die.ts');
  const args = [file, record.file, record.code, String(recorded), String(after), ...(bad ? ['bad'] : [])];
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: path.resolve(here, '../../..'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
  const exited = new Promise<NodeJS.Signals | null>((r) => child.on('exit', (_code, signal) => r(signal)));
  await vi.waitFor(() => expect(out).toContain('ready'), { timeout: 30_000, interval: 50 });
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  return JSON.parse(out.slice(out.indexOf('ready ') + 6).split('\n')[0]) as { checked: number; trustedUpTo?: string };
}

describe('event log verification, after a kill -9', () => {
  it('checks only what the killed process wrote after its last record, without the page check', async () => {
    const { file, record } = await logWith(50);
    // the killed run checked the whole log at its start (no record yet), recorded 70, wrote 71 to 77
    expect(await killedAfterWrites(file, record, 20, 7)).toEqual({ checked: 50 });
    expect(existsSync(`${file}-wal`) && statSync(`${file}-wal`).size).toBeGreaterThan(0);
    const pageCheck = vi.spyOn(SqliteEventStore.prototype, 'checkIntegrity');
    try {
      expect(await verify(file, record)).toEqual({
        checked: 7,
        last: 77n,
        trustedUpTo: 70n,
        afterCrash: true,
        recordIgnored: undefined,
      });
      expect(pageCheck).not.toHaveBeenCalled();
    } finally {
      pageCheck.mockRestore();
    }
    // that check closed the file (SQLite then copies the -wal into it and removes it) without recording:
    // from the file alone, that cannot be told from another program's edit, so the whole log is checked
    expect(await verify(file, record)).toMatchObject({
      checked: 77,
      trustedUpTo: undefined,
      recordIgnored: "le fichier a été ouvert et modifié depuis l'arrêt brutal du dernier processus",
    });
  }, 60_000);

  it('runs killed one after the other each check only what the one before wrote after its record', async () => {
    const { file, record } = await logWith(50);
    expect(await killedAfterWrites(file, record, 20, 7)).toEqual({ checked: 50 });
    // the next run checks 71 to 77, records them at once, records 80, writes 81 and 82, is killed
    expect(await killedAfterWrites(file, record, 3, 2)).toEqual({ checked: 7, trustedUpTo: '70' });
    expect(await verify(file, record)).toMatchObject({ checked: 2, last: 82n, trustedUpTo: 80n, afterCrash: true });
  }, 60_000);

  it('a bad event among the writes after the record stops the start at its position', async () => {
    const { file, record } = await logWith(10);
    await killedAfterWrites(file, record, 5, 3, true);
    const pageCheck = vi.spyOn(SqliteEventStore.prototype, 'checkIntegrity');
    let pageChecks: number;
    const err = await verify(file, record)
      .catch((e: unknown) => e)
      .finally(() => {
        pageChecks = pageCheck.mock.calls.length;
        pageCheck.mockRestore();
      });
    expect(err).toBeInstanceOf(DataFileError);
    expect((err as DataFileError).message).toContain('position 18');
    // found by the check of the tail: the recorded prefix was trusted (no page check)
    expect(pageChecks!).toBe(0);
  }, 60_000);

  it('a file edited, truncated, restored or replaced since the kill is checked whole', async () => {
    const { dir, file, record } = await logWith(40);
    const backup = path.join(dir, 'backup.sqlite');
    await copyFile(file, backup);
    const crashed = path.join(dir, 'crashed');
    const image = async () => {
      await killedAfterWrites(file, record, 20, 5);
      for (const f of [file, `${file}-wal`]) await copyFile(f, `${crashed}${f.slice(file.length)}`);
    };
    const back = async () => {
      // the crash image written back into the same file (same inode), -wal included
      for (const f of [file, `${file}-wal`]) await copyFile(`${crashed}${f.slice(file.length)}`, f);
      await rm(`${file}-shm`, { force: true });
    };
    await image();
    const ino = (await stat(file)).ino;

    // an event of the recorded prefix edited with SQLite's own tools (they checkpoint at the end)
    edit(file, 12, '{"n": "douze"}');
    const err = await verify(file, record).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataFileError);
    expect((err as DataFileError).message).toContain('position 12');

    // truncated: shorter than recorded, checked whole (here the -wal still holds the pages cut off)
    await back();
    expect((await stat(file)).ino).toBe(ino);
    await truncate(file, 4096 * 2);
    expect(await verify(file, record)).toMatchObject({
      trustedUpTo: undefined,
      recordIgnored: 'le fichier a raccourci depuis le dernier enregistrement',
    });

    // restored from an older copy, in place (-wal removed as a restore does): checked whole
    await back();
    await rm(`${file}-wal`);
    await copyFile(backup, file);
    expect((await stat(file)).ino).toBe(ino);
    expect(await verify(file, record)).toMatchObject({
      checked: 40,
      trustedUpTo: undefined,
      recordIgnored: "le fichier a été ouvert et modifié depuis l'arrêt brutal du dernier processus",
    });

    // replaced by a copy of itself, -wal included (another inode): checked whole
    await back();
    await copyFile(crashed, `${file}.copy`);
    await rename(`${file}.copy`, file);
    expect(await verify(file, record)).toMatchObject({
      checked: 65,
      trustedUpTo: undefined,
      recordIgnored: 'le fichier a été remplacé depuis le dernier enregistrement',
    });
  }, 90_000);
});

describe('RunningLogRecorder', () => {
  it('trusts what its process appended, reads back and checks what another process appended', async () => {
    const { file, record } = await logWith(10);
    const store = new SqliteEventStore(file);
    open.push(store);
    const v = await verifyEventLog(store, file, schemas, record);
    const errors: unknown[] = [];
    let reads = 0;
    const recorder = new RunningLogRecorder(store, file, record, schemas, {
      from: v.last,
      everyMs: 3_600_000,
      reader: { readAll: (...a) => (reads++, store.readAll(...a)) },
      onError: (e) => errors.push(e),
    });
    await recorder.start();
    const noted = (s: SqliteEventStore, id: string, n: unknown) =>
      s.append('s', [{ id, type: 'Noted', data: { n }, metadata: { at: 'x' } as never }], 'any');
    await noted(store, 'own', 11);
    // another process (another connection) appends one good, then one bad event
    const other = new SqliteEventStore(file);
    open.push(other);
    await noted(other, 'other', 12);
    await recorder.runOnce();
    expect(reads).toBe(1);
    expect(recorder.checkedUpTo).toBe(12n);
    await noted(store, 'own2', 13);
    await recorder.runOnce();
    expect(reads).toBe(1); // its own append: nothing read
    expect(recorder.checkedUpTo).toBe(13n);
    await noted(other, 'bad', 'quatorze');
    await noted(store, 'own3', 15);
    await recorder.runOnce();
    expect(errors).toHaveLength(1);
    expect((errors[0] as DataFileError).message).toContain('position 14');
    expect(recorder.checkedUpTo).toBe(13n);
    // the recording stopped there: a start after a kill checks from 13, and finds 14
    await noted(store, 'own4', 16);
    await recorder.runOnce();
    expect(recorder.checkedUpTo).toBe(13n);
    expect(JSON.parse(readFileSync(record.file, 'utf8'))).toMatchObject({ kind: 'running', position: '13' });
  });
});

describe('RunningLogRecorder, on its timer', () => {
  it('records what its process appends every `everyMs`, and once more at its stop', async () => {
    const { file, record } = await logWith(5);
    const store = new SqliteEventStore(file);
    open.push(store);
    const v = await verifyEventLog(store, file, schemas, record);
    const recorder = new RunningLogRecorder(store, file, record, schemas, { from: v.last, everyMs: 50 });
    await recorder.start();
    const recorded = () => JSON.parse(readFileSync(record.file, 'utf8')) as { kind: string; position: string };
    expect(recorded()).toMatchObject({ kind: 'running', position: '5' });
    await store.append('s', [{ id: 'six', type: 'Noted', data: { n: 6 }, metadata: { at: 'x' } as never }], 'any');
    await vi.waitFor(() => expect(recorded().position).toBe('6'), { timeout: 5000, interval: 20 });
    await store.append('s', [{ id: 'seven', type: 'Noted', data: { n: 7 }, metadata: { at: 'x' } as never }], 'any');
    expect(await recorder.stop()).toBe(7n);
    expect(recorded().position).toBe('7');
  });
});

describe('eventProblem', () => {
  it('names the field an event fails its schema on, in French', () => {
    useFrenchZodErrors();
    const event = { type: 'Noted', data: { n: 'deux' }, metadata: { at: 'x' } } as unknown as RecordedEvent;
    expect(eventProblem(event, schemas)).toBe(
      'ses données ne respectent pas le schéma de Noted (champ n : Entrée invalide : number attendu, string reçu)',
    );
    expect(eventProblem({ ...event, data: { n: 2 } }, schemas)).toBeUndefined();
  });
});
