import type { LogPosition } from '@evo/domain';
import type { EventStore } from './port';

/**
 * The id of the event at `position`, undefined when there is none: what tells a checkpoint's log
 * from another log of as many events (SQLite positions are contiguous: it follows position - 1).
 */
export async function eventIdAt(events: EventStore, position: LogPosition): Promise<string | undefined> {
  if (position < 1n) return undefined;
  for await (const batch of events.readAll(position - 1n, 1)) {
    const e = batch[0];
    return e && e.position === position ? e.id : undefined;
  }
  return undefined;
}
