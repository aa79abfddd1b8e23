import { describe, expect, it } from 'vitest';
import { formatCoins, formatEuros, formatSigned } from './format';
import { newIdempotencyKey } from './idempotency';
import { transactionLabel } from './TransactionList';
import { applyWallet, walletSnapshot } from './useWallet';

const nbsp = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

describe('coin formats', () => {
  it('shows euro prices fr-FR with 2 decimals', () => {
    expect(nbsp(formatEuros(1))).toBe('1,00 €');
    expect(nbsp(formatEuros(45))).toBe('45,00 €');
    expect(nbsp(formatEuros(10.5))).toBe('10,50 €');
  });
  it('counts coins in French (0 and 1 singular)', () => {
    expect(formatCoins(0)).toBe('0 coin');
    expect(formatCoins(1)).toBe('1 coin');
    expect(nbsp(formatCoins(1100))).toBe('1 100 coins');
  });
  it('signs amounts', () => {
    expect(formatSigned(110)).toBe('+110');
    expect(formatSigned(-50)).toBe('−50');
  });
  it('names every movement type in French, and only an unknown one "Autre"', () => {
    expect(transactionLabel('achat')).toBe('Achat');
    expect(transactionLabel('ajout')).toBe('Ajout');
    expect(transactionLabel('cadeau_envoye')).toBe('Cadeau envoyé');
    expect(transactionLabel('cadeau_recu')).toBe('Cadeau reçu');
    expect(transactionLabel('recuperation')).toBe('Cadeau récupéré');
    expect(transactionLabel('conversion')).toBe('Cadeaux récupérés');
    expect(transactionLabel('retrait')).toBe('Retrait');
    expect(transactionLabel('remboursement')).toBe('Autre');
  });
});

describe('idempotency keys', () => {
  it('are fresh UUID v4', () => {
    const a = newIdempotencyKey();
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newIdempotencyKey()).not.toBe(a);
  });
});

describe('wallet store', () => {
  it('applies pushes in log order and command answers partially', () => {
    applyWallet('a@x.fr', {
      coins_balance: 10,
      coins_withdrawable: 4,
      coins_bonus: 2,
      gifts_unclaimed: 0,
      position: '5',
    });
    expect(walletSnapshot().wallet).toEqual({
      coins_balance: 10,
      coins_withdrawable: 4,
      coins_bonus: 2,
      gifts_unclaimed: 0,
      add_coins_enabled: true,
      withdrawal_cents_per_100_coins: 0,
      withdrawal_payout: '',
    });
    applyWallet('a@x.fr', { coins_balance: 3, gifts_unclaimed: 1, position: '4' }); // older: ignored
    expect(walletSnapshot().wallet).toEqual({
      coins_balance: 10,
      coins_withdrawable: 4,
      coins_bonus: 2,
      gifts_unclaimed: 0,
      add_coins_enabled: true,
      withdrawal_cents_per_100_coins: 0,
      withdrawal_payout: '',
    });
    applyWallet('a@x.fr', { coins_balance: 9 }); // an answer without gifts keeps them (and what is withdrawable)
    expect(walletSnapshot().wallet).toEqual({
      coins_balance: 9,
      coins_withdrawable: 4,
      coins_bonus: 2,
      gifts_unclaimed: 0,
      add_coins_enabled: true,
      withdrawal_cents_per_100_coins: 0,
      withdrawal_payout: '',
    });
    applyWallet('a@x.fr', { coins_balance: 9, gifts_unclaimed: 5, position: '7' });
    expect(walletSnapshot().wallet).toEqual({
      coins_balance: 9,
      coins_withdrawable: 4,
      coins_bonus: 2,
      gifts_unclaimed: 5,
      add_coins_enabled: true,
      withdrawal_cents_per_100_coins: 0,
      withdrawal_payout: '',
    });
  });
  it('starts afresh for another member', () => {
    applyWallet('b@x.fr', { coins_balance: 1, gifts_unclaimed: 0, position: '2' });
    expect(walletSnapshot()).toMatchObject({ email: 'b@x.fr', wallet: { coins_balance: 1, gifts_unclaimed: 0 } });
  });
});
