import { Link } from 'react-router-dom';
import { useCurrentUser } from '../identity/sessionContext';
import { giftRoutes } from '@evo/contracts';
import { useRouteQuery } from '../api/queries';
import { CoinGiftList } from './CoinGiftList';
import { CoinsPage } from './LoginNeeded';
import './coins.css';

const TITLE = 'Coins reçus';
const INTRO = 'Les cadeaux que tu as reçus, en coins.';

/** /coins-received and /coins/received: the product screens, "Received coin gifts list", live. */
export default function CoinsReceivedScreen() {
  const { user } = useCurrentUser();
  // the received gifts' cached answer (the coins slice does not import the gifts one; live: `giftPushes` in gifts/api.ts)
  const received = useRouteQuery(giftRoutes.received, user ? { email: user.email } : null);
  // "Récupérer" only when a gift is left to claim (issue 30): not for gifts already 'Déjà récupéré'
  const toClaim = (received.data ?? []).some((gift) => !gift.claimed);
  return (
    <CoinsPage
      titleId="coins-received-title"
      title={TITLE}
      intro={INTRO}
      member={() => (
        <>
          <CoinGiftList />
          <p className="coins__links">
            <Link to="/cadeaux-recues">{toClaim ? 'Récupérer mes cadeaux' : 'Voir mes cadeaux reçus'}</Link>
            <Link to="/coins/retrait">Retrait</Link>
          </p>
        </>
      )}
    />
  );
}
