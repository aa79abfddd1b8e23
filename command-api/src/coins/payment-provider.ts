/**
 * Port to whoever takes the member's money for a coin pack. The purchase command calls `charge`
 * BEFORE appending `CoinsPurchased`, and appends only an approved payment (with the provider's
 * name and reference, shown to administrators and kept for reconciliation with the provider).
 *
 * Plugging a real provider (Stripe, Adyen, PayPal...):
 * - implement `charge` with the provider's API, passing `idempotencyKey` through (the provider then
 *   never charges twice for one retried request; our wallet never credits twice for one key);
 * - a payment needing a redirection (3-D Secure) would need a third outcome, `pending`, and a webhook
 *   route that runs the same purchase command once the provider confirms (the `reference` names the
 *   purchase); the sandbox never needs it, so it is not modelled yet;
 * - if the append fails after an approved charge (the process died), the provider's report lists a
 *   payment whose reference has no `CoinsPurchased`: refund it or credit it (operations runbook).
 * Pass the implementation to `coinsRouter(deps, { payment })`.
 */
export interface PaymentRequest {
  userId: string;
  packId: number;
  /** price in euro cents */
  amountCents: number;
  currency: 'EUR';
  /** French label shown on the member's statement */
  description: string;
  /** our reference for this purchase (the coin transaction id) */
  reference: string;
  /** the request's Idempotency-Key, when it has one */
  idempotencyKey?: string;
}

export type PaymentResult = { status: 'approved'; reference: string } | { status: 'declined'; reason: string };

export interface PaymentProvider {
  /** recorded in CoinsPurchased and shown as the method in the admin transactions list */
  readonly name: string;
  charge(request: PaymentRequest): Promise<PaymentResult>;
}

/** Approves every payment at once: the embedded default and tests (no money moves). */
export class SandboxPaymentProvider implements PaymentProvider {
  readonly name = 'sandbox';
  async charge(request: PaymentRequest): Promise<PaymentResult> {
    return { status: 'approved', reference: `sandbox-${request.reference}` };
  }
}
