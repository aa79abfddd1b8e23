import { NOT_YOURS } from '../shared/errors';

/** Limits and French messages of the coin ledger and gifts. */
export const LEDGER_LIMITS = {
  /** most coins one "add coins" call may add */
  maxAdd: 100_000,
  /** most coins a catalogue gift may cost */
  maxGiftCost: 1_000_000,
} as const;

export const LEDGER_MESSAGES = {
  insufficient: 'Solde insuffisant.',
  notWithdrawable:
    'Solde retirable insuffisant : seuls les coins gagnés avec des cadeaux payés en coins achetés peuvent être retirés.',
  selfGift: "Tu ne peux pas t'offrir un cadeau.",
  receiverNotFound: 'Destinataire introuvable.',
  receiverRequired: '⚠️ Aucun destinataire.',
  receiverMismatch: "Le pseudo et l'adresse du destinataire ne désignent pas le même membre.",
  giftNotFound: 'Cadeau introuvable.',
  giftInvalid: 'Cadeau invalide.',
  alreadyClaimed: 'Cadeau déjà récupéré.',
  amountPositive: 'Le montant doit être supérieur à 0.',
  amountInteger: 'Le montant doit être un nombre entier.',
  /** a string that is not plain digits: '1e3', '10 coins', '1 000', 'mille' */
  amountNotDigits: 'Le montant doit être un nombre entier de coins écrit en chiffres, par exemple 1000.',
  amountTooLarge: 'Le montant ne peut pas dépasser 100 000 coins.',
  withdrawInvalid: '❌ Montant invalide.',
  packInvalid: 'Pack invalide.',
  packNotFound: 'Pack introuvable.',
  balanceTooLarge: 'Solde maximal atteint.',
  idempotencyConflict: "Clé d'idempotence déjà utilisée avec une autre requête.",
  purchaseInProgress: 'Un achat avec cette clé est déjà en cours. Réessaie dans un instant.',
  paymentDeclined: 'Paiement refusé.',
  actionForbidden: NOT_YOURS.action,
  freeCoinsDisabled: "L'ajout de coins gratuits est désactivé sur cette plateforme.",
  purchased: '✅ Achat effectué avec succès !',
  added: (n: number) => `✅ ${n} coins ajoutés avec succès.`,
  giftSent: '🎁 Cadeau envoyé !',
  claimed: '✅ Cadeau récupéré !',
  converted: (n: number) => `✅ ${n} coins récupérés sur ton solde.`,
  nothingToConvert: 'Aucun cadeau à récupérer.',
  walletClosed: "Ce compte a été supprimé : plus aucun mouvement de coins n'est possible.",
  withdrawn: (n: number) => `✅ Retrait de ${n} coins effectué.`,
} as const;

/**
 * The platform's commission on a gift of `coinCost` coins at `feePercent` percent (GIFT_FEE_PERCENT).
 * Integer coins only: the percentage is taken to the basis point and the fee is rounded DOWN, in
 * favour of the receiver (a 1-coin gift pays no fee below 100 %). Never more than the gift.
 */
export function giftFee(coinCost: number, feePercent: number): number {
  if (!Number.isFinite(feePercent) || feePercent <= 0) return 0;
  const basisPoints = Math.min(10_000, Math.round(feePercent * 100));
  return Math.min(coinCost, Math.floor((coinCost * basisPoints) / 10_000));
}

export const walletStream = (userId: string) => `wallet-${userId}`;
/** numeric ids of coin transactions (and of sent gifts) come from this sequence */
export const LEDGER_SEQUENCE = 'coin-transaction';
