import type { RecordedAppEvent } from '@evo/domain';
import { SqliteReadStore, type EventStore, type ReadStore } from '@evo/infra';
import { statsProjector } from './stats-projector';

/**
 * The statistics (the route's answer only when the log's times went backwards: see
 * `statsMomentsExact`; the tests' oracle otherwise) as they were at `asOf`: the whole log is read and every event whose time
 * (`metadata.at`) is at or before `asOf` goes through the same stats projector into a throwaway
 * temporary store (times are filtered event by event). The caller queries the store with
 * `statsQueries(store, asOf)`, then closes it.
 */
export async function statsAsOf(
  events: EventStore,
  asOf: Date,
  batchSize = 1000,
  /** 'prefix': the stats events up to the first one stamped after `asOf` (the moments' semantics) */
  mode: 'filter' | 'prefix' = 'filter',
): Promise<ReadStore> {
  const scratch = SqliteReadStore.temporary();
  for (const [collection, specs] of Object.entries(statsProjector.indexes ?? {})) {
    for (const spec of specs) await scratch.collection(collection).createIndex(spec);
  }
  const limit = asOf.toISOString();
  const ctx = { live: false, push: () => undefined, rooms: () => undefined };
  const types = new Set<string>(statsProjector.eventTypes);
  let past = false;
  for await (const batch of events.readAll(undefined, batchSize)) {
    for (const e of batch) {
      if (!types.has(e.type)) continue;
      if (e.metadata.at > limit) past = true;
      if (e.metadata.at <= limit && !(mode === 'prefix' && past))
        await statsProjector.project(e as RecordedAppEvent, scratch, ctx);
    }
  }
  return scratch;
}
