import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { cp, mkdtemp, open, rm, stat, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { registerAndLogin, startTestServer } from './testing/test-server';
import { freePort, spawnProduct, waitReady } from './testing/product-process';

/**
 * The product started (as `npm start` does) on a damaged or lost event log: it must refuse, with a
 * French message for the operator naming the file (and the position of a bad event), no stack,
 * and a non-zero exit code.
 */
let base: string;
const work: string[] = [];

beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'evo-datafiles-'));
  const server = await startTestServer({}, base);
  for (let i = 0; i < 3; i++) await registerAndLogin(server.url);
  await server.settle(30_000);
  await server.stop();
}, 120_000);

afterAll(async () => {
  for (const dir of [base, ...work]) await rm(dir, { recursive: true, force: true });
});

/** A copy of the base installation, damaged by `damage(eventsFile)`. */
async function damagedCopy(damage: (file: string) => Promise<void>): Promise<{ dir: string; file: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'evo-damaged-'));
  work.push(dir);
  await cp(base, dir, { recursive: true });
  const file = path.join(dir, 'events.sqlite');
  await damage(file);
  return { dir, file };
}

/** Start the product on `dir`; answers its exit code and output once it stopped by itself. */
async function startOn(dir: string): Promise<{ code: number | NodeJS.Signals | null; output: string }> {
  const product = spawnProduct({ DATA_DIR: dir, PORT: String(await freePort()), LOG_LEVEL: 'warn' });
  const timer = setTimeout(() => product.child.kill('SIGKILL'), 60_000);
  const code = await product.exited;
  clearTimeout(timer);
  return { code, output: product.output() };
}

/** Start the product on `dir` until it is ready, then stop it; answers its output. */
async function startAndStop(dir: string, logLevel: string): Promise<string> {
  const port = await freePort();
  const product = spawnProduct({ DATA_DIR: dir, PORT: String(port), LOG_LEVEL: logLevel });
  try {
    await waitReady(`http://127.0.0.1:${port}`, product);
  } finally {
    await product.stop();
  }
  return product.output();
}

/** Change the stored event at `position` with SQL, as a damaged or hand-edited file would have it. */
function editEvent(file: string, position: number, set: 'data' | 'type', value: string) {
  const db = new Database(file);
  const changed = db.prepare(`UPDATE events SET ${set} = ? WHERE position = ?`).run(value, position).changes;
  db.close();
  expect(changed).toBe(1);
}

/** The position of the first event of `type` in the base log. */
function positionOf(type: string): number {
  const db = new Database(path.join(base, 'events.sqlite'), { readonly: true });
  const p = db
    .prepare('SELECT position FROM events WHERE type = ? ORDER BY position LIMIT 1')
    .pluck()
    .get(type) as number;
  db.close();
  return p;
}

async function overwrite(file: string, offset: number, bytes: Buffer) {
  const handle = await open(file, 'r+');
  await handle.write(bytes, 0, bytes.length, offset);
  await handle.close();
}

function expectOperatorMessage(result: { code: unknown; output: string }, file: string, ...words: string[]) {
  expect(result.code, result.output).toBe(1);
  expect(result.output).toContain('EVO ne démarre pas');
  expect(result.output).toContain(file);
  expect(result.output).toContain('Que faire');
  for (const w of words) expect(result.output).toContain(w);
  // a message, not a stack
  expect(result.output).not.toMatch(/^\s+at /m);
}

describe('a corrupted events.sqlite', () => {
  it('with a damaged header', async () => {
    const { dir, file } = await damagedCopy((f) => overwrite(f, 0, Buffer.alloc(100, 0x41)));
    expectOperatorMessage(await startOn(dir), file, 'endommagé');
  }, 90_000);

  it('truncated', async () => {
    const { dir, file } = await damagedCopy(async (f) => truncate(f, Math.floor((await stat(f)).size * 0.6)));
    expectOperatorMessage(await startOn(dir), file, 'endommagé');
  }, 90_000);

  it('with a bad page', async () => {
    const { dir, file } = await damagedCopy(async (f) => {
      const pages = (await stat(f)).size / 4096;
      expect(pages).toBeGreaterThan(4);
      await overwrite(f, Math.floor(pages / 2) * 4096, Buffer.alloc(4096, 0x5a));
    });
    expectOperatorMessage(await startOn(dir), file, 'endommagé');
  }, 90_000);

  it('with an event whose data is malformed JSON: names its position', async () => {
    const position = positionOf('VideoUploaded');
    const { dir, file } = await damagedCopy(async (f) =>
      editEvent(f, position, 'data', '{"videoId": 1, "title": "coup'),
    );
    expectOperatorMessage(await startOn(dir), file, `position ${position}`, 'ne sont pas du JSON valide');
  }, 90_000);

  it('with an event of an unknown type: names its position', async () => {
    const position = positionOf('UserLoggedIn');
    const { dir, file } = await damagedCopy(async (f) => editEvent(f, position, 'type', 'EvenementInconnu'));
    expectOperatorMessage(await startOn(dir), file, `position ${position}`, '« EvenementInconnu » est inconnu');
  }, 90_000);

  it('with an event that does not match its schema: names its position and field', async () => {
    const position = positionOf('UserRegistered');
    const { dir, file } = await damagedCopy(async (f) =>
      editEvent(f, position, 'data', JSON.stringify({ userId: 'x', email: 'pas-un-email' })),
    );
    expectOperatorMessage(
      await startOn(dir),
      file,
      `position ${position}`,
      'schéma de UserRegistered',
      'champ email : adresse e-mail invalide',
    );
  }, 90_000);
});

describe('events.sqlite after a clean stop', () => {
  it('is not read again at the next start, but an event edited in place since is still found', async () => {
    const { dir, file } = await damagedCopy(async () => undefined);
    const run = () => startAndStop(dir, 'info');
    // the copy is another file: checked whole, then recorded at the stop
    expect(await run()).toMatch(/"msg":"event log verified"/);
    expect(await run()).toContain('unchanged since the last clean stop');
    const position = positionOf('UserRegistered');
    editEvent(file, position, 'data', JSON.stringify({ userId: 'x', email: 'pas-un-email' }));
    expectOperatorMessage(await startOn(dir), file, `position ${position}`, 'schéma de UserRegistered');
  }, 120_000);
});

describe('an empty events.sqlite', () => {
  it('is refused while uploads/ holds the files of an earlier installation', async () => {
    const { dir, file } = await damagedCopy(async (f) => {
      await writeFile(f, '');
      await rm(`${f}-wal`, { force: true });
      await rm(`${f}-shm`, { force: true });
    });
    const result = await startOn(dir);
    expectOperatorMessage(result, file, 'est vide', path.join(dir, 'uploads'));
    // nothing was seeded into it
    const db = new Database(file, { readonly: true });
    const count = (() => {
      try {
        return db.prepare('SELECT COUNT(*) FROM events').pluck().get() as number;
      } catch {
        return 0; // no table at all
      } finally {
        db.close();
      }
    })();
    expect(count).toBe(0);
  }, 90_000);

  it('starts as a fresh install when there are no uploads', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'evo-fresh-'));
    work.push(dir);
    await writeFile(path.join(dir, 'events.sqlite'), '');
    await startAndStop(dir, 'warn');
  }, 90_000);
});
