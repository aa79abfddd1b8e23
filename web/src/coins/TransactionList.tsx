import { formatDateTime, formatEuros, formatNumber, formatSigned } from './format';
import { payoutStatus } from './withdrawal';
import { useTransactions, type CoinTransaction } from './api';
import { QueryState } from '../shell/ui/QueryState';
import { Link } from 'react-router-dom';
import { receiptPath } from './PurchaseReceipt';

/**
 * the product entities, "Coin transaction": every movement the ledger records, named in French; "Autre" only
 * for a type this screen does not know (a newer server).
 */
const TYPE_LABELS: Record<string, string> = {
  achat: 'Achat',
  ajout: 'Ajout',
  cadeau_envoye: 'Cadeau envoyé',
  cadeau_recu: 'Cadeau reçu',
  recuperation: 'Cadeau récupéré',
  conversion: 'Cadeaux récupérés',
  retrait: 'Retrait',
};
const OTHER = 'Autre';
const EMPTY = 'Aucune transaction trouvée.';
const LOAD_FAILED = 'Impossible de charger tes transactions.';
const TO_CLAIM = 'à récupérer';

export const transactionLabel = (type: string) => TYPE_LABELS[type] ?? OTHER;

/** Movements that take coins out of the received gifts (into the balance). */
const FROM_GIFTS = new Set(['recuperation', 'conversion']);

const coinWord = (n: number) => (Math.abs(n) >= 2 ? 'coins' : 'coin');

/** the product screens, "Transaction history": type label, signed amount, date; live. */
export function TransactionList({ limit }: { limit?: number }) {
  const transactions = useTransactions();
  return (
    <QueryState query={transactions} failed={LOAD_FAILED} empty={EMPTY}>
      {(list) => (
        <ul className="coins-tx" aria-label="Transactions" aria-busy={transactions.isFetching}>
          {(limit ? list.slice(0, limit) : list).map((tx) => (
            <TransactionRow key={`${tx.type}-${tx.id}-${tx.created_at}`} tx={tx} />
          ))}
        </ul>
      )}
    </QueryState>
  );
}

function TransactionRow({ tx }: { tx: CoinTransaction }) {
  // A received gift waits in its own account (the gifts to claim): it does not change the
  // balance until it is claimed (alone or with the others), so it is shown apart, never as a balance "+".
  const toGifts = tx.account === 'gifts';
  const sign = tx.amount > 0 ? 'in' : tx.amount < 0 ? 'out' : 'zero';
  const movesGifts = toGifts || FROM_GIFTS.has(tx.type);
  const counterpart = tx.counterpart_pseudo ? `${tx.amount < 0 ? 'à' : 'de'} @${tx.counterpart_pseudo}` : null;
  return (
    <li className="coins-tx__row">
      <span className="coins-tx__what">
        <span className={`coins-tx__type coins-tx__type--${tx.type in TYPE_LABELS ? tx.type : 'autre'}`}>
          {transactionLabel(tx.type)}
        </span>
        {counterpart ? <span className="coins-tx__detail"> {counterpart}</span> : null}
        {tx.value_cents !== null ? (
          <span className="coins-tx__detail"> · {formatEuros(tx.value_cents / 100)}</span>
        ) : null}
        {tx.payout ? <span className="coins-tx__status">{payoutStatus(tx.payout)}</span> : null}
        {tx.type === 'achat' ? (
          <Link className="coins-tx__receipt" to={receiptPath(tx.id)}>
            Voir le reçu<span className="sr-only"> de l’achat du {formatDateTime(tx.created_at)}</span>
          </Link>
        ) : null}
      </span>
      <span
        className={`coins-tx__amount coins-tx__amount--${toGifts ? 'gifts' : sign}`}
        title={toGifts ? 'Cadeau reçu, pas encore dans ton solde' : undefined}
      >
        <span aria-hidden="true">{formatSigned(tx.amount)}</span>
        {toGifts ? <span className="coins-tx__unit"> {TO_CLAIM}</span> : null}
        <span className="sr-only">
          {tx.amount < 0 ? `moins ${-tx.amount}` : `plus ${tx.amount}`} {coinWord(tx.amount)}
        </span>
      </span>
      <time className="coins-tx__date" dateTime={tx.created_at}>
        {formatDateTime(tx.created_at)}
      </time>
      {tx.coins_balance_after !== undefined ? (
        <span className="coins-tx__after">
          <span className="coins-tx__balance-after">
            Solde : {formatNumber(tx.coins_balance_after)} {coinWord(tx.coins_balance_after)}
          </span>
          {movesGifts && tx.gifts_unclaimed_after !== undefined ? (
            <span className="coins-tx__gifts-after">
              À récupérer : {formatNumber(tx.gifts_unclaimed_after)} {coinWord(tx.gifts_unclaimed_after)}
            </span>
          ) : null}
        </span>
      ) : null}
    </li>
  );
}
