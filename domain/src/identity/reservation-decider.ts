import type { Decider } from '../shared/decider';
import { conflict } from '../shared/errors';
import type { ReservationEvent } from './events';
import { MESSAGES, type ReservationKind } from './rules';
import { deletedClaimReleased } from './account-deletion';

/**
 * A claim on a unique email or pseudo. A claim whose owner never finished registering
 * (a crash between the claim and UserRegistered) may be taken over once it is older than
 * ABANDONED_AFTER_MS: the handler tells the decider whether the owner's stream exists. A claim of
 * a member who deleted their account may be taken once the grace period has passed
 * (ACCOUNT_DELETION_GRACE_DAYS): nothing needs to release it, so the claim streams may be named by a
 * hash of the value, which nobody can compute once the member's data is erased.
 */
export const ABANDONED_AFTER_MS = 60_000;

export type ReservationCommand =
  | {
      type: 'Reserve';
      kind: ReservationKind;
      value: string;
      userId: string;
      now: Date;
      /** does the current owner's user stream exist? (looked up by the handler) */
      ownerRegistered: boolean;
      /** when the current owner deleted their account (looked up by the handler), null if they did not */
      ownerDeletedAt?: string | null;
    }
  | { type: 'Release'; kind: ReservationKind; value: string; userId: string };

export type ReservationState = { ownerId: string | null; reservedAt: string | null };

const TAKEN: Record<ReservationKind, string> = {
  email: MESSAGES.emailTaken,
  pseudo: MESSAGES.pseudoTaken,
  pseudoSkeleton: MESSAGES.pseudoLookalike,
};

export const reservationDecider: Decider<ReservationCommand, ReservationEvent, ReservationState> = {
  initialState: () => ({ ownerId: null, reservedAt: null }),
  evolve: (_state, event) =>
    event.type === 'ValueReserved'
      ? { ownerId: event.data.userId, reservedAt: event.data.reservedAt }
      : { ownerId: null, reservedAt: null },
  decide(command, state) {
    if (command.type === 'Reserve') {
      if (state.ownerId === command.userId) return [];
      if (state.ownerId !== null) {
        const age = command.now.getTime() - Date.parse(state.reservedAt ?? '');
        const abandoned = !command.ownerRegistered && age > ABANDONED_AFTER_MS;
        const released = !!command.ownerDeletedAt && deletedClaimReleased(command.ownerDeletedAt, command.now);
        if (!abandoned && !released) throw conflict(TAKEN[command.kind]);
      }
      const { kind, value, userId } = command;
      return [{ type: 'ValueReserved', data: { kind, value, userId, reservedAt: command.now.toISOString() } }];
    }
    // only the owner releases; anything else is a no-op so a compensation can be retried safely
    if (state.ownerId !== command.userId) return [];
    const { kind, value, userId } = command;
    return [{ type: 'ValueReleased', data: { kind, value, userId } }];
  },
};
