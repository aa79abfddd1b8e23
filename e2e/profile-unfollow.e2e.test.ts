/**
 * Issue 30, Major 3: on a profile, "Abonné" is the way to unfollow (after the friends list's
 * confirmation, 'Se désabonner de cet utilisateur ?'), as TikTok's "Abonné(e)". At 1280x800 and
 * 390x844. Screenshots: artifacts/screens/unfollow-*.png.
 */
import { describe, it, expect } from 'vitest';
import { registerAndLogin } from '@evo/command-api/testing/test-server';
import { browserSkipReason, loggedInPage, screenshot } from './harness';
import { SIZES, coveredBy, follow, realErrors, serverAndBrowser, sidewaysOverflow } from './helpers';

const skip = browserSkipReason();

describe.skipIf(!!skip)('unfollowing from a profile', () => {
  const live = serverAndBrowser();

  for (const size of SIZES) {
    it(`"Abonné" asks, then unfollows; "+ Suivre" follows again (${size.name})`, async () => {
      const [fan, star] = await Promise.all([registerAndLogin(live.server.url), registerAndLogin(live.server.url)]);
      await follow(fan, star);
      const { context, page, errors } = await loggedInPage(live.browser, live.server.url, fan.member, size.viewport);
      await page.goto(`${live.server.url}/user/${star.member.pseudo}`);
      const followers = page.locator('.profile__counters div', { hasText: 'Abonnés' }).locator('dd');
      const subscribed = page.getByRole('button', { name: 'Abonné', exact: true });
      await expect.poll(() => subscribed.isEnabled()).toBe(true);
      await expect.poll(() => followers.textContent()).toBe('1');
      expect(await coveredBy(subscribed)).toEqual([]);
      expect(await subscribed.getAttribute('title')).toBe('Appuie pour te désabonner');

      // asked first: "Annuler" keeps the follow
      await subscribed.click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText('Se désabonner de cet utilisateur ?').waitFor();
      await screenshot(page, `unfollow-confirm-${size.name}`, { fullPage: false });
      await dialog.getByRole('button', { name: 'Annuler' }).click();
      await expect.poll(() => dialog.count()).toBe(0);
      await subscribed.waitFor();

      await subscribed.click();
      await page.getByRole('dialog').getByRole('button', { name: 'Se désabonner' }).click();
      const followButton = page.getByRole('button', { name: '+ Suivre' });
      await followButton.waitFor();
      await expect.poll(() => followers.textContent()).toBe('0');
      await page.locator('.toast', { hasText: `Tu ne suis plus @${star.member.pseudo}.` }).waitFor();
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `unfollow-done-${size.name}`, { fullPage: false });
      const isFollowing = async () =>
        (await fan.client.get(`/api/users/follows/is-following/${fan.member.email}/${star.member.pseudo}`)).json
          .isFollowing;
      await expect.poll(isFollowing).toBe(false);

      // and back
      await followButton.click();
      await subscribed.waitFor();
      await expect.poll(isFollowing).toBe(true);
      await page.reload();
      await expect.poll(() => subscribed.isEnabled()).toBe(true);
      expect(realErrors(errors)).toEqual([]);
      await context.close();
    }, 90_000);
  }
});
