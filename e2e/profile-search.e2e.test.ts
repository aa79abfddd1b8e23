/**
 * Issue 30, Major 7: "Modifier le profil" (picture and bio; the pseudo stays) from one's profile,
 * and a search of members by pseudo and videos by title, accents and case aside, from the top bar
 * on a wide screen and the menu on a phone; results open profiles and videos. At 1280x800 and
 * 390x844. Screenshots: artifacts/screens/search-*.png and profile-edit-*.png.
 */
import { describe, it, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { PNG_1PX, registerAndLogin } from '@evo/command-api/testing/test-server';
import { browserSkipReason, loggedInPage, screenshot } from './harness';
import { SIZES, coveredBy, realErrors, serverAndBrowser, sidewaysOverflow, toast } from './helpers';

const skip = browserSkipReason();

/** the top bar's search field: in the bar on a wide screen, in the menu panel on a phone */
async function searchFromTopBar(page: Page, mobile: boolean, text: string, shot?: string): Promise<void> {
  if (mobile) await page.getByRole('button', { name: 'Menu' }).click();
  const field = page.getByRole('searchbox', { name: 'Chercher un membre ou une vidéo' }).locator('visible=true');
  await field.waitFor();
  expect(await coveredBy(field)).toEqual([]);
  await field.fill(text);
  if (shot) await screenshot(page, shot, { fullPage: false });
  await field.press('Enter');
  await page.waitForURL((u) => u.pathname === '/recherche' && u.searchParams.get('q') === text);
}

describe.skipIf(!!skip)('profile editing and search', () => {
  const live = serverAndBrowser();

  for (const size of SIZES) {
    const mobile = size.name === 'mobile';
    it(`finds a member and a video from the top bar, accents and case aside (${size.name})`, async () => {
      const tag = `${Date.now().toString(36)}${size.name[0]}`;
      const [cook] = await Promise.all([
        registerAndLogin(live.server.url, { pseudo: `Élodie_${tag}`, video_title: `Crêpes à la Fête ${tag}` }),
      ]);
      const visitor = await registerAndLogin(live.server.url);
      const { context, page, errors } = await loggedInPage(
        live.browser,
        live.server.url,
        visitor.member,
        size.viewport,
      );

      await searchFromTopBar(page, mobile, `elodie_${tag}`, `search-field-${size.name}`);
      const member = page.locator('.search__results').getByRole('link', { name: new RegExp(`@Élodie_${tag}`) });
      await member.waitFor();
      expect(await page.getByRole('heading', { name: 'Membres (1)' }).count()).toBe(1);
      await screenshot(page, `search-member-${size.name}`, { fullPage: false });

      // the video, by its title without accents and in capitals, from the page's own field
      const field = page.getByRole('searchbox', { name: 'Un pseudo ou un titre de vidéo' });
      await field.fill(`CREPES A LA FETE ${tag}`);
      const video = page.getByRole('link', { name: new RegExp(`Crêpes à la Fête ${tag}`) });
      await video.waitFor();
      await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(`CREPES A LA FETE ${tag}`);
      expect(await coveredBy(video)).toEqual([]);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `search-video-${size.name}`, { fullPage: false });
      await video.click();
      await page.waitForURL(/\/video\/\d+$/);
      await page.getByText(`Crêpes à la Fête ${tag}`).first().waitFor();

      // and the member's profile
      await searchFromTopBar(page, mobile, `LODIE_${tag}`);
      await page
        .locator('.search__results')
        .getByRole('link', { name: new RegExp(`@Élodie_${tag}`) })
        .click();
      await page.waitForURL((u) => decodeURIComponent(u.pathname).normalize('NFC') === `/user/Élodie_${tag}`);
      await page.getByRole('heading', { name: `@Élodie_${tag}`, level: 1 }).waitFor();

      // nothing found says so
      await searchFromTopBar(page, mobile, `zzqx${tag}`);
      await page.getByText(`Aucun résultat pour « zzqx${tag} ».`).waitFor();
      expect(realErrors(errors)).toEqual([]);
      await context.close();
      void cook;
    }, 120_000);

    it(`"Modifier le profil" changes the picture and the bio, and the search follows (${size.name})`, async () => {
      const tag = `${Date.now().toString(36)}${size.name[0]}`;
      const me = await registerAndLogin(live.server.url, { pseudo: `chef_${tag}` });
      const other = await registerAndLogin(live.server.url);
      const { context, page, errors } = await loggedInPage(live.browser, live.server.url, me.member, size.viewport);
      await page.waitForURL(`**/user/chef_${tag}`);
      const edit = page.getByRole('link', { name: 'Modifier le profil' });
      expect(await coveredBy(edit)).toEqual([]);
      const barPicture = page.locator('.topbar img.avatar');
      const pictureBefore = await barPicture.getAttribute('src');
      await edit.click();
      await page.waitForURL('**/profil/modifier');
      const bio = page.getByLabel('Bio');
      await expect.poll(() => bio.inputValue()).toBe('Une bio');
      await page.getByLabel('Nouvelle photo de profil').setInputFiles({
        name: 'moi.png',
        mimeType: 'image/png',
        buffer: PNG_1PX,
      });
      await bio.fill(`Pâtissier à Lyon ${tag}`);
      const save = page.getByRole('button', { name: 'Enregistrer' });
      expect(await coveredBy(save)).toEqual([]);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `profile-edit-form-${size.name}`, { fullPage: false });
      await save.click();
      await page.waitForURL(`**/user/chef_${tag}`);
      await toast(page, '✅ Profil mis à jour.').waitFor();
      await page.locator('.profile__bio', { hasText: `Pâtissier à Lyon ${tag}` }).waitFor();
      // the bar's picture is the new one, and so is the profile's
      await expect.poll(() => barPicture.getAttribute('src')).not.toBe(pictureBefore);
      const newPicture = await barPicture.getAttribute('src');
      expect(await page.locator('.profile__card img.avatar').getAttribute('src')).toBe(newPicture);
      await screenshot(page, `profile-edit-done-${size.name}`, { fullPage: false });
      expect(realErrors(errors)).toEqual([]);
      await context.close();

      // another member finds the new bio
      const seen = await loggedInPage(live.browser, live.server.url, other.member, size.viewport);
      await searchFromTopBar(seen.page, mobile, `CHEF_${tag}`);
      await seen.page.getByRole('link', { name: new RegExp(`Pâtissier à Lyon ${tag}`) }).waitFor();
      expect(realErrors(seen.errors)).toEqual([]);
      await seen.context.close();
    }, 120_000);
  }
});
