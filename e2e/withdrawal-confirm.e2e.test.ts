/**
 * Issue 30, Major 5: a withdrawal is asked before it happens, stating the amount in coins, its
 * value in euros and where the money goes (this sandbox: nowhere), then its status shows in the
 * history. At 1280x800 and 390x844. Screenshots: artifacts/screens/withdrawal-*.png.
 */
import { describe, it, expect } from 'vitest';
import { registerAndLogin, type Member } from '@evo/command-api/testing/test-server';
import { browserSkipReason, loggedInPage, screenshot } from './harness';
import { SIZES, coveredBy, realErrors, serverAndBrowser, sidewaysOverflow } from './helpers';

const skip = browserSkipReason();

/** `creator` with 10 withdrawable coins: a gift paid with bought coins, converted */
async function withEarnings(base: string): Promise<Member> {
  const [fan, creator] = [await registerAndLogin(base), await registerAndLogin(base)];
  expect((await fan.client.post('/api/coins/purchase', { email: fan.member.email, packId: 1 })).status).toBe(200);
  const gift = { sender_email: fan.member.email, receiver_email: creator.member.email, gift_id: 3 };
  expect((await fan.client.post('/api/gifts/send', gift)).status).toBe(200);
  await expect
    .poll(async () => (await creator.client.get(`/api/coins/balance/${creator.member.email}`)).json.gifts_unclaimed)
    .toBe(10);
  expect((await creator.client.post('/api/coins/convert-gifts', { user_email: creator.member.email })).status).toBe(
    200,
  );
  return creator;
}

describe.skipIf(!!skip)('withdrawing coins', () => {
  const live = serverAndBrowser();

  for (const size of SIZES) {
    it(`asks with the amount in coins and euros and where the money goes, then shows the status (${size.name})`, async () => {
      const creator = await withEarnings(live.server.url);
      const balance = async () =>
        (await creator.client.get(`/api/coins/balance/${creator.member.email}`)).json.coins_withdrawable;
      const { context, page, errors } = await loggedInPage(
        live.browser,
        live.server.url,
        creator.member,
        size.viewport,
      );
      await page.goto(`${live.server.url}/coins/retrait`);
      // the screen's own stylesheet comes after the app's in the cascade: its balance card keeps its colours
      await expect
        .poll(() => page.locator('.coins-balance').evaluate((el) => getComputedStyle(el).backgroundImage))
        .toContain('linear-gradient');
      await page.getByLabel('Montant à retirer (en coins)').fill('8');
      await page.getByRole('button', { name: 'Confirmer le retrait' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText('Retirer 8 coins ?').waitFor();
      await dialog.getByText('Valeur : 0,04 €.').waitFor();
      await dialog
        .getByText('Bac à sable : aucun argent réel n’est versé, aucun virement n’est fait vers un compte bancaire.')
        .waitFor();
      expect(await coveredBy(dialog.getByRole('button', { name: 'Retirer 8 coins' }))).toEqual([]);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `withdrawal-confirm-${size.name}`, { fullPage: false });

      // "Annuler": nothing leaves the wallet
      await dialog.getByRole('button', { name: 'Annuler' }).click();
      await expect.poll(() => dialog.count()).toBe(0);
      expect(await balance()).toBe(10);

      await page.getByRole('button', { name: 'Confirmer le retrait' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Retirer 8 coins' }).click();
      await page.getByText('✅ Retrait de 8 coins effectué.').waitFor();
      await expect.poll(balance).toBe(2);

      // the history names it, its value and its status
      await page.goto(`${live.server.url}/coins/transactions`);
      const row = page.locator('.coins-tx__row', { hasText: 'Retrait' }).first();
      await row.getByText('· 0,04 €').waitFor();
      await row.getByText('Effectué · simulation, aucun virement réel').waitFor();
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `withdrawal-history-${size.name}`, { fullPage: false });
      expect(realErrors(errors)).toEqual([]);
      await context.close();
    }, 120_000);
  }
});
