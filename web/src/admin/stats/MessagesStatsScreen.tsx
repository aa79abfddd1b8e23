import { formatNumber } from '../format';
import { StatsView } from './StatsView';

/** /admin/stats/messages */
export default function MessagesStatsScreen() {
  return (
    <StatsView
      kind="messages"
      title="Statistiques messages"
      failure="Impossible de charger les stats messages"
      items={(s) => [
        { label: 'Messages publics', value: formatNumber(s.total_messages) },
        { label: 'Messages privés', value: formatNumber(s.private_messages) },
      ]}
    />
  );
}
