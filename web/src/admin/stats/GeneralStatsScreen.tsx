import { num } from '../api';
import { formatNumber } from '../format';
import { StatsView } from './StatsView';

/** /admin/stats/general */
export default function GeneralStatsScreen() {
  return (
    <StatsView
      kind="general"
      title="Statistiques générales"
      failure="Impossible de charger les stats générales"
      items={(s) => [
        { label: 'Utilisateurs', value: formatNumber(num(s.users)) },
        { label: 'Vidéos', value: formatNumber(num(s.videos)) },
        { label: 'Cadeaux envoyés', value: formatNumber(num(s.gifts)) },
        { label: 'Coins des utilisateurs (total)', value: formatNumber(num(s.coins)) },
        { label: 'Messages publics', value: formatNumber(num(s.messages)) },
      ]}
    />
  );
}
