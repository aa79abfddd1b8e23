import { num } from '../api';
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
        { label: 'Messages publics', value: formatNumber(num(s.total_messages)) },
        { label: 'Messages privés', value: formatNumber(num(s.private_messages)) },
      ]}
    />
  );
}
