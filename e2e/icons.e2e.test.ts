/**
 * Issue 12 item 9, in a real (headless) Chromium against the real server, at desktop (1280x800)
 * and mobile (390x844) sizes: the interface draws its icons (coins, gifts, vault, admin cards,
 * statuses) as SVG, so that they show where no colour-emoji font is installed. What stays text:
 * emoji of the gift catalogue (`.catalogue-emoji`), emoji typed by members, and the French
 * messages the product specification quotes with their emoji. Screenshots go to artifacts/screens/icons-*.png.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import type { Page } from 'playwright-core';
import { browserSkipReason, screenshot, loggedInPage } from './harness';
import { ADMIN, SIZES, type Member, serverAndBrowser, registerAtOnce } from './helpers';

const skip = browserSkipReason();

/**
 * Every text of the page drawn with an emoji, outside the gift catalogue's own emoji: each as
 * "<the element's tag.class>: <its text>". Emoji ranges: pictographs, symbols and dingbats (the
 * ones drawn from an emoji font: 🪙 🎁 💸 📜 ✅ ❌ ⚠️ 🔄 ⭐ …).
 */
async function emojiTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const EMOJI = /[\u{1F000}-\u{1FAFF}\u{2600}-\u{27BF}\u{2B00}-\u{2BFF}]/u;
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || !EMOJI.test(node.textContent ?? '')) continue;
      if (parent.closest('.catalogue-emoji, script, style, template')) continue;
      found.push(`${parent.tagName.toLowerCase()}.${parent.className}: ${(node.textContent ?? '').trim()}`);
    }
    return found;
  });
}

/** the drawn icons inside `selector`, at least one each */
async function svgCount(page: Page, selector: string): Promise<number> {
  return page.locator(`${selector} svg`).count();
}

