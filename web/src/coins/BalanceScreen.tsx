import { Link } from 'react-router-dom';
import { useCurrentUser } from '../identity/sessionContext';
import { BalanceCard } from './BalanceCard';
import { LoginNeeded } from './LoginNeeded';
import { useWallet } from './live';
import './coins.css';

const TITLE = 'Mon solde';

/** /coins/balance: the product screens, "Balance display" (coins), live. */
export default function BalanceScreen() {
  const { user } = useCurrentUser();
  const wallet = useWallet();
  return (
    <section className="page coins" aria-labelledby="balance-title">
      <title>{`${TITLE} · EVO`}</title>
      <header className="coins__header">
        <h1 id="balance-title">{TITLE}</h1>
      </header>
      {user ? (
        <>
          <BalanceCard handle={wallet} showWithdrawable />
          <p className="coins__links">
            <Link to="/packs">Acheter des coins</Link>
            <Link to="/coffre">Retour au coffre</Link>
          </p>
        </>
      ) : (
        <LoginNeeded />
      )}
    </section>
  );
}
