import { useCurrentUser } from '../identity/sessionContext';
import { GiftCatalogue } from './GiftCatalogue';
import '../coins/coins.css';
import './gifts.css';
import { Loading } from '../shell/Loading';

const TITLE = 'Boutique de cadeaux';
const INTRO = "Offre un cadeau à l'équipe EVO.";
/** the fixed recipient is shown by what it is, not by its address */
const TEAM = "l'équipe EVO";

/**
 * /gift: the product screens, "A gift shop wrapper sends to a fixed placeholder recipient": the
 * administrator address announced by GET /api/auth/me (`admin_email`); without one, the
 * catalogue says '⚠️ Aucun destinataire.'.
 */
export default function GiftShopScreen() {
  const { adminEmail, checked, isLoggedIn } = useCurrentUser();
  return (
    <section className="page coins" aria-labelledby="gift-shop-title">
      <title>{`${TITLE} · EVO`}</title>
      <header className="coins__header">
        <h1 id="gift-shop-title">{TITLE}</h1>
        {adminEmail ? <p>{INTRO}</p> : null}
      </header>
      {isLoggedIn && !checked ? (
        <Loading />
      ) : (
        <GiftCatalogue receiver={adminEmail ? { email: adminEmail, label: TEAM } : null} />
      )}
    </section>
  );
}
