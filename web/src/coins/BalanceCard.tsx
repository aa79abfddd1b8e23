import type { ReactNode } from 'react';
import type { WalletHandle } from './live';
import { formatCoins, formatNumber } from './format';
import { CashOutIcon, CoinIcon, GiftBoxIcon } from '../shell/ui/icons';

const BALANCE = 'Solde';
const UNCLAIMED = 'Cadeaux reçus à récupérer';
const WITHDRAWABLE = 'Dont retirable';
const WITHDRAWABLE_HINT = 'Seuls les coins gagnés avec des cadeaux payés en coins achetés peuvent être retirés.';
const NOT_WITHDRAWABLE = 'Non retirable';
/** why each kind of coin cannot be withdrawn (the origin rule, domain/src/coins/wallet-decider.ts) */
const BOUGHT_REASON = 'achetés : à offrir ; offerts, ils deviennent retirables pour qui les reçoit.';
const BONUS_REASON =
  'bonus : ajoutés sans paiement ou reçus avec des cadeaux payés en coins bonus ; jamais retirables, même offerts.';
const LOAD_FAILED = 'Impossible de charger ton solde.';

interface BalanceCardProps {
  handle: WalletHandle;
  /** also show the received gift coins not yet claimed */
  showUnclaimed?: boolean;
  /** also show how much of the balance may be withdrawn (the coins earned from gifts), and why the rest may not */
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
      <BalanceItem label={BALANCE} testId="coins-balance" icon={<CoinIcon size={22} className="coins-icon" />}>
        {wallet ? formatCoins(wallet.coins_balance) : null}
      </BalanceItem>
      {showWithdrawable ? (
        <BalanceItem
          label={WITHDRAWABLE}
          hint={WITHDRAWABLE_HINT}
          kind="withdrawable"
          testId="coins-withdrawable"
          icon={<CashOutIcon size={22} className="coins-icon" />}
        >
          {wallet ? formatCoins(wallet.coins_withdrawable) : null}
        </BalanceItem>
      ) : null}
      {showWithdrawable && wallet ? <NotWithdrawable wallet={wallet} /> : null}
      {showUnclaimed ? (
        <BalanceItem
          label={UNCLAIMED}
          kind="gifts"
          testId="gifts-unclaimed"
          icon={<GiftBoxIcon size={22} className="coins-icon" />}
        >
          {wallet ? `${formatNumber(wallet.gifts_unclaimed)} ${wallet.gifts_unclaimed >= 2 ? 'coins' : 'coin'}` : null}
        </BalanceItem>
      ) : null}
    </dl>
  );
}

/**
 * One figure of the card: its label, then its icon and amount (`children`; null while the wallet
 * loads, shown as '…'); a `hint` is said under it and as the label's title.
 */
function BalanceItem({
  label,
  hint,
  kind,
  testId,
  icon,
  children,
}: {
  label: string;
  hint?: string;
  kind?: 'withdrawable' | 'gifts';
  testId: string;
  icon: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="coins-balance__item">
      <dt title={hint}>{label}</dt>
      <dd
        className={kind ? `coins-balance__value coins-balance__value--${kind}` : 'coins-balance__value'}
        data-testid={testId}
      >
        {children === null ? (
          '…'
        ) : (
          <>
            {icon}
            {children}
          </>
        )}
      </dd>
      {hint ? <p className="coins-balance__hint">{hint}</p> : null}
    </div>
  );
}

/** The part of the balance that cannot be withdrawn, by origin, each with its reason. */
function NotWithdrawable({ wallet }: { wallet: NonNullable<WalletHandle['wallet']> }) {
  const bonus = wallet.coins_bonus;
  const bought = Math.max(0, wallet.coins_balance - wallet.coins_withdrawable - bonus);
  return (
    <div className="coins-balance__item">
      <dt>{NOT_WITHDRAWABLE}</dt>
      <dd className="coins-balance__value coins-balance__value--withdrawable" data-testid="coins-not-withdrawable">
        {formatCoins(bought + bonus)}
      </dd>
      {bought > 0 ? (
        <p className="coins-balance__hint" data-testid="coins-bought">
          <strong>{formatCoins(bought)}</strong> {BOUGHT_REASON}
        </p>
      ) : null}
      {bonus > 0 ? (
        <p className="coins-balance__hint" data-testid="coins-bonus">
          <strong>{formatCoins(bonus)}</strong> {BONUS_REASON}
        </p>
      ) : null}
    </div>
  );
}
