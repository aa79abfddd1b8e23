import { Link } from 'react-router-dom';
import { BalanceCard } from './BalanceCard';
import { TransactionList } from './TransactionList';
import { useWallet } from './live';
import { CoinsPage } from './LoginNeeded';
import './coins.css';

const TITLE = 'Historique des transactions';
const SUMMARY = 'Résumé du coffre';
const UNCLAIMED_HINT = 'Les cadeaux reçus ne sont pas dans ton solde tant que tu ne les as pas récupérés.';

/** /coins/transactions: the product screens, "Transaction history", live, under the balances it adds up to. */
export default function TransactionsScreen() {
  return (
    <CoinsPage
      titleId="transactions-title"
      title={TITLE}
      member={() => (
        <>
          <Summary />
          <TransactionList />
          <p className="coins__links">
            <Link to="/coffre">Retour au coffre</Link>
          </p>
        </>
      )}
    />
  );
}

/** What the member may spend, and apart from it the received gifts still to claim. */
function Summary() {
  const wallet = useWallet();
  return (
    <section className="coins-summary" aria-label={SUMMARY}>
      <BalanceCard handle={wallet} showUnclaimed />
      <p className="coins-summary__hint">
        {UNCLAIMED_HINT} <Link to="/cadeaux-recues">Voir mes cadeaux reçus</Link>
      </p>
    </section>
  );
}
