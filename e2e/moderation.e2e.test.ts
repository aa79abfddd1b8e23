import { describe, it, expect, beforeAll } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { registerAndLogin, type Client, type Registration } from '@evo/command-api/testing/test-server';
import { browserSkipReason, loggedInPage, screenshot, logInAs } from './harness';
import {
  ADMIN,
  SIZES,
  adminClient,
  firstVideoId,
  realErrors,
  serverAndBrowser,
  sidewaysOverflow,
  toast,
} from './helpers';

const skip = browserSkipReason();
const SANCTION = 'Votre vidéo a été restreinte pour non-conformité';

/** scrolled to, `element` ends above the fixed bottom bar (when there is one) */
async function clearOfTheBottomBar(page: Page, element: Locator) {
  await element.scrollIntoViewIfNeeded();
  const box = await element.boundingBox();
  const bar = await page.locator('.bottombar').boundingBox();
  expect(box).not.toBeNull();
  if (bar && bar.height > 0) expect(box!.y + box!.height).toBeLessThanOrEqual(bar.y);
}

/** issue 32 items 2 and 3: appeals against decisions, restrictions shown before a member tries */
describe.skipIf(!!skip)('appeals and restrictions', () => {
  const live = serverAndBrowser();
  let admin: Client;
  const authors: Record<string, { member: Registration; client: Client; videoId: number }> = {};

  beforeAll(async () => {
    admin = await adminClient(live.server.url);
    for (const size of SIZES) {
      const a = await registerAndLogin(live.server.url);
      const videoId = await firstVideoId(a.client, a.member.pseudo);
      expect(
        (await admin.put(`/api/videos/${videoId}/visibility`, { status: 'masquée', reason: SANCTION })).status,
      ).toBe(200);
      authors[size.name] = { member: a.member, client: a.client, videoId };
    }
  }, 180_000);

  for (const size of SIZES) {
    it(`the author contests a decision from its notification, the administrator reverses it from the queue (${size.name})`, async () => {
      const { member, videoId } = authors[size.name];
      const { context, page, errors } = await loggedInPage(live.browser, live.server.url, member, size.viewport);
      await page.goto(`${live.server.url}/notifications`);
      await page.getByRole('link', { name: 'Voir la décision' }).first().click();
      await page.waitForURL((u) => u.pathname === '/moderation');
      const card = page.locator(`[data-decision="video-${videoId}-1"]`);
      await card.getByText(SANCTION).waitFor();
      expect(await card.getByText('En vigueur').isVisible()).toBe(true);
      await card.getByRole('button', { name: 'Contester la décision' }).click();
      await card.getByLabel('Pourquoi contestes-tu cette décision ?').fill('Ma vidéo montre un tutoriel de cuisine.');
      await screenshot(page, `e2e-moderation-appeal-form-${size.name}`, { fullPage: false });
      await card.getByRole('button', { name: 'Envoyer la contestation' }).click();
      await card.getByText('Contestation en attente de réponse').waitFor();
      expect(await card.getByRole('button', { name: 'Contester la décision' }).count()).toBe(0);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `e2e-moderation-appealed-${size.name}`);

      // the back-office's queue: the video, the decision, who took it, the appeal
      const adminPage = await loggedInPage(live.browser, live.server.url, ADMIN, size.viewport);
      await adminPage.page.goto(`${live.server.url}/admin/appeals`);
      const item = adminPage.page.locator(`[data-appeal="video-${videoId}-1"]`);
      await item.getByText('Ma vidéo montre un tutoriel de cuisine.').waitFor();
      expect(await item.getByText(member.video_title).isVisible()).toBe(true);
      expect(await item.getByText(SANCTION).isVisible()).toBe(true);
      expect(await item.getByText(/@admin, le /).isVisible()).toBe(true);
      await item.getByLabel('Réponse au membre').fill('Vérifiée : la vidéo respecte les règles.');
      expect(await sidewaysOverflow(adminPage.page)).toBeLessThanOrEqual(0);
      await clearOfTheBottomBar(adminPage.page, item.getByRole('button', { name: 'Annuler la décision' }));
      await screenshot(adminPage.page, `e2e-moderation-admin-appeals-${size.name}`);
      await item.getByRole('button', { name: 'Annuler la décision' }).click();
      await toast(adminPage.page, 'Réponse envoyée : décision annulée.').waitFor();
      await expect.poll(() => item.count()).toBe(0);
      await adminPage.context.close();

      // the author is told, live, and the video is public again
      await card.getByText('Décision annulée').waitFor();
      expect(await card.getByText('Vérifiée : la vidéo respecte les règles.').isVisible()).toBe(true);
      expect(await card.getByText('Plus en vigueur').isVisible()).toBe(true);
      await screenshot(page, `e2e-moderation-answered-${size.name}`);
      const visitor = await registerAndLogin(live.server.url);
      expect((await visitor.client.get(`/api/videos/${videoId}`)).status).toBe(200);
      expect(realErrors(errors)).toEqual([]);
      await context.close();
    }, 120_000);

    it(`an administrator restricts a member, who sees it before trying; bad ends are refused (${size.name})`, async () => {
      const target = await registerAndLogin(live.server.url);
      const videoId = authors[size.name].videoId;
      const { context, page, errors } = await loggedInPage(live.browser, live.server.url, ADMIN, size.viewport);
      await page.goto(`${live.server.url}/admin/restrictions`);
      const form = page.locator('form.restriction-form');
      await form.getByLabel('Adresse e-mail du membre').fill(target.member.email);
      await form.getByLabel('Écrire des messages privés').check();
      await form.getByLabel('Publier des vidéos').check();
      // an end in the past: refused in French, nothing listed
      await form.getByLabel('Durée').selectOption('date');
      await form.getByLabel('Fin de la restriction').fill('2020-01-01T10:00');
      await form.getByLabel('Motif (montré au membre)').fill('Insultes répétées');
      await form.getByRole('button', { name: 'Restreindre' }).click();
      await form.getByText('La fin de la restriction doit être dans le futur.').waitFor();
      // a negative duration too
      await form.getByLabel('Durée').selectOption('hours');
      await form.getByLabel('Nombre d’heures').fill('-5');
      await form.getByRole('button', { name: 'Restreindre' }).click();
      await form.getByText('La durée de la restriction doit être un nombre positif d’heures.').waitFor();
      expect(await page.locator('[data-restriction]', { hasText: target.member.pseudo }).count()).toBe(0);
      await screenshot(page, `e2e-moderation-restrict-refused-${size.name}`);

      await form.getByLabel('Durée').selectOption('24');
      await form.getByRole('button', { name: 'Restreindre' }).click();
      await toast(page, 'Restriction enregistrée.').waitFor();
      const listed = page.locator('[data-restriction]', { hasText: `@${target.member.pseudo}` });
      await listed.waitFor();
      expect(await listed.getByText('publier des vidéos, commenter, écrire des messages privés').isVisible()).toBe(
        true,
      );
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `e2e-moderation-admin-restrictions-${size.name}`);
      expect(realErrors(errors)).toEqual([]);
      await context.close();

      // the member sees it on the composer before trying
      const m = await loggedInPage(live.browser, live.server.url, target.member, size.viewport);
      await m.page.goto(`${live.server.url}/video/${videoId}`);
      const notice = m.page.locator('.comments .restriction-notice');
      await notice
        .getByText(/^Restriction en cours : tu ne peux pas commenter jusqu'au .+\. Motif : Insultes répétées$/)
        .waitFor();
      expect(await m.page.getByLabel('Ton commentaire').isDisabled()).toBe(true);
      expect(await m.page.getByRole('button', { name: 'Envoyer', exact: true }).isDisabled()).toBe(true);
      await clearOfTheBottomBar(m.page, notice);
      await clearOfTheBottomBar(m.page, m.page.getByRole('button', { name: 'Envoyer', exact: true }));
      expect(await sidewaysOverflow(m.page)).toBeLessThanOrEqual(0);
      await screenshot(m.page, `e2e-moderation-restricted-comment-${size.name}`, { fullPage: false });
      // and on the page of its decisions, with the way to contest it
      await notice.getByRole('link', { name: 'Voir la décision et la contester' }).click();
      await m.page.waitForURL((u) => u.pathname === '/moderation');
      await m.page.getByText('Restriction : publier des vidéos, commenter, écrire des messages privés').waitFor();
      expect(await m.page.getByRole('button', { name: 'Contester la décision' }).isVisible()).toBe(true);
      await screenshot(m.page, `e2e-moderation-restricted-decisions-${size.name}`);
      // the message composer and the upload form say it too, before a try
      await m.page.goto(`${live.server.url}/send-message/${authors[size.name].member.pseudo}`);
      const messageNotice = m.page.locator('.composer .restriction-notice');
      await messageNotice
        .getByText(/^Restriction en cours : tu ne peux pas écrire des messages privés jusqu'au /)
        .waitFor();
      expect(await m.page.getByRole('button', { name: 'Envoyer' }).isDisabled()).toBe(true);
      expect(await sidewaysOverflow(m.page)).toBeLessThanOrEqual(0);
      await screenshot(m.page, `e2e-moderation-restricted-message-${size.name}`, { fullPage: false });
      await m.page.goto(`${live.server.url}/upload`);
      await m.page.getByText(/^Restriction en cours : tu ne peux pas publier des vidéos jusqu'au /).waitFor();
      expect(await m.page.getByRole('button', { name: 'Publier' }).isDisabled()).toBe(true);
      expect(await sidewaysOverflow(m.page)).toBeLessThanOrEqual(0);
      await screenshot(m.page, `e2e-moderation-restricted-upload-${size.name}`, { fullPage: false });
      expect(realErrors(m.errors)).toEqual([]);
      await m.context.close();
    }, 120_000);
  }

  it('a restriction taken while the member is typing a comment: the comment is refused and the screen says why', async () => {
    const target = await registerAndLogin(live.server.url);
    const videoId = authors.desktop.videoId;
    const context = await live.browser.newContext({ viewport: SIZES[1].viewport, locale: 'fr-FR' });
    // no live updates: the refusal itself has to tell (the push would disable the composer first)
    await context.route('**/socket.io/**', (route) => route.abort());
    const page = await context.newPage();
    await logInAs(page, live.server.url, target.member);
    await page.goto(`${live.server.url}/video/${videoId}`);
    const box = page.getByLabel('Ton commentaire');
    await box.waitFor();
    await box.fill('Je tape un commentaire…');
    const made = await admin.post('/api/admin/restrictions', {
      email: target.member.email,
      scopes: ['comment'],
      duration_hours: 2,
      reason: 'Spam',
    });
    expect(made.status).toBe(201);
    await page.getByRole('button', { name: 'Envoyer', exact: true }).click();
    const notice = page.locator('.comments .restriction-notice');
    await notice.getByText(/^Restriction en cours : tu ne peux pas commenter jusqu'au .+\. Motif : Spam$/).waitFor();
    // the text typed is kept, the composer is now disabled
    expect(await box.inputValue()).toBe('Je tape un commentaire…');
    await expect.poll(() => box.isDisabled()).toBe(true);
    const comments = await admin.get(`/api/videos/${videoId}/comments`);
    expect(comments.status).toBe(200);
    expect(comments.text).not.toContain('Je tape un commentaire');
    await screenshot(page, 'e2e-moderation-refused-while-typing-mobile', { fullPage: false });
    await context.close();
  }, 120_000);
});
