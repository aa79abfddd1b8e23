import { LEDGER_EVENT_TYPES } from '@evo/contracts';
import { describe, expect, it } from 'vitest';
import { LEDGER_EVENT_LABELS, ledgerEventLabel, logReference } from './coinLabels';

describe('ledger event labels (coin audit)', () => {
  it('names in French every ledger event type of the contract, and only those', () => {
    for (const type of LEDGER_EVENT_TYPES) {
      expect(LEDGER_EVENT_LABELS[type], type).toBeTruthy();
      expect(ledgerEventLabel(type)).not.toBe(type);
    }
    expect(Object.keys(LEDGER_EVENT_LABELS).sort() as string[]).toEqual([...LEDGER_EVENT_TYPES].sort());
  });
  it('reads CoinsPurchased and a log position in French; an unknown type is shown as it is', () => {
    expect(ledgerEventLabel('CoinsPurchased')).toBe('Achat de coins');
    expect(ledgerEventLabel('Unknown')).toBe('Unknown');
    expect(logReference('43')).toBe('Événement n° 43 du journal');
  });
});
