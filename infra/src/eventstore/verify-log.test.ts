import { afterEach, describe, expect, it } from 'vitest';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { z } from 'zod/v4';
import { DataFileError } from './data-file-error';
import { SqliteEventStore } from './sqlite-event-store';
import { useFrenchZodErrors, type RecordedEvent } from '@evo/domain';
import {
  eventProblem,
  recordVerifiedLog,
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
