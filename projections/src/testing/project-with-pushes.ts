import type { RecordedAppEvent } from '@evo/domain';
import { SqliteReadStore, type EventStore } from '@evo/infra';
import { allProjectors } from '../registry';

export interface RecordedPush {
  room: string;
  event: string;
  payload: Record<string, unknown>;
}

/**
 * Every projector over the whole log, event by event as live, into a fresh read store with their
 * indexes, recording the pushes; `times` deliveries of each event (2: every event redelivered).
 */
export async function projectWithPushes(events: EventStore, times = 1) {
  const read = SqliteReadStore.temporary();
  const pushes: RecordedPush[] = [];
  const ctx = {
    live: true,
    push: (room: string, event: string, payload: unknown) =>
      pushes.push({ room, event, payload: payload as Record<string, unknown> }),
    rooms: () => {},
  };
  for (const p of allProjectors)
    for (const [c, specs] of Object.entries(p.indexes ?? {}))
      for (const s of specs) await read.collection(c).createIndex(s);
  for await (const batch of events.readAll(undefined, 100)) {
    for (const e of batch)
      for (let t = 0; t < times; t++) for (const p of allProjectors) await p.project(e as RecordedAppEvent, read, ctx);
  }
  return { read, pushes };
}
