import { z } from 'zod/v4';
import type { Decider, DomainEvent } from './decider';

/**
 * Numeric ids shown in the UI (videos, comments, gifts, ...) are assigned by the command side
 * from a `sequence-<name>` stream, appended with its expected revision, so that two writers never
 * get the same one; the ids are carried in the events that use them, so a replay gives the same ids.
 *
 * `ReserveIds { count }` appends one `IdAssigned { value }`: the ids `value - count + 1` to `value`
 * are the appending writer's (a block; one id per event when `count` is 1, as every sequence was
 * written before blocks). The highest value ever assigned is the
 * sequence's state, so a stream written one id per event and one written by blocks read alike.
 */
export const IdAssignedSchema = z.object({ value: z.number().int().positive() });
export type IdAssigned = DomainEvent<'IdAssigned', z.infer<typeof IdAssignedSchema>>;

/**
 * Reserve the next `count` ids, all above `above` when given (ids between the previous highest
 * value and `above` are then skipped: a gap, never a duplicate).
 */
export type SequenceCommand = { type: 'ReserveIds'; count: number; above?: number };
export type SequenceState = { last: number };

export const sequenceDecider: Decider<SequenceCommand, IdAssigned, SequenceState> = {
  initialState: () => ({ last: 0 }),
  evolve: (s, e) => ({ last: Math.max(s.last, e.data.value) }),
  decide: (c, s) => {
    if (!Number.isSafeInteger(c.count) || c.count < 1) throw new RangeError(`cannot reserve ${c.count} ids`);
    return [{ type: 'IdAssigned', data: { value: Math.max(s.last, c.above ?? 0) + c.count } }];
  },
};

export const sequenceStream = (name: string) => `sequence-${name}`;
