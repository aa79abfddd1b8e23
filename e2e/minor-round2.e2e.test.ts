import { describe, it, expect, beforeAll } from 'vitest';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { ASSETS } from '@evo/command-api/testing/test-server';
import { browserSkipReason, loggedInPage, screenshot } from './harness';
import { MOBILE, SIZES, type Member, registerAtOnce, serverAndBrowser, slowUplink, sidewaysOverflow } from './helpers';

const skip = browserSkipReason();
const VIDEO = path.join(ASSETS, 'demo/demo-3.mp4');

/** How far `el`'s bottom edge goes under the fixed bottom bar, as the page is now (no scrolling): ≤ 0 when clear. */
async function underTheBottomBar(page: Page, el: Locator): Promise<number> {
  const box = await el.boundingBox();
  const bar = await page.locator('.bottombar').boundingBox();
  expect(box).not.toBeNull();
  if (!bar || bar.height === 0) return box!.y + box!.height - MOBILE.height;
  return box!.y + box!.height - bar.y;
}

/** issue 30, the "Minor" list: what a newcomer trips on */
describe.skipIf(!!skip)('minor fixes, second round (issue 30)', () => {
  const live = serverAndBrowser();
  let author: Member;

  beforeAll(async () => {
    [author] = await registerAtOnce(live.server.url, 1);
  }, 180_000);

  const loggedIn = (m: Member, size: { width: number; height: number }) =>
    loggedInPage(live.browser, live.server.url, m.member, size);

  for (const size of SIZES) {
    it(`upload: "Annuler l'envoi" is clear of the bottom bar and the new video is linked once sent (${size.name})`, async () => {
      const { context, page, errors } = await loggedIn(author, size.viewport);
      await page.goto(`${live.server.url}/upload/video`);
      await page.getByLabel('Fichier vidéo').setInputFiles(VIDEO);
      const title = `Envoyée (${size.name})`;
      await page.getByLabel('Titre').fill(title);
      // the member scrolls just enough to see "Publier" above the bottom bar, and taps it
      const publish = page.getByRole('button', { name: 'Publier', exact: true });
      await page.evaluate(() => window.scrollTo(0, 0));
      await publish.evaluate((el) => {
        const bar = document.querySelector('.bottombar')?.getBoundingClientRect();
        const limit = bar && bar.height > 0 ? bar.top : innerHeight;
        window.scrollBy(0, el.getBoundingClientRect().bottom - limit + 4);
      });
      const fullSpeed = await slowUplink(context, page, 16 * 1024);
      await publish.click();
      const cancel = page.getByRole('button', { name: "Annuler l'envoi" });
      await cancel.waitFor();
      await page.waitForTimeout(300);
      expect(await underTheBottomBar(page, cancel)).toBeLessThanOrEqual(0);
      expect(await underTheBottomBar(page, page.getByRole('progressbar'))).toBeLessThanOrEqual(0);
      await screenshot(page, `e2e-r2-upload-cancel-${size.name}`, { fullPage: false });
      await fullSpeed();
      const link = page.getByRole('link', { name: 'Voir ma vidéo' });
      await link.waitFor({ timeout: 30_000 });
      await screenshot(page, `e2e-r2-upload-done-${size.name}`, { fullPage: false });
      await link.click();
      await page.waitForURL(/\/video\/\d+$/);
      await expect.poll(() => page.getByText(title).first().isVisible()).toBe(true);
      expect(await sidewaysOverflow(page)).toBe(0);
      expect(errors.filter((e) => !e.includes('Failed to load resource'))).toEqual([]);
      await context.close();
    }, 90_000);
  }
});
