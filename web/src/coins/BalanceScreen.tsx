import { Link } from 'react-router-dom';
import { BalanceCard } from './BalanceCard';
import { useWallet } from './live';
import { CoinsPage } from './LoginNeeded';
import './coins.css';

const TITLE = 'Mon solde';

/** /coins/balance: the product screens, "Balance display" (coins), live. */
export default function BalanceScreen() {
  const wallet = useWallet();
  return (
    <CoinsPage
      titleId="balance-title"
      title={TITLE}
      member={() => (
        <>
          <BalanceCard handle={wallet} showWithdrawable />
          <p className="coins__links">
            <Link to="/packs">Acheter des coins</Link>
            <Link to="/coffre">Retour au coffre</Link>
          </p>
        </>
      )}
    />
  );
}
