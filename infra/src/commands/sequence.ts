import { sequenceDecider, sequenceStream, type SequenceState } from '@evo/domain';
import { WrongExpectedRevisionError, type EventStore } from '../eventstore/port';
import { toNewEvents, type CommandContext } from './command-handler';

type Cached = { state: SequenceState; revision: number };
const caches = new WeakMap<EventStore, Map<string, Cached>>();

const chains = new WeakMap<EventStore, Map<string, Promise<unknown>>>();

/**
 * Next numeric id of a kind (video, comment, ...), unique under concurrency and across
 * processes: appended to `sequence-<name>` with its expected revision. Calls of this process are
 * queued per sequence, so they never collide with each other (only other processes can make one
 * retry). The folded state is cached and only the events after it are read.
 */
export function nextId(store: EventStore, name: string, ctx: CommandContext): Promise<number> {
  let perStore = chains.get(store);
  if (!perStore) chains.set(store, (perStore = new Map()));
  const previous = perStore.get(name) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(() => drawNextId(store, name, ctx));
  perStore.set(name, next);
  // forget a settled chain so the map does not hold finished promises forever
  void next.finally(() => {
    if (perStore.get(name) === next) perStore.delete(name);
  }).catch(() => undefined);
  return next;
}

async function drawNextId(store: EventStore, name: string, ctx: CommandContext): Promise<number> {
  const streamId = sequenceStream(name);
  let cache = caches.get(store);
  if (!cache) caches.set(store, (cache = new Map()));
  let cached = cache.get(name) ?? { state: sequenceDecider.initialState(), revision: -1 };
  for (let attempt = 1; ; attempt++) {
    const newer = await store.readStream(streamId, cached.revision + 1);
    for (const e of newer) {
      cached = { state: sequenceDecider.evolve(cached.state, e as never), revision: e.revision };
    }
    const events = sequenceDecider.decide({ type: 'AssignNextId' }, cached.state);
    try {
      // never derive these event ids from an idempotency key: each call must get a new number
      const r = await store.append(
        streamId,
        toNewEvents(events, streamId, { ...ctx, idempotencyKey: undefined }),
        cached.revision < 0 ? 'no_stream' : cached.revision,
      );
      cached = { state: sequenceDecider.evolve(cached.state, events[0]), revision: r.nextRevision };
      cache.set(name, cached);
      return events[0].data.value;
    } catch (e) {
      if (!(e instanceof WrongExpectedRevisionError) || attempt >= 50) throw e;
      await new Promise((r) => setTimeout(r, Math.random() * Math.min(20, attempt * 2)));
    }
  }
}
