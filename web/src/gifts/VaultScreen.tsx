import { useId, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { GiftCatalogue } from './GiftCatalogue';
import { ReceivedGiftsTable } from './ReceivedGiftsTable';
import { CardNav } from '../shell/ui/CardNav';
import { ProfilePicture } from '../shell/ui/ProfilePicture';
import { AddCoinsForm } from '../coins/AddCoinsForm';
import { BalanceCard } from '../coins/BalanceCard';
import { CoinsPage } from '../coins/LoginNeeded';
import { PackShop } from '../coins/PackShop';
import { TransactionList } from '../coins/TransactionList';
import { useWallet } from '../coins/live';
import '../coins/coins.css';
import './gifts.css';
import { CartIcon, CashOutIcon, GiftBoxIcon, ReceiptIcon } from '../shell/ui/icons';

const TITLE = 'Mon coffre';

/** the product screens, "Coin vault hub": the four tiles. */
const TILES = [
  { to: '/packs', Icon: CartIcon, title: 'Acheter des coins', text: 'Packs de coins' },
  { to: '/coins/received', Icon: GiftBoxIcon, title: 'Coins reçus', text: 'Tes cadeaux en coins' },
  { to: '/coins/retrait', Icon: CashOutIcon, title: 'Retrait', text: 'Échanger et retirer' },
  { to: '/coins/transactions', Icon: ReceiptIcon, title: 'Transactions', text: 'Tout ton historique' },
] as const;

/**
 * /coffre: the hub's four tiles, then the combined vault (the product screens, the product
 * validation rules "Vault page"). It lives with the gifts because it shows both slices: the gifts
 * use the coins' wallet, the coins know nothing of gifts.
 */
export default function VaultScreen() {
  return (
    <CoinsPage
      titleId="vault-title"
      title={TITLE}
      member={(user) => <CombinedVault email={user.email} pseudo={user.pseudo} picture={user.profile_picture} />}
    >
      <CardNav label="Rubriques du coffre" cards={TILES} listClassName="vault-tiles" block="vault-tile" iconSize={28} />
    </CoinsPage>
  );
}

/** Avatar, pseudo, balance, add-coins form, packs, received gifts, gift catalogue, history. */
function CombinedVault({ email, pseudo, picture }: { email: string; pseudo: string; picture: string | null }) {
  const wallet = useWallet();
  return (
    <>
      <div className="vault-owner card">
        <ProfilePicture pseudo={pseudo} profilePicture={picture} size={64} alt="" />
        <div className="vault-owner__text">
          <p className="vault-owner__pseudo">{pseudo ? `@${pseudo}` : email}</p>
          <p className="vault-owner__hint">Ton coffre de coins et de cadeaux</p>
        </div>
      </div>
      <BalanceCard handle={wallet} showWithdrawable showUnclaimed />
      {/* ALLOW_FREE_COINS=false: the server refuses "add coins", so the form is not offered */}
      {wallet.wallet?.add_coins_enabled ? (
        <VaultSection title="Ajouter des coins">
          <AddCoinsForm email={email} wallet={wallet} />
        </VaultSection>
      ) : null}
      <VaultSection title="Packs de coins" more={{ to: '/packs', label: 'Ouvrir la boutique' }}>
        <PackShop headingLevel={2} />
      </VaultSection>
      <VaultSection title="Cadeaux reçus" more={{ to: '/cadeaux-recues', label: 'Voir tous les cadeaux reçus' }}>
        <ReceivedGiftsTable />
      </VaultSection>
      <VaultSection title="Catalogue des cadeaux">
        <GiftCatalogue receiver={null} variant="embedded" showBalance={false} pickReceiver />
      </VaultSection>
      <VaultSection
        title="Historique des transactions"
        more={{ to: '/coins/transactions', label: "Voir tout l'historique" }}
      >
        <TransactionList limit={10} />
      </VaultSection>
    </>
  );
}

function VaultSection({
  title,
  more,
  children,
}: {
  title: string;
  more?: { to: string; label: string };
  children: ReactNode;
}) {
  const id = useId();
  return (
    <section className="coins-section" aria-labelledby={id}>
      <div className="coins-section__head">
        <h2 id={id}>{title}</h2>
        {more ? (
          <Link to={more.to} className="coins-section__more">
            {more.label}
          </Link>
        ) : null}
      </div>
      {children}
    </section>
  );
}
