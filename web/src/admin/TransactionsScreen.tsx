import { useId, useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { AdminPage, AdminSearch } from './AdminPage';
import type { AdminTransaction } from './api';
import { auditPath, methodLabel, typeLabel } from './coinLabels';
import { formatDateTime, formatSigned } from './format';
import { useAdminTransactions, useConsoleError } from './hooks';
import { QueryState } from '../shell/ui/QueryState';
import { TextField } from '../shell/ui/Form';
import { TableScroll } from './TableScroll';

const TITLE = 'Transactions';
const EMPTY = 'Aucune transaction trouvée.';

/** The server names each member by email only: the filter looks in emails. */
function matches(tx: AdminTransaction, filter: string): boolean {
  const q = filter.trim().toLowerCase();
  return !q || tx.user_email.toLowerCase().includes(q);
}

/**
 * /admin/transactions (the product screens): coins bought, added and withdrawn by every member. Each row
 * opens the member's coin audit trail. Load failures are logged to the console only (the product error catalogue).
 */
export default function TransactionsScreen() {
  const transactions = useAdminTransactions();
  useConsoleError(transactions.error, 'Chargement des transactions impossible');
  const [filter, setFilter] = useState('');
  const filterId = useId();
  const shown = useMemo(
    () => (transactions.data ?? []).filter((tx) => matches(tx, filter)),
    [transactions.data, filter],
  );

  const content = (
    <QueryState query={transactions} empty={EMPTY} isEmpty={() => shown.length === 0}>
      {() => (
        <TableScroll label="Transactions de coins">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">ID</th>
                <th scope="col">Utilisateur</th>
                <th scope="col" className="num">
                  Montant (coins)
                </th>
                <th scope="col">Méthode</th>
                <th scope="col">Date</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((tx) => (
                <tr key={`${tx.type}:${tx.id}:${tx.user_email}`}>
                  <td>{tx.id}</td>
                  <td>
                    {tx.user_email ? (
                      <Link to={auditPath(tx.user_email)} aria-label={`Audit des coins de ${tx.user_email}`}>
                        {tx.user_email}
                      </Link>
                    ) : (
                      '—'
                    )}
                  </td>
                  <td className={tx.amount < 0 ? 'num amount amount--out' : 'num amount amount--in'}>
                    {formatSigned(tx.amount)}
                  </td>
                  <td>
                    {methodLabel(tx.method)}
                    {tx.type && tx.type !== tx.method ? (
                      <span className="admin-table__sub">{typeLabel(tx.type)}</span>
                    ) : null}
                  </td>
                  <td>{formatDateTime(tx.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </QueryState>
  );

  return (
    <AdminPage
      title={TITLE}
      intro="Coins achetés, ajoutés et retirés par les membres. Cliquez sur un membre pour voir l’audit de ses coins."
    >
      <AdminSearch
        id={filterId}
        label="Filtrer par membre"
        placeholder="Email du membre"
        value={filter}
        onValue={setFilter}
        count={
          transactions.data
            ? `${shown.length} / ${transactions.data.length} transaction${transactions.data.length > 1 ? 's' : ''}`
            : null
        }
      />
      {content}
      <AuditLookup />
    </AdminPage>
  );
}

/** Opens the audit trail of any member, even one without a transaction in the list. */
function AuditLookup() {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = email.trim();
    if (value) navigate(auditPath(value));
  };
  return (
    <form className="admin-lookup card" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Audit des coins d’un membre</h2>
      <div className="admin-lookup__row">
        <TextField
          id={id}
          label="Email du membre"
          type="email"
          autoComplete="off"
          required
          value={email}
          onValue={setEmail}
        />
        <button type="submit" className="btn btn--primary">
          Voir l’audit
        </button>
      </div>
    </form>
  );
}
