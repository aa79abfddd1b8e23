import { useId, type ReactNode } from 'react';
import { formatCoins, formatEuros } from './format';
import { CoinIcon } from '../shell/ui/icons';

/** the product business constants, "Static pack list" (euros, then coins). */
const STATIC_PACKS = [
  { name: 'Débutant', euros: 1, coins: 110 },
  { name: 'Bronze', euros: 2, coins: 220 },
  { name: 'Argent', euros: 3, coins: 330 },
  { name: 'Or', euros: 5, coins: 550 },
  { name: 'Or+', euros: 10, coins: 1100 },
  { name: 'Diamant', euros: 15, coins: 1750 },
  { name: 'Platine', euros: 20, coins: 2500 },
  { name: 'Ultime', euros: 45, coins: 5000 },
] as const;

const TITLE = 'Grille des packs';
const NOTE = 'Grille indicative : ces boutons ne déclenchent pas d’achat. Achète avec la boutique ci-dessus.';

/** The static page's eight fixed packs; its buttons are inert (the product screens, "Coin shop"). */
export function StaticPackList() {
  const titleId = useId();
  const noteId = useId();
  return (
    <section className="coins-section coins-static" aria-labelledby={titleId}>
      <h2 id={titleId}>{TITLE}</h2>
      <p id={noteId} className="coins-section__hint">
        {NOTE}
      </p>
      <ul className="coins-packs coins-packs--static" aria-label={TITLE}>
        {STATIC_PACKS.map((pack) => (
          <PackCard
            key={pack.name}
            title={<h3 className="coins-pack__name">{pack.name}</h3>}
            coins={pack.coins}
            price={formatEuros(pack.euros)}
            isStatic
          >
            {/* inert on purpose (static page): focusable, announced as unavailable, does nothing */}
            <button
              type="button"
              className="btn btn--ghost btn--small btn--block"
              aria-disabled="true"
              aria-describedby={noteId}
              aria-label={`Acheter le pack ${pack.name} (grille indicative)`}
            >
              Acheter
            </button>
          </PackCard>
        ))}
      </ul>
    </section>
  );
}

/** A pack's card: its name (`title`, at the list's heading level), coins and price, then its button. */
export function PackCard({
  title,
  coins,
  price,
  isStatic = false,
  children,
}: {
  title: ReactNode;
  coins: number;
  price: string;
  isStatic?: boolean;
  children: ReactNode;
}) {
  return (
    <li className={isStatic ? 'coins-pack coins-pack--static card' : 'coins-pack card'}>
      {title}
      <p className="coins-pack__coins">
        <CoinIcon size={20} className="coins-icon" />
        {formatCoins(coins)}
      </p>
      <p className="coins-pack__price">{price}</p>
      {children}
    </li>
  );
}
