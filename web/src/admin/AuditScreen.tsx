import { QueryState } from '../shell/ui/QueryState';
import { AdminPage, ReloadButton } from './AdminPage';
import type { AuditItem } from './api';
import { formatDateTime, formatNumber } from './format';
import { useAdminAudit } from './hooks';
import { Pagination, usePageParam } from './Pagination';
import { TableScroll } from './TableScroll';

const TITLE = "Journal d'audit";
const PAGE_SIZE = 25;
const LOAD_FAILED = "Impossible de charger le journal d'audit.";
const EMPTY = 'Aucune action enregistrée.';

/** A member is shown by pseudo (email below); an actor that is not a member (a tool) as itself. */
function Actor({ item }: { item: AuditItem }) {
  if (!item.admin_email) return <>{item.admin_pseudo || '—'}</>;
  if (!item.admin_pseudo) return <>{item.admin_email}</>;
  return (
    <>
      @{item.admin_pseudo}
      <span className="admin-table__sub">{item.admin_email}</span>
    </>
  );
}

function AuditTable({ items, busy }: { items: AuditItem[]; busy: boolean }) {
  return (
    <TableScroll label="Actions des administrateurs">
      <table className="admin-table" aria-busy={busy}>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Administrateur</th>
            <th scope="col">Action</th>
            <th scope="col">Cible</th>
            <th scope="col">Détails</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.id}>
              <td>{formatDateTime(item.at)}</td>
              <td>
                <Actor item={item} />
              </td>
              <td>{item.action || '—'}</td>
              <td className="admin-table__wrap">{item.target || '—'}</td>
              <td className="admin-table__wrap admin-table__details">{item.details || '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** /admin/audit: what administrators did (GET /api/admin/audit?page=&limit=). */
export default function AuditScreen() {
  const page = usePageParam();
  const audit = useAdminAudit(page, PAGE_SIZE);
  const data = audit.data;

  const content = (
    <QueryState query={audit} failed={LOAD_FAILED} detail>
      {(data) => (
        <>
          {data.items.length === 0 ? (
            <p className="load-state load-state--empty">{EMPTY}</p>
          ) : (
            <AuditTable items={data.items} busy={audit.isFetching} />
          )}
          {/* a page past the end (an old link) keeps its pagination: the way back */}
          {data.items.length > 0 || page > 1 ? (
            <Pagination total={data.total} limit={data.limit || PAGE_SIZE} label="Pages du journal" />
          ) : null}
        </>
      )}
    </QueryState>
  );

  return (
    <AdminPage
      title={TITLE}
      intro={
        data
          ? `${formatNumber(data.total)} action${data.total > 1 ? 's' : ''} d’administrateurs, les plus récentes d’abord.`
          : 'Les actions des administrateurs, les plus récentes d’abord.'
      }
      actions={<ReloadButton query={audit} />}
    >
      {content}
    </AdminPage>
  );
}
