import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { errorMessage } from '../../api/http';
import { FormError } from '../../shell/ui/FormError';
import { AdminPage, ADMIN_CRUMB } from '../AdminPage';
import type { StatsKind, StatsObject } from '../api';
import { AsOfPicker } from '../AsOfPicker';
import { useAsOf, useConsoleError, useStats } from '../hooks';
import { StatGrid, type StatItem } from '../StatGrid';

export const STATS_CRUMB = { to: '/admin/stats', label: 'Statistiques' };

interface StatsViewProps {
  kind: StatsKind;
  title: string;
  intro?: ReactNode;
  /** French text shown when the call fails; null: show the figures of empty data instead. */
  failure: string | null;
  /** Figures with their French labels, from the stats object (`{}` for empty data). */
  items: (stats: StatsObject) => StatItem[];
}

/**
 * One stats page: 'Chargement...' until loaded, the figures, the failure text of the product error catalogue,
 * and the 'Données au' date (`?asOf=`, empty = now).
 */
export function StatsView({ kind, title, intro, failure, items }: StatsViewProps) {
  const [asOf, setAsOf] = useAsOf();
  const stats = useStats(kind, asOf);
  useConsoleError(stats.error, `Statistiques (${kind}) indisponibles`);

  let content;
  if (stats.data) {
    content = <StatGrid label={title} items={items(stats.data)} />;
  } else if (stats.error) {
    content =
      failure === null ? (
        <StatGrid label={title} items={items({})} />
      ) : (
        <FormError message={failure} detail={errorMessage(stats.error)} />
      );
  } else {
    content = (
      <p className="loading" role="status">
        Chargement...
      </p>
    );
  }

  return (
    <AdminPage title={title} crumbs={[ADMIN_CRUMB, STATS_CRUMB]} intro={intro}>
      <AsOfPicker asOf={asOf} onChange={setAsOf} />
      <div aria-busy={stats.loading}>{content}</div>
      <p>
        <Link to="/admin/stats">← Toutes les statistiques</Link>
      </p>
    </AdminPage>
  );
}
