import { describe, it, expect, beforeAll } from 'vitest';
import type { Page } from 'playwright-core';
import { registerAndLogin, type Registration } from '@evo/command-api/testing/test-server';
import { browserSkipReason, newPage, screenshot } from './harness';
import { DESKTOP, MOBILE, SIZES, firstVideoId, serverAndBrowser } from './helpers';

const skip = browserSkipReason();

/** issue 12 item 4: a visitor's shared link survives the login, and forms ask to log in first */
describe.skipIf(!!skip)('shared links and forms for a logged-out visitor', () => {
  const live = serverAndBrowser();
  let member: Registration;
  let videoId: number;
  let authorPseudo: string;

  beforeAll(async () => {
    const author = await registerAndLogin(live.server.url);
    member = (await registerAndLogin(live.server.url)).member;
    videoId = await firstVideoId(author.client, author.member.pseudo);
    authorPseudo = author.member.pseudo;
  }, 180_000);

  async function visitor(size: { width: number; height: number } = DESKTOP) {
    const context = await live.browser.newContext({ viewport: size, locale: 'fr-FR' });
    return { context, ...(await newPage(context)) };
  }

  async function logIn(page: Page) {
    await page.getByLabel('Email').fill(member.email);
    await page.getByLabel('Mot de passe').fill(member.password);
    await page.getByRole('button', { name: 'Se connecter' }).click();
  }

  /** no sideways scroll, and nothing of the page hidden under a fixed bar */
  async function checkLayout(page: Page) {
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  }

  for (const size of SIZES) {
    it(`a shared video link plays for a visitor, and the top bar's login comes back to it (${size.name})`, async () => {
      const { context, page } = await visitor(size.viewport);
      await page.goto(`${live.server.url}/video/${videoId}`);
      // issue 30: a public video is watchable logged out (it used to send the visitor to /login)
      await page.getByRole('heading', { name: 'Ma première vidéo' }).waitFor();
      expect(new URL(page.url()).pathname).toBe(`/video/${videoId}`);
      await page.locator('header.topbar').getByRole('link', { name: 'Se connecter' }).click();
      await page.waitForURL((u) => u.pathname === '/login');
      expect(new URL(page.url()).searchParams.get('retour')).toBe(`/video/${videoId}`);
      await page.getByLabel('Email').waitFor();
      await screenshot(page, `e2e-visitor-login-for-video-${size.name}`, { fullPage: false });
      await logIn(page);
      await page.waitForURL((u) => u.pathname === `/video/${videoId}`);
      await page.getByRole('heading', { name: 'Ma première vidéo' }).waitFor();
      await page.getByRole('button', { name: /^J'aime/ }).waitFor();
      await checkLayout(page);
      await screenshot(page, `e2e-visitor-back-on-video-${size.name}`, { fullPage: false });
      await context.close();
    }, 60_000);
  }

  it('a shared profile link comes back to the profile, also through the registration page', async () => {
    const { context, page } = await visitor();
    await page.goto(`${live.server.url}/user/${authorPseudo}`);
    await page.waitForURL((u) => u.pathname === '/login');
    // the detour by "Créer un compte" and back keeps where the visitor was going
    await page.getByRole('link', { name: 'Créer un compte' }).last().click();
    await page.waitForURL((u) => u.pathname === '/register');
    expect(new URL(page.url()).searchParams.get('retour')).toBe(`/user/${authorPseudo}`);
    await page.getByRole('link', { name: 'Se connecter' }).last().click();
    await page.waitForURL((u) => u.pathname === '/login');
    await logIn(page);
    await page.waitForURL((u) => u.pathname === `/user/${authorPseudo}`);
    await page.getByRole('heading', { name: `@${authorPseudo}`, exact: true }).waitFor();
    await context.close();
  }, 60_000);

  for (const path of ['/create', '/upload/video']) {
    it(`${path} asks a visitor to log in before showing the form, then shows it`, async () => {
      const { context, page } = await visitor(MOBILE);
      await page.goto(`${live.server.url}${path}`);
      await page.waitForURL((u) => u.pathname === '/login');
      expect(new URL(page.url()).searchParams.get('retour')).toBe(path);
      await logIn(page);
      await page.waitForURL((u) => u.pathname === path);
      if (path === '/create') await page.getByRole('button', { name: 'Activer caméra' }).waitFor();
      else await page.getByLabel(/^Titre/).waitFor();
      await context.close();
    }, 60_000);
  }

  for (const retour of [
    '//evil.example',
    'https://evil.example/',
    '/\\evil.example',
    'http:evil.example',
    '/\t/evil.example',
    'javascript:alert(1)',
  ]) {
    it(`refuses to send anyone elsewhere after login: retour=${JSON.stringify(retour)}`, async () => {
      const { context, page } = await visitor();
      const requests: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      await page.goto(`${live.server.url}/login?retour=${encodeURIComponent(retour)}`);
      await logIn(page);
      await page.waitForURL((u) => u.pathname === `/user/${member.pseudo}`);
      expect(new URL(page.url()).origin).toBe(new URL(live.server.url).origin);
      expect(requests.filter((u) => new URL(u).origin !== new URL(live.server.url).origin)).toEqual([]);
      await context.close();
    }, 60_000);
  }
});
