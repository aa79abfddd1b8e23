import { z } from 'zod';
import type { Decider, DomainEvent } from './decider';

/**
 * Numeric ids shown in the UI (videos, comments, gifts, ...) are assigned by the command side
 * from a `sequence-<name>` stream, appended with its expected revision, so that a replay gives
 * the same ids and two writers never get the same one.
 */
export const IdAssignedSchema = z.object({ value: z.number().int().positive() });
export type IdAssigned = DomainEvent<'IdAssigned', z.infer<typeof IdAssignedSchema>>;

export type SequenceCommand = { type: 'AssignNextId' };
export type SequenceState = { last: number };

export const sequenceDecider: Decider<SequenceCommand, IdAssigned, SequenceState> = {
  initialState: () => ({ last: 0 }),
  evolve: (_s, e) => ({ last: e.data.value }),
  decide: (_c, s) => [{ type: 'IdAssigned', data: { value: s.last + 1 } }],
};

export const sequenceStream = (name: string) => `sequence-${name}`;
