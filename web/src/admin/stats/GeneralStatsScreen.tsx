import type { StatsAnswer } from '../api';
import { formatNumber } from '../format';
import type { StatItem } from '../StatGrid';
import { StatsView } from './StatsView';

/** GET /api/admin/stats (the product screens: users, videos, gifts sent, total user coins, public messages). */
export const generalStatItems = (s: StatsAnswer<'general'>): StatItem[] => [
  { label: 'Utilisateurs', value: formatNumber(s.users) },
  { label: 'Vidéos', value: formatNumber(s.videos) },
  { label: 'Cadeaux envoyés', value: formatNumber(s.gifts) },
  { label: 'Coins des utilisateurs (total)', value: formatNumber(s.coins) },
  { label: 'Messages publics', value: formatNumber(s.messages) },
];

/** /admin/stats/general */
export default function GeneralStatsScreen() {
  return (
    <StatsView
      kind="general"
      title="Statistiques générales"
      failure="Impossible de charger les stats générales"
      items={generalStatItems}
    />
  );
}
