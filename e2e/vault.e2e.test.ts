import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { registerAndLogin, type TestServer } from '@evo/command-api/testing/test-server';
import { browserSkipReason, launchBrowser, newPage, screenshot, startE2eServer } from './harness';
import { DESKTOP, MOBILE, login, realErrors } from './helpers';

const skip = browserSkipReason();
const textOf = async (page: Page, testId: string) =>
  ((await page.getByTestId(testId).first().textContent()) ?? '').replace(/\s+/g, ' ').trim();

/**
 * The vault shows how much of the balance is withdrawable (only coins earned from received gifts),
 * and offers "add coins" only when the server accepts it (ALLOW_FREE_COINS).
 */
describe.skipIf(!!skip)('the vault: withdrawable coins and the add-coins form', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the withdrawable part of the balance, at 1280x800 and 390x844', async () => {
    const server: TestServer = await startE2eServer();
    try {
      const [member, fan] = [await registerAndLogin(server.url), await registerAndLogin(server.url)];
      // 50 added (spendable, never withdrawable) and 10 earned from a gift (withdrawable)
      expect((await member.client.post('/api/coins/add', { email: member.member.email, amount: 50 })).status).toBe(200);
      expect((await fan.client.post('/api/coins/add', { email: fan.member.email, amount: 10 })).status).toBe(200);
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
      ).toMatchObject({ coins_withdrawable: 10 });

      for (const [viewport, name] of [
        [DESKTOP, 'vault-withdrawable-1280'],
        [MOBILE, 'vault-withdrawable-390'],
      ] as const) {
        const ctx = await browser.newContext({ viewport, locale: 'fr-FR' });
        const { page, errors } = await newPage(ctx);
        await login(page, server.url, member.member);
        await page.goto(`${server.url}/coffre`);
        await expect.poll(() => textOf(page, 'coins-balance')).toBe('60 coins');
        expect(await textOf(page, 'coins-withdrawable')).toBe('10 coins');
        expect(await page.getByText('Dont retirable', { exact: true }).isVisible()).toBe(true);
        expect(
          await page.getByText('Seuls les coins gagnés avec les cadeaux reçus peuvent être retirés.').isVisible(),
        ).toBe(true);
        expect(await page.getByRole('heading', { name: 'Ajouter des coins' }).isVisible()).toBe(true);
        // the label fits: no horizontal scrolling at either width
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        await screenshot(page, name);
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
