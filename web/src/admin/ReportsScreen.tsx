import { AdminPage, ReloadButton } from './AdminPage';
import { useConsoleError, useReports } from './hooks';
import { ReportCard } from './ReportCard';
import { QueryState } from '../shell/ui/QueryState';

const TITLE = 'Signalements à traiter';
const EMPTY = "Aucun signalement pour l'instant";

/** /admin/reports (the product screens). Load failures are logged to the console only (the product error catalogue). */
export default function ReportsScreen() {
  const reports = useReports();
  useConsoleError(reports.error, 'Chargement des signalements impossible');

  const pending = reports.data?.filter((r) => r.status !== 'ferme').length ?? 0;
  const content = (
    <QueryState query={reports} empty={EMPTY}>
      {(list) => (
        <ul className="reports" aria-busy={reports.isFetching}>
          {list.map((report) => (
            // keyed on the fields the card copies into its selectors, so a reload resets them
            <li key={`${report.id}:${report.status}:${report.admin_response ?? ''}`}>
              <ReportCard report={report} onChanged={() => void reports.refetch()} />
            </li>
          ))}
        </ul>
      )}
    </QueryState>
  );

  return (
    <AdminPage
      title={TITLE}
      intro={
        reports.data && reports.data.length > 0
          ? `${reports.data.length} signalement${reports.data.length > 1 ? 's' : ''}, dont ${pending} non traité${pending > 1 ? 's' : ''}.`
          : undefined
      }
      actions={<ReloadButton query={reports} />}
    >
      {content}
    </AdminPage>
  );
}
