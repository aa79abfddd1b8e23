import { LedgerAuditor, type LedgerReport } from '@evo/domain';
import type { EventStore } from '@evo/infra';

/**
 * Fold the whole log through the ledger auditor: did the invariants hold at every position (sum 0,
 * no negative user account, every transfer once)? Reads in batches and yields to the event loop
 * between them, so an API process stays responsive while an administrator reconciles.
 */
export async function reconcileLedger(
  events: EventStore,
  onProgress?: (events: number) => void,
): Promise<LedgerReport> {
  const auditor = new LedgerAuditor();
  let n = 0;
  for await (const batch of events.readAll(undefined, 5000)) {
    for (const e of batch) auditor.apply(e);
    n += batch.length;
    onProgress?.(n);
    await new Promise((r) => setImmediate(r));
  }
  return auditor.report();
}
