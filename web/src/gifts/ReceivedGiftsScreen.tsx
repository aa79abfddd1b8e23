import { Link } from 'react-router-dom';
import { BalanceCard } from '../coins/BalanceCard';
import { LoginNeeded } from '../coins/LoginNeeded';
import { useWallet } from '../coins/live';
import { useCurrentUser } from '../identity/sessionContext';
import { ReceivedGiftsTable } from './ReceivedGiftsTable';
import '../coins/coins.css';
import './gifts.css';

const TITLE = 'Cadeaux reçus';
const INTRO = 'Récupère un cadeau pour ajouter sa valeur à ton solde.';

/** /cadeaux-recues: the product screens, "Received gifts table", live. */
export default function ReceivedGiftsScreen() {
  const { user } = useCurrentUser();
  const wallet = useWallet();
  return (
    <section className="page coins" aria-labelledby="received-gifts-title">
      <title>{`${TITLE} · EVO`}</title>
      <header className="coins__header">
        <h1 id="received-gifts-title">{TITLE}</h1>
        <p>{INTRO}</p>
      </header>
      {user ? (
        <>
          <BalanceCard handle={wallet} showUnclaimed />
          <ReceivedGiftsTable />
          <p className="coins__links">
            <Link to="/coins/retrait">Récupérer tous mes cadeaux</Link>
            <Link to="/coffre">Retour au coffre</Link>
          </p>
        </>
      ) : (
        <LoginNeeded />
      )}
    </section>
  );
}
