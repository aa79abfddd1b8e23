import type { RecordedAppEvent } from '@evo/domain';
import { SqliteReadStore, type EventStore, type ReadStore } from '@evo/infra';
import { statsProjector } from './stats-projector';

/**
 * The statistics as they were at `asOf`: the whole log is read and every event whose time
 * (`metadata.at`) is at or before `asOf` goes through the same stats projector into a throwaway
 * in-memory store (times are filtered event by event: a log's times are not strictly ordered),
 * folded into a ScratchStore first and taken over at the end, indexes built once (as a rebuild
 * does: see ProjectionRunner.load). The caller queries the store with `statsQueries(store, asOf)`,
 * then closes it.
 */
export async function statsAsOf(events: EventStore, asOf: Date, batchSize = 1000): Promise<ReadStore> {
  const scratch = SqliteReadStore.temporary();
  for (const [collection, specs] of Object.entries(statsProjector.indexes ?? {})) {
    for (const spec of specs) await scratch.collection(collection).createIndex(spec);
  }
  const limit = asOf.toISOString();
  const ctx = { live: false, push: () => undefined, rooms: () => undefined };
  const types = new Set<string>(statsProjector.eventTypes);
  for await (const batch of events.readAll(undefined, batchSize)) {
    for (const e of batch) {
      if (types.has(e.type) && e.metadata.at <= limit)
        await statsProjector.project(e as RecordedAppEvent, scratch, ctx);
    }
  }
  return scratch;
}
