import { useId, useState } from 'react';
import { useIdempotentAction } from '../api/idempotency';
import { useFlash } from './useFlash';

/**
 * The state of a form that sends a number of coins (add, withdraw): the amount typed, whether it
 * was refused, whether it is on its way, the form's message and the idempotent send.
 */
export function useCoinAmountForm(initialAmount: string) {
  const [amount, setAmount] = useState(initialAmount);
  const [invalid, setInvalid] = useState(false);
  const [pending, setPending] = useState(false);
  const flash = useFlash();
  const run = useIdempotentAction();
  const inputId = useId();
  const messageId = useId();
  return { ...flash, amount, setAmount, invalid, setInvalid, pending, setPending, run, inputId, messageId };
}

export type CoinAmountForm = ReturnType<typeof useCoinAmountForm>;

/** The amount's input: whole coins from 1, described by the form's message; typing again clears the refusal. */
export function CoinAmountInput({ form, placeholder }: { form: CoinAmountForm; placeholder?: string }) {
  return (
    <input
      id={form.inputId}
      type="number"
      inputMode="numeric"
      min={1}
      step={1}
      value={form.amount}
      placeholder={placeholder}
      aria-invalid={form.invalid || undefined}
      aria-describedby={form.messageId}
      onChange={(e) => {
        form.setAmount(e.target.value);
        form.setInvalid(false);
      }}
    />
  );
}
