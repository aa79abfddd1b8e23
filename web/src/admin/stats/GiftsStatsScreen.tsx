import { formatNumber } from '../format';
import { StatsView } from './StatsView';

/** /admin/stats/gifts */
export default function GiftsStatsScreen() {
  return (
    <StatsView
      kind="gifts"
      title="Statistiques cadeaux"
      failure="Impossible de charger les stats cadeaux"
      items={(s) => [
        { label: 'Cadeaux envoyés', value: formatNumber(s.gifts_sent) },
        { label: 'Cadeaux au catalogue', value: formatNumber(s.gifts_catalog) },
      ]}
    />
  );
}
