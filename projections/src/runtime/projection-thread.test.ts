import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LogPosition, NewEvent } from '@evo/domain';
import { DurableMark, SqliteEventStore, type PushBus } from '@evo/infra';
import type { Worker } from 'node:worker_threads';
import { ProjectionThread } from './projection-thread';
import { startThreadWorker } from './thread-worker';
import type { FixtureData } from '../testing/projection-thread-fixture';

const FIXTURE = new URL('../testing/projection-thread-fixture.ts', import.meta.url);

const comment = (content: string) =>
  ({ id: randomUUID(), type: 'CommentPosted', data: { content }, metadata: {} }) as unknown as NewEvent;

type Pushed = { room: string; event: string; payload: { content: string }; count: number };

const running: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of running.splice(0).reverse()) await stop();
});

/** The request thread's side: the log it appends to, and the projections' thread over its DATA_DIR. */
async function start(restartDelayMs?: number, worker?: Worker) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'evo-thread-'));
  const eventsFile = path.join(dataDir, 'events.sqlite');
  const mark = new DurableMark();
  const events = new SqliteEventStore(eventsFile, { publishDurable: mark });
  const broken = new Int32Array(new SharedArrayBuffer(8));
  const data: FixtureData = {
    eventsFile,
    dataDir,
    durableMark: mark.buffer,
    broken: broken.buffer as SharedArrayBuffer,
  };
  const thread = new ProjectionThread({ entry: FIXTURE, data, restartDelayMs, worker });
  const count = async () =>
    (await thread.read.collection<{ _id: string; n: number }>('fragile').findOne({ _id: 'comments' }))?.n ?? 0;
  const pushed: Pushed[] = [];
  const bus: PushBus = {
    // what the read models hold when the push is relayed
    publish: async (room, event, payload) =>
      void pushed.push({ room, event, payload: payload as Pushed['payload'], count: await count() }),
    joinRoom: async () => undefined,
    leaveRoom: async () => undefined,
    close: async () => undefined,
  };
  thread.setPush(bus);
  running.push(async () => {
    await thread.stop();
    await thread.read.close();
    await events.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const append = async (content: string): Promise<LogPosition> =>
    (await events.append(`comment-${randomUUID()}`, [comment(content)], 'no_stream')).position;
  return { dataDir, events, thread, broken, pushed, count, append };
}

describe('ProjectionThread: the projections in a worker thread of their own', () => {
  it('catches up, then follows the log: the request thread reads what the thread committed once waitFor says so, and relays its pushes after the commit', async () => {
    const t = await start();
    await t.append('un');
    await t.append('deux');
    await t.thread.start();
    expect(await t.count()).toBe(2);
    // caught up: nothing pushed for what was already in the log
    expect(t.pushed).toEqual([]);
    const last = await t.append('trois');
    expect(await t.thread.waitFor(last, 5000)).toBe(true);
    expect(t.thread.currentPosition).toBe(last);
    expect(await t.count()).toBe(3);
    await expect.poll(() => t.pushed.length).toBe(1);
    expect(t.pushed[0]).toMatchObject({
      room: 'video:1',
      event: 'comment:new',
      payload: { content: 'trois' },
      count: 3,
    });
    expect(await t.thread.health()).toEqual({ caughtUp: true, stopped: [], storeError: undefined });
  });

  // npm start starts the thread's worker before it loads the rest of the server (server/src/main.ts)
  it('runs on a worker started beforehand, which waits for its data, and answers the calls made meanwhile', async () => {
    const worker = startThreadWorker(FIXTURE);
    await new Promise((r) => setTimeout(r, 200));
    const t = await start(undefined, worker);
    await t.append('un');
    await t.thread.start();
    expect(await t.count()).toBe(1);
    const last = await t.append('deux');
    expect(await t.thread.waitFor(last, 5000)).toBe(true);
    await expect.poll(() => t.pushed.map((p) => p.payload.content)).toEqual(['deux']);
    // that worker is the thread's: stopping the thread ends it
    await t.thread.stop();
    expect(worker.threadId).toBe(-1);
  });

  it('starts a worker of its own when the one started beforehand has already ended', async () => {
    const worker = startThreadWorker(FIXTURE);
    await worker.terminate();
    const t = await start(undefined, worker);
    await t.append('un');
    await t.thread.start();
    expect(await t.count()).toBe(1);
    expect(await t.thread.health()).toEqual({ caughtUp: true, stopped: [], storeError: undefined });
  });

  it('reports a projector it stopped on an event, the others going on, and resumes it once fixed', async () => {
    const t = await start();
    await t.thread.start();
    Atomics.store(t.broken, 0, 1);
    const failing = await t.append('boum');
    const after = await t.append('après');
    expect(await t.thread.waitFor(after, 10_000)).toBe(true);
    const { stopped } = await t.thread.health();
    expect(stopped).toMatchObject([{ name: 'fragile', position: failing, type: 'CommentPosted' }]);
    expect(stopped[0].error).toContain('commentaire illisible');
    // the pushing projector went on
    await expect.poll(() => t.pushed.map((p) => p.payload.content)).toEqual(['boum', 'après']);
    expect(await t.count()).toBe(0);
    await expect(t.thread.resume('fragile')).rejects.toThrow('commentaire illisible');
    Atomics.store(t.broken, 0, 0);
    await t.thread.resume('fragile');
    expect((await t.thread.health()).stopped).toEqual([]);
    expect(await t.count()).toBe(2);
  });

  it('rebuilds into a new file while queries go on, then queries read that file and the old one is gone', async () => {
    const t = await start();
    for (let i = 0; i < 5; i++) await t.append(`c${i}`);
    await t.thread.start();
    const states: string[] = [];
    const rebuilt = t.thread.rebuild((s) => states.push(s.status));
    expect(t.thread.rebuildState().status).toBe('running');
    expect(await t.count()).toBe(5);
    await rebuilt;
    expect(t.thread.rebuildState()).toMatchObject({ status: 'done', events: 5 });
    expect(states.at(-1)).toBe('done');
    const files = readdirSync(t.dataDir).filter((f) => f.startsWith('read-models'));
    expect(files).toContain('read-models-2.sqlite');
    expect(files).not.toContain('read-models.sqlite');
    expect(await t.count()).toBe(5);
    const last = await t.append('encore');
    expect(await t.thread.waitFor(last, 5000)).toBe(true);
    expect(await t.count()).toBe(6);
  });

  it('says so in its health while the thread is dead, and calls fail meanwhile', async () => {
    const t = await start(60_000);
    await t.thread.start();
    await t.append('crash');
    await expect
      .poll(async () => (await t.thread.health()).storeError, { timeout: 5000 })
      .toContain("le fil des projections s'est arrêté (fil planté par le test)");
    expect(await t.thread.waitFor(1_000_000n, 200)).toBe(false);
    expect(await t.thread.isCaughtUp()).toBe(false);
    await expect(t.thread.resume('fragile')).rejects.toThrow("le fil des projections s'est arrêté");
  });

  it('starts a new thread once one died: it resumes from the checkpoints, and queries, waits and pushes go on', async () => {
    const t = await start(1000);
    await t.append('avant');
    await t.thread.start();
    t.thread.followReplays();
    await t.append('crash once');
    await expect
      .poll(async () => (await t.thread.health()).storeError, { timeout: 5000 })
      .toContain("le fil des projections s'est arrêté (fil planté par le test)");
    // appended while no thread runs: waited for, then projected and pushed by the next one
    const last = await t.append('après');
    expect((await t.thread.health()).storeError).toContain("s'est arrêté");
    expect(await t.thread.waitFor(last, 10_000)).toBe(true);
    expect(await t.count()).toBe(3);
    expect(await t.thread.health()).toEqual({ caughtUp: true, stopped: [], storeError: undefined });
    expect(await t.thread.isCaughtUp()).toBe(true);
    const pushed = () => t.pushed.map((p) => p.payload.content);
    await expect.poll(pushed).toContain('après');
    // pushed once, whichever thread did it; nothing the members had already been told
    expect(pushed().filter((c) => c === 'après')).toHaveLength(1);
    expect(pushed().filter((c) => c === 'crash once').length).toBeLessThanOrEqual(1);
    expect(pushed()).not.toContain('avant');
    // the new thread follows the log and rebuilds as the first did
    const more = await t.append('encore');
    expect(await t.thread.waitFor(more, 5000)).toBe(true);
    await expect.poll(pushed).toContain('encore');
    await t.thread.rebuild();
    expect(t.thread.rebuildState()).toMatchObject({ status: 'done', events: 4 });
    expect(await t.count()).toBe(4);
  });
});
