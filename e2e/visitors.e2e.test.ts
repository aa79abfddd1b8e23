/**
 * Issue 30, Major 2: what a visitor (logged out) meets, at 1280x800 and 390x844. No way into the
 * admin area; a shared video link plays, read-only, with its title, author, counters and comments,
 * and asks to log in to act; the page's title and preview metadata name the video and its poster;
 * the feeds offer to log in. Screenshots: artifacts/screens/visitor-*.png.
 */
import { describe, it, expect, beforeAll } from 'vitest';

import { browserSkipReason, screenshot, fillLogin } from './harness';
import { SIZES, coveredBy, realErrors, serverAndBrowser, sidewaysOverflow, membersOf, visitorPage } from './helpers';

const skip = browserSkipReason();
const PROMPT = 'Connecte-toi pour aimer, commenter ou offrir un cadeau';

describe.skipIf(!!skip)('a visitor (logged out)', () => {
  const live = serverAndBrowser();
  const [author] = membersOf(live, 1);

  beforeAll(async () => {
    const r = await author.client.post(`/api/videos/${author.videoId}/comment`, { content: 'Trop bien cette vidéo' });
    expect(r.status).toBe(201);
    await live.server.settle(60_000);
  }, 120_000);

  for (const size of SIZES) {
    it(`has no link into the admin area, and 'Se connecter' / 'Créer un compte' (${size.name})`, async () => {
      const { context, page, errors } = await visitorPage(live.browser, size.viewport);
      await page.goto(`${live.server.url}/`);
      await page.getByRole('heading', { name: /Bienvenue sur EVO/ }).waitFor();
      const bar = page.locator('header.topbar');
      await bar.getByRole('link', { name: 'Se connecter' }).waitFor();
      await expect.poll(() => bar.getByRole('link', { name: 'Créer un compte' }).isVisible()).toBe(true);
      expect(await page.locator('a[href^="/admin"]').count()).toBe(0);
      expect(await bar.getByRole('link', { name: 'Mon profil', exact: true }).count()).toBe(0);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `visitor-home-${size.name}`, { fullPage: false });
      expect(realErrors(errors)).toEqual([]);
      await context.close();
    }, 60_000);

    it(`watches a shared video read-only, and is asked to log in to act (${size.name})`, async () => {
      const { context, page, errors } = await visitorPage(live.browser, size.viewport);
      await page.goto(`${live.server.url}/video/${author.videoId}`);
      await page.getByRole('heading', { name: 'Ma première vidéo' }).waitFor();
      expect(new URL(page.url()).pathname).toBe(`/video/${author.videoId}`);
      expect(await page.title()).toBe('Ma première vidéo · EVO');
      await page.getByText(`@${author.member.pseudo}`).first().waitFor();
      // the player with its poster, the counters, the comments (read-only)
      const player = page.getByLabel('Vidéo : Ma première vidéo');
      expect(await player.getAttribute('poster')).toMatch(/^\/uploads\/posters\//);
      await page.getByText('Trop bien cette vidéo').waitFor();
      await page.getByRole('button', { name: 'Commentaires (1)' }).waitFor();
      expect(await page.locator('textarea').count()).toBe(0);
      for (const action of ['Envoyer un cadeau', 'Favori', 'Signaler', /^J'aime/])
        expect(await page.getByRole('button', { name: action }).count(), String(action)).toBe(0);
      await page.getByRole('button', { name: 'Partager' }).waitFor();
      // what to do to act, not covered by the bottom bar
      const prompt = page.getByRole('status').filter({ hasText: PROMPT });
      await prompt.getByText(PROMPT, { exact: true }).waitFor();
      expect(await coveredBy(prompt)).toEqual([]);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `visitor-video-${size.name}`, { fullPage: false });
      await screenshot(page, `visitor-video-full-${size.name}`);

      // the way in comes back to the video, now with the member's actions
      await prompt.getByRole('link', { name: 'Se connecter' }).click();
      await page.waitForURL((u) => u.pathname === '/login');
      expect(new URL(page.url()).searchParams.get('retour')).toBe(`/video/${author.videoId}`);
      await fillLogin(page, author.member);
      await page.waitForURL((u) => u.pathname === `/video/${author.videoId}`);
      await page.getByRole('button', { name: /^J'aime/ }).waitFor();
      expect(await page.getByText(PROMPT).count()).toBe(0);
      expect(realErrors(errors)).toEqual([]);
      await context.close();
    }, 90_000);

    it(`is offered to log in on the feeds, where SPEC says 'Utilisateur non connecté' (${size.name})`, async () => {
      const { context, page } = await visitorPage(live.browser, size.viewport);
      for (const path of ['/feed', '/friends', '/users-with-videos']) {
        await page.goto(`${live.server.url}${path}`);
        const prompt = page.getByRole('status').filter({ hasText: 'Utilisateur non connecté' });
        await prompt.getByText('Utilisateur non connecté', { exact: true }).waitFor();
        expect(await coveredBy(prompt.getByRole('link', { name: 'Se connecter' })), path).toEqual([]);
        expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
        if (path === '/feed') await screenshot(page, `visitor-feed-${size.name}`, { fullPage: false });
        await prompt.getByRole('link', { name: 'Se connecter' }).click();
        await page.waitForURL((u) => u.pathname === '/login');
        expect(new URL(page.url()).searchParams.get('retour')).toBe(path);
      }
      await context.close();
    }, 60_000);
  }

  it('the page of a shared video names it, its author and its poster to link previews (Open Graph)', async () => {
    const { context, page } = await visitorPage(live.browser, SIZES[0].viewport);
    const html = await (await page.request.get(`${live.server.url}/video/${author.videoId}`)).text();
    const og = (property: string) =>
      new RegExp(`<meta property="${property}" content="([^"]*)"`).exec(html)?.[1] ?? null;
    expect(og('og:title')).toBe(`Ma première vidéo · @${author.member.pseudo}`);
    expect(og('og:type')).toBe('video.other');
    expect(og('og:url')).toBe(`${live.server.url}/video/${author.videoId}`);
    const poster = og('og:image');
    expect(poster).toMatch(/\/uploads\/posters\//);
    // the poster opens for anyone (a preview is fetched without a session)
    await page.goto(poster!);
    expect(
      await page.evaluate(() => (document.querySelector('img') as HTMLImageElement | null)?.naturalWidth),
    ).toBeGreaterThan(0);
    await context.close();
  }, 60_000);
});
