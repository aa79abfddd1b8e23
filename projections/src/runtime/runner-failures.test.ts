import { describe, expect, it } from 'vitest';
import { SqliteEventStore, SqliteReadStore, type ReadStore } from '@evo/infra';
import type { RecordedAppEvent } from '@evo/domain';
import { allProjectors } from '../registry';
import { dumpReadModels } from '../testing/read-model-dump';
import { writeScriptedHistory } from '../testing/scripted-history';
import { rebuildReadModels } from './rebuild';
import { PROJECTION_STATUS, ProjectionRunner, readiness } from './runner';
import type { Projector } from './projector';
import { readCheckpoint } from './checkpoint';

/** A projector of its own collection that throws on the `n`th event it sees, while `broken()` says so. */
function fragileProjector(n: number, broken: () => boolean): Projector & { seen: number[] } {
  const seen: number[] = [];
  let count = 0;
  return {
    name: 'fragile',
    collections: ['fragile'],
    eventTypes: ['UserRegistered', 'VideoUploaded', 'UserFollowed'],
    seen,
    async project(event: RecordedAppEvent, store: ReadStore) {
      count++;
      if (count >= n && broken() && !seen.includes(Number(event.position)))
        throw new Error(`impossible d'appliquer ${event.type}`);
      if (!seen.includes(Number(event.position))) seen.push(Number(event.position));
      await store.collection('fragile').updateOne({ _id: 'n' }, { $inc: { n: 1 } }, { upsert: true });
    },
  };
}

describe('a projector that keeps failing on one event', () => {
  it('is stopped there after a few tries, the others go on live, and it resumes after the fix', async () => {
    const events = new SqliteEventStore(':memory:');
    const read = SqliteReadStore.temporary();
    let broken = true;
    const fragile = fragileProjector(4, () => broken);
    const errors: unknown[] = [];
    const runner = new ProjectionRunner({
      events,
      read,
      projectors: [...allProjectors, fragile],
      onError: (e) => errors.push(e),
    });
    await runner.start();
    await writeScriptedHistory(events, 3);
    const last = (await events.lastPosition())!;
    expect(await runner.waitFor(last, 60_000)).toBe(true);

    const declared: number[] = [];
    for await (const batch of events.readAll())
      for (const e of batch) if ((fragile.eventTypes as string[]).includes(e.type)) declared.push(Number(e.position));

    // stopped on its 4th event, with the event's position, type and error, kept with the read models
    const health = await runner.health();
    expect(health.stopped).toHaveLength(1);
    const [stopped] = health.stopped;
    expect(stopped).toMatchObject({ name: 'fragile', error: expect.stringContaining("impossible d'appliquer") });
    expect(stopped.position).toBe(BigInt(declared[3]));
    expect(await read.collection(PROJECTION_STATUS).findOne({ _id: 'fragile' })).toMatchObject({
      position: String(stopped.position),
      type: stopped.type,
    });
    expect(errors.length).toBeGreaterThanOrEqual(5);
    // /ready: serving, degraded, saying which projection stopped where, in French
    const ready = readiness(health);
    expect(ready.status).toBe(200);
    expect(ready.body.error).toContain(`« fragile » à l'événement ${stopped.position} (${stopped.type})`);
    // the other read models went on: they equal a rebuild without the fragile projector
    const others = SqliteReadStore.temporary();
    await rebuildReadModels({ events, read: others, projectors: allProjectors });
    const dump = await dumpReadModels(read);
    delete dump.fragile;
    delete dump[PROJECTION_STATUS];
    expect(dump).toEqual(await dumpReadModels(others));
    expect(await readCheckpoint(read)).toBe(last);
    const before = fragile.seen.length;

    // the cause fixed: resumed from its event up to the others, then live with them
    broken = false;
    await runner.resume('fragile');
    expect((await runner.health()).stopped).toEqual([]);
    expect(await read.collection(PROJECTION_STATUS).countDocuments()).toBe(0);
    expect(fragile.seen.length).toBeGreaterThan(before);
    await writeScriptedHistory(events, 2, 'ensuite');
    expect(await runner.waitFor((await events.lastPosition())!, 60_000)).toBe(true);
    // every event it declares applied exactly once (the counter is in the read models: rolled-back tries left nothing)
    declared.length = 0;
    for await (const batch of events.readAll())
      for (const e of batch) if ((fragile.eventTypes as string[]).includes(e.type)) declared.push(Number(e.position));
    expect((await read.collection('fragile').findOne({ _id: 'n' }))?.n).toBe(declared.length);
    await runner.stop();
    await Promise.all([read.close(), others.close(), events.close()]);
  }, 120_000);

  it('a store that cannot be written holds every projection and says so, then goes on by itself', async () => {
    const events = new SqliteEventStore(':memory:');
    const inner = SqliteReadStore.temporary();
    let full = false;
    // a disk that fills: every transaction fails while it is full
    const read: ReadStore = new Proxy(inner, {
      get(target, key) {
        if (key === 'withTransaction')
          return <R>(fn: (tx: ReadStore) => Promise<R>) =>
            full ? Promise.reject(new Error('database or disk is full')) : target.withTransaction(fn);
        const value: unknown = Reflect.get(target, key);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const runner = new ProjectionRunner({ events, read, projectors: allProjectors, onError: () => undefined });
    await runner.start();
    await writeScriptedHistory(events, 2);
    expect(await runner.waitFor((await events.lastPosition())!, 60_000)).toBe(true);
    full = true;
    await writeScriptedHistory(events, 2, 'pendant');
    const last = (await events.lastPosition())!;
    await expect.poll(async () => (await runner.health()).storeError, { timeout: 30_000 }).toContain('disk is full');
    const health = await runner.health();
    expect(health.stopped).toEqual([]);
    expect(readiness(health)).toMatchObject({ status: 503, body: { status: 'degraded' } });
    expect(await readCheckpoint(inner)).toBeLessThan(last);
    full = false;
    expect(await runner.waitFor(last, 30_000)).toBe(true);
    expect((await runner.health()).storeError).toBeUndefined();
    const rebuilt = SqliteReadStore.temporary();
    await rebuildReadModels({ events, read: rebuilt, projectors: allProjectors });
    expect(await dumpReadModels(inner)).toEqual(await dumpReadModels(rebuilt));
    await runner.stop();
    await Promise.all([inner.close(), rebuilt.close(), events.close()]);
  }, 120_000);
});
