/**
 * Issue 12 items 7 and 8, in a real (headless) Chromium against the real server, at desktop
 * (1280x800) and mobile (390x844) sizes: one navigation where every destination is in view and
 * can be clicked, nothing cut off and no sideways scroll; the add button offers filming or
 * importing; the home page shows videos under the carousel and does not open on the Live
 * placeholder. Screenshots go to artifacts/screens/nav-*.png.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { registerAndLogin, type Registration } from '@evo/command-api/testing/test-server';
import { browserSkipReason, newPage, screenshot, loggedInPage } from './harness';
import { ADMIN, SIZES, firstVideoId, realErrors, serverAndBrowser } from './helpers';

const skip = browserSkipReason();

type Size = (typeof SIZES)[number];

/**
 * Where `locator` is not usable: outside the viewport (cut off), or covered at its centre by
 * another element (a bar, a panel). Empty when it can be seen whole and clicked.
 */
async function unusable(locator: Locator): Promise<string[]> {
  return locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const problems: string[] = [];
    if (r.width === 0 || r.height === 0) problems.push('not displayed');
    if (r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5)
      problems.push(
        `outside the viewport (${Math.round(r.left)},${Math.round(r.top)} → ${Math.round(r.right)},${Math.round(r.bottom)})`,
      );
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || !(el === hit || el.contains(hit)))
      problems.push(`covered by ${hit ? `${hit.tagName.toLowerCase()}.${hit.className}` : 'nothing'}`);
    // cut off by a scrolling or clipping ancestor (the old strip of links scrolled sideways)
    for (let p = el.parentElement; p; p = p.parentElement) {
      const style = getComputedStyle(p);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const box = p.getBoundingClientRect();
      if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5)
        problems.push(`clipped by ${p.tagName.toLowerCase()}.${p.className}`);
    }
    return problems;
  });
}

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

