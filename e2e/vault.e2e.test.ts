import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { registerAndLogin, type TestServer } from '@evo/command-api/testing/test-server';
import path from 'node:path';
import { SCREENS, browserSkipReason, launchBrowser, newPage, screenshot, startE2eServer } from './harness';
import { DESKTOP, MOBILE, login, realErrors } from './helpers';

const skip = browserSkipReason();
const textOf = async (page: Page, testId: string) =>
  ((await page.getByTestId(testId).first().textContent()) ?? '').replace(/\s+/g, ' ').trim();

/**
 * The vault shows how much of the balance is withdrawable (only coins earned from gifts paid with
 * bought coins), why the rest is not (bought coins, bonus coins), and offers "add coins" only when
 * the server accepts it (ALLOW_FREE_COINS).
 */
describe.skipIf(!!skip)('the vault: withdrawable coins and the add-coins form', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the withdrawable part of the balance, and why the rest is not, at 1280x800 and 390x844', async () => {
    const server: TestServer = await startE2eServer();
    try {
      const [member, fan] = [await registerAndLogin(server.url), await registerAndLogin(server.url)];
      // 110 bought and 50 added (spendable, not withdrawable), 10 earned from a gift paid with
      // bought coins (withdrawable)
      const buy = (m: typeof member) => m.client.post('/api/coins/purchase', { email: m.member.email, packId: 1 });
      expect((await buy(member)).status).toBe(200);
      expect((await member.client.post('/api/coins/add', { email: member.member.email, amount: 50 })).status).toBe(200);
      expect((await buy(fan)).status).toBe(200);
      expect(
        (
          await fan.client.post('/api/gifts/send', {
            sender_email: fan.member.email,
            receiver_email: member.member.email,
            gift_id: 3,
          })
        ).status,
      ).toBe(200);
      await expect
        .poll(async () => (await member.client.get(`/api/coins/balance/${member.member.email}`)).json.gifts_unclaimed, {
          timeout: 10_000,
        })
        .toBe(10);
      expect(
        (await member.client.post('/api/coins/convert-gifts', { user_email: member.member.email })).json,
      ).toMatchObject({ coins_withdrawable: 10, coins_bonus: 50 });

      for (const [viewport, name] of [
        [DESKTOP, 'vault-withdrawable-1280'],
        [MOBILE, 'vault-withdrawable-390'],
      ] as const) {
        const ctx = await browser.newContext({ viewport, locale: 'fr-FR' });
        const { page, errors } = await newPage(ctx);
        await login(page, server.url, member.member);
        await page.goto(`${server.url}/coffre`);
        await expect.poll(() => textOf(page, 'coins-balance')).toBe('170 coins');
        expect(await textOf(page, 'coins-withdrawable')).toBe('10 coins');
        expect(await page.getByText('Dont retirable', { exact: true }).isVisible()).toBe(true);
        expect(
          await page
            .getByText('Seuls les coins gagnés avec des cadeaux payés en coins achetés peuvent être retirés.')
            .isVisible(),
        ).toBe(true);
        // the rest, by origin, each with its reason
        expect(await textOf(page, 'coins-not-withdrawable')).toBe('160 coins');
        expect(await textOf(page, 'coins-bought')).toBe(
          '110 coins achetés : à offrir ; offerts, ils deviennent retirables pour qui les reçoit.',
        );
        expect(await textOf(page, 'coins-bonus')).toBe(
          '50 coins bonus : ajoutés sans paiement ou reçus avec des cadeaux payés en coins bonus ; jamais retirables, même offerts.',
        );
        expect(await page.getByRole('heading', { name: 'Ajouter des coins' }).isVisible()).toBe(true);
        // the label fits: no horizontal scrolling at either width
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        await screenshot(page, name);
        // the balance card alone, as it shows the reasons
        await page.locator('.coins-balance').screenshot({ path: path.join(SCREENS, `${name}-balance.png`) });
        // the withdraw page says it too
        await page.goto(`${server.url}/coins/retrait`);
        await expect.poll(() => textOf(page, 'coins-withdrawable')).toBe('10 coins');
        await screenshot(page, `${name}-retrait`);
        expect(realErrors(errors)).toEqual([]);
        await ctx.close();
      }
    } finally {
      await server.stop();
    }
  }, 180_000);

  it('hides the add-coins form when ALLOW_FREE_COINS=false', async () => {
    const server = await startE2eServer({ ALLOW_FREE_COINS: 'false' });
    try {
      const { member } = await registerAndLogin(server.url);
      const ctx = await browser.newContext({ viewport: MOBILE, locale: 'fr-FR' });
      const { page, errors } = await newPage(ctx);
      await login(page, server.url, member);
      await page.goto(`${server.url}/coffre`);
      await expect.poll(() => textOf(page, 'coins-balance')).toBe('0 coin');
      expect(await page.getByRole('heading', { name: 'Packs de coins' }).isVisible()).toBe(true);
      expect(await page.getByRole('heading', { name: 'Ajouter des coins' }).count()).toBe(0);
      expect(await page.getByLabel('Nombre de coins à ajouter').count()).toBe(0);
      await screenshot(page, 'vault-free-coins-off-390');
      expect(realErrors(errors)).toEqual([]);
      await ctx.close();
    } finally {
      await server.stop();
    }
  }, 180_000);
});
