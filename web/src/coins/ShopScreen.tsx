import { Link } from 'react-router-dom';
import { useCurrentUser } from '../identity/sessionContext';
import { BalanceCard } from './BalanceCard';
import { PackShop } from './PackShop';
import { StaticPackList } from './StaticPackList';
import { useWallet } from './live';
import { CoinsPage } from './LoginNeeded';
import './coins.css';

const TITLE = 'Boutique de coins';
const INTRO = 'Choisis un pack : les coins arrivent aussitôt sur ton solde.';

/**
 * the product screens, "Coin shop": /packs shows the live shop; /vault/shop shows it too, followed by the
 * static price list of the product business constants (eight fixed packs, inert buttons).
 */
export function Shop({ withStaticList }: { withStaticList: boolean }) {
  const { user } = useCurrentUser();
  const wallet = useWallet();
  return (
    <CoinsPage titleId="shop-title" title={TITLE} intro={INTRO}>
      {user ? <BalanceCard handle={wallet} /> : null}
      <PackShop />
      {withStaticList ? <StaticPackList /> : null}
      <p className="coins__links">
        <Link to="/coffre">Retour au coffre</Link>
      </p>
    </CoinsPage>
  );
}

/** /packs */
export default function ShopScreen() {
  return <Shop withStaticList={false} />;
}