describe.skipIf(!!skip)('one navigation at every size, and a way to create from anywhere', () => {
  const live = serverAndBrowser();
  let member: Registration;
  let ownVideoId: number;

  beforeAll(async () => {
    // two members, each with the video of their registration
    const registered = await registerAndLogin(live.server.url);
    member = registered.member;
    await registerAndLogin(live.server.url);
    ownVideoId = await firstVideoId(registered.client, member.pseudo);
  }, 180_000);

  const loggedIn = (who: { email: string; password: string }, size: Size) =>
    loggedInPage(live.browser, live.server.url, who, size.viewport);

  const mobile = (size: Size) => size.viewport.width < 820;

  /** the main navigation's links, opening the mobile menu first */
  async function mainNav(page: Page, size: Size): Promise<Locator> {
    const nav = page.getByRole('navigation', { name: 'Navigation principale' });
    if (mobile(size) && !(await nav.isVisible())) {
      await page.getByRole('banner').getByRole('button', { name: 'Menu' }).click();
      await nav.waitFor();
    }
    return nav;
  }

  for (const size of SIZES) {
    it(`every destination is in view and clickable, with little chrome and no sideways scroll (${size.name})`, async () => {
      const { context, page, errors } = await loggedIn(ADMIN, size);
      await page.goto(`${live.server.url}/`);
      await page.getByRole('heading', { level: 1, name: /Bienvenue/ }).waitFor();
      await noSidewaysScroll(page);

      // on a phone: one row of top bar (no strip of links under it) plus the bottom bar
      const top = (await page.getByRole('banner').boundingBox())!;
      const bottom = (await page.getByRole('navigation', { name: 'Barre de navigation' }).boundingBox())!;
      if (mobile(size)) {
        expect(top.height).toBeLessThanOrEqual(64);
        expect(top.height + bottom.height).toBeLessThanOrEqual(130);
        expect(await page.getByRole('navigation', { name: 'Navigation principale' }).isVisible()).toBe(false);
      }
      await screenshot(page, `nav-closed-${size.name}`, { fullPage: false });

      const destinations: Array<[string, (path: string) => boolean]> = [
        ['Amis', (p) => p === '/friends'],
        ['Pour toi', (p) => p === '/feed'],
        ['Mon profil', (p) => p === '/user/admin' || p === '/admin'],
        ['Messages', (p) => p === '/messages'],
        ['Coffre', (p) => p === '/coffre'],
        ['Admin', (p) => p === '/admin'],
      ];
      if (mobile(size)) destinations.unshift(['Accueil', (p) => p === '/']);
      let first = true;
      for (const [name, arrived] of destinations) {
        const nav = await mainNav(page, size);
        const link = nav.getByRole('link', { name, exact: true });
        expect(await unusable(link), name).toEqual([]);
        await noSidewaysScroll(page);
        if (first && mobile(size)) await screenshot(page, `nav-menu-open-${size.name}`, { fullPage: false });
        first = false;
        await link.click();
        await page.waitForURL((u) => arrived(u.pathname));
        // the menu closes once a destination is chosen
        if (mobile(size)) expect(await nav.isVisible()).toBe(false);
        await noSidewaysScroll(page);
      }

      // the bottom bar's own destinations, the add button, the bell
      await page.goto(`${live.server.url}/`);
      const bar = page.getByRole('navigation', { name: 'Barre de navigation' });
      for (const name of ['Accueil', 'Ami(e)s', 'Messages', 'Profil'])
        expect(await unusable(bar.getByRole('link', { name, exact: true })), name).toEqual([]);
      expect(await unusable(bar.getByRole('button', { name: 'Ajouter une vidéo' }))).toEqual([]);
      const bell = page.getByRole('banner').getByRole('button', { name: /Notifications/ });
      expect(await unusable(bell)).toEqual([]);
      await bell.click();
      await expect
        .poll(() => page.getByText('Aucune notification').or(page.locator('.notif').first()).isVisible())
        .toBe(true);
      await page.keyboard.press('Escape');

      // logout is reachable too, and works
      const logout = mobile(size)
        ? (await mainNav(page, size)).getByRole('button', { name: 'Déconnexion' })
        : page.getByRole('banner').getByRole('button', { name: 'Déconnexion' });
      expect(await unusable(logout)).toEqual([]);
      await logout.click();
      await page.waitForURL((u) => u.pathname === '/login');
      expect(realErrors(errors)).toEqual([]);
      await context.close();
    }, 90_000);

    it(`the visitor's header keeps its two buttons on one line (${size.name})`, async () => {
      const context = await live.browser.newContext({ viewport: size.viewport, locale: 'fr-FR' });
      const { page } = await newPage(context);
      await page.goto(`${live.server.url}/`);
      const header = page.getByRole('banner');
      const signIn = header.getByRole('link', { name: 'Se connecter' });
      const register = header.getByRole('link', { name: 'Créer un compte' });
      await signIn.waitFor();
      for (const button of [signIn, register]) {
        expect(await unusable(button)).toEqual([]);
        // one line of text: as high as the small button's minimum, not two lines
        expect((await button.boundingBox())!.height).toBeLessThanOrEqual(40);
      }
      expect((await signIn.boundingBox())!.y).toBe((await register.boundingBox())!.y);
      expect((await header.boundingBox())!.height).toBeLessThanOrEqual(64);
      await noSidewaysScroll(page);
      await screenshot(page, `nav-visitor-${size.name}`, { fullPage: false });
      await signIn.click();
      await page.waitForURL((u) => u.pathname === '/login');
      await context.close();
    }, 60_000);
  }

  it('the mobile menu closes on Escape (focus back on its button) and on a tap outside', async () => {
    const { context, page } = await loggedIn(member, SIZES[1]);
    await page.goto(`${live.server.url}/`);
    const toggle = page.getByRole('banner').getByRole('button', { name: 'Menu' });
    const nav = page.getByRole('navigation', { name: 'Navigation principale' });
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await nav.isVisible()).toBe(true);
    // the member has no Admin link
    expect(await nav.getByRole('link', { name: 'Admin' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    expect(await nav.isVisible()).toBe(false);
    expect(await toggle.evaluate((el) => el === document.activeElement)).toBe(true);
    // from the keyboard: Enter opens, Tab reaches the links in order
    await page.keyboard.press('Enter');
    expect(await nav.isVisible()).toBe(true);
    await page.keyboard.press('Tab'); // the brand
    await page.keyboard.press('Tab'); // the search field, first in the panel
    expect(await page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('search');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Accueil');
    await page.mouse.click(4, 700); // the page margin, under the panel
    await expect.poll(() => nav.isVisible()).toBe(false);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    // opening the notifications closes the menu: one panel at a time
    await toggle.click();
    await page
      .getByRole('banner')
      .getByRole('button', { name: /Notifications/ })
      .click();
    await expect.poll(() => nav.isVisible()).toBe(false);
    await expect.poll(() => page.getByText('Aucune notification').isVisible()).toBe(true);
    await context.close();
  }, 60_000);

  for (const size of SIZES) {
    it(`the add button offers filming or importing, each leads there (${size.name})`, async () => {
      const { context, page, errors } = await loggedIn(member, size);
      await page.goto(`${live.server.url}/`);
      const bar = page.getByRole('navigation', { name: 'Barre de navigation' });
      const add = bar.getByRole('button', { name: 'Ajouter une vidéo' });
      const film = bar.getByRole('link', { name: /Filmer une vidéo/ });
      const importer = bar.getByRole('link', { name: /Importer une vidéo/ });
      expect(await film.isVisible()).toBe(false);

      await add.click();
      expect(await add.getAttribute('aria-expanded')).toBe('true');
      for (const choice of [film, importer]) expect(await unusable(choice)).toEqual([]);
      await noSidewaysScroll(page);
      await screenshot(page, `nav-add-sheet-${size.name}`, { fullPage: false });

      // Escape closes it and gives the focus back; a click outside closes it too
      await page.keyboard.press('Escape');
      expect(await film.isVisible()).toBe(false);
      expect(await add.evaluate((el) => el === document.activeElement)).toBe(true);
      await add.click();
      await page.getByRole('heading', { level: 1 }).click();
      await expect.poll(() => film.isVisible()).toBe(false);

      // from the keyboard: Enter opens it, Tab goes to "Filmer une vidéo", Enter follows it
      await add.focus();
      await page.keyboard.press('Enter');
      await page.keyboard.press('Tab');
      expect(await film.evaluate((el) => el === document.activeElement)).toBe(true);
      await page.keyboard.press('Enter');
      await page.waitForURL((u) => u.pathname === '/create');
      await page.getByRole('heading', { level: 1, name: 'Créer une Vidéo' }).waitFor();
      expect(await film.isVisible()).toBe(false);

      await add.click();
      await importer.click();
      await page.waitForURL((u) => u.pathname === '/upload/video');
      await page.getByLabel('Fichier vidéo').waitFor();
      expect(realErrors(errors)).toEqual([]);
      await context.close();
    }, 60_000);

    it(`the home page shows videos under the carousel, whose first slide is not the Live placeholder (${size.name})`, async () => {
      const { context, page, errors } = await loggedIn(member, size);
      await page.goto(`${live.server.url}/`);
      const carousel = page.getByRole('region', { name: 'À la une' });
      const firstSlide = carousel.locator('.carousel__slide:not([hidden]) a');
      expect(await firstSlide.getAttribute('href')).toBe('/create');
      expect(await carousel.getByRole('link', { name: /Démarrer un Live/ }).isVisible()).toBe(false);

      const section = page.getByRole('region', { name: 'Vidéos à découvrir' });
      const tiles = section.getByRole('link', { name: /, par @/ });
      await expect.poll(() => tiles.count()).toBeGreaterThan(0);
      // real videos, with their sources, under the carousel
      const video = section.locator('video').first();
      expect(await video.getAttribute('src')).toMatch(/^\/uploads\//);
      await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThan(0);
      expect((await section.boundingBox())!.y).toBeGreaterThan((await carousel.boundingBox())!.y);
      // the member's own video is not suggested to them, the other member's is
      expect(await tiles.first().getAttribute('aria-label')).not.toContain(member.pseudo);
      await noSidewaysScroll(page);
      await section.scrollIntoViewIfNeeded();
      await screenshot(page, `nav-home-videos-${size.name}`, { fullPage: false });

      const href = await tiles.first().getAttribute('href');
      expect(href).toMatch(/^\/video\/\d+$/);
      await tiles.first().click();
      await page.waitForURL((u) => u.pathname === href);
      expect(realErrors(errors)).toEqual([]);
      await context.close();
    }, 60_000);
  }

  it('a visitor is asked to log in to see the videos of the home page', async () => {
    const context = await live.browser.newContext({ viewport: SIZES[1].viewport, locale: 'fr-FR' });
    const { page } = await newPage(context);
    await page.goto(`${live.server.url}/`);
    const section = page.getByRole('region', { name: 'Vidéos à découvrir' });
    await section.getByText('Connecte-toi pour voir les vidéos').waitFor();
    expect(await section.getByRole('link', { name: 'Se connecter' }).isVisible()).toBe(true);
    await context.close();
  }, 60_000);
  for (const size of SIZES) {
    it(`on the video page: the comment placeholder fits, "Supprimer" stays in the side bar, a toast leaves the top bar free (${size.name})`, async () => {
      const { context, page, errors } = await loggedIn(member, size);
      await page.goto(`${live.server.url}/video/${ownVideoId}`);
      const box = page.getByLabel('Ton commentaire');
      await box.waitFor();

      // the placeholder is drawn on one line inside the input, not cut off
      const fit = await box.evaluate((el: HTMLTextAreaElement) => {
        const style = getComputedStyle(el);
        const context2d = document.createElement('canvas').getContext('2d')!;
        context2d.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return { text: el.placeholder, width: context2d.measureText(el.placeholder).width, room };
      });
      expect(fit.text).not.toBe('');
      expect(fit.width, JSON.stringify(fit)).toBeLessThanOrEqual(fit.room);

      // every label of the side action bar stays inside its button and the bar
      const bar = page.getByRole('group', { name: 'Actions sur la vidéo' });
      const remove = bar.getByRole('button', { name: 'Supprimer' });
      expect(await unusable(remove)).toEqual([]);
      const overflowing = await bar.evaluate((el) =>
        [...el.querySelectorAll<HTMLElement>('.video-action')]
          .filter((button) => button.scrollWidth > button.clientWidth + 0.5)
          .map((button) => button.textContent),
      );
      expect(overflowing).toEqual([]);
      await noSidewaysScroll(page);
      await screenshot(page, `nav-video-page-${size.name}`, { fullPage: false });

      // a toast shows under the top bar: the bar's controls stay visible and clickable
      await bar.getByRole('button', { name: 'Favori' }).click();
      const toast = page.locator('.toast').first();
      await toast.waitFor();
      const header = (await page.getByRole('banner').boundingBox())!;
      expect((await toast.boundingBox())!.y).toBeGreaterThanOrEqual(header.y + header.height);
      const banner = page.getByRole('banner');
      for (const control of [
        banner.getByRole('link', { name: 'EVO' }),
        banner.getByRole('button', { name: /Notifications/ }),
        mobile(size)
          ? banner.getByRole('button', { name: 'Menu' })
          : banner.getByRole('button', { name: 'Déconnexion' }),
      ])
        expect(await unusable(control)).toEqual([]);
      await screenshot(page, `nav-toast-${size.name}`, { fullPage: false });
      expect(realErrors(errors)).toEqual([]);
      await context.close();
    }, 60_000);
  }
});
