import { useParams } from 'react-router-dom';
import { QueryState } from '../shell/ui/QueryState';
import { AdminPage } from './AdminPage';
import type { LedgerAudit } from './api';
import { AsOfPicker } from './AsOfPicker';
import { accountLabel, ledgerEventLabel, logReference, typeLabel } from './coinLabels';
import { formatCoins, formatDateTime, formatNumber, formatSigned } from './format';
import { useAsOf, useConsoleError, useLedgerAudit, useReconciliation } from './hooks';
import { StatGrid } from './StatGrid';
import { TableScroll } from './TableScroll';
import { CheckCircleIcon, WarningIcon } from '../shell/ui/icons';

const TITLE = 'Audit des coins';
const LOAD_FAILED = "Impossible de charger l'audit des coins de ce membre.";
const NO_ENTRY = 'Aucun mouvement de coins pour ce membre à cette date.';

/**
 * /admin/transactions/:email: every posting on a member's accounts, oldest first, with the
 * running balance after each one (GET /api/admin/ledger/:email?asOf=), and the reconciliation
 * of the whole ledger at the top (GET /api/admin/ledger/reconcile).
 */
export default function LedgerAuditScreen() {
  const { email = '' } = useParams();
  const [asOf, setAsOf] = useAsOf();
  const audit = useLedgerAudit(email, asOf);
  useConsoleError(audit.error, "Chargement de l'audit des coins impossible");
  const data = audit.data;

  const content = (
    <QueryState query={audit} failed={LOAD_FAILED} detail>
      {(data) => (
        <>
          <StatGrid
            label="Soldes du membre"
            items={[
              { label: 'Solde', value: formatCoins(data.coins_balance) },
              { label: 'Cadeaux non récupérés', value: formatCoins(data.gifts_unclaimed) },
              { label: 'Mouvements', value: formatNumber(data.entries.length) },
              {
                label: 'Soldes',
                value: data.consistent ? (
                  <>
                    Cohérents <CheckCircleIcon size={20} className="status-icon status-icon--ok" />
                  </>
                ) : (
                  <>
                    Incohérents <WarningIcon size={20} className="status-icon status-icon--ko" />
                  </>
                ),
                detail: data.consistent
                  ? 'Les soldes annoncés par chaque événement sont les soldes recalculés.'
                  : 'Un événement annonce un solde différent du solde recalculé.',
              },
            ]}
          />
          {data.entries.length === 0 ? (
            <p className="admin-empty">{NO_ENTRY}</p>
          ) : (
            <TableScroll label="Mouvements de coins du membre">
              <table className="admin-table admin-table--ledger">
                <caption className="sr-only">
                  Mouvements, du plus ancien au plus récent, avec le solde après chacun
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Date</th>
                    <th scope="col">Opération</th>
                    <th scope="col">Compte</th>
                    <th scope="col" className="num">
                      Mouvement
                    </th>
                    <th scope="col" className="num">
                      Solde après
                    </th>
                    <th scope="col">Transaction</th>
                    <th scope="col">Acteur</th>
                    <th scope="col">Événement</th>
                  </tr>
                </thead>
                <tbody>
                  {data.entries.map((entry) => (
                    <tr key={`${entry.event_id}:${entry.account}:${entry.debit}:${entry.credit}`}>
                      <td>{formatDateTime(entry.at)}</td>
                      <td>{typeLabel(entry.type)}</td>
                      <td>{accountLabel(entry.account)}</td>
                      <td className={entry.delta < 0 ? 'num amount amount--out' : 'num amount amount--in'}>
                        {formatSigned(entry.delta)}
                      </td>
                      <td className="num">
                        <strong>{formatNumber(entry.balance_after)}</strong>
                      </td>
                      <td>n° {entry.tx_id}</td>
                      <td className="admin-table__mono">
                        <Actor actor={entry.actor} member={data.user} />
                      </td>
                      <td>
                        <span title={`${entry.event_type} · ${entry.event_id}`}>
                          {ledgerEventLabel(entry.event_type)}
                        </span>
                        <span className="admin-table__sub">{logReference(entry.position)}</span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
        </>
      )}
    </QueryState>
  );

  const who = data?.user.pseudo ? `@${data.user.pseudo} · ${data.user.email}` : email;
  return (
    <AdminPage title={TITLE} crumbs={[{ to: '/admin/transactions', label: 'Transactions' }]} intro={who}>
      <ReconciliationStatus />
      <AsOfPicker asOf={asOf} onChange={setAsOf} />
      {content}
    </AdminPage>
  );
}

/** Who caused a posting: the server names members by id; the audited member is shown by pseudo. */
function Actor({ actor, member }: { actor: string | null; member: LedgerAudit['user'] }) {
  if (!actor) return <>—</>;
  if (actor === member.id && member.pseudo) return <span className="admin-table__who">@{member.pseudo}</span>;
  return <>{actor}</>;
}

/** ok / first violation of the whole ledger (every invariant at every position). */
function ReconciliationStatus() {
  const check = useReconciliation();
  useConsoleError(check.error, 'Réconciliation du grand livre impossible');
  const report = check.data;
  if (!report) {
    return (
      <p className="admin-reconcile admin-reconcile--pending" role="status">
        {check.error ? 'Réconciliation du grand livre indisponible.' : 'Réconciliation du grand livre en cours...'}
      </p>
    );
  }
  if (report.ok) {
    return (
      <p className="admin-reconcile admin-reconcile--ok" role="status">
        <CheckCircleIcon size={20} className="status-icon" />
        Grand livre cohérent : {formatNumber(report.events)} événements et {formatNumber(report.movements)} mouvements
        vérifiés.
      </p>
    );
  }
  const v = report.first_violation;
  return (
    <div className="admin-reconcile admin-reconcile--ko" role="alert">
      <p>
        <WarningIcon size={20} className="status-icon" />
        Grand livre incohérent : {formatNumber(report.violations)} violation{report.violations > 1 ? 's' : ''} sur{' '}
        {formatNumber(report.events)} événements.
      </p>
      {v ? (
        <p>
          Première violation : {v.message} (règle <code>{v.rule}</code>, {ledgerEventLabel(v.type)},{' '}
          {logReference(v.position).toLowerCase()}, identifiant <code>{v.event_id}</code>)
        </p>
      ) : null}
    </div>
  );
}
