import type { EventStore } from '@evo/infra';
import { WalletRepository } from '../coins/wallet-repository';
import { CatalogueRepository } from '../gifts/catalogue-repository';
import { MemberDirectory } from '../identity/members';

/**
 * The command side's caches of the ledger: wallets (folded state, one writer queue per wallet), the
 * gift catalogue and the owners of emails and pseudos. One set per process, built by the
 * composition root and shared by the coin and gift commands, the gift credits and the
 * administrators' catalogue edits.
 */
export interface LedgerRepositories {
  wallets: WalletRepository;
  catalogue: CatalogueRepository;
  members: MemberDirectory;
}

export const ledgerRepositories = (events: EventStore): LedgerRepositories => ({
  wallets: new WalletRepository(events),
  catalogue: new CatalogueRepository(events),
  members: new MemberDirectory(events),
});
