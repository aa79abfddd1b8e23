import { describe, it, expect } from 'vitest';
import type { Page } from 'playwright-core';

import { browserSkipReason, screenshot, fillLogin } from './harness';
import { MOBILE, SIZES, serverAndBrowser, membersOf, sidewaysOverflow, visitorPage } from './helpers';

const skip = browserSkipReason();

/** issue 12 item 4: a visitor's shared link survives the login, and forms ask to log in first */
describe.skipIf(!!skip)('shared links and forms for a logged-out visitor', () => {
  const live = serverAndBrowser();
  const [author, reader] = membersOf(live, 2);

  async function logIn(page: Page) {
    await fillLogin(page, reader.member);
  }

  for (const size of SIZES) {
    it(`a shared video link plays for a visitor, and the top bar's login comes back to it (${size.name})`, async () => {
      const { context, page } = await visitorPage(live.browser, size.viewport);
      await page.goto(`${live.server.url}/video/${author.videoId}`);
      // issue 30: a public video is watchable logged out (it used to send the visitor to /login)
      await page.getByRole('heading', { name: 'Ma première vidéo' }).waitFor();
      expect(new URL(page.url()).pathname).toBe(`/video/${author.videoId}`);
      await page.locator('header.topbar').getByRole('link', { name: 'Se connecter' }).click();
      await page.waitForURL((u) => u.pathname === '/login');
      expect(new URL(page.url()).searchParams.get('retour')).toBe(`/video/${author.videoId}`);
      await page.getByLabel('Email').waitFor();
      await screenshot(page, `e2e-visitor-login-for-video-${size.name}`, { fullPage: false });
      await logIn(page);
      await page.waitForURL((u) => u.pathname === `/video/${author.videoId}`);
      await page.getByRole('heading', { name: 'Ma première vidéo' }).waitFor();
      await page.getByRole('button', { name: /^J'aime/ }).waitFor();
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `e2e-visitor-back-on-video-${size.name}`, { fullPage: false });
      await context.close();
    }, 60_000);
  }

  it('a shared profile link comes back to the profile, also through the registration page', async () => {
    const { context, page } = await visitorPage(live.browser);
    await page.goto(`${live.server.url}/user/${author.member.pseudo}`);
    await page.waitForURL((u) => u.pathname === '/login');
    // the detour by "Créer un compte" and back keeps where the visitor was going
    await page.getByRole('link', { name: 'Créer un compte' }).last().click();
    await page.waitForURL((u) => u.pathname === '/register');
    expect(new URL(page.url()).searchParams.get('retour')).toBe(`/user/${author.member.pseudo}`);
    await page.getByRole('link', { name: 'Se connecter' }).last().click();
    await page.waitForURL((u) => u.pathname === '/login');
    await logIn(page);
    await page.waitForURL((u) => u.pathname === `/user/${author.member.pseudo}`);
    await page.getByRole('heading', { name: `@${author.member.pseudo}`, exact: true }).waitFor();
    await context.close();
  }, 60_000);

  for (const path of ['/create', '/upload/video']) {
    it(`${path} asks a visitor to log in before showing the form, then shows it`, async () => {
      const { context, page } = await visitorPage(live.browser, MOBILE);
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
      const { context, page } = await visitorPage(live.browser);
      const requests: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      await page.goto(`${live.server.url}/login?retour=${encodeURIComponent(retour)}`);
      await logIn(page);
      await page.waitForURL((u) => u.pathname === `/user/${reader.member.pseudo}`);
      expect(new URL(page.url()).origin).toBe(new URL(live.server.url).origin);
      expect(requests.filter((u) => new URL(u).origin !== new URL(live.server.url).origin)).toEqual([]);
      await context.close();
    }, 60_000);
  }
});
