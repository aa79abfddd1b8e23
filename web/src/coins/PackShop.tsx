import { useState } from 'react';
import { serverMessageOf } from '../api/http';
import { useCurrentUser } from '../identity/sessionContext';
import { useConfirm } from '../shell/confirm';
import { useToast } from '../shell/toast';
import { purchasePack, type CoinPack, usePacks } from './api';
import { useIdempotentAction } from '../api/idempotency';
import { useWallet } from './live';
import { formatCoins, formatEuros } from './format';
import { PurchaseReceipt } from './PurchaseReceipt';
import { PackCard } from './StaticPackList';
import { QueryState } from '../shell/ui/QueryState';

/** the product validation rules, "Buy a pack", the product error catalogue "Coins". */
const LOGIN_TO_BUY = 'Veuillez vous connecter pour acheter.';
const PURCHASED = '✅ Achat effectué avec succès !';
const PURCHASE_FAILED = "Erreur lors de l'achat.";
const LOAD_FAILED = 'Erreur chargement des packs.';

/** The live coin shop: pack cards (name, coins, euro price) with a buy button. */
export function PackShop({ headingLevel = 2 }: { headingLevel?: 2 | 3 }) {
  const { user } = useCurrentUser();
  const packs = usePacks();
  const wallet = useWallet();
  const toast = useToast();
  const confirm = useConfirm();
  const run = useIdempotentAction();
  const [pending, setPending] = useState<number | null>(null);
  /** the transaction id of the purchase just made: its receipt shows above the packs */
  const [receipt, setReceipt] = useState<number | null>(null);
  const Title = `h${headingLevel + 1}` as 'h3' | 'h4';

  const buy = async (pack: CoinPack) => {
    if (pending !== null) return;
    if (!user) {
      toast.error(LOGIN_TO_BUY);
      return;
    }
    const price = formatEuros(pack.price_euros);
    const ok = await confirm(`Acheter le pack ${pack.name} (${formatCoins(pack.coins_amount)}) pour ${price} ?`, {
      confirmLabel: `Payer ${price}`,
    });
    if (!ok) return;
    setPending(pack.id);
    try {
      const answer = await run(`purchase:${user.email}:${pack.id}`, (key) => purchasePack(user.email, pack.id, key));
      wallet.apply(answer);
      toast.success(PURCHASED);
      if (answer.id !== undefined) setReceipt(answer.id);
    } catch (err) {
      toast.error(PURCHASE_FAILED, { detail: serverMessageOf(err) });
    } finally {
      setPending(null);
    }
  };

  return (
    <QueryState query={packs} failed={LOAD_FAILED}>
      {(list) => (
        <>
          {receipt !== null ? (
            <PurchaseReceipt
              key={receipt}
              txId={receipt}
              focusOnShow
              actions={
                <button type="button" className="btn btn--ghost btn--small" onClick={() => setReceipt(null)}>
                  Fermer le reçu
                </button>
              }
            />
          ) : null}
          <ul className="coins-packs" aria-label="Packs de coins à acheter">
            {list.map((pack) => {
              const price = formatEuros(pack.price_euros);
              return (
                <PackCard
                  key={pack.id}
                  title={<Title className="coins-pack__name">{pack.name}</Title>}
                  coins={pack.coins_amount}
                  price={price}
                >
                  <button
                    type="button"
                    className="btn btn--primary btn--small btn--block"
                    aria-label={`Acheter le pack ${pack.name} : ${formatCoins(pack.coins_amount)} pour ${price}`}
                    aria-disabled={pending === pack.id}
                    aria-busy={pending === pack.id}
                    onClick={() => void buy(pack)}
                  >
                    {pending === pack.id ? 'Achat…' : 'Acheter'}
                  </button>
                </PackCard>
              );
            })}
          </ul>
        </>
      )}
    </QueryState>
  );
}
