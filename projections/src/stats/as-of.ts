import type { RecordedAppEvent } from '@evo/domain';
import { MemoryReadStore, type EventStore } from '@evo/infra';
import { statsProjector } from './stats-projector';

/**
 * The statistics as they were at `asOf`: the whole log is read and every event whose time
 * (`metadata.at`) is at or before `asOf` goes through the same stats projector into a throwaway
 * in-memory store (times are filtered event by event: a log's times are not strictly ordered).
 * The caller queries the store with `statsQueries(store, asOf)`, then closes it.
 */
export async function statsAsOf(events: EventStore, asOf: Date, batchSize = 1000): Promise<MemoryReadStore> {
  const store = new MemoryReadStore();
  for (const [collection, specs] of Object.entries(statsProjector.indexes ?? {})) {
    for (const spec of specs) await store.collection(collection).createIndex(spec);
  }
  const limit = asOf.toISOString();
  const ctx = { live: false, push: () => undefined, rooms: () => undefined };
  const types = new Set<string>(statsProjector.eventTypes);
  for await (const batch of events.readAll(undefined, batchSize)) {
    const kept = batch.filter((e) => types.has(e.type) && e.metadata.at <= limit);
    if (kept.length === 0) continue;
    await store.withTransaction(async (tx) => {
      for (const e of kept) await statsProjector.project(e as RecordedAppEvent, tx, ctx);
    });
  }
  return store;
}
