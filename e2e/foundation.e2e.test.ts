import { describe, it, expect, beforeAll } from 'vitest';
import path from 'node:path';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';

import { APP_ROUTE_PATHS } from '@evo/contracts';
import { ASSETS, Client, PNG_1PX, newMember } from '@evo/command-api/testing/test-server';
import { browserSkipReason, newPage, screenshot, fillLogin, logInAs } from './harness';
import { serverAndBrowser, slowUplink, ADMIN, login } from './helpers';

const skip = browserSkipReason();
if (skip) console.warn(skip);

/**
 * Every route the client-side router answers (contracts' APP_ROUTE_PATHS, so that this walk cannot
 * drift from the router), with sample parameters. The visitor's screens are walked logged out.
 */
const VISITOR_ROUTES = new Set<string>(['/login', '/register', '/mot-de-passe-oublie', '/nouveau-mot-de-passe']);
const withSamples = (route: string, member: { pseudo: string; email: string }) =>
  route
    .replace(':pseudo', member.pseudo)
    .replace(':email', encodeURIComponent(member.email))
    // a conversation's id is the other party's pseudo; elsewhere :id is the first video's
    .replace(':id', route.startsWith('/conversation/') ? member.pseudo : '1');

describe.skipIf(!!skip)('web shell in a real browser', () => {
  const live = serverAndBrowser();
  let files: { picture: string; video: string };
  const member = newMember({ bio: 'Je suis une membre de test' });

  beforeAll(async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'evo-e2e-files-'));
    files = { picture: path.join(dir, 'photo.png'), video: path.join(ASSETS, 'demo/demo-3.mp4') };
    await writeFile(files.picture, PNG_1PX);
  }, 180_000);

  it('registers with picture and video, logs in, and shows the member bars', async () => {
    const context = await live.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, errors } = await newPage(context);
    await page.goto(`${live.server.url}/register`);
    const submit = page.getByRole('button', { name: 'Créer mon compte' });
    await page.getByLabel('Email').fill(member.email);
    await page.getByLabel('Pseudo').fill(member.pseudo);
    await page.getByLabel('Mot de passe', { exact: true }).fill(member.password);
    await page.getByLabel('Confirmer le mot de passe').fill(member.password + 'x');
    await page.getByLabel('Bio').fill(member.bio);
    await page.getByLabel('Photo de profil').setInputFiles(files.picture);
    await page.getByLabel('Vidéo', { exact: true }).setInputFiles(files.video);
    await page.getByLabel('Titre de la vidéo').fill(member.video_title);
    await expect.poll(() => page.getByText('❌ Les mots de passe ne correspondent pas.').isVisible()).toBe(true);
    await page.getByLabel('Confirmer le mot de passe').fill(member.password);
    expect(await submit.isEnabled()).toBe(true);
    await screenshot(page, 'e2e-register-filled');
    await submit.click();
    // issue 30: logged in at once, on the new profile (no detour by the login page)
    await page.waitForURL(`**/user/${member.pseudo}`, { timeout: 30_000 });
    const stored = await page.evaluate(() => localStorage.getItem('currentUser'));
    expect(JSON.parse(stored ?? '{}')).toMatchObject({ email: member.email, pseudo: member.pseudo });

    await page.goto(`${live.server.url}/`);
    const top = page.getByRole('banner');
    for (const name of ['Amis', 'Pour toi', 'Mon profil', 'Messages', 'Coffre']) {
      expect(await top.getByRole('link', { name, exact: true }).isVisible()).toBe(true);
    }
    expect(await top.getByRole('link', { name: 'Admin' }).count()).toBe(0);
    expect(await top.getByRole('button', { name: /Notifications/ }).isVisible()).toBe(true);
    expect(await top.getByRole('button', { name: 'Déconnexion' }).isVisible()).toBe(true);
    const bottom = page.getByRole('navigation', { name: 'Barre de navigation' });
    for (const name of ['Accueil', 'Ami(e)s', 'Messages', 'Profil']) {
      expect(await bottom.getByRole('link', { name, exact: true }).isVisible()).toBe(true);
    }
    expect(await bottom.getByRole('button', { name: 'Ajouter une vidéo' }).isVisible()).toBe(true);
    // the carousel advances by itself every 5 s
    const visibleSlide = () => page.locator('.carousel__slide:not([hidden]) .carousel__title').textContent();
    expect(await visibleSlide()).toBe('Créer une Vidéo');
    await page.mouse.move(0, 0);
    await expect.poll(visibleSlide, { timeout: 8000, interval: 250 }).toBe('Importer depuis la Galerie');
    await screenshot(page, 'e2e-home-member');
    expect(errors).toEqual([]);

    // logout ends the server session and goes to /login
    await top.getByRole('button', { name: 'Déconnexion' }).click();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('currentUser'))).toBeNull();
    const me = await page.evaluate(() => fetch('/api/auth/me').then((r) => r.status));
    expect(me).toBe(401);
    await context.close();
  }, 90_000);

  it('shows the Admin link to the administrator only, on a light bar under /admin', async () => {
    const context = await live.browser.newContext();
    const { page } = await newPage(context);
    await logInAs(page, live.server.url, ADMIN);
    await page.goto(`${live.server.url}/`);
    const admin = page.getByRole('banner').getByRole('link', { name: 'Admin' });
    await expect.poll(() => admin.isVisible()).toBe(true);
    expect(await page.locator('.topbar--dark').count()).toBe(1);
    await admin.click();
    await page.waitForURL('**/admin');
    await expect.poll(() => page.locator('.topbar--light').count()).toBe(1);
    await screenshot(page, 'e2e-admin-light-bar');
    await context.close();
  }, 60_000);

  it('uploads a video with a progress bar; it appears on the profile', async () => {
    const context = await live.browser.newContext();
    const { page, errors } = await newPage(context);
    const c = new Client(live.server.url);
    await c.post('/api/auth/login', { email: member.email, password: member.password });
    await login(page, live.server.url, member);
    await page.goto(`${live.server.url}/upload/video`);
    await page.getByLabel('Titre').fill('Vidéo importée');
    await page.getByRole('button', { name: 'Publier', exact: true }).click();
    await expect.poll(() => page.getByText('Choisis une vidéo.').isVisible()).toBe(true);
    await page.getByLabel('Fichier vidéo').setInputFiles(files.video);
    // a slow uplink, so that the progress bar is seen moving
    const fullSpeed = await slowUplink(context, page, 16 * 1024);
    await page.getByRole('button', { name: 'Publier', exact: true }).click();
    const bar = page.getByRole('progressbar');
    await expect.poll(() => bar.isVisible(), { interval: 50 }).toBe(true);
    await screenshot(page, 'e2e-upload-progress');
    await fullSpeed();
    await expect.poll(() => page.getByText('Vidéo envoyée avec succès !').isVisible(), { timeout: 20_000 }).toBe(true);
    await screenshot(page, 'e2e-upload-done');
    // the page's upload, read by the test's own client
    await live.server.settle();
    const profile = await c.get(`/api/users/profile/${member.pseudo}`);
    expect((profile.json.videos as Array<{ title: string }>).map((v) => v.title)).toContain('Vidéo importée');
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it('answers every route of the table without a console error, and a French 404 elsewhere', async () => {
    const context = await live.browser.newContext();
    const { page, errors } = await newPage(context);
    const visit = async (route: string) => {
      const url = withSamples(route, member);
      const res = await page.goto(live.server.url + url);
      expect(res?.status(), url).toBe(200);
      await page.waitForLoadState('networkidle');
      // a screen may still be rendering its first answer when the network is idle
      await expect
        .poll(() => page.getByRole('heading').first().isVisible(), { message: `${url} shows a heading` })
        .toBe(true);
      expect(await page.getByText('Page introuvable').count(), `${url} is a known route`).toBe(0);
    };
    for (const route of VISITOR_ROUTES) await visit(route);
    await login(page, live.server.url, member);
    const memberRoutes = APP_ROUTE_PATHS.filter((r) => !VISITOR_ROUTES.has(r) && !r.startsWith('/admin'));
    for (const route of memberRoutes) await visit(route);
    // the back-office as its administrator
    await page.goto(`${live.server.url}/`);
    await page.getByRole('button', { name: 'Déconnexion' }).click();
    await page.waitForURL('**/login');
    await fillLogin(page, ADMIN);
    await page.waitForURL((u) => !u.pathname.startsWith('/login'));
    for (const route of APP_ROUTE_PATHS.filter((r) => r.startsWith('/admin'))) await visit(route);
    // an unknown path is answered 404 (the browser logs that status), with the French page
    const unknown = await page.goto(`${live.server.url}/nimporte/quoi`);
    expect(unknown?.status()).toBe(404);
    await expect.poll(() => page.getByText('Page introuvable').isVisible()).toBe(true);
    await screenshot(page, 'e2e-404');
    // camera denial on /test is only logged (console.warn), never an error
    expect(errors.filter((e) => !e.startsWith(`${live.server.url}/nimporte/quoi: Failed to load resource`))).toEqual(
      [],
    );
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
    await context.close();
  }, 300_000);

  it('is usable at 375x812 with the bottom bar', async () => {
    const context = await live.browser.newContext({
      viewport: { width: 375, height: 812 },
      isMobile: true,
      hasTouch: true,
    });
    const { page } = await newPage(context);
    await login(page, live.server.url, member);
    await page.goto(`${live.server.url}/`);
    const bar = page.getByRole('navigation', { name: 'Barre de navigation' });
    const box = await bar.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.y + box!.height).toBeLessThanOrEqual(812 + 1);
    expect(box!.y).toBeGreaterThan(600);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await bar.getByRole('button', { name: 'Ajouter une vidéo' }).tap();
    await bar.getByRole('link', { name: /Importer une vidéo/ }).tap();
    await page.waitForURL('**/upload/video');
    await screenshot(page, 'e2e-mobile-upload');
    await context.close();
  }, 60_000);
});
