import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { z } from 'zod/v4';
import { DataFileError } from './data-file-error';
import { SqliteEventStore } from './sqlite-event-store';
import { useFrenchZodErrors, type RecordedEvent } from '@evo/domain';
import { startScript } from '../testing/run-script';
import {
  closeVerifiedLog,
  eventProblem,
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

/** A start (recorder begun, verify, recorder started), then a clean stop that records it, as the server does. */
async function startAndStop(file: string, record: VerifiedLogRecord, append = 0) {
  const store = new SqliteEventStore(file);
  const recorder = new RunningLogRecorder(store, file, record, schemas, { everyMs: 3_600_000 });
  recorder.begin();
  const v = await verifyEventLog(store, file, schemas, record);
  await recorder.start(v.last);
  const last = v.last ?? 0n;
  for (let i = 1; i <= append; i++) {
    const n = Number(last) + i;
    await store.append(
      's-late',
      [{ id: `late${n}`, type: 'Noted', data: { n }, metadata: { at: 'x' } as never }],
      'any',
    );
  }
  await closeVerifiedLog(store, file, schemas, record, recorder);
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

/** The start refuses the log with the operator's French message, naming the event at `position`. */
async function expectRefusedAt(file: string, record: VerifiedLogRecord, position: number) {
  const err = await verify(file, record).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(DataFileError);
  expect((err as DataFileError).message).toContain(`position ${position}`);
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
    await expectRefusedAt(file, record, 17);
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
    await expectRefusedAt(file, record, 5);
  });

  it("an event edited by another connection during the run, then a clean stop: the next start checks the whole log (the run's appends included)", async () => {
    const { file, record } = await logWith(300);
    await startAndStop(file, record);
    const store = new SqliteEventStore(file);
    const recorder = new RunningLogRecorder(store, file, record, schemas, { everyMs: 3_600_000 });
    recorder.begin();
    const v = await verifyEventLog(store, file, schemas, record);
    await recorder.start(v.last);
    for (let n = 301; n <= 320; n++)
      await store.append('s-run', [{ id: `r${n}`, type: 'Noted', data: { n }, metadata: { at: 'x' } as never }], 'any');
    await recorder.runOnce();
    // an append of this run, already checked by the recorder's turn, edited with SQLite's tools
    edit(file, 310, '{"n": "trois cent dix"}');
    expect(await closeVerifiedLog(store, file, schemas, record, recorder)).toMatchObject({
      notRecorded: 'une autre connexion a écrit dans le journal',
    });
    await expectRefusedAt(file, record, 310);
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

const recordThenDie = path.join(path.dirname(new URL(import.meta.url).pathname), 'testing', 'record-then-die.ts');

/**
 * The embedded server's start and writes in a child process (record-then-die.ts runs `steps`),
 * killed with SIGKILL once it says ready; `onPause` runs at each `pause:NAME` step, then lets it go on.
 */
async function killedRun(
  file: string,
  record: VerifiedLogRecord,
  steps: string[],
  onPause: (name: string) => void | Promise<void> = () => undefined,
): Promise<string> {
  const run = startScript(recordThenDie, [file, record.file, record.code, ...steps]);
  try {
    const seen = new Set<string>();
    for (;;) {
      if (run.child.exitCode !== null) throw new Error(`record-then-die ended: ${run.err()}`);
      for (const [, name] of run.out().matchAll(/^paused (\S+)$/gm)) {
        if (seen.has(name)) continue;
        seen.add(name);
        await onPause(name);
        writeFileSync(path.join(path.dirname(file), name), '');
      }
      if (/^ready /m.test(run.out())) break;
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    run.child.kill('SIGKILL');
    await run.exited;
  }
  return run.out();
}

/**
 * An event's data changed by bytes in the main file itself, same length, as a raw edit would
 * (every copy: a page's free space may keep an older one).
 */
function rawEdit(file: string, from: string, to: string) {
  const bytes = readFileSync(file);
  let copies = 0;
  for (let at = bytes.indexOf(from); at >= 0; at = bytes.indexOf(from, at + 1), copies++) bytes.write(to, at);
  expect(copies).toBeGreaterThan(0);
  writeFileSync(file, bytes);
}

/** A connection of SQLite's tools that edits an event and stays open (its edit only in the -wal). */
function editKeepingWal(file: string, position: number, data: string) {
  const db = new Database(file);
  open.push(db);
  db.pragma('wal_autocheckpoint = 0');
  db.prepare('UPDATE events SET data = ? WHERE position = ?').run(data, position);
}

describe('event log verification, after a kill -9', () => {
  it('checks only what the -wal holds and what follows the last record, and refuses an event edited since', async () => {
    const { file, record } = await logWith(300);
    await startAndStop(file, record);
    await killedRun(file, record, ['append:200', 'tick', 'append:30']);
    const v = await verify(file, record);
    expect(v).toMatchObject({ last: 530n, trustedUpTo: 500n, afterCrash: true });
    // the 30 after the record, and the events sharing the -wal's leaf pages: far fewer than the log
    expect(v.checked).toBeGreaterThanOrEqual(30);
    expect(v.checked).toBeLessThan(100);

    // an edit after the kill, by a tool that leaves it in the -wal: the start finds it
    editKeepingWal(file, 520, '{"n": "cinq cent vingt"}');
    await expectRefusedAt(file, record, 520);
  }, 60_000);

  it('an old event edited in the main file after the kill, the -wal still there: the whole log is checked', async () => {
    const { file, record } = await logWith(300);
    await startAndStop(file, record);
    await killedRun(file, record, ['append:200', 'tick', 'append:30']);
    rawEdit(file, '{"n":17}', '{"n":1x}');
    await expectRefusedAt(file, record, 17);
  }, 60_000);

  it('an old event edited by another connection while the server runs, a turn of the recorder, then a kill -9: refused', async () => {
    const { file, record } = await logWith(300);
    await startAndStop(file, record);
    const out = await killedRun(file, record, ['append:200', 'tick', 'pause:edited', 'tick', 'append:30'], () =>
      editKeepingWal(file, 17, '{"n": "dix-sept"}'),
    );
    expect(out).toContain('une autre connexion a écrit dans le journal');
    await expectRefusedAt(file, record, 17);
  }, 60_000);

  it('an old event edited by another connection while the server runs, then a kill -9 before any turn: refused', async () => {
    const { file, record } = await logWith(300);
    await startAndStop(file, record);
    await killedRun(file, record, ['append:200', 'tick', 'append:30', 'pause:edited'], () =>
      editKeepingWal(file, 17, '{"n": "dix-sept"}'),
    );
    await expectRefusedAt(file, record, 17);
  }, 60_000);
});

/**
 * Another program keeps the file open across the restart (an operator's sqlite3 shell, a backup
 * tool): SQLite then recovers nothing from the -wal and serves its pages through the -shm index.
 */
function holdOpen(file: string) {
  const reader = new Database(file, { readonly: true });
  open.push(reader);
  reader.prepare('SELECT count(*) FROM events').get();
}

describe('event log verification, after a kill -9: a -wal not as SQLite left it', () => {
  it('a frame of the -wal edited in place while another program keeps the file open (SQLite serves the edited page from its index): refused', async () => {
    const { file, record } = await logWith(300);
    await startAndStop(file, record);
    await killedRun(file, record, ['append:200', 'tick', 'append:30', 'pause:hold'], () => holdOpen(file));
    // 451 shares its leaf page with the appends after the record: the -wal holds it
    rawEdit(`${file}-wal`, '{"n":451}', '{"m":451}');
    await expectRefusedAt(file, record, 451);
  }, 60_000);

  it("the -wal's last frames given an older generation's salts and edited, the file kept open by another program (its index still counts them): refused", async () => {
    const { file, record } = await logWith(300);
    await startAndStop(file, record);
    await killedRun(file, record, ['append:200', 'tick', 'append:30', 'pause:hold'], () => holdOpen(file));
    const wal = readFileSync(`${file}-wal`);
    const frameSize = 24 + wal.readUInt32BE(8);
    // the images of 451's page among the frames of the current generation (the header's salts)
    const holding: number[] = [];
    for (
      let frame = 32;
      frame < wal.length && wal.readUInt32BE(frame + 8) === wal.readUInt32BE(16);
      frame += frameSize
    ) {
      const found = wal.subarray(frame, frame + frameSize).indexOf('{"n":451}');
      if (found >= 0) holding.push(frame + found);
    }
    expect(holding.length).toBeGreaterThan(0);
    // from the first on, frames a reading of the -wal alone stops before (SQLite's recovery too)
    const first = holding[0] - ((holding[0] - 32) % frameSize);
    for (let frame = first; frame < wal.length; frame += frameSize)
      wal.writeUInt32BE((wal.readUInt32BE(16) - 1) >>> 0, frame + 8);
    for (const at of holding) wal.write('{"m":451}', at);
    writeFileSync(`${file}-wal`, wal);
    await expectRefusedAt(file, record, 451);
  }, 60_000);

  it("an older generation's -wal put back after two turns (SQLite finds the pages damaged): refused in French", async () => {
    const { file, record } = await logWith(300);
    await startAndStop(file, record);
    await killedRun(
      file,
      record,
      ['append:200', 'tick', 'append:30', 'pause:copy', 'tick', 'append:30', 'tick', 'append:10'],
      () => copyFile(`${file}-wal`, `${file}-wal.old`),
    );
    await copyFile(`${file}-wal.old`, `${file}-wal`);
    const err = await verify(file, record).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataFileError);
    expect((err as DataFileError).message).toMatch(/endommagé|illisible/);
  }, 60_000);

  it('a -wal whose last bytes are not a whole frame: the whole log is checked', async () => {
    const { file, record } = await logWith(300);
    await startAndStop(file, record);
    await killedRun(file, record, ['append:200', 'tick', 'append:30']);
    writeFileSync(`${file}-wal`, Buffer.concat([readFileSync(`${file}-wal`), Buffer.alloc(100, 7)]));
    const v = await verify(file, record);
    expect(v.trustedUpTo).toBeUndefined();
    expect(v.recordIgnored).toContain('trame incomplète');
    expect(v.checked).toBe(530);
  }, 60_000);
});

describe('the running recorder', () => {
  it('removes the record a killed run wrote but did not rename', async () => {
    const { file, record } = await logWith(10);
    writeFileSync(`${record.file}.tmp-99999`, '{}');
    const store = new SqliteEventStore(file);
    open.push(store);
    new RunningLogRecorder(store, file, record, schemas, { everyMs: 3_600_000 }).begin();
    expect(existsSync(`${record.file}.tmp-99999`)).toBe(false);
  });
});

describe('the running recorder', () => {
  it("keeps the -wal small with SQLite's automatic checkpoints off: its turns copy it into the main file", async () => {
    const { file, record } = await logWith(10);
    const store = new SqliteEventStore(file);
    open.push(store);
    // turns only when asked here (no checkpoint for the -wal's size)
    const recorder = new RunningLogRecorder(store, file, record, schemas, { everyMs: 3_600_000, walPages: 1e9 });
    recorder.begin();
    await recorder.start((await verifyEventLog(store, file, schemas, record)).last);
    const walBytes = () => statSync(`${file}-wal`).size;
    const appendMany = async (from: number, count: number) => {
      for (let n = from; n < from + count; n++)
        await store.append(
          `s-${n % 7}`,
          [{ id: `w${n}`, type: 'Noted', data: { n }, metadata: { at: 'x' } as never }],
          'any',
        );
    };
    await appendMany(11, 200);
    await recorder.runOnce();
    await appendMany(211, 200);
    const afterOneTurn = walBytes();
    for (let round = 1; round < 10; round++) {
      await recorder.runOnce();
      await appendMany(211 + round * 200, 200);
    }
    // the log restarts after each turn: 2000 events leave it about as large as 200 did
    expect(walBytes()).toBeLessThan(afterOneTurn * 1.3);
    // without turns it grows with every transaction
    await appendMany(2211, 400);
    expect(walBytes()).toBeGreaterThan(afterOneTurn * 1.5);
  });
});

const appendNoted = async (store: SqliteEventStore, from: number, count: number) => {
  for (let n = from; n < from + count; n++)
    await store.append(
      `s-${n % 7}`,
      [{ id: `w${n}`, type: 'Noted', data: { n }, metadata: { at: 'x' } as never }],
      'any',
    );
};
const FRAME = 4096 + 24;
const recordedPosition = (record: VerifiedLogRecord) =>
  (JSON.parse(readFileSync(record.file, 'utf8')) as { position: string }).position;

describe('the running recorder, its cadence', () => {
  it("checkpoints and records once the -wal holds 1000 pages, as SQLite's automatic checkpoints would, without waiting for a turn", async () => {
    const { file, record } = await logWith(10);
    const store = new SqliteEventStore(file);
    open.push(store);
    const recorder = new RunningLogRecorder(store, file, record, schemas, { everyMs: 3_600_000 });
    recorder.begin();
    await recorder.start((await verifyEventLog(store, file, schemas, record)).last);
    let peak = 0;
    for (let from = 11; from < 3011; from += 100) {
      await appendNoted(store, from, 100);
      peak = Math.max(peak, statSync(`${file}-wal`).size);
    }
    expect(peak).toBeLessThan(1300 * FRAME);
    expect(Number(recordedPosition(record))).toBeGreaterThan(10);
  }, 60_000);

  it('a log that grew slowly is recorded after maxDelayMs, not at every turn', async () => {
    const { file, record } = await logWith(10);
    const store = new SqliteEventStore(file);
    open.push(store);
    const recorder = new RunningLogRecorder(store, file, record, schemas, { everyMs: 50, maxDelayMs: 1000 });
    recorder.begin();
    await recorder.start((await verifyEventLog(store, file, schemas, record)).last);
    await appendNoted(store, 11, 5);
    await new Promise((r) => setTimeout(r, 300));
    expect(recordedPosition(record)).toBe('10');
    await new Promise((r) => setTimeout(r, 1000));
    expect(recordedPosition(record)).toBe('15');
    await recorder.stop();
  });

  it('ends the recording after three failed turns and gives the checkpoints back to SQLite (the -wal stays bounded)', async () => {
    const { file, record } = await logWith(10);
    const store = new SqliteEventStore(file);
    open.push(store);
    const failing = {
      readAll: () => {
        throw new Error('panne simulée');
      },
    } as unknown as Pick<SqliteEventStore, 'readAll'>;
    const recorder = new RunningLogRecorder(store, file, record, schemas, { everyMs: 3_600_000, reader: failing });
    recorder.begin();
    await recorder.start((await verifyEventLog(store, file, schemas, record)).last);
    await appendNoted(store, 11, 5);
    for (let i = 0; i < 3; i++) await recorder.runOnce();
    expect(recorder.endedBecause).toContain('panne simulée');
    await appendNoted(store, 16, 3000);
    expect(statSync(`${file}-wal`).size).toBeLessThan(1300 * FRAME);
  }, 60_000);
});

describe('event log verification, after a kill -9: an event larger than a page', () => {
  it('an edit that changes only its overflow pages (the -wal does not hold its leaf page): the whole log is checked', async () => {
    const { file, record } = await logWith(0);
    const pad = 'a'.repeat(6000);
    const store = new SqliteEventStore(file);
    for (let n = 1; n <= 300; n++)
      await store.append(
        `s-${n % 3}`,
        [{ id: `e${n}`, type: 'Noted', data: n === 17 ? { pad, n } : { n }, metadata: { at: 'x' } as never }],
        'any',
      );
    await store.close();
    await startAndStop(file, record);
    await killedRun(file, record, ['append:200', 'tick', 'append:30']);
    // same length, the change at the end of the data: SQLite rewrites the overflow page alone
    editKeepingWal(file, 17, JSON.stringify({ pad: pad.slice(1), n: '7' }));
    await expectRefusedAt(file, record, 17);
  }, 60_000);
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
