import { describe, expect, it } from 'vitest';
import { eventSchemas, type RecordedAppEvent, type RecordedEvent } from '@evo/domain';
import { SqliteReadStore, SqliteEventStore, type ReadStore } from '@evo/infra';
import { allProjectors } from '../registry';
import type { ProjectionContext, Projector } from './projector';
import { rebuildReadModels } from './rebuild';
import { routesOf } from './runner';
import { dumpReadModels } from '../testing/read-model-dump';
import { writeScriptedHistory } from '../testing/scripted-history';
import { closedAfterEach } from '../testing/test-lifecycle';

const open = closedAfterEach();
const ALL_TYPES = Object.keys(eventSchemas);

class Touched extends Error {}
const touched = (what: string) => {
  throw new Touched(what);
};

/**
 * An event of `type` whose data cannot be read, a store on which every read and write throws, and
 * a context that throws: a projector that returns quietly from them did nothing with the event
 * (its output is the same whether or not it is called), whatever the event's data.
 */
async function handles(projector: Projector, type: string): Promise<boolean> {
  const data = new Proxy({}, { get: (_, field) => touched(`data.${String(field)}`) });
  const event = {
    id: 'e1',
    type,
    data,
    // every metadata field set: a projector that only acts for an actor (the audit) gets one
    metadata: { userId: 'admin-1', correlationId: 'c1', causationId: 'c0', at: '2026-03-01T10:00:00.000Z' },
    streamId: 's-1',
    revision: 0,
    position: 42n,
  } as unknown as RecordedAppEvent;
  // (symbols: a plain collection's, without a unit of work's capabilities)
  const collection = new Proxy(
    {},
    { get: (_, method) => (typeof method === 'symbol' ? undefined : () => touched(`collection.${method}`)) },
  );
  const store = {
    collection: () => collection,
    listCollections: () => touched('listCollections'),
    withTransaction: () => touched('withTransaction'),
    dropAll: () => touched('dropAll'),
    close: () => touched('close'),
  } as unknown as ReadStore;
  const ctx: ProjectionContext = { live: true, push: () => touched('push'), rooms: () => touched('rooms') };
  try {
    await projector.project(event, store, ctx);
    return false;
  } catch (err) {
    if (err instanceof Touched) return true;
    throw err;
  }
}

describe('event routing (Projector.eventTypes)', () => {
  it('declares only event types of the domain, each once', () => {
    for (const p of allProjectors) {
      expect(ALL_TYPES, p.name).toEqual(expect.arrayContaining([...p.eventTypes]));
      expect(new Set(p.eventTypes).size, p.name).toBe(p.eventTypes.length);
    }
  });

  it('covers every type a projector handles: an undeclared one is left alone, a declared one is used', async () => {
    const undeclaredButHandled: string[] = [];
    const declaredButIgnored: string[] = [];
    for (const p of allProjectors) {
      const declared = new Set<string>(p.eventTypes);
      for (const type of ALL_TYPES) {
        const used = await handles(p, type);
        if (used && !declared.has(type)) undeclaredButHandled.push(`${p.name}: ${type}`);
        if (!used && declared.has(type)) declaredButIgnored.push(`${p.name}: ${type}`);
      }
    }
    expect(undeclaredButHandled).toEqual([]);
    expect(declaredButIgnored).toEqual([]);
  });

  it('hands each projector only the types it declares, in the projectors order', () => {
    const routes = routesOf(allProjectors);
    for (const [type, projectors] of routes) {
      for (const p of projectors) expect(p.eventTypes, `${p.name} got ${type}`).toContain(type);
      expect(projectors).toEqual(allProjectors.filter((p) => projectors.includes(p)));
    }
    for (const p of allProjectors) for (const type of p.eventTypes) expect(routes.get(type)).toContain(p);
  });

  it('rebuilds the same read models as every projector seeing every event', async () => {
    const events = new SqliteEventStore(':memory:');
    open.push(events);
    await writeScriptedHistory(events, 4);
    const all: RecordedEvent[] = [];
    for await (const batch of events.readAll(undefined, 100)) all.push(...batch);
    // unrouted: each event through all fifteen projectors
    const everyProjector = SqliteReadStore.temporary();
    const ctx: ProjectionContext = { live: true, push: () => undefined, rooms: () => undefined };
    for (const e of all) for (const p of allProjectors) await p.project(e as RecordedAppEvent, everyProjector, ctx);
    // routed, and every call checked against the declarations
    const seen: string[] = [];
    const spied = allProjectors.map((p): Projector => ({
      ...p,
      project: (e, store, c) => {
        if (!p.eventTypes.includes(e.type)) seen.push(`${p.name}: ${e.type}`);
        return p.project(e, store, c);
      },
    }));
    const routed = SqliteReadStore.temporary();
    await rebuildReadModels({ events, read: routed, projectors: spied, batchSize: 10 });
    expect(seen).toEqual([]);
    const rebuilt = await dumpReadModels(routed);
    expect(rebuilt).toEqual(await dumpReadModels(everyProjector));
    expect(Object.keys(rebuilt).length).toBeGreaterThan(15);
  });
});
