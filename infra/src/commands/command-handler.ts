import { createHash, randomUUID } from 'node:crypto';
import { eventSchemas, fold, type Decider, type DomainEvent, type LogPosition, type NewEvent } from '@evo/domain';
import { WrongExpectedRevisionError, type EventStore } from '../eventstore/port';
import { FoldingEventStore } from './folding-event-store';

/** Who asks, and why: becomes every event's metadata. */
export interface CommandContext {
  userId?: string;
  correlationId: string;
  causationId?: string;
  idempotencyKey?: string;
  now: Date;
}

export const systemContext = (now = new Date()): CommandContext => ({ correlationId: randomUUID(), now });

export interface Decided<E, S> {
  events: E[];
  /** state after the new events */
  state: S;
  /** position of the last event written; undefined when nothing was written */
  position?: LogPosition;
}

/**
 * Event ids are random, except under an idempotency key: then they are derived from the key,
 * the stream and the index, so that a retried command re-appends the same ids and the event
 * store stores nothing twice.
 */
function eventId(ctx: CommandContext, streamId: string, index: number): string {
  if (!ctx.idempotencyKey) return randomUUID();
  const h = createHash('sha256').update(`${ctx.idempotencyKey}\u0000${streamId}\u0000${index}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function toNewEvents(events: DomainEvent[], streamId: string, ctx: CommandContext): NewEvent[] {
  const at = ctx.now.toISOString();
  return events.map((e, i) => {
    const schema = eventSchemas[e.type];
    if (!schema) throw new Error(`No schema for event type ${e.type}`);
    return { id: eventId(ctx, streamId, i), type: e.type, data: schema.parse(e.data), metadata: metadataOf(ctx, at) };
  });
}

/** An event's metadata, its keys in this order (assigned, not spread: this runs at every append). */
function metadataOf(ctx: CommandContext, at: string): NewEvent['metadata'] {
  const m: Partial<NewEvent['metadata']> = {};
  if (ctx.userId) m.userId = ctx.userId;
  m.correlationId = ctx.correlationId;
  if (ctx.causationId) m.causationId = ctx.causationId;
  if (ctx.idempotencyKey) m.idempotencyKey = ctx.idempotencyKey;
  m.at = at;
  return m as NewEvent['metadata'];
}

/** Load a stream and fold it with a decider. */
export async function loadState<C, E extends DomainEvent, S>(
  store: EventStore,
  streamId: string,
  decider: Decider<C, E, S>,
): Promise<{ state: S; revision: number }> {
  // the command side's store keeps folds between commands (see FoldingEventStore)
  if (store instanceof FoldingEventStore) return store.load(streamId, decider);
  const recorded = await store.readStream(streamId);
  return { state: fold(decider, recorded as unknown as E[]), revision: recorded.length - 1 };
}

/**
 * The one way commands change state: load the stream, fold, decide, append with the expected
 * revision; on a concurrent write, load again and decide again (the rule is re-checked against
 * the new state, so two writers can never both pass it).
 */
export async function handleCommand<C, E extends DomainEvent, S>(
  store: EventStore,
  streamId: string,
  decider: Decider<C, E, S>,
  command: C | ((state: S) => C),
  ctx: CommandContext,
  maxAttempts = 20,
): Promise<Decided<E, S>> {
  for (let attempt = 1; ; attempt++) {
    const { state, revision } = await loadState(store, streamId, decider);
    const cmd = typeof command === 'function' ? (command as (s: S) => C)(state) : command;
    const events = decider.decide(cmd, state);
    if (events.length === 0) return { events, state };
    try {
      const r = await store.append(streamId, toNewEvents(events, streamId, ctx), revision < 0 ? 'no_stream' : revision);
      return { events, state: events.reduce((s, e) => decider.evolve(s, e), state), position: r.position };
    } catch (e) {
      if (!(e instanceof WrongExpectedRevisionError) || attempt >= maxAttempts) throw e;
      // jittered pause so that many concurrent writers do not collide again in lockstep
      await new Promise((r) => setTimeout(r, Math.random() * Math.min(50, attempt * 5)));
    }
  }
}

export const maxPosition = (...ps: Array<LogPosition | undefined>): LogPosition | undefined =>
  ps.reduce<LogPosition | undefined>((m, p) => (p === undefined ? m : m === undefined || p > m ? p : m), undefined);
