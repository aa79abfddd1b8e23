/**
 * Issue 30, Major 4: the vault's gift catalogue no longer shows "Envoyer" buttons that can only
 * fail ('⚠️ Aucun destinataire.'): the member picks the recipient there, among the members they
 * follow, by typing part of a pseudo; a member who follows nobody is told how, with no send
 * button. At 1280x800 and 390x844. Screenshots: artifacts/screens/vault-catalogue-*.png.
 */
import { describe, it, expect } from 'vitest';
import { registerAndLogin } from '@evo/command-api/testing/test-server';
import { browserSkipReason, loggedInPage, screenshot } from './harness';
import { SIZES, coveredBy, follow, realErrors, serverAndBrowser, sidewaysOverflow, toast } from './helpers';

const skip = browserSkipReason();

describe.skipIf(!!skip)("the vault's gift catalogue", () => {
  const live = serverAndBrowser();

  for (const size of SIZES) {
    it(`picks the recipient among the members one follows, then sends (${size.name})`, async () => {
      const [giver, lea, leon] = await Promise.all([
        registerAndLogin(live.server.url),
        registerAndLogin(live.server.url, { pseudo: `lea${Date.now().toString(36)}${size.name[0]}` }),
        registerAndLogin(live.server.url, { pseudo: `leon${Date.now().toString(36)}${size.name[0]}` }),
      ]);
      await follow(giver, lea);
      await follow(giver, leon);
      expect((await giver.client.post('/api/coins/purchase', { email: giver.member.email, packId: 1 })).status).toBe(
        200,
      );
      const { context, page, errors } = await loggedInPage(live.browser, live.server.url, giver.member, size.viewport);
      await page.goto(`${live.server.url}/coffre`);
      const section = page.locator('section.coins-section', {
        has: page.getByRole('heading', { name: 'Catalogue des cadeaux' }),
      });
      const search = section.getByLabel('Rechercher parmi les membres que tu suis');
      await search.waitFor();
      await section.getByText('Choisis d’abord à qui offrir le cadeau, puis « Envoyer ».').waitFor();

      // a send before choosing says so (SPEC's message) and leads to the search
      const rose = section.getByRole('button', { name: /^Envoyer le cadeau Rose/ });
      await rose.click();
      await toast(page, '⚠️ Aucun destinataire.').waitFor();
      await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true);

      await search.fill('LÉON');
      await section.getByRole('button', { name: `Offrir à @${leon.member.pseudo}` }).waitFor();
      expect(await section.getByRole('button', { name: `Offrir à @${lea.member.pseudo}` }).count()).toBe(0);
      await search.fill('le');
      await section.getByRole('button', { name: `Offrir à @${lea.member.pseudo}` }).click();
      await section.getByText(`Destinataire : @${lea.member.pseudo}`).waitFor();
      expect(await coveredBy(rose)).toEqual([]);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `vault-catalogue-chosen-${size.name}`, { fullPage: false });
      await rose.click();
      await toast(page, '🎉 Cadeau envoyé !').waitFor();
      await expect
        .poll(
          async () => (await lea.client.get(`/api/gifts/received/${lea.member.email}`)).json as unknown as unknown[],
        )
        .toHaveLength(1);
      // "Changer" goes back to the search
      await section.getByRole('button', { name: 'Changer' }).click();
      await search.waitFor();
      expect(realErrors(errors)).toEqual([]);
      await context.close();
    }, 90_000);

    it(`tells a member who follows nobody how to, with no button that can only fail (${size.name})`, async () => {
      const loner = await registerAndLogin(live.server.url);
      const { context, page } = await loggedInPage(live.browser, live.server.url, loner.member, size.viewport);
      await page.goto(`${live.server.url}/coffre`);
      const section = page.locator('section.coins-section', {
        has: page.getByRole('heading', { name: 'Catalogue des cadeaux' }),
      });
      await section
        .getByText('Tu ne suis encore personne : suis un membre pour pouvoir lui offrir un cadeau.')
        .waitFor();
      await section.getByRole('link', { name: 'Trouver des membres à suivre' }).waitFor();
      await section.locator('.gift-tile').first().waitFor();
      expect(await section.getByRole('button', { name: /^Envoyer le cadeau/ }).count()).toBe(0);
      await section.scrollIntoViewIfNeeded();
      await screenshot(page, `vault-catalogue-nobody-${size.name}`, { fullPage: false });
      await context.close();
    }, 60_000);
  }
});
