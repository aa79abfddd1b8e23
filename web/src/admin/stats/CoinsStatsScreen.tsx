import { num } from '../api';
import { formatNumber } from '../format';
import { StatsView } from './StatsView';

const coins = (value: unknown) => `${formatNumber(num(value))} coins`;

/** /admin/stats/coins */
export default function CoinsStatsScreen() {
  return (
    <StatsView
      kind="coins"
      title="Statistiques coins"
      failure="Impossible de charger les stats coins"
      items={(s) => [
        { label: 'Coins achetés', value: coins(s.coins_bought) },
        { label: 'Coins sur les soldes des membres', value: coins(s.coins_in_balances) },
        { label: 'Coins en cadeaux non récupérés', value: coins(s.coins_in_unclaimed_gifts) },
        { label: 'Coins retirés', value: coins(s.coins_withdrawn) },
        { label: 'Commissions de la plateforme', value: coins(s.fees) },
        { label: 'Achats de packs', value: formatNumber(num(s.purchases)) },
      ]}
    />
  );
}
