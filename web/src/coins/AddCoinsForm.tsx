import type { FormEvent } from 'react';
import { serverMessageOf } from '../api/http';
import { addCoins } from './api';
import { CoinAmountInput, useCoinAmountForm } from './CoinAmountField';
import type { WalletHandle } from './live';
import { FlashMessage } from './FlashMessage';

/** the product validation rules, "Add coins", the product error catalogue "Coins", the product business constants (default 10, minimum 1). */
const DEFAULT_AMOUNT = '10';
const MUST_BE_POSITIVE = 'Le montant doit être supérieur à 0.';
const MUST_BE_WHOLE = 'Le montant doit être un nombre entier.';
const ADD_FAILED = "❌ Erreur lors de l'ajout des coins.";
const added = (n: number) => `✅ ${n} coins ajoutés avec succès.`;

/** The vault's add-coins form. */
export function AddCoinsForm({ email, wallet }: { email: string; wallet: WalletHandle }) {
  const form = useCoinAmountForm(DEFAULT_AMOUNT);
  const { amount, setInvalid, pending, setPending, flash, success, error, run, inputId, messageId } = form;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    const n = Number(amount.trim());
    if (amount.trim() === '' || !Number.isFinite(n) || n <= 0) {
      setInvalid(true);
      error(MUST_BE_POSITIVE);
      return;
    }
    if (!Number.isInteger(n)) {
      setInvalid(true);
      error(MUST_BE_WHOLE);
      return;
    }
    setInvalid(false);
    setPending(true);
    try {
      const answer = await run(`add:${email}:${n}`, (key) => addCoins(email, n, key));
      wallet.apply(answer);
      success(added(n));
    } catch (err) {
      error(ADD_FAILED, serverMessageOf(err));
    } finally {
      setPending(false);
    }
  };

  return (
    <form className="coins-form" onSubmit={(e) => void submit(e)} noValidate>
      <div className="field">
        <label htmlFor={inputId}>Nombre de coins à ajouter</label>
        <div className="coins-form__row">
          <CoinAmountInput form={form} />
          <button type="submit" className="btn btn--primary" aria-disabled={pending} aria-busy={pending}>
            {pending ? 'Ajout…' : 'Ajouter'}
          </button>
        </div>
      </div>
      <FlashMessage id={messageId} flash={flash} />
    </form>
  );
}
