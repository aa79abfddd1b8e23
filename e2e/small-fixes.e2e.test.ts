import { describe, it, expect, beforeAll } from 'vitest';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ASSETS, Client, PNG_1PX, newMember } from '@evo/command-api/testing/test-server';
import { browserSkipReason, newPage, screenshot, loggedInPage } from './harness';
import { ADMIN, DESKTOP, MOBILE, SIZES, adminClient, follow, serverAndBrowser, membersOf } from './helpers';

const skip = browserSkipReason();
const FOLLOW_BACK = "S'abonner en retour";

/** issue 12 item 10: the smaller problems a new member meets */
describe.skipIf(!!skip)('smaller fixes of the member and administrator journeys', () => {
  const live = serverAndBrowser();
  const [author, fan, friend] = membersOf(live, 3);
  let admin: Client;

  beforeAll(async () => {
    admin = await adminClient(live.server.url);
  }, 180_000);

  const loggedIn = (m: { email: string; password: string }, size: { width: number; height: number } = DESKTOP) =>
    loggedInPage(live.browser, live.server.url, m, size);

  it("'S'abonner en retour' is offered only for someone not followed yet, and no more once clicked", async () => {
    // the author already follows their friend, then the friend follows them back: nothing to offer
    await follow(author, friend.member);
    await follow(friend, author.member);
    // the fan follows the author, who does not follow the fan yet
    await follow(fan, author.member);
    const { context, page } = await loggedIn(author.member);
    await page.goto(`${live.server.url}/notifications`);
    const item = (pseudo: string) => page.locator('.notif', { hasText: pseudo });
    await expect.poll(() => item(fan.member.pseudo).getByRole('button', { name: FOLLOW_BACK }).isVisible()).toBe(true);
    expect(await item(friend.member.pseudo).getByRole('button', { name: FOLLOW_BACK }).count()).toBe(0);
    await screenshot(page, 'e2e-follow-back-offered', { fullPage: false });
    await item(fan.member.pseudo).getByRole('button', { name: FOLLOW_BACK }).click();
    await expect.poll(() => page.getByText('✅ Abonné en retour !').isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('button', { name: FOLLOW_BACK }).count()).toBe(0);
    // nor in the dropdown, nor after a reload
    await page.getByRole('button', { name: /Notifications/ }).click();
    expect(await page.getByRole('button', { name: FOLLOW_BACK }).count()).toBe(0);
    await page.reload();
    await page.locator('.notif', { hasText: fan.member.pseudo }).first().waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('button', { name: FOLLOW_BACK }).count()).toBe(0);
    await context.close();
  }, 90_000);

  it('reporting offers reasons (optional), and the administrators read the one chosen', async () => {
    const { context, page } = await loggedIn(fan.member, MOBILE);
    await page.goto(`${live.server.url}/video/${author.videoId}`);
    await page.getByRole('button', { name: 'Signaler' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Pourquoi signales-tu cette vidéo ? (facultatif)').waitFor();
    await dialog.getByLabel('Spam ou arnaque').check();
    await screenshot(page, 'e2e-report-reasons-mobile', { fullPage: false });
    await dialog.getByRole('button', { name: 'Signaler' }).click();
    await expect.poll(() => page.getByText('Signalement envoyé').isVisible()).toBe(true);
    // the administrator's session is not the reporter's: it reads the report once projected
    const reasons = async () =>
      (
        (await admin.get('/api/admin/reports')).json as unknown as Array<{
          video_id: number;
          reason: string;
        }>
      )
        .filter((r) => r.video_id === author.videoId)
        .map((r) => r.reason);
    await expect.poll(reasons).toEqual(['Spam ou arnaque']);
    await context.close();
  }, 60_000);

  for (const size of SIZES) {
    it(`the single video page shows its comment thread (${size.name})`, async () => {
      const { context, page } = await loggedIn(friend.member, size.viewport);
      await page.goto(`${live.server.url}/video/${author.videoId}`);
      const box = page.getByLabel('Ton commentaire');
      await box.waitFor();
      await box.fill(`Bravo (${size.name})`);
      await page.getByRole('button', { name: 'Envoyer', exact: true }).click();
      await expect.poll(() => page.getByText(`Bravo (${size.name})`).isVisible()).toBe(true);
      // the thread stays open after sending
      expect(await page.getByLabel('Ton commentaire').isVisible()).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(
        0,
      );
      // the composer and its button are not under the fixed bottom bar once scrolled to
      // (measured once the page has settled: the thread and the video may still be laying out)
      const send = page.getByRole('button', { name: 'Envoyer', exact: true });
      await expect
        .poll(async () => {
          await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
          const sendBox = await send.boundingBox();
          const barBox = await page.locator('.bottombar').boundingBox();
          return sendBox !== null && barBox !== null && sendBox.y + sendBox.height <= barBox.y;
        })
        .toBe(true);
      await screenshot(page, `e2e-video-page-comments-${size.name}`, { fullPage: false });
      await context.close();
    }, 60_000);
  }

  it('after registering, the success is said once the member is logged in on their profile, and no toast stays over the menu', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'evo-e2e-'));
    const picture = path.join(dir, 'photo.png');
    await writeFile(picture, PNG_1PX);
    const m = newMember();
    const context = await live.browser.newContext({ viewport: MOBILE, locale: 'fr-FR' });
    const { page } = await newPage(context);
    await page.goto(`${live.server.url}/register`);
    await page.getByLabel('Email').fill(m.email);
    await page.getByLabel('Pseudo').fill(m.pseudo);
    await page.getByLabel('Mot de passe', { exact: true }).fill(m.password);
    await page.getByLabel('Confirmer le mot de passe').fill(m.password);
    await page.getByLabel('Bio').fill(m.bio);
    await page.getByLabel('Photo de profil').setInputFiles(picture);
    await page.getByLabel('Vidéo', { exact: true }).setInputFiles(path.join(ASSETS, 'demo/demo-3.mp4'));
    await page.getByLabel('Titre de la vidéo').fill(m.video_title);
    await page.getByRole('button', { name: 'Créer mon compte' }).click();
    // a successful registration logs the member in on their profile (issue 30, Major 6)
    await page.waitForURL((u) => u.pathname === `/user/${m.pseudo}`, { timeout: 30_000 });
    await page.locator('.toast', { hasText: '✅ Compte créé avec succès !' }).waitFor();
    // the toast goes by itself: nothing stays over the menu
    await expect.poll(() => page.locator('.toast').count(), { timeout: 15_000 }).toBe(0);
    await screenshot(page, 'e2e-after-register-login-mobile', { fullPage: false });
    await context.close();
  }, 90_000);

  for (const size of SIZES) {
    it(`an administrator lands on /admin after login, with a light bottom bar (${size.name})`, async () => {
      const { context, page } = await loggedIn(ADMIN, size.viewport);
      await page.waitForURL((u) => u.pathname === '/admin');
      const bar = page.getByRole('navigation', { name: 'Barre de navigation' });
      await bar.waitFor();
      const background = await bar.evaluate((el) => getComputedStyle(el).backgroundColor);
      const lightness = background.match(/\d+/g)!.slice(0, 3).map(Number);
      expect(Math.min(...lightness)).toBeGreaterThan(200);
      expect(await page.locator('.topbar--light').count()).toBe(1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(
        0,
      );
      await screenshot(page, `e2e-admin-landing-${size.name}`, { fullPage: false });
      await context.close();
    }, 60_000);
  }

  it('an unknown path answers HTTP 404 with the French page; known screens answer 200', async () => {
    const unknown = await fetch(`${live.server.url}/nimporte-quoi`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toMatch(/text\/html/);
    for (const known of [
      '/',
      '/feed',
      `/video/${author.videoId}`,
      `/user/${author.member.pseudo}`,
      '/admin/stats/general',
      '/login',
    ])
      expect((await fetch(`${live.server.url}${known}`)).status, known).toBe(200);
    expect((await fetch(`${live.server.url}/video/12/autre`)).status).toBe(404);
    expect((await fetch(`${live.server.url}/api/nimporte-quoi`)).status).toBe(404);
    const { context, page } = await loggedIn(author.member);
    const res = await page.goto(`${live.server.url}/nimporte-quoi`);
    expect(res?.status()).toBe(404);
    await expect.poll(() => page.getByRole('heading', { name: 'Page introuvable' }).isVisible()).toBe(true);
    await context.close();
  }, 60_000);

  it('every page title reads "<page> · EVO", and the keyboard goes from the logo to the menu before the bell', async () => {
    const { context, page } = await loggedIn(author.member);
    for (const route of ['/', '/feed', `/user/${author.member.pseudo}`, '/messages', '/nimporte-quoi']) {
      await page.goto(`${live.server.url}${route}`);
      await page.waitForLoadState('networkidle');
      await expect.poll(() => page.title(), { message: route }).toMatch(/^.+ · EVO$/);
    }
    await context.close();
    const visitor = await live.browser.newContext({ viewport: DESKTOP });
    const { page: login } = await newPage(visitor);
    await login.goto(`${live.server.url}/login`);
    await expect.poll(() => login.title()).toBe('Connexion · EVO');
    await visitor.close();

    const { context: c2, page: home } = await loggedIn(author.member);
    await home.goto(`${live.server.url}/`);
    await home.getByRole('link', { name: 'EVO' }).first().focus();
    await home.keyboard.press('Tab');
    expect(await home.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Amis');
    await c2.close();
  }, 90_000);
});
