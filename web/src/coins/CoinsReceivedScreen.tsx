import { Link } from 'react-router-dom';
import { useCurrentUser } from '../identity/sessionContext';
import { CoinGiftList } from './CoinGiftList';
import { LoginNeeded } from './LoginNeeded';
import './coins.css';

const TITLE = 'Coins reçus';
const INTRO = 'Les cadeaux que vous avez reçus, en coins.';

/** /coins-received and /coins/received: the product screens, "Received coin gifts list", live. */
export default function CoinsReceivedScreen() {
  const { user } = useCurrentUser();
  return (
    <section className="page coins" aria-labelledby="coins-received-title">
      <title>{`${TITLE} · EVO`}</title>
      <header className="coins__header">
        <h1 id="coins-received-title">{TITLE}</h1>
        <p>{INTRO}</p>
      </header>
      {user ? (
        <>
          <CoinGiftList />
          <p className="coins__links">
            <Link to="/cadeaux-recues">Récupérer mes cadeaux</Link>
            <Link to="/coins/retrait">Retrait</Link>
          </p>
        </>
      ) : (
        <LoginNeeded />
      )}
    </section>
  );
}
