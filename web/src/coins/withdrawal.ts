/**
 * What a withdrawal pays and where its money goes, as the server states them (the wallet answer's
 * `withdrawal_cents_per_100_coins` and `withdrawal_payout`; the rule is the domain's, withdrawals.ts).
 */

/** euro cents `coins` are worth at `centsPer100Coins`, rounded down to the cent (as the server records it) */
export const withdrawalValueCents = (coins: number, centsPer100Coins: number): number =>
  Math.floor((coins * centsPer100Coins) / 100);

/** where the money of a withdrawal goes, in a sentence */
export function payoutSummary(payout: string): string {
  if (payout === 'sandbox')
    return 'Bac à sable : aucun argent réel n’est versé, aucun virement n’est fait vers un compte bancaire.';
  return `Versement par ${payout}.`;
}

/** a withdrawal's status, as its history line shows it */
export function payoutStatus(payout: string): string {
  if (payout === 'sandbox') return 'Effectué · simulation, aucun virement réel';
  return `Effectué · versement par ${payout}`;
}
