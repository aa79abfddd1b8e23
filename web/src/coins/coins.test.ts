import { describe, expect, it, vi } from 'vitest';
import { coinRoutes } from '@evo/contracts';
import { createQueryClient, routeKey } from '../api/queries';
import { coinPushes, applyWallet } from './live';
import { testWallet, walletPush } from './testWallet';
import { newIdempotencyKey } from '../api/idempotency';
import { formatCoins, formatEuros, formatSigned } from './format';
import { transactionLabel } from './TransactionList';

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

const walletKey = (email: string) => routeKey(coinRoutes.wallet, { email });

describe('the wallet in the cache', () => {
  it('applies pushes in log order and command answers partially', async () => {
    const client = createQueryClient();
    client.setQueryData(walletKey('a@x.fr'), testWallet());
    const read = () => client.getQueryData(walletKey('a@x.fr'));

    await applyWallet(client, 'a@x.fr', { coins_balance: 12, gifts_unclaimed: 1, position: '5' });
    expect(read()).toEqual(testWallet({ coins_balance: 12, gifts_unclaimed: 1 }));
    await applyWallet(client, 'a@x.fr', { coins_balance: 3, gifts_unclaimed: 0, position: '4' }); // older: ignored
    expect(read()).toEqual(testWallet({ coins_balance: 12, gifts_unclaimed: 1 }));
    await applyWallet(client, 'a@x.fr', { coins_balance: 9 }); // an answer without gifts keeps them
    expect(read()).toEqual(testWallet({ coins_balance: 9, gifts_unclaimed: 1 }));
    await applyWallet(client, 'a@x.fr', { coins_balance: 9, gifts_unclaimed: 5, position: '7' });
    expect(read()).toEqual(testWallet({ coins_balance: 9, gifts_unclaimed: 5 }));
  });

  it('counts positions per member', async () => {
    const client = createQueryClient();
    client.setQueryData(walletKey('a@x.fr'), testWallet());
    client.setQueryData(walletKey('b@x.fr'), testWallet());
    await applyWallet(client, 'a@x.fr', { coins_balance: 1, position: '9' });
    await applyWallet(client, 'b@x.fr', { coins_balance: 2, position: '3' });
    expect(client.getQueryData(walletKey('b@x.fr'))).toEqual(testWallet({ coins_balance: 2 }));
  });

  it('asks for a balance not loaded yet rather than making one up', async () => {
    const client = createQueryClient();
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    await applyWallet(client, 'c@x.fr', { coins_balance: 40, position: '2' });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: walletKey('c@x.fr') });
    expect(client.getQueryData(walletKey('c@x.fr'))).toBeUndefined();
  });

  it('drops a GET under way when a newer push is applied', async () => {
    const client = createQueryClient();
    client.setQueryData(walletKey('d@x.fr'), testWallet());
    let answerGet: (r: Response) => void = () => undefined;
    vi.stubGlobal('fetch', () => new Promise<Response>((resolve) => (answerGet = resolve)));
    const refetch = client.refetchQueries({ queryKey: walletKey('d@x.fr') });
    await applyWallet(client, 'd@x.fr', { coins_balance: 50, position: '8' });
    answerGet(Response.json(testWallet({ coins_balance: 1 }))); // the older answer arrives late
    await refetch;
    vi.unstubAllGlobals();
    expect(client.getQueryData(walletKey('d@x.fr'))).toEqual(testWallet({ coins_balance: 50 }));
  });
});

describe('coin pushes in the cache', () => {
  it("'wallet:changed' applies the balance and asks the history again; 'gift:received' the received coins", async () => {
    const client = createQueryClient();
    client.setQueryData(walletKey('e@x.fr'), testWallet());
    client.setQueryData(routeKey(coinRoutes.transactions, { email: 'e@x.fr' }), []);
    client.setQueryData(routeKey(coinRoutes.received, { email: 'e@x.fr' }), []);
    client.setQueryData(routeKey(coinRoutes.transactions, { email: 'other@x.fr' }), []);
    const stale = (route: typeof coinRoutes.transactions | typeof coinRoutes.received, email: string) =>
      client.getQueryState(routeKey(route, { email }))?.isInvalidated;
    const pushes = coinPushes(client, 'e@x.fr');

    pushes['wallet:changed']?.(walletPush({ coins_balance: 30, gifts_unclaimed: 3, position: '11' }));
    await vi.waitFor(() =>
      expect(client.getQueryData(walletKey('e@x.fr'))).toEqual(testWallet({ coins_balance: 30, gifts_unclaimed: 3 })),
    );
    expect(stale(coinRoutes.transactions, 'e@x.fr')).toBe(true);
    expect(stale(coinRoutes.transactions, 'other@x.fr')).toBe(false);
    expect(stale(coinRoutes.received, 'e@x.fr')).toBe(false);

    pushes['gift:received']?.({ gift: {} as never });
    expect(stale(coinRoutes.received, 'e@x.fr')).toBe(true);
  });
});
