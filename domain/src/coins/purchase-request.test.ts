import { describe, it } from 'vitest';
import { given } from '../shared/given-when-then';
import { PURCHASE_LEASE_MS, purchaseRequestDecider, type PurchaseRequestEvent } from './purchase-request-decider';
import { LEDGER_MESSAGES } from '@evo/contracts';

const request = { key: 'cle-1', hash: 'h1' };
const t0 = new Date('2026-03-01T10:00:00.000Z');
const later = (ms: number) => new Date(t0.getTime() + ms);
const reserved = (txId: number, at = t0): PurchaseRequestEvent => ({
  type: 'PurchaseRequested',
  data: { userId: 'u', request, txId, packId: 8, reservedAt: at.toISOString() },
});
const released: PurchaseRequestEvent = {
  type: 'PurchaseRequestReleased',
  data: { userId: 'u', request, reason: 'Paiement refusé.' },
};
const reserve = (txId: number, now = t0, hash = 'h1') => ({
  type: 'ReservePurchase' as const,
  userId: 'u',
  request: { key: 'cle-1', hash },
  txId,
  packId: 8,
  now,
});

describe('purchase requests: one Idempotency-Key charges once', () => {
  it('reserves a new key with its transaction id', () => {
    given(purchaseRequestDecider)
      .when(reserve(41))
      .then([reserved(41)]);
  });

  it('refuses a second reservation while the first is in progress, whatever its transaction id', () => {
    given(purchaseRequestDecider, [reserved(41)])
      .when(reserve(42, later(1000)))
      .thenThrows(LEDGER_MESSAGES.purchaseInProgress, 'conflict');
  });

  it('refuses the key for another request', () => {
    given(purchaseRequestDecider, [reserved(41)])
      .when(reserve(42, later(1000), 'h2'))
      .thenThrows(LEDGER_MESSAGES.idempotencyConflict, 'conflict');
  });

  it('lets a reservation abandoned past the lease be taken over, with the first transaction id (same reference)', () => {
    const at = later(PURCHASE_LEASE_MS + 1);
    given(purchaseRequestDecider, [reserved(41)])
      .when(reserve(99, at))
      .then([reserved(41, at)]);
  });

  it('a declined payment releases the key: its retry reserves again, with the same transaction id', () => {
    given(purchaseRequestDecider, [reserved(41)])
      .when({ type: 'ReleasePurchase', userId: 'u', request, reason: 'Paiement refusé.' })
      .then([released]);
    given(purchaseRequestDecider, [reserved(41), released])
      .when(reserve(77, later(10)))
      .then([reserved(41, later(10))]);
  });

  it('releasing a key that is not reserved changes nothing', () => {
    given(purchaseRequestDecider).when({ type: 'ReleasePurchase', userId: 'u', request, reason: 'x' }).then([]);
    given(purchaseRequestDecider, [reserved(41), released])
      .when({ type: 'ReleasePurchase', userId: 'u', request, reason: 'x' })
      .then([]);
  });
});
