import { formatNumber } from '../format';
import { StatsView } from './StatsView';

/** /admin/stats/users (the product business constants: new users over 30 days, recent logins over 7 days). */
export default function UsersStatsScreen() {
  return (
    <StatsView
      kind="users"
      title="Statistiques utilisateurs"
      failure="Impossible de charger les stats utilisateurs"
      items={(s) => [
        { label: 'Utilisateurs au total', value: formatNumber(s.total_users) },
        { label: 'Utilisateurs validés', value: formatNumber(s.validated_users) },
        { label: 'Nouveaux (30 derniers jours)', value: formatNumber(s.new_users_30d) },
        { label: 'Connexions récentes (7 derniers jours)', value: formatNumber(s.recent_logins_7d) },
      ]}
    />
  );
}
