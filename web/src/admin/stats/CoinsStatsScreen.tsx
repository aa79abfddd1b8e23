import type { StatsAnswer } from '../api';
import { formatCoins, formatNumber } from '../format';
import type { StatItem } from '../StatGrid';
import { StatsView } from './StatsView';

const coins = (value: number) => formatCoins(value);

/** Every figure of GET /api/admin/stats/coins, with its French label. */
export const coinsStatItems = (s: StatsAnswer<'coins'>): StatItem[] => [
  { label: 'Coins achetés', value: coins(s.coins_bought) },
  { label: 'Coins ajoutés sans paiement', value: coins(s.coins_added) },
  { label: 'Coins sur les soldes des membres', value: coins(s.coins_in_balances) },
  { label: 'Coins en cadeaux non récupérés', value: coins(s.coins_in_unclaimed_gifts) },
  {
    label: 'Coins de cadeaux en transit',
    value: coins(s.coins_in_transit),
    detail: 'Envoyés, pas encore crédités à leur destinataire.',
  },
  { label: 'Coins retirés', value: coins(s.coins_withdrawn) },
  { label: 'Commissions de la plateforme', value: coins(s.fees) },
  { label: 'Achats de packs', value: formatNumber(s.purchases) },
];

/** /admin/stats/coins */
export default function CoinsStatsScreen() {
  return (
    <StatsView
      kind="coins"
      title="Statistiques coins"
      failure="Impossible de charger les stats coins"
      items={coinsStatItems}
    />
  );
}
