import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { Client, registerAndLogin, type TestServer } from '@evo/command-api/testing/test-server';
import { browserSkipReason, launchBrowser, newPage, screenshot, startE2eServer } from './harness';

const skip = browserSkipReason();

describe.skipIf(!!skip)('recorder against the real server', () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startE2eServer();
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('records about 2 s with a filter, previews, publishes: the video is on the profile', async () => {
    const { member } = await registerAndLogin(server.url);
    const context = await browser.newContext();
    const { page, errors } = await newPage(context);
    const mediapipe: Array<{ url: string; status: number }> = [];
    page.on('response', (r) => {
      if (r.url().includes('/mediapipe/')) mediapipe.push({ url: r.url(), status: r.status() });
    });
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Email').fill(member.email);
    await page.getByLabel('Mot de passe').fill(member.password);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.waitForURL(`**/user/${member.pseudo}`);
    // nothing of MediaPipe before /create
    await page.goto(`${server.url}/`);
    await page.waitForLoadState('networkidle');
    expect(mediapipe).toEqual([]);

    await page.goto(`${server.url}/create`);
    await page.getByRole('button', { name: 'Activer caméra' }).click();
    await page.getByRole('button', { name: 'Démarrer' }).and(page.locator(':enabled')).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Pirate' }).click();
    // face mesh comes from this server and initialises (the fake camera shows no face)
    await page.getByText('Aucun visage détecté.').waitFor({ timeout: 60_000 });
    expect(mediapipe.length).toBeGreaterThan(0);
    for (const r of mediapipe) {
      expect(new URL(r.url).origin).toBe(new URL(server.url).origin);
      expect(r.status).toBe(200);
    }
    await page.getByRole('button', { name: 'Démarrer' }).click();
    await page.waitForTimeout(2200);
    await screenshot(page, 'e2e-create-recording');
    await page.getByRole('button', { name: 'Arrêter' }).click();
    const preview = page.locator('video[src^="blob:"]');
    await preview.waitFor();
    await page.getByRole('button', { name: 'Publier' }).click();
    await page.getByText('Vidéo publiée !').waitFor({ timeout: 30_000 });
    await screenshot(page, 'e2e-create-published');

    const c = new Client(server.url);
    await c.post('/api/auth/login', { email: member.email, password: member.password });
    await server.deps.jobs.drain(30_000);
    const profile = await c.get(`/api/users/profile/${member.pseudo}`);
    const published = (profile.json.videos as Array<Record<string, unknown>>).find((v) => v.title === 'Vidéo EVO');
    expect(published).toBeDefined();
    expect(String(published!.file_path)).toMatch(/\.webm$/);
    expect(published!.processing).toBe('prête');
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);
});
