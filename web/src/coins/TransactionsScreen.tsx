import { Link } from 'react-router-dom';
import { useCurrentUser } from '../identity/sessionContext';
import { LoginNeeded } from './LoginNeeded';
import { TransactionList } from './TransactionList';
import './coins.css';

const TITLE = 'Historique des transactions';

/** /coins/transactions: SPEC.md §2 "Transaction history", live. */
export default function TransactionsScreen() {
  const { user } = useCurrentUser();
  return (
    <section className="page coins" aria-labelledby="transactions-title">
      <title>{`${TITLE} · EVO`}</title>
      <header className="coins__header">
        <h1 id="transactions-title">{TITLE}</h1>
      </header>
      {user ? (
        <>
          <TransactionList />
          <p className="coins__links">
            <Link to="/coffre">Retour au coffre</Link>
          </p>
        </>
      ) : (
        <LoginNeeded />
      )}
    </section>
  );
}
