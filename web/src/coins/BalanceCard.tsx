import type { WalletHandle } from './useWallet';
import { formatCoins, formatNumber } from './format';
import { CashOutIcon, CoinIcon, GiftBoxIcon } from '../shell/ui/icons';

const BALANCE = 'Solde';
const UNCLAIMED = 'Cadeaux reçus non utilisés';
const WITHDRAWABLE = 'Dont retirable';
const WITHDRAWABLE_HINT = 'Seuls les coins gagnés avec les cadeaux reçus peuvent être retirés.';
const LOAD_FAILED = 'Impossible de charger votre solde.';

interface BalanceCardProps {
  handle: WalletHandle;
  /** also show the received gift coins not yet claimed */
  showUnclaimed?: boolean;
  /** also show how much of the balance may be withdrawn (the coins earned from gifts) */
  showWithdrawable?: boolean;
}

/** the product screens, "Balance display": the member's coins, live. */
export function BalanceCard({ handle, showUnclaimed = false, showWithdrawable = false }: BalanceCardProps) {
  const { wallet, error, reload } = handle;
  if (!wallet && error) {
    return (
      <div className="coins-balance card coins-balance--error" role="alert">
        <p>{LOAD_FAILED}</p>
        <button type="button" className="btn btn--secondary btn--small" onClick={reload}>
          Réessayer
        </button>
      </div>
    );
  }
  return (
    <dl className="coins-balance card" aria-busy={!wallet}>
      <div className="coins-balance__item">
        <dt>{BALANCE}</dt>
        <dd className="coins-balance__value" data-testid="coins-balance">
          {wallet ? (
            <>
              <CoinIcon size={22} className="coins-icon" />
              {formatCoins(wallet.coins_balance)}
            </>
          ) : (
            '…'
          )}
        </dd>
      </div>
      {showWithdrawable ? (
        <div className="coins-balance__item">
          <dt title={WITHDRAWABLE_HINT}>{WITHDRAWABLE}</dt>
          <dd className="coins-balance__value coins-balance__value--withdrawable" data-testid="coins-withdrawable">
            {wallet ? (
              <>
                <CashOutIcon size={22} className="coins-icon" />
                {formatCoins(wallet.coins_withdrawable)}
              </>
            ) : (
              '…'
            )}
          </dd>
          <p className="coins-balance__hint">{WITHDRAWABLE_HINT}</p>
        </div>
      ) : null}
      {showUnclaimed ? (
        <div className="coins-balance__item">
          <dt>{UNCLAIMED}</dt>
          <dd className="coins-balance__value coins-balance__value--gifts" data-testid="gifts-unclaimed">
            {wallet ? (
              <>
                <GiftBoxIcon size={22} className="coins-icon" />
                {`${formatNumber(wallet.gifts_unclaimed)} ${wallet.gifts_unclaimed >= 2 ? 'coins' : 'coin'}`}
              </>
            ) : (
              '…'
            )}
          </dd>
        </div>
      ) : null}
    </dl>
  );
}
