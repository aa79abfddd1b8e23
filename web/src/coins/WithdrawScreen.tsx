import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { serverMessageOf } from '../api/http';
import { convertGifts, withdrawCoins } from './api';
import { useIdempotentAction } from '../api/idempotency';
import { useWallet, type WalletHandle } from './live';
import { BalanceCard } from './BalanceCard';
import { CoinAmountInput, useCoinAmountForm } from './CoinAmountField';
import { FlashMessage } from './FlashMessage';
import { useFlash } from './useFlash';
import { useConfirm } from '../shell/confirm';
import { formatCoins, formatEuros } from './format';
import { payoutSummary, withdrawalValueCents } from './withdrawal';
import { CoinsPage } from './LoginNeeded';
import './coins.css';

/** the product screens, "Withdraw / exchange", the product states and transitions "Withdrawal", the product validation rules "Withdraw", the product error catalogue "Coins". */
const TITLE = 'Retrait';
const INTRO = 'Récupère tes cadeaux reçus sur ton solde, puis retire tes coins.';
const CONVERT_FAILED = 'Erreur transfert cadeaux.';
const NOTHING_TO_CONVERT = 'Aucun cadeau à récupérer.';
const INVALID_AMOUNT = '❌ Montant invalide.';
const WITHDRAW_FAILED = 'Erreur lors du retrait.';
const converted = (n: number) => `✅ ${n} coins récupérés sur ton solde.`;
const withdrawn = (n: number) => `✅ Retrait de ${n} coins effectué.`;

/** /vault/withdraw and /coins/retrait. */
export default function WithdrawScreen() {
  const wallet = useWallet();
  return (
    <CoinsPage
      titleId="withdraw-title"
      title={TITLE}
      intro={INTRO}
      member={(user) => (
        <>
          <BalanceCard handle={wallet} showWithdrawable showUnclaimed />
          <ConvertGifts email={user.email} wallet={wallet} />
          <WithdrawForm email={user.email} wallet={wallet} />
          <p className="coins__links">
            <Link to="/coins/transactions">Voir mes transactions</Link>
            <Link to="/coffre">Retour au coffre</Link>
          </p>
        </>
      )}
    />
  );
}

/** Claims every unused received gift at once (unused total becomes 0): one verb, "Récupérer", as for one gift. */
function ConvertGifts({ email, wallet }: { email: string; wallet: WalletHandle }) {
  const [pending, setPending] = useState(false);
  const { flash, success, error } = useFlash();
  const run = useIdempotentAction();
  const unused = wallet.wallet?.gifts_unclaimed ?? 0;
  const messageId = useId();

  const convert = async () => {
    if (pending) return;
    setPending(true);
    try {
      const answer = await run(`convert:${email}`, (key) => convertGifts(email, key));
      wallet.apply({ ...answer, gifts_unclaimed: answer.gifts_unclaimed ?? 0 });
      const n = answer.transferred ?? 0;
      success(n > 0 ? converted(n) : (answer.message ?? NOTHING_TO_CONVERT));
    } catch (err) {
      error(CONVERT_FAILED, serverMessageOf(err));
    } finally {
      setPending(false);
    }
  };

  return (
    <div className="coins-panel card">
      <h2>Récupérer mes cadeaux</h2>
      <p className="coins-panel__hint">
        {unused > 0
          ? `${unused} ${unused >= 2 ? 'coins' : 'coin'} de cadeaux reçus à récupérer sur ton solde.`
          : 'Aucun cadeau reçu à récupérer pour le moment.'}
      </p>
      <button
        type="button"
        className="btn btn--secondary"
        onClick={() => void convert()}
        aria-disabled={pending}
        aria-busy={pending}
        aria-describedby={messageId}
      >
        {pending ? 'Récupération…' : 'Récupérer tous mes cadeaux'}
      </button>
      <FlashMessage id={messageId} flash={flash} />
    </div>
  );
}

/** Withdraws a whole, positive number of coins from the balance. */
function WithdrawForm({ email, wallet }: { email: string; wallet: WalletHandle }) {
  const form = useCoinAmountForm('');
  const { amount, setAmount, setInvalid, pending, setPending, flash, success, error, run, inputId, messageId } = form;
  const confirm = useConfirm();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    const text = amount.trim();
    const n = Number(text);
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n <= 0) {
      setInvalid(true);
      error(INVALID_AMOUNT);
      return;
    }
    setInvalid(false);
    // money: said in full, and asked, before anything leaves the wallet
    const terms = wallet.wallet;
    const details = [
      ...(terms?.withdrawal_payout
        ? [`Valeur : ${formatEuros(withdrawalValueCents(n, terms.withdrawal_cents_per_100_coins) / 100)}.`]
        : []),
      ...(terms?.withdrawal_payout ? [payoutSummary(terms.withdrawal_payout)] : []),
      'Les coins retirés quittent ton solde.',
    ];
    const ok = await confirm(`Retirer ${formatCoins(n)} ?`, { confirmLabel: `Retirer ${formatCoins(n)}`, details });
    if (!ok) return;
    setPending(true);
    try {
      const answer = await run(`withdraw:${email}:${n}`, (key) => withdrawCoins(email, n, key));
      wallet.apply(answer);
      setAmount('');
      success(answer.message ?? withdrawn(n));
    } catch (err) {
      error(serverMessageOf(err) ?? WITHDRAW_FAILED);
    } finally {
      setPending(false);
    }
  };

  return (
    <form className="coins-panel card" onSubmit={(e) => void submit(e)} noValidate>
      <h2>Retirer des coins</h2>
      <div className="field">
        <label htmlFor={inputId}>Montant à retirer (en coins)</label>
        <CoinAmountInput form={form} placeholder="Ex. 50" />
      </div>
      <button type="submit" className="btn btn--primary" aria-disabled={pending} aria-busy={pending}>
        {pending ? 'Retrait…' : 'Confirmer le retrait'}
      </button>
      <FlashMessage id={messageId} flash={flash} />
    </form>
  );
}
