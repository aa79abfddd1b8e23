import type { LedgerEventType } from '@evo/contracts';

/** French names of coin movement types, methods and accounts (shared by the transactions screens). */

const TYPES: Record<string, string> = {
  achat: 'Achat',
  ajout: 'Ajout',
  retrait: 'Retrait',
  cadeau_envoye: 'Cadeau envoyé',
  cadeau_recu: 'Cadeau reçu',
  recuperation: 'Cadeau récupéré',
  conversion: 'Cadeaux récupérés (tous)',
  fermeture: 'Compte supprimé : coins perdus',
  cadeau_perdu: 'Cadeau à un compte supprimé',
};

const METHODS: Record<string, string> = {
  ajout: 'Ajout sans paiement',
  retrait: 'Retrait',
  sandbox: 'Paiement (bac à sable)',
};

export const typeLabel = (type: string): string => TYPES[type] ?? (type || '—');

export const methodLabel = (method: string): string => METHODS[method] ?? (method || '—');

/**
 * `user:<id>:balance` → 'Coins achetés', `user:<id>:bonus` → 'Coins bonus (non retirables)',
 * `user:<id>:earnings` → 'Gains retirables', `user:<id>:gifts` → 'Cadeaux non récupérés'.
 */
export function accountLabel(account: string): string {
  if (account.endsWith(':balance')) return 'Coins achetés';
  if (account.endsWith(':bonus')) return 'Coins bonus (non retirables)';
  if (account.endsWith(':earnings')) return 'Gains retirables';
  if (account.endsWith(':gifts')) return 'Cadeaux non récupérés';
  if (account === 'platform:forfeits') return 'Coins des comptes supprimés';
  return account;
}

/** Link to a member's coin audit trail. */
export const auditPath = (email: string) => `/admin/transactions/${encodeURIComponent(email)}`;

/**
 * French names of the ledger events the coin audit lists (`event_type`, the log's own names):
 * one per type of the contract's list (the compiler and coinLabels.test.ts check it).
 */
export const LEDGER_EVENT_LABELS: Record<LedgerEventType, string> = {
  CoinsPurchased: 'Achat de coins',
  CoinsAdded: 'Ajout de coins',
  CoinsWithdrawn: 'Retrait de coins',
  GiftSent: 'Cadeau envoyé',
  GiftReceived: 'Cadeau reçu',
  GiftClaimed: 'Cadeau récupéré',
  GiftsConverted: 'Cadeaux récupérés (tous)',
  WalletClosed: 'Fermeture du portefeuille (compte supprimé)',
  GiftForfeited: 'Cadeau perdu (compte supprimé)',
};

export const ledgerEventLabel = (eventType: string): string =>
  (LEDGER_EVENT_LABELS as Record<string, string>)[eventType] ?? (eventType || '—');

/** The log position as a reader's reference: 'Événement n° 43 du journal'. */
export const logReference = (position: string): string => `Événement n° ${position} du journal`;
