import type { AppEvent, RecordedAppEvent } from '@evo/domain';
import type { IndexSpec, ReadStore } from '@evo/infra';
import type { PushEventName, PushEvents } from '@evo/contracts';

export interface ProjectionContext {
  /**
   * false while catching up with the log (a rebuild, a start): pushes are dropped then, so a
   * projector skips the reads that only shape a push (never a write)
   */
  readonly live: boolean;
  /** queue a change message for Socket.IO clients; sent after the write is committed, only when live */
  push<E extends PushEventName>(room: string, event: E, payload: PushEvents[E]): void;
  /** queue: every client in room `members` joins or leaves `room` (same rules as push) */
  rooms(members: string, room: string, action: 'join' | 'leave'): void;
}

/**
 * Turns events into read-model writes. The rules:
 * - one writer per document: a projector writes only the collections it lists in `collections`
 *   (the runner hands it a store that refuses the others: own-collections.ts). What it needs of
 *   another read model it projects itself from the events, or the query joins it; so projectors
 *   may run in any order (projections.test.ts, "any order") and one may lag behind the others;
 * - every write is idempotent: inserts/upserts with ids taken from the event, and counter
 *   changes guarded by the document's last applied position (see `applyOnce`);
 * - at most one guarded write per document per event.
 */
export interface Projector {
  name: string;
  /**
   * 1 when absent. Part of the read models' fingerprint (runtime/fingerprint.ts): bump it when what the
   * projector writes changes for a reason its source in this package does not show.
   */
  version?: number;
  collections: readonly string[];
  /**
   * The event types `project` handles: the runner hands it these and no others (every projector
   * no longer sees every event). runtime/routing.test.ts checks that an undeclared type is never handled.
   */
  eventTypes: readonly AppEvent['type'][];
  indexes?: Readonly<Record<string, readonly IndexSpec[]>>;
  project(event: RecordedAppEvent, store: ReadStore, ctx: ProjectionContext): Promise<void>;
}
