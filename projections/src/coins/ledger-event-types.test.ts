import { LEDGER_EVENT_TYPES } from '@evo/contracts';
import { WALLET_EVENT_TYPES } from '@evo/domain';
import { describe, expect, it } from 'vitest';
import { walletsProjector } from './wallets-projector';

describe('ledger event types of the contract', () => {
  it('are exactly the event types the wallets projector writes into coin movements (each has a French label in the web app)', () => {
    expect([...walletsProjector.eventTypes].sort()).toEqual([...LEDGER_EVENT_TYPES].sort());
    expect([...WALLET_EVENT_TYPES].sort()).toEqual([...LEDGER_EVENT_TYPES].sort());
  });
});