describe.skipIf(!!skip)('interface icons are drawn, not taken from an emoji font', () => {
  const live = serverAndBrowser();
  let member: Member;
  let fan: Member;

  beforeAll(async () => {
    [member, fan] = await registerAtOnce(live.server.url, 2);
    // coins on both sides, a gift received (catalogue emoji) and one claimed: every coin screen has rows
    for (const m of [member, fan])
      expect((await m.client.post('/api/coins/add', { email: m.member.email, amount: 40 })).status).toBe(200);
    for (const giftId of [1, 3])
      expect(
        (
          await fan.client.post('/api/gifts/send', {
            sender_email: fan.member.email,
            receiver_email: member.member.email,
            gift_id: giftId,
          })
        ).status,
      ).toBe(200);
    // the gifts reach the receiver's account asynchronously
    const unclaimed = async () =>
      (await member.client.get(`/api/coins/balance/${member.member.email}`)).json.gifts_unclaimed;
    for (let i = 0; i < 100 && (await unclaimed()) !== 11; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await unclaimed()).toBe(11);
  }, 180_000);

  const loggedIn = (who: { email: string; password: string }, size: (typeof SIZES)[number]) =>
    loggedInPage(live.browser, live.server.url, who, size.viewport);

  /** opens `path`, waits for `ready`, and answers the emoji texts found there */
  async function visit(page: Page, path: string, ready: () => Promise<unknown>) {
    await page.goto(`${live.server.url}${path}`);
    await ready();
    await page.waitForLoadState('networkidle');
    return emojiTexts(page);
  }

  for (const size of SIZES) {
    it(`the member's coin, vault and gift screens draw their icons (${size.name})`, async () => {
      const { context, page } = await loggedIn(member.member, size);

      // the vault: tiles, balance (coins, withdrawable, unclaimed gifts), packs, received gifts, catalogue
      expect(
        await visit(page, '/coffre', () => page.getByTestId('coins-balance').getByText(/coins/).waitFor()),
      ).toEqual([]);
      expect(await svgCount(page, '.vault-tile__icon')).toBe(4);
      expect(await svgCount(page, '.coins-balance__value')).toBeGreaterThanOrEqual(3);
      await page.locator('.coins-pack').first().waitFor();
      expect(await svgCount(page, '.coins-pack__coins')).toBeGreaterThan(0);
      // the gift catalogue's own emoji stay text (there is one per gift)
      expect(await page.locator('.catalogue-emoji').count()).toBeGreaterThan(0);
      await screenshot(page, `icons-vault-${size.name}`, { fullPage: false });
      await page.locator('.coins-pack').first().scrollIntoViewIfNeeded();
      await screenshot(page, `icons-vault-packs-${size.name}`, { fullPage: false });

      for (const [path, ready] of [
        ['/packs', () => page.locator('.coins-pack').first().waitFor()],
        ['/vault/shop', () => page.locator('.coins-pack--static').first().waitFor()],
        ['/coins/received', () => page.locator('.coins-received__row').first().waitFor()],
        ['/cadeaux-recues', () => page.locator('.gift-table__row').first().waitFor()],
        ['/coins/retrait', () => page.getByTestId('coins-withdrawable').getByText(/coin/).waitFor()],
        ['/coins/balance', () => page.getByTestId('coins-balance').getByText(/coin/).waitFor()],
        [`/catalogue?to=${fan.member.pseudo}`, () => page.locator('.gift-visual').first().waitFor()],
      ] as const) {
        expect(await visit(page, path, ready), path).toEqual([]);
      }
      expect(await svgCount(page, '.coins-balance__value')).toBeGreaterThan(0);

      await context.close();
    }, 120_000);

    it(`the back-office cards and statuses draw their icons (${size.name})`, async () => {
      const { context, page } = await loggedIn(ADMIN, size);
      expect(await visit(page, '/admin', () => page.locator('.admin-card').first().waitFor())).toEqual([]);
      // the dashboard's nine sections (appeals and restrictions since issue 32)
      expect(await svgCount(page, '.admin-card__icon')).toBe(9);
      await screenshot(page, `icons-admin-${size.name}`, { fullPage: false });
      expect(await visit(page, '/admin/stats', () => page.locator('.admin-card').first().waitFor())).toEqual([]);
      expect(await svgCount(page, '.admin-card__icon')).toBe(7);
      expect(await visit(page, '/admin/tools', () => page.locator('.tool-card').first().waitFor())).toEqual([]);
      // cache, export, logs, the projections' state (issue 27) and their rebuild
      expect(await svgCount(page, '.tool-card__title')).toBe(5);
      expect(
        await visit(page, `/admin/transactions/${encodeURIComponent(member.member.email)}`, () =>
          page.getByText('Grand livre cohérent').waitFor(),
        ),
      ).toEqual([]);
      expect(await svgCount(page, '.admin-reconcile')).toBe(1);
      expect(await svgCount(page, '.admin-stat__value')).toBe(1);
      await screenshot(page, `icons-admin-audit-${size.name}`, { fullPage: false });
      await context.close();
    }, 90_000);
  }

  it('a rebuild of the projections reports its result with a drawn icon', async () => {
    const { context, page } = await loggedIn(ADMIN, SIZES[0]);
    await page.goto(`${live.server.url}/admin/tools`);
    await page.getByRole('button', { name: 'Reconstruire les projections' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Reconstruire' }).click();
    const result = page.locator('.rebuild-result--ok');
    await result.waitFor({ timeout: 20_000 });
    expect(await result.locator('svg').count()).toBe(1);
    expect(await emojiTexts(page)).toEqual([]);
    await context.close();
  }, 60_000);

  it('the navigation, the home page and the profile use no emoji (both sizes)', async () => {
    for (const size of SIZES) {
      const { context, page } = await loggedIn(member.member, size);
      expect(
        await visit(page, '/', () =>
          page.getByRole('region', { name: 'Vidéos à découvrir' }).locator('video').first().waitFor(),
        ),
      ).toEqual([]);
      if (size.name === 'mobile') {
        await page.getByRole('banner').getByRole('button', { name: 'Menu' }).click();
        expect(await emojiTexts(page)).toEqual([]);
        await page.keyboard.press('Escape');
      }
      await page
        .getByRole('navigation', { name: 'Barre de navigation' })
        .getByRole('button', { name: 'Ajouter une vidéo' })
        .click();
      expect(await emojiTexts(page)).toEqual([]);
      expect(
        await visit(page, `/user/${fan.member.pseudo}`, () =>
          page.getByRole('heading', { name: `@${fan.member.pseudo}`, exact: true }).waitFor(),
        ),
      ).toEqual([]);
      await context.close();
    }
  }, 90_000);
});
