import { describe, it, expect } from 'vitest';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { ASSETS } from '@evo/command-api/testing/test-server';
import { browserSkipReason, loggedInPage, screenshot } from './harness';
import {
  MOBILE,
  SIZES,
  follow,
  ADMIN,
  type Member,
  registerAtOnce,
  serverAndBrowser,
  slowUplink,
  sidewaysOverflow,
  membersOf,
} from './helpers';

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
  const [author, fan] = membersOf(live, 2);

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

  for (const size of SIZES) {
    it(`gifts: no "Cadeau" on one's own videos; with 0 coins the picker says so and offers "Recharger" (${size.name})`, async () => {
      const own = await loggedIn(author, size.viewport);
      await own.page.goto(`${live.server.url}/video/${author.videoId}`);
      await own.page.getByRole('button', { name: 'Partager' }).first().waitFor();
      expect(await own.page.getByRole('button', { name: 'Envoyer un cadeau' }).count()).toBe(0);
      await own.page.goto(`${live.server.url}/user/${author.member.pseudo}`);
      await own.page.locator('video').first().waitFor();
      await own.page.waitForLoadState('networkidle');
      expect(await own.page.getByRole('button', { name: 'Envoyer un cadeau' }).count()).toBe(0);
      await own.context.close();

      // another member, with no coins (a new account), taps "Cadeau" on that video
      expect(
        (await fan.client.get(`/api/coins/balance/${encodeURIComponent(fan.member.email)}`)).json.coins_balance,
      ).toBe(0);
      const { context, page } = await loggedIn(fan, size.viewport);
      await page.goto(`${live.server.url}/video/${author.videoId}`);
      await page.getByRole('button', { name: 'Envoyer un cadeau' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText("Vous n'avez pas assez de coins. Rechargez votre coffre !").waitFor();
      // the video stays where it was: the member chooses to go and buy coins
      expect(new URL(page.url()).pathname).toBe(`/video/${author.videoId}`);
      await screenshot(page, `e2e-r2-gift-no-coins-${size.name}`, { fullPage: false });
      await dialog.getByRole('link', { name: 'Recharger' }).click();
      await page.waitForURL('**/packs');
      await page.getByRole('heading', { name: 'Boutique de coins' }).waitFor();
      await context.close();
    }, 90_000);
  }

  it('notifications: a tap on a row opens what it is about; a message offers "Voir"; the dismiss control is an icon with a label', async () => {
    // fan and author follow each other; the fan likes the author's video and writes to them
    await follow(fan, author.member);
    await follow(author, fan.member);
    expect((await fan.client.post(`/api/videos/${author.videoId}/like`)).status).toBeLessThan(300);
    const sent = await fan.client.post('/api/messages', {
      senderEmail: fan.member.email,
      receiverEmail: author.member.email,
      content: 'Salut, super vidéo !',
    });
    expect(sent.status).toBeLessThan(300);
    for (const size of SIZES) {
      const { context, page } = await loggedIn(author, size.viewport);
      await page.goto(`${live.server.url}/notifications`);
      const row = (text: string) => page.locator('main .notif', { hasText: text }).first();
      await row('a aimé').waitFor();
      await row('envoyé un message').waitFor();
      // the dismiss control: an icon (no bare "X" text) named for screen readers
      const dismiss = row('a aimé').locator('.notif__delete');
      expect((await dismiss.textContent())?.trim()).toBe('');
      expect(await dismiss.locator('svg').count()).toBe(1);
      expect(await dismiss.getAttribute('aria-label')).toBe(`Supprimer la notification de ${fan.member.pseudo}`);
      // a message notification offers "Voir"
      await row('envoyé un message').getByRole('button', { name: 'Voir', exact: true }).waitFor();
      await screenshot(page, `e2e-r2-notifications-${size.name}`, { fullPage: false });
      // a tap on the row's time (not on a link or a button) opens the liked video
      await row('a aimé').locator('.notif__meta').click();
      await page.waitForURL((u) => u.pathname === `/video/${author.videoId}`);
      // the follow row opens the follower's profile
      await page.goto(`${live.server.url}/notifications`);
      await row('abonné').locator('.notif__meta').click();
      await page.waitForURL((u) => u.pathname === `/user/${fan.member.pseudo}`);
      // and "Voir" on the message opens the messages
      await page.goto(`${live.server.url}/notifications`);
      await row('envoyé un message').getByRole('button', { name: 'Voir', exact: true }).click();
      await page.waitForURL((u) => u.pathname.startsWith('/messages'));
      await context.close();
    }
  }, 120_000);

  for (const size of SIZES) {
    it(`messages: the first message from "Message privé" opens its conversation; the bell does not count a message of the conversation being read (${size.name})`, async () => {
      const [a, b] = await registerAtOnce(live.server.url, 2);
      await follow(a, b.member);
      await follow(b, a.member);
      const { context, page } = await loggedIn(a, size.viewport);
      await page.goto(`${live.server.url}/send-message/${b.member.pseudo}`);
      const box = page.getByLabel(`Ton message à @${b.member.pseudo}`);
      await expect.poll(() => box.isEnabled()).toBe(true);
      await box.fill('Premier message');
      await page.getByRole('button', { name: 'Envoyer', exact: true }).click();
      // the product's /messages, with this conversation open: the thread and its reply box
      await page.waitForURL((u) => u.pathname === '/messages');
      await page.getByLabel(`Ta réponse à @${b.member.pseudo}`).waitFor();
      await expect
        .poll(() => page.locator('.bubble, .message', { hasText: 'Premier message' }).count())
        .toBeGreaterThan(0);
      // the thread says it was sent: no toast comes over the conversation
      expect(await page.locator('.toast').count()).toBe(0);
      await screenshot(page, `e2e-r2-first-message-${size.name}`, { fullPage: false });

      // b reads the conversation when a's answer comes: seen in the thread, not counted by the bell
      const unread = async () => Number((await b.client.get('/api/notifications/unread')).json.unread);
      expect((await b.client.put('/api/notifications/read-all')).status).toBeLessThan(300);
      const reader = await loggedIn(b, size.viewport);
      await reader.page.goto(`${live.server.url}/messages/${a.member.pseudo}`);
      await reader.page.getByLabel(`Ta réponse à @${a.member.pseudo}`).waitFor();
      await reader.page.waitForLoadState('networkidle');
      const sent = await a.client.post('/api/messages', {
        senderEmail: a.member.email,
        receiverEmail: b.member.email,
        content: 'Tu es là ?',
      });
      expect(sent.status).toBe(201);
      await reader.page.getByText('Tu es là ?').waitFor({ timeout: 15_000 });
      // the notification came (it is in the list) and is read at once
      await expect
        .poll(
          async () =>
            (
              (await b.client.get(`/api/notifications?email=${encodeURIComponent(b.member.email)}`))
                .json as unknown as Array<{ type: string; seen: number }>
            )
              .filter((n) => n.type === 'message')
              .map((n) => n.seen),
          { timeout: 15_000 },
        )
        .toEqual([1, 1]);
      expect(await unread()).toBe(0);
      expect(await reader.page.locator('.bell .badge').count()).toBe(0);
      await screenshot(reader.page, `e2e-r2-conversation-read-${size.name}`, { fullPage: false });
      await reader.context.close();
      await context.close();
    }, 120_000);
  }

  for (const size of SIZES) {
    it(`admin gifts: while 'Mode local (sans BDD)' is checked, the screen says the changes stay in this browser and are not saved (${size.name})`, async () => {
      const { context, page } = await loggedInPage(live.browser, live.server.url, ADMIN, size.viewport);
      await page.goto(`${live.server.url}/admin/gifts`);
      const mode = page.getByLabel('Mode local (sans BDD)');
      await mode.waitFor();
      expect(await mode.isChecked()).toBe(true);
      const notice = page.getByText('vos changements restent dans ce navigateur. Ils ne sont pas enregistrés');
      await notice.waitFor();
      await screenshot(page, `e2e-r2-admin-gifts-local-${size.name}`, { fullPage: false });
      await mode.uncheck();
      await notice.waitFor({ state: 'detached' });
      await page.getByText('Vos changements sont enregistrés et visibles par les membres.').waitFor();
      expect(await sidewaysOverflow(page)).toBe(0);
      await context.close();
    }, 60_000);
  }

  for (const size of SIZES) {
    it(`coins: /coins/received offers "Récupérer mes cadeaux" only while a gift is left to claim (${size.name})`, async () => {
      const [giver, receiver] = await registerAtOnce(live.server.url, 2);
      expect((await giver.client.post('/api/coins/add', { email: giver.member.email, amount: 10 })).status).toBe(200);
      const gift = await giver.client.post('/api/gifts/send', {
        sender_email: giver.member.email,
        receiver_email: receiver.member.email,
        gift_id: 1,
      });
      expect(gift.status).toBeLessThan(300);
      const { context, page } = await loggedIn(receiver, size.viewport);
      await page.goto(`${live.server.url}/coins/received`);
      await page.getByRole('link', { name: 'Récupérer mes cadeaux' }).click();
      await page.waitForURL('**/cadeaux-recues');
      await page
        .getByRole('button', { name: /Récupérer/ })
        .first()
        .click();
      await page.getByText('Déjà récupéré').first().waitFor();
      await page.goto(`${live.server.url}/coins/received`);
      await page.getByRole('link', { name: 'Voir mes cadeaux reçus' }).waitFor();
      expect(await page.getByRole('link', { name: 'Récupérer mes cadeaux' }).count()).toBe(0);
      await screenshot(page, `e2e-r2-coins-received-${size.name}`, { fullPage: false });
      await context.close();
    }, 60_000);
  }
});
