/** A coin pack of the shop (the product entities, "Coin pack", the product business constants). */
export interface CoinPack {
  id: number;
  name: string;
  coins_amount: number;
  /** euros, shown with 2 decimals */
  price_euros: number;
}

/** The eight packs of the product business constants, in euros then coins. */
export const COIN_PACKS: readonly CoinPack[] = Object.freeze([
  { id: 1, name: 'Débutant', coins_amount: 110, price_euros: 1 },
  { id: 2, name: 'Bronze', coins_amount: 220, price_euros: 2 },
  { id: 3, name: 'Argent', coins_amount: 330, price_euros: 3 },
  { id: 4, name: 'Or', coins_amount: 550, price_euros: 5 },
  { id: 5, name: 'Or+', coins_amount: 1100, price_euros: 10 },
  { id: 6, name: 'Diamant', coins_amount: 1750, price_euros: 15 },
  { id: 7, name: 'Platine', coins_amount: 2500, price_euros: 20 },
  { id: 8, name: 'Ultime', coins_amount: 5000, price_euros: 45 },
]);

export const packById = (id: number): CoinPack | undefined => COIN_PACKS.find((p) => p.id === id);

/** Price in euro cents (integers only in events). */
export const packPriceCents = (p: CoinPack): number => Math.round(p.price_euros * 100);
