/**
 * Issue 30, minor "Coins wording": claiming received gifts is one action named with one verb,
 * "Récupérer" (SPEC's 'Déjà récupéré'), alone or all at once, on every screen and in the server's
 * answer; buying a pack shows a receipt (pack, coins, price, date, reference, new balance), found
 * again from the history. At 1280x800 and 390x844. Screenshots: artifacts/screens/coins-receipt-*.png,
 * coins-wording-*.png.
 */
import { describe, it, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { registerAndLogin, type Member } from '@evo/command-api/testing/test-server';
import { browserSkipReason, loggedInPage, screenshot } from './harness';
import { SIZES, coveredBy, realErrors, serverAndBrowser, sidewaysOverflow, toast } from './helpers';

const skip = browserSkipReason();
const OTHER_VERBS = /transf[ée]r|convert|échanger/i;

/** `creator` with two received gifts still to claim (3 and 10 coins, as a fan's gifts of ids 1 and 3) */
async function withGifts(base: string): Promise<Member> {
  const [fan, creator] = [await registerAndLogin(base), await registerAndLogin(base)];
  expect((await fan.client.post('/api/coins/purchase', { email: fan.member.email, packId: 1 })).status).toBe(200);
  for (const gift_id of [1, 3]) {
    const gift = { sender_email: fan.member.email, receiver_email: creator.member.email, gift_id };
    expect((await fan.client.post('/api/gifts/send', gift)).status).toBe(200);
  }
  await expect
    .poll(async () => (await creator.client.get(`/api/coins/balance/${creator.member.email}`)).json.gifts_unclaimed)
    .toBeGreaterThan(0);
  return creator;
}

/** The receipt's label → value pairs, as a person reads them (no-break spaces as spaces). */
const receiptRows = (page: Page) =>
  page
    .locator('.coins-receipt__row')
    .evaluateAll((rows) =>
      Object.fromEntries(
        rows.map((r) => [
          r.querySelector('dt')?.textContent ?? '',
          (r.querySelector('dd')?.textContent ?? '').replace(/\s+/g, ' ').trim(),
        ]),
      ),
    );

describe.skipIf(!!skip)('coins: one verb for claiming, and a receipt for a purchase', () => {
  const live = serverAndBrowser();

  for (const size of SIZES) {
    it(`buying a pack shows its receipt, found again from the history (${size.name})`, async () => {
      const { member } = await registerAndLogin(live.server.url);
      const { context, page, errors } = await loggedInPage(live.browser, live.server.url, member, size.viewport);
      await page.goto(`${live.server.url}/packs`);
      await page.getByRole('button', { name: /Acheter le pack Débutant/ }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Payer 1,00 €' }).click();
      await toast(page, '✅ Achat effectué avec succès !').waitFor();
      const receipt = page.getByRole('region', { name: 'Reçu d’achat' });
      await receipt.waitFor();
      await expect
        .poll(() => receiptRows(page))
        .toMatchObject({
          Pack: 'Débutant',
          Coins: '110 coins',
          Prix: '1,00 €',
          'Nouveau solde': '110 coins',
        });
      const rows = await receiptRows(page);
      expect(rows.Date).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
      expect(rows['Référence']).toMatch(/^sandbox-achat-\d+$/);
      // shown where the member is, heading focused, nothing over it
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Reçu d’achat');
      expect(await coveredBy(receipt.getByRole('heading', { name: 'Reçu d’achat' }))).toEqual([]);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `coins-receipt-shop-${size.name}`, { fullPage: false });

      // the history links to it, and it reads the same there
      await page.goto(`${live.server.url}/coins/transactions`);
      const row = page.locator('.coins-tx__row', { hasText: 'Achat' });
      await row.getByText('· 1,00 €').waitFor();
      await row.getByRole('link', { name: /Voir le reçu/ }).click();
      await page.waitForURL(/\/coins\/recu\/\d+$/);
      await page.getByRole('heading', { level: 1, name: 'Reçu d’achat' }).waitFor();
      await expect.poll(() => receiptRows(page)).toEqual(rows);
      expect(await page.title()).toBe('Reçu d’achat · EVO');
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `coins-receipt-page-${size.name}`, { fullPage: false });

      // another member's or an unknown transaction: no receipt
      await page.goto(`${live.server.url}/coins/recu/999999`);
      await page.getByText('Reçu introuvable : cet achat n’est pas dans ton historique.').waitFor();
      expect(realErrors(errors)).toEqual([]);
      await context.close();
    }, 120_000);

    it(`claiming gifts says "Récupérer" on every screen, alone or all at once (${size.name})`, async () => {
      const creator = await withGifts(live.server.url);
      const { context, page, errors } = await loggedInPage(
        live.browser,
        live.server.url,
        creator.member,
        size.viewport,
      );
      const mainText = () => page.locator('main').innerText();

      await page.goto(`${live.server.url}/cadeaux-recues`);
      await page.getByText('Récupère un cadeau pour ajouter sa valeur à ton solde.').waitFor();
      await page
        .getByRole('button', { name: /^Récupérer / })
        .first()
        .click();
      await toast(page, '✅ Cadeau récupéré !').waitFor();
      await page.getByText('Déjà récupéré').first().waitFor();
      expect(await mainText()).not.toMatch(OTHER_VERBS);
      await screenshot(page, `coins-wording-received-${size.name}`, { fullPage: false });
      await page.getByRole('link', { name: 'Récupérer tous mes cadeaux' }).click();

      await page.waitForURL('**/coins/retrait');
      await page.getByRole('heading', { name: 'Récupérer mes cadeaux' }).waitFor();
      await page.getByText(/coins? de cadeaux reçus à récupérer sur ton solde\./).waitFor();
      expect(await mainText()).not.toMatch(OTHER_VERBS);
      await screenshot(page, `coins-wording-withdraw-${size.name}`, { fullPage: false });
      const answer = page.waitForResponse((r) => r.url().endsWith('/api/coins/convert-gifts'));
      await page.getByRole('button', { name: 'Récupérer tous mes cadeaux' }).click();
      // the server's answer says it with the same verb, and the screen shows it
      const message = ((await (await answer).json()) as { message: string }).message;
      expect(message).toMatch(/^✅ \d+ coins récupérés sur ton solde\.$/);
      await page.getByText(message).waitFor();
      await page.getByText('Aucun cadeau reçu à récupérer pour le moment.').waitFor();

      await page.goto(`${live.server.url}/coins/transactions`);
      await page
        .getByText('Les cadeaux reçus ne sont pas dans ton solde tant que tu ne les as pas récupérés.')
        .waitFor();
      const labels = page.locator('.coins-tx__type');
      await expect.poll(() => labels.allTextContents()).toContain('Cadeaux récupérés');
      expect(await labels.allTextContents()).toContain('Cadeau récupéré');
      expect(await mainText()).not.toMatch(OTHER_VERBS);
      await screenshot(page, `coins-wording-history-${size.name}`, { fullPage: false });

      // everything claimed: /coins/received no longer offers to claim
      await page.goto(`${live.server.url}/coins/received`);
      await page.getByRole('link', { name: 'Voir mes cadeaux reçus' }).waitFor();
      expect(await page.getByRole('link', { name: 'Récupérer mes cadeaux' }).count()).toBe(0);
      expect(realErrors(errors)).toEqual([]);
      await context.close();
    }, 120_000);
  }
});
