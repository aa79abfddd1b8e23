/**
 * French heading + sentence of every screen not built yet. Later slices replace
 * a route's `placeholder('…')` in shell/routes.tsx with their own lazy screen and
 * may then delete the entry here.
 */
export const PLACEHOLDERS = {
  live: { title: 'Live', description: 'Vous pourrez bientôt démarrer un live ici.' },
  coffre: { title: 'Coffre', description: 'Vos packs, coins reçus, retraits et transactions apparaîtront ici.' },
  balance: { title: 'Solde', description: 'Votre solde de coins apparaîtra ici.' },
  transactions: {
    title: 'Historique des transactions',
    description: 'La liste de vos transactions de coins apparaîtra ici.',
  },
  conversion: { title: 'Conversion', description: 'Cette page est à compléter.' },
  withdraw: { title: 'Retrait', description: "Le retrait de vos coins et l'échange de vos cadeaux apparaîtront ici." },
  shop: { title: 'Boutique de coins', description: 'Les packs de coins à acheter apparaîtront ici.' },
  packs: { title: 'Packs de coins', description: "Les packs de coins disponibles à l'achat apparaîtront ici." },
  receivedGifts: { title: 'Cadeaux reçus', description: 'Les cadeaux que vous avez reçus apparaîtront ici.' },
  sendGift: { title: 'Envoyer un cadeau', description: 'Vous pourrez choisir et envoyer un cadeau ici.' },
  history: { title: 'Historique', description: "L'historique de vos cadeaux et de vos coins apparaîtra ici." },
  giftsCoins: { title: 'Cadeaux et coins', description: 'Le catalogue des cadeaux et votre solde apparaîtront ici.' },
  giftShop: { title: 'Boutique de cadeaux', description: 'Les cadeaux à offrir apparaîtront ici.' },
  catalogue: { title: 'Catalogue des cadeaux', description: 'Les cadeaux que vous pouvez envoyer apparaîtront ici.' },
  coinsReceived: { title: 'Coins reçus', description: 'Les cadeaux en coins que vous avez reçus apparaîtront ici.' },
  retrait: { title: 'Retrait', description: 'Le retrait de vos coins vers votre solde apparaîtra ici.' },
  admin: { title: 'Administration', description: "Le tableau de bord de l'administration apparaîtra ici." },
  adminReports: {
    title: 'Signalements à traiter',
    description: 'Les signalements de vidéos à traiter apparaîtront ici.',
  },
  adminTransactions: { title: 'Transactions', description: 'Les transactions de coins des membres apparaîtront ici.' },
  adminGifts: { title: 'Gestion des cadeaux', description: 'La gestion du catalogue des cadeaux apparaîtra ici.' },
  adminUsers: { title: 'Utilisateurs', description: 'La gestion des membres apparaîtra ici.' },
  adminTools: { title: 'Outils', description: "Les outils d'administration apparaîtront ici." },
  adminAudit: {
    title: 'Audit des coins',
    description: "L'historique des mouvements de coins d'un membre apparaîtra ici.",
  },
  adminStats: { title: 'Statistiques', description: 'Les liens vers toutes les statistiques apparaîtront ici.' },
  adminStatsGeneral: {
    title: 'Statistiques générales',
    description: 'Les nombres de membres, vidéos, cadeaux, coins et messages apparaîtront ici.',
  },
  adminStatsUsers: {
    title: 'Statistiques utilisateurs',
    description: 'Les chiffres sur les membres apparaîtront ici.',
  },
  adminStatsVideos: { title: 'Statistiques vidéos', description: 'Les chiffres sur les vidéos apparaîtront ici.' },
  adminStatsMessages: {
    title: 'Statistiques messages',
    description: 'Les chiffres sur les messages apparaîtront ici.',
  },
  adminStatsGifts: { title: 'Statistiques cadeaux', description: 'Les chiffres sur les cadeaux apparaîtront ici.' },
  adminStatsCoins: { title: 'Statistiques coins', description: 'Les chiffres sur les coins apparaîtront ici.' },
  adminStatsAdvanced: {
    title: 'Statistiques avancées',
    description: 'Le meilleur créateur, la vidéo la plus vue et les tendances apparaîtront ici.',
  },
} as const satisfies Record<string, { title: string; description: string }>;

export type PlaceholderId = keyof typeof PLACEHOLDERS;
