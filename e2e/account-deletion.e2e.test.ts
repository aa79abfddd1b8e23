/**
 * Issue 31, account deletion: from "Modifier le profil", the French explanation (what disappears,
 * what the ledger keeps, the coin rule, the 30-day grace period), a wrong password refused in
 * French, then the password and the confirmation: the member lands logged out on the home page
 * with a French message, and cannot log in again. At 1280x800 and 390x844. Screenshots:
 * artifacts/screens/account-deletion-*.png.
 */
import { describe, it, expect } from 'vitest';
import { DELETION_MESSAGES } from '@evo/domain';
import { registerAndLogin } from '@evo/command-api/testing/test-server';
import { browserSkipReason, loggedInPage, screenshot } from './harness';
import { SIZES, coveredBy, realErrors, serverAndBrowser, sidewaysOverflow, toast } from './helpers';

const skip = browserSkipReason();

describe.skipIf(!!skip)('account deletion', () => {
  const live = serverAndBrowser();

  for (const size of SIZES) {
    it(`"Supprimer mon compte" explains, asks the password again and logs out to the home page (${size.name})`, async () => {
      const me = await registerAndLogin(live.server.url);
      const { context, page, errors } = await loggedInPage(live.browser, live.server.url, me.member, size.viewport);
      await page.waitForURL(`**/user/${me.member.pseudo}`);
      await page.getByRole('link', { name: 'Modifier le profil' }).click();
      await page.waitForURL('**/profil/modifier');
      const section = page.getByRole('region', { name: 'Supprimer mon compte' });
      await section.waitFor();
      await section.getByText('Membre supprimé', { exact: false }).waitFor();
      await section.getByText('restent réservés 30 jours', { exact: false }).waitFor();
      await section.getByText('identifiant anonyme', { exact: false }).waitFor();
      const button = section.getByRole('button', { name: 'Supprimer mon compte' });
      expect(await button.isDisabled()).toBe(true);
      await section.getByRole('heading', { name: 'Supprimer mon compte' }).evaluate((h) => h.scrollIntoView());
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `account-deletion-explained-${size.name}`, { fullPage: false });

      // a wrong password: refused in French, nothing deleted
      const password = section.getByLabel('Ton mot de passe, pour confirmer');
      await password.fill('pas-le-bon-mot-de-passe');
      await button.scrollIntoViewIfNeeded();
      expect(await coveredBy(button)).toEqual([]);
      await screenshot(page, `account-deletion-form-${size.name}`, { fullPage: false });
      await button.click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText('Supprimer définitivement ton compte ?').waitFor();
      await screenshot(page, `account-deletion-confirm-${size.name}`, { fullPage: false });
      await dialog.getByRole('button', { name: 'Supprimer mon compte' }).click();
      const refusal = section.getByText(DELETION_MESSAGES.wrongPassword);
      await refusal.waitFor();
      await refusal.scrollIntoViewIfNeeded();
      expect(await coveredBy(refusal)).toEqual([]);
      await screenshot(page, `account-deletion-wrong-password-${size.name}`, { fullPage: false });

      // the right one, confirmed
      await password.fill(me.member.password);
      await button.click();
      await page.getByRole('dialog').getByRole('button', { name: 'Supprimer mon compte' }).click();
      await toast(page, 'Ton compte a été supprimé.').waitFor();
      // the home page, as a visitor sees it; not sent on to log in again, back to the page they left
      await page.getByRole('heading', { name: 'Bienvenue sur EVO\u00a0!' }).waitFor();
      await page.getByRole('link', { name: 'Se connecter' }).first().waitFor();
      expect(new URL(page.url()).pathname).toBe('/');
      await screenshot(page, `account-deletion-done-${size.name}`, { fullPage: false });
      expect((await me.client.get('/api/auth/me')).status).toBe(401);
      expect(realErrors(errors)).toEqual([]);
      await context.close();
    }, 120_000);

    it(`a reply to a deleted member's comment stays under a 'Membre supprimé' placeholder (${size.name})`, async () => {
      const gone = await registerAndLogin(live.server.url);
      const owner = await registerAndLogin(live.server.url, { video_title: `Au sommet ${size.name}` });
      const videoId = (
        (await owner.client.get(`/api/users/profile/${owner.member.pseudo}`)).json.videos as Array<{ id: number }>
      )[0].id;
      const top = await gone.client.post(`/api/videos/${videoId}/comment`, { content: 'Un texte qui doit partir' });
      const parentId = (top.json.item as { id: number }).id;
      expect(
        (await owner.client.post(`/api/videos/${videoId}/comment`, { content: 'Merci beaucoup !', parentId })).status,
      ).toBe(201);
      expect((await gone.client.request('DELETE', '/api/users/me', { password: gone.member.password })).status).toBe(
        200,
      );
      await live.server.settle(30_000);
      const last = (await live.server.deps.events.lastPosition())!;
      expect(await live.server.deps.progress.waitFor(last, 10_000)).toBe(true);

      const { context, page, errors } = await loggedInPage(live.browser, live.server.url, owner.member, size.viewport);
      await page.goto(`${live.server.url}/user/${owner.member.pseudo}`);
      const card = page.locator('.card-grid > li', { hasText: `Au sommet ${size.name}` });
      await card.getByRole('button', { name: /^Commentaires/ }).click();
      const panel = card.getByRole('region', { name: 'Commentaires' });
      const placeholder = panel.getByRole('article', { name: 'Commentaire supprimé avec le compte de son auteur.' });
      await placeholder.getByText('Membre supprimé', { exact: true }).waitFor();
      await panel.getByText('Merci beaucoup !').waitFor();
      expect(await panel.getByText('Un texte qui doit partir').count()).toBe(0);
      expect(await placeholder.getByRole('link').count()).toBe(0);
      await placeholder.scrollIntoViewIfNeeded();
      expect(await coveredBy(placeholder)).toEqual([]);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `account-deletion-thread-${size.name}`, { fullPage: false });
      expect(realErrors(errors)).toEqual([]);
      await context.close();
    }, 120_000);
  }
});
