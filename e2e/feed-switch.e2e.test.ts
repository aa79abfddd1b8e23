/**
 * Issue 30, Major 8: on a phone the feeds are one tap away: from Accueil (SPEC's home, kept), and
 * from one feed screen to the other through "Amis | Pour toi" at their top (the top bar's links fold
 * into the menu there). At 1280x800 and 390x844. Screenshots: artifacts/screens/feed-switch-*.png.
 */
import { describe, it, expect } from 'vitest';
import { registerAndLogin } from '@evo/command-api/testing/test-server';
import { browserSkipReason, loggedInPage, screenshot } from './harness';
import { SIZES, coveredBy, follow, realErrors, serverAndBrowser, sidewaysOverflow } from './helpers';

const skip = browserSkipReason();

describe.skipIf(!!skip)('the feeds, one tap away', () => {
  const live = serverAndBrowser();

  for (const size of SIZES) {
    it(`Accueil → Pour toi → Amis → Pour toi, each in one tap (${size.name})`, async () => {
      const [me, friend] = await Promise.all([registerAndLogin(live.server.url), registerAndLogin(live.server.url)]);
      await follow(me, friend);
      const { context, page, errors } = await loggedInPage(live.browser, live.server.url, me.member, size.viewport);
      await page.goto(`${live.server.url}/`);
      await page.getByRole('link', { name: 'Vidéos de mes amis' }).click();
      await page.waitForURL((u) => u.pathname === '/feed');
      const feeds = page.getByRole('navigation', { name: 'Fils de vidéos' });
      const toFriends = feeds.getByRole('link', { name: 'Amis' });
      await toFriends.waitFor();
      expect(await feeds.getByRole('link', { name: 'Pour toi' }).getAttribute('aria-current')).toBe('page');
      await page.locator('.feed video').first().waitFor();
      expect(await coveredBy(toFriends)).toEqual([]);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `feed-switch-pour-toi-${size.name}`, { fullPage: false });

      await toFriends.click();
      await page.waitForURL((u) => u.pathname === '/friends');
      await page.getByRole('heading', { name: 'Mes amis' }).waitFor();
      expect(await feeds.getByRole('link', { name: 'Amis' }).getAttribute('aria-current')).toBe('page');
      expect(await coveredBy(feeds.getByRole('link', { name: 'Pour toi' }))).toEqual([]);
      await screenshot(page, `feed-switch-amis-${size.name}`, { fullPage: false });
      await feeds.getByRole('link', { name: 'Pour toi' }).click();
      await page.waitForURL((u) => u.pathname === '/feed');
      expect(realErrors(errors)).toEqual([]);
      await context.close();
    }, 90_000);
  }
});
