/**
 * French heading + sentence of every screen not built yet. Later slices replace
 * a route's `placeholder('…')` in shell/routes.tsx with their own lazy screen and
 * may then delete the entry here.
 */
export const PLACEHOLDERS = {
  live: { title: 'Live', description: 'Tu pourras bientôt démarrer un live ici.' },
  conversion: { title: 'Conversion', description: 'Cette page est à compléter.' },
  sendGift: { title: 'Envoyer un cadeau', description: 'Tu pourras choisir et envoyer un cadeau ici.' },
  history: { title: 'Historique', description: "L'historique de tes cadeaux et de tes coins apparaîtra ici." },
  giftsCoins: { title: 'Cadeaux reçus', description: 'Les cadeaux que tu as reçus apparaîtront bientôt ici.' },
} as const satisfies Record<string, { title: string; description: string }>;

export type PlaceholderId = keyof typeof PLACEHOLDERS;
