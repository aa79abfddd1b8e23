import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DEMO_ADMIN_EMAIL, DEMO_ADMIN_PASSWORD } from '@evo/infra';
import { Client, registerAndLogin, type Registration, type TestServer } from '../command-api/src/testing/test-server';
import { browserSkipReason, launchBrowser, newPage, screenshot, startE2eServer } from './harness';

const skip = browserSkipReason();
const SANCTION = 'Votre vidéo a été restreinte pour non-conformité';
const stat = (page: Page, label: string) => page.locator('.admin-stat', { has: page.getByText(label, { exact: true }) }).locator('.admin-stat__value').textContent();
const realErrors = (errors: string[]) => errors.filter((e) => !e.includes('Failed to load resource'));

describe.skipIf(!!skip)('back-office screens against the real server', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let author: { client: Client; member: Registration };
  let reporter: { client: Client; member: Registration };
  let videoId: number;

  beforeAll(async () => {
    server = await startE2eServer();
    browser = await launchBrowser();
    [author, reporter] = await Promise.all([registerAndLogin(server.url), registerAndLogin(server.url)]);
    const profile = await reporter.client.get(`/api/users/profile/${author.member.pseudo}`);
    videoId = (profile.json.videos as Array<{ id: number }>)[0].id;
    expect((await reporter.client.post(`/api/report/${videoId}`, { reason: 'Contenu choquant' })).status).toBe(201);
    const ctx = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    ({ page, errors } = await newPage(ctx));
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Email').fill(DEMO_ADMIN_EMAIL);
    await page.getByLabel('Mot de passe').fill(DEMO_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.waitForURL((u) => !u.pathname.startsWith('/login'));
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('moves a report to Traitée with a sanction; the author is notified; hiding the video removes it, making it public restores it', async () => {
    await page.goto(`${server.url}/admin/reports`);
    await page.getByRole('heading', { name: 'Signalements à traiter' }).waitFor();
    const card = page.locator('article', { hasText: author.member.video_title }).first();
    await expect.poll(() => card.locator('.status-badge').textContent()).toBe('En attente');
    expect(await card.getByText('Contenu choquant').isVisible()).toBe(true);
    expect(await card.getByText(reporter.member.pseudo).first().isVisible()).toBe(true);
    expect(await card.getByRole('link', { name: author.member.video_title }).getAttribute('href')).toBe(`/video/${videoId}`);
    await card.getByLabel('Statut').selectOption({ label: 'Traitée' });
    await card.getByLabel("Message à l'auteur").selectOption({ label: SANCTION });
    await card.getByRole('button', { name: 'Envoyer la réponse' }).click();
    await expect.poll(() => page.getByText('Réponse envoyée ✅').first().isVisible()).toBe(true);
    await expect.poll(() => page.locator('article', { hasText: author.member.video_title }).first().locator('.status-badge').textContent()).toBe('Traitée');
    await screenshot(page, 'e2e-admin-reports');
    const notes = await author.client.get('/api/notifications');
    expect(notes.json).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'report_update', message: SANCTION })]));

    await page.locator('article', { hasText: author.member.video_title }).first().getByRole('button', { name: 'Masquer' }).click();
    await expect.poll(() => page.getByText('Vidéo mise à jour : masquée').first().isVisible()).toBe(true);
    expect((await reporter.client.get(`/api/videos/${videoId}`)).status).toBe(404);
    expect((await reporter.client.get(`/api/users/profile/${author.member.pseudo}`)).json.videos).toEqual([]);
    await page.locator('article', { hasText: author.member.video_title }).first().getByRole('button', { name: 'Rendre publique' }).click();
    await expect.poll(() => page.getByText('Vidéo mise à jour : publique').first().isVisible()).toBe(true);
    expect((await reporter.client.get(`/api/videos/${videoId}`)).status).toBe(200);
  }, 90_000);

  it('adds a gift to the catalogue (not in local mode), refusing an empty name', async () => {
    await page.goto(`${server.url}/admin/gifts`);
    const local = page.getByLabel('Mode local (sans BDD)');
    await local.waitFor();
    expect(await local.isChecked()).toBe(true);
    await local.uncheck();
    const form = page.locator('form', { has: page.getByRole('heading', { name: 'Ajouter un cadeau' }) });
    await form.getByRole('button', { name: 'Ajouter', exact: true }).click();
    await expect.poll(() => page.getByText('Nom requis').first().isVisible()).toBe(true);
    await form.getByLabel('Nom').fill('  Comète filante  ');
    await form.getByLabel('Prix (coins)').fill('7');
    await form.getByRole('button', { name: 'Ajouter', exact: true }).click();
    await expect.poll(async () => ((await new Client(server.url).get('/api/gifts/catalog')).json as unknown as Array<{ name: string; coin_cost: number }>).find((g) => g.name === 'Comète filante')?.coin_cost).toBe(7);
    await expect.poll(() => page.getByRole('list', { name: 'Cadeaux du catalogue' }).getByText('Comète filante').isVisible()).toBe(true);
    await screenshot(page, 'e2e-admin-gifts');
  }, 60_000);

  it('shows the general statistics, and as they were at a past date', async () => {
    await page.goto(`${server.url}/admin/stats/general`);
    await expect.poll(() => stat(page, 'Utilisateurs')).toBe('3');
    expect(await stat(page, 'Vidéos')).toBe('2');
    await page.getByLabel('Données au').fill('2020-01-01T00:00');
    await expect.poll(() => stat(page, 'Utilisateurs')).toBe('0');
    await screenshot(page, 'e2e-admin-stats');
    expect(realErrors(errors)).toEqual([]);
  }, 60_000);
});
