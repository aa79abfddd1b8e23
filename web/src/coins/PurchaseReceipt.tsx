import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { type CoinTransaction, useTransactions } from './api';
import { formatCoins, formatDateTime, formatEuros } from './format';
import { QueryState } from '../shell/ui/QueryState';

export const RECEIPT_TITLE = 'Reçu d’achat';
const NOT_FOUND = 'Reçu introuvable : cet achat n’est pas dans ton historique.';
const LOAD_FAILED = 'Impossible de charger ce reçu.';

/** /coins/recu/:id: the receipt of one purchase, linked from its line of the history. */
export const receiptPath = (txId: number) => `/coins/recu/${txId}`;

/** A purchase's line of the history, or undefined (another type, or not a purchase at all). */
export const purchaseOf = (transactions: readonly CoinTransaction[] | undefined, txId: number) =>
  transactions?.find((tx) => tx.type === 'achat' && tx.id === txId);

/**
 * A purchase's receipt: pack, coins, price, date, reference and the balance right after it, read
 * from the member's history (the server's read-your-writes makes a purchase just made part of it).
 */
export function PurchaseReceipt({
  txId,
  focusOnShow = false,
  actions,
  heading: Heading = 'h2',
}: {
  txId: number;
  /** h1 on its own page, h2 inside the shop */
  heading?: 'h1' | 'h2';
  /** the receipt takes the focus (and the screen) once shown: right after a purchase */
  focusOnShow?: boolean;
  actions?: ReactNode;
}) {
  const transactions = useTransactions();
  const tx = purchaseOf(transactions.data, txId);
  const titleId = useId();
  const titleRef = useRef<HTMLHeadingElement>(null);
  const shown = tx !== undefined;

  useEffect(() => {
    if (shown && focusOnShow) titleRef.current?.focus();
  }, [shown, focusOnShow]);

  const rowsOf = (tx: CoinTransaction) => {
    const rows: Array<[string, string]> = [
      ['Pack', tx.pack_name ?? '—'],
      ['Coins', formatCoins(tx.amount)],
      ['Prix', tx.value_cents !== null ? formatEuros(tx.value_cents / 100) : '—'],
      ['Date', formatDateTime(tx.created_at)],
      ['Référence', tx.reference ?? `achat-${tx.id}`],
      ['Nouveau solde', formatCoins(tx.coins_balance_after)],
    ];
    return (
      <dl className="coins-receipt__rows">
        {rows.map(([label, value]) => (
          <div key={label} className="coins-receipt__row">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    );
  };

  return (
    <section className="coins-receipt card" aria-labelledby={titleId}>
      <Heading id={titleId} ref={titleRef} tabIndex={-1}>
        {RECEIPT_TITLE}
      </Heading>
      <QueryState
        query={transactions}
        failed={LOAD_FAILED}
        retry={false}
        empty={NOT_FOUND}
        isEmpty={(list) => purchaseOf(list, txId) === undefined}
      >
        {(list) => rowsOf(purchaseOf(list, txId) as CoinTransaction)}
      </QueryState>
      <p className="coins__links">
        {actions}
        <Link to="/coins/transactions">Voir mes transactions</Link>
      </p>
    </section>
  );
}
