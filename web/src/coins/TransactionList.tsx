import { formatDateTime, formatSigned } from './format';
import { useTransactions } from './hooks';

/** SPEC.md §3 "Coin transaction": achat, retrait, cadeau_recu; any other type is shown as other. */
const TYPE_LABELS: Record<string, string> = {
  achat: 'Achat',
  retrait: 'Retrait',
  cadeau_recu: 'Cadeau reçu',
};
const OTHER = 'Autre';
const EMPTY = 'Aucune transaction trouvée.';
const LOAD_FAILED = 'Impossible de charger vos transactions.';

export const transactionLabel = (type: string) => TYPE_LABELS[type] ?? OTHER;

/** SPEC.md §2 "Transaction history": type label, signed amount, date; live. */
export function TransactionList({ limit }: { limit?: number }) {
  const transactions = useTransactions();

  if (transactions.error && !transactions.data) {
    return (
      <div className="coins-error" role="alert">
        <p>{LOAD_FAILED}</p>
        <button type="button" className="btn btn--secondary btn--small" onClick={transactions.reload}>
          Réessayer
        </button>
      </div>
    );
  }
  if (!transactions.data) {
    return (
      <p className="loading" role="status">
        Chargement...
      </p>
    );
  }
  if (transactions.data.length === 0) return <p className="coins-empty">{EMPTY}</p>;
  const shown = limit ? transactions.data.slice(0, limit) : transactions.data;
  return (
    <ul className="coins-tx" aria-label="Transactions" aria-busy={transactions.loading}>
      {shown.map((tx) => {
        const sign = tx.amount > 0 ? 'in' : tx.amount < 0 ? 'out' : 'zero';
        return (
          <li key={`${tx.type}-${tx.id}-${tx.created_at}`} className="coins-tx__row">
            <span className={`coins-tx__type coins-tx__type--${tx.type in TYPE_LABELS ? tx.type : 'autre'}`}>
              {transactionLabel(tx.type)}
            </span>
            <span className={`coins-tx__amount coins-tx__amount--${sign}`}>
              <span aria-hidden="true">{formatSigned(tx.amount)}</span>
              <span className="sr-only">
                {tx.amount < 0 ? `moins ${-tx.amount}` : `plus ${tx.amount}`}{' '}
                {Math.abs(tx.amount) >= 2 ? 'coins' : 'coin'}
              </span>
            </span>
            <time className="coins-tx__date" dateTime={tx.created_at}>
              {formatDateTime(tx.created_at)}
            </time>
          </li>
        );
      })}
    </ul>
  );
}
