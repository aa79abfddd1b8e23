import { z } from 'zod/v4';
import type { Decider, DomainEvent } from '../shared/decider';
import { DomainError } from '../shared/errors';
import { LEDGER_MESSAGES } from '@evo/contracts';

/**
 * A pack purchase under an Idempotency-Key, reserved BEFORE the payment provider is called, so that
 * one key charges once: of two concurrent requests with one key, one appends `PurchaseRequested`
 * (expected revision) and charges; the other finds the reservation and waits for the wallet's
 * record of the first. Stream `purchase-request-<userId>-<digest of the key>`.
 *
 * The key's transaction id (so the provider's `reference`) is fixed by its first reservation and
 * kept for ever. A declined payment releases the key (its retry is decided afresh, as every refused
 * request). A reservation whose process died before an outcome may be taken over after
 * PURCHASE_LEASE_MS, with the same reference and key, which a real provider does not charge twice.
 */
export const PURCHASE_LEASE_MS = 60_000;

export const purchaseRequestStream = (userId: string, keyDigest: string) => `purchase-request-${userId}-${keyDigest}`;

const RequestSchema = z.object({ key: z.string().min(1).max(200), hash: z.string().min(1).max(128) });
export const PurchaseRequestedSchema = z.object({
  userId: z.string().min(1),
  request: RequestSchema,
  /** the purchase's transaction id: `achat-<txId>` is the provider's reference */
  txId: z.number().int().positive(),
  packId: z.number().int().positive(),
  reservedAt: z.string(),
});
export const PurchaseRequestReleasedSchema = z.object({
  userId: z.string().min(1),
  request: RequestSchema,
  /** why the key is free again (the provider declined, or the charge failed) */
  reason: z.string().min(1),
});
export type PurchaseRequested = DomainEvent<'PurchaseRequested', z.infer<typeof PurchaseRequestedSchema>>;
export type PurchaseRequestReleased = DomainEvent<
  'PurchaseRequestReleased',
  z.infer<typeof PurchaseRequestReleasedSchema>
>;
export type PurchaseRequestEvent = PurchaseRequested | PurchaseRequestReleased;

export const purchaseRequestEventSchemas = {
  PurchaseRequested: PurchaseRequestedSchema,
  PurchaseRequestReleased: PurchaseRequestReleasedSchema,
} as const;

export type PurchaseRequestCommand =
  | {
      type: 'ReservePurchase';
      userId: string;
      request: { key: string; hash: string };
      /** a fresh transaction id, used only when the key has none yet */
      txId: number;
      packId: number;
      now: Date;
    }
  | { type: 'ReleasePurchase'; userId: string; request: { key: string; hash: string }; reason: string };

export interface PurchaseRequestState {
  status: 'none' | 'reserved' | 'released';
  hash: string | null;
  txId: number | null;
  reservedAt: string | null;
}

export const purchaseRequestDecider: Decider<PurchaseRequestCommand, PurchaseRequestEvent, PurchaseRequestState> = {
  initialState: () => ({ status: 'none', hash: null, txId: null, reservedAt: null }),
  evolve(state, event) {
    if (event.type === 'PurchaseRequested') {
      return {
        status: 'reserved',
        hash: event.data.request.hash,
        txId: state.txId ?? event.data.txId,
        reservedAt: event.data.reservedAt,
      };
    }
    return { ...state, status: 'released' };
  },
  decide(command, state) {
    if (state.hash !== null && state.hash !== command.request.hash)
      throw new DomainError(LEDGER_MESSAGES.idempotencyConflict, 'conflict');
    if (command.type === 'ReleasePurchase') {
      if (state.status !== 'reserved') return [];
      return [
        {
          type: 'PurchaseRequestReleased',
          data: { userId: command.userId, request: command.request, reason: command.reason },
        },
      ];
    }
    if (state.status === 'reserved') {
      const age = command.now.getTime() - Date.parse(state.reservedAt ?? '');
      if (!(age > PURCHASE_LEASE_MS)) throw new DomainError(LEDGER_MESSAGES.purchaseInProgress, 'conflict');
    }
    return [
      {
        type: 'PurchaseRequested',
        data: {
          userId: command.userId,
          request: command.request,
          txId: state.txId ?? command.txId,
          packId: command.packId,
          reservedAt: command.now.toISOString(),
        },
      },
    ];
  },
};
