import { describe, it, expect } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { Client, registerAndLogin, type Registration } from '@evo/command-api/testing/test-server';
import { browserSkipReason, launchBrowser, loggedInPage, newPage, screenshot } from './harness';
import { DESKTOP, MOBILE, sidewaysOverflow, serverAndBrowser, slowUplink, login } from './helpers';

const skip = browserSkipReason();
const BUTTONS = ['Activer caméra', 'Démarrer', 'Pause', 'Reprendre', 'Arrêter', 'Supprimer', 'Recommencer', 'Publier'];

/** The recorder's buttons a person can press now, in the page's order. */
const enabledButtons = (page: Page) =>
  page.evaluate(
    (names) =>
      [...document.querySelectorAll<HTMLButtonElement>('.recorder__controls button')]
        .filter((b) => !b.disabled && b.getClientRects().length > 0)
        .map((b) => (b.textContent ?? '').trim())
        .filter((name) => names.includes(name)),
    BUTTONS,
  );
const elapsed = async (page: Page) => {
  const text = (await page.getByRole('timer').textContent()) ?? '';
  const match = /Écoulé : (\d+) s/.exec(text);
  expect(match, text).not.toBeNull();
  return Number(match![1]);
};
/** Keeps every MediaStream the pages of this context open, to check that their tracks get stopped. */
const keepStreams = (context: BrowserContext) =>
  context.addInitScript(() => {
    const streams: MediaStream[] = [];
    (window as unknown as { __streams: MediaStream[] }).__streams = streams;
    const devices = navigator.mediaDevices;
    if (!devices?.getUserMedia) return;
    const original = devices.getUserMedia.bind(devices);
    devices.getUserMedia = async (constraints?: MediaStreamConstraints) => {
      const stream = await original(constraints);
      streams.push(stream);
      return stream;
    };
  });
const tracks = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { __streams: MediaStream[] }).__streams.flatMap((stream) =>
      stream.getTracks().map((track) => `${track.kind}:${track.readyState}`),
    ),
  );

describe.skipIf(!!skip)('recorder against the real server', () => {
  const live = serverAndBrowser();

  it('records about 2 s with a filter, previews, publishes: the video is on the profile', async () => {
    const { member } = await registerAndLogin(live.server.url);
    const context = await live.browser.newContext();
    const { page, errors } = await newPage(context);
    const mediapipe: Array<{ url: string; status: number }> = [];
    page.on('response', (r) => {
      if (r.url().includes('/mediapipe/')) mediapipe.push({ url: r.url(), status: r.status() });
    });
    await login(page, live.server.url, member);
    // nothing of MediaPipe before /create
    await page.goto(`${live.server.url}/`);
    await page.waitForLoadState('networkidle');
    expect(mediapipe).toEqual([]);

    await page.goto(`${live.server.url}/create`);
    await page.getByRole('button', { name: 'Activer caméra' }).click();
    await page.getByRole('button', { name: 'Démarrer' }).and(page.locator(':enabled')).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Pirate' }).click();
    // face mesh comes from this server and initialises (the fake camera shows no face)
    await page.getByText('Aucun visage détecté.').waitFor({ timeout: 60_000 });
    expect(mediapipe.length).toBeGreaterThan(0);
    for (const r of mediapipe) {
      expect(new URL(r.url).origin).toBe(new URL(live.server.url).origin);
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

    const c = new Client(live.server.url);
    await c.post('/api/auth/login', { email: member.email, password: member.password });
    await live.server.settle(30_000);
    const profile = await c.get(`/api/users/profile/${member.pseudo}`);
    const published = (profile.json.videos as Array<Record<string, unknown>>).find((v) => v.title === 'Vidéo EVO');
    expect(published).toBeDefined();
    expect(String(published!.file_path)).toMatch(/\.webm$/);
    expect(published!.processing).toBe('prête');
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);
  let member: Registration;
  let client: Client;
  const loggedIn = async (viewport = DESKTOP) => {
    if (!member) ({ member, client } = await registerAndLogin(live.server.url));
    const opened = await loggedInPage(live.browser, live.server.url, member, viewport);
    await keepStreams(opened.context);
    return opened;
  };

  it('each step offers only its buttons; the camera, the filter canvas, pause and resume; the upload shows its progress; the description reaches the server', async () => {
    const { context, page, errors } = await loggedIn();
    const responses: Array<{ url: string; status: number }> = [];
    page.on('response', (r) => responses.push({ url: r.url(), status: r.status() }));
    await page.goto(`${live.server.url}/create`);
    await page.getByRole('heading', { level: 1, name: 'Créer une Vidéo' }).waitFor();
    expect(await page.title()).toBe('Créer une Vidéo · EVO');
    await expect.poll(() => enabledButtons(page)).toEqual(['Activer caméra']);
    const duration = page.getByLabel('Durée maximale');
    expect(await duration.inputValue()).toBe('30');
    expect(await duration.locator('option').evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value))).toEqual([
      '15',
      '30',
      '60',
    ]);
    expect(await page.getByRole('timer').textContent()).toMatch(/Écoulé : 0 s.*Restant : 30 s/);
    const filters = page.getByRole('group', { name: 'Filtres de visage' });
    const names = await filters.getByRole('button').allTextContents();
    expect(names.length, names.join(', ')).toBe(9);
    expect(names[0]).toBe('Aucun filtre');
    expect(await filters.getByRole('button', { name: 'Aucun filtre' }).getAttribute('aria-pressed')).toBe('true');
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLImageElement>('.filter-picker img')].every(
        (img) => img.complete && img.naturalWidth > 0,
      ),
    );

    // nothing of MediaPipe before the camera is asked for
    expect(responses.filter((r) => r.url.includes('/mediapipe/'))).toEqual([]);
    await page.getByRole('button', { name: 'Activer caméra' }).click();
    await page.getByRole('button', { name: 'Démarrer' }).and(page.locator(':enabled')).waitFor({ timeout: 30_000 });
    expect(await enabledButtons(page)).toEqual(['Démarrer']);
    const settings = await page.evaluate(() => {
      const streams = (window as unknown as { __streams: MediaStream[] }).__streams;
      const stream = streams[streams.length - 1];
      const video = stream.getVideoTracks()[0].getSettings();
      return { width: video.width, height: video.height, audio: stream.getAudioTracks().length };
    });
    expect(settings).toEqual({ width: 640, height: 480, audio: 1 });
    await page.getByRole('button', { name: 'Pirate' }).click();
    expect(await page.getByRole('button', { name: 'Pirate' }).getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByRole('button', { name: 'Aucun filtre' }).getAttribute('aria-pressed')).toBe('false');
    const canvas = page.locator('canvas');
    expect(await canvas.getAttribute('aria-label')).toBe('Image de la caméra avec le filtre Pirate');
    expect(await canvas.evaluate((c: HTMLCanvasElement) => [c.width, c.height])).toEqual([320, 220]);
    // the canvas shows the camera's frames (the fake camera is not black)
    await page.waitForFunction(() => {
      const c = document.querySelector('canvas')!;
      const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let lit = 0;
      for (let i = 0; i < data.length; i += 4 * 97) if (data[i] + data[i + 1] + data[i + 2] > 120) lit += 1;
      return lit > 50;
    });

    await page.getByRole('button', { name: 'Démarrer' }).click();
    const stage = page.locator('.recorder__stage--recording');
    await stage.waitFor();
    expect(await stage.evaluate((el) => getComputedStyle(el).borderTopColor)).toBe('rgb(225, 6, 0)');
    expect(await enabledButtons(page)).toEqual(['Pause', 'Arrêter']);
    expect(await duration.isDisabled()).toBe(true);
    await expect.poll(() => elapsed(page), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    await page.getByRole('button', { name: 'Pause' }).click();
    expect(await enabledButtons(page)).toEqual(['Reprendre', 'Arrêter']);
    expect(await stage.count()).toBe(1); // paused still counts as recording
    const pausedAt = await elapsed(page);
    await screenshot(page, 'recorder-paused', { fullPage: false });
    await page.getByRole('button', { name: 'Reprendre' }).click();
    expect(await enabledButtons(page)).toEqual(['Pause', 'Arrêter']);
    await expect.poll(() => elapsed(page), { timeout: 10_000 }).toBeGreaterThan(pausedAt);
    await page.getByRole('button', { name: 'Arrêter' }).click();

    const preview = page.locator('video.recorder__preview');
    await preview.waitFor();
    expect(await stage.count()).toBe(0);
    expect(await preview.getAttribute('src')).toMatch(/^blob:/);
    expect(await preview.getAttribute('controls')).toBe('');
    expect(await enabledButtons(page)).toEqual(['Supprimer', 'Recommencer', 'Publier']);
    await expect
      .poll(() => preview.evaluate((v: HTMLVideoElement) => [v.videoWidth, v.videoHeight]), { timeout: 10_000 })
      .toEqual([320, 220]);
    const all = await tracks(page);
    expect(all.length).toBeGreaterThanOrEqual(2);
    expect(
      all.every((t) => t.endsWith(':ended')),
      all.join(', '),
    ).toBe(true);

    // a slow uplink, so that the progress bar is seen
    const fullSpeed = await slowUplink(context, page, 32 * 1024);
    await page.getByRole('button', { name: 'Publier' }).click();
    await page.getByRole('progressbar', { name: 'Envoi de la vidéo' }).waitFor();
    await screenshot(page, 'recorder-publishing', { fullPage: false });
    await fullSpeed();
    await page.getByText('Vidéo publiée !').waitFor({ timeout: 60_000 });
    await preview.waitFor({ state: 'detached' });
    expect(await enabledButtons(page)).toEqual(['Activer caméra']);
    // the server keeps the recorded webm (an EBML header, more than 10 kB) with the recorder's description
    let published: { description: string; file_path: string; processing: string; duration: number } | undefined;
    await expect
      .poll(
        async () => {
          const videos = (await client.get(`/api/users/profile/${member.pseudo}`)).json.videos as Array<
            NonNullable<typeof published>
          >;
          published = videos.find((v) => v.description === 'Vidéo enregistrée avec EVO');
          return published?.processing;
        },
        { timeout: 30_000 },
      )
      .toBe('prête');
    // more than the second waited for before the pause (the server measures the file)
    expect(published!.duration).toBeGreaterThan(1);
    const file = Buffer.from(await (await fetch(`${live.server.url}${published!.file_path}`)).arrayBuffer());
    expect(file.subarray(0, 4).toString('hex')).toBe('1a45dfa3');
    expect(file.length).toBeGreaterThan(10 * 1024);
    // every file came from this server, none is missing
    const origin = new URL(live.server.url).origin;
    expect(
      responses.filter(
        (r) => !r.url.startsWith('data:') && !r.url.startsWith('blob:') && new URL(r.url).origin !== origin,
      ),
    ).toEqual([]);
    expect(responses.filter((r) => r.status >= 400 && !new URL(r.url).pathname.startsWith('/api/'))).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);

  it('on a phone, by keyboard: 15 s stops by itself; Recommencer and Supprimer clear the recording and stop the camera', async () => {
    const { context, page, errors } = await loggedIn(MOBILE);
    let uploads = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/api/videos/upload')) uploads += 1;
    });
    await page.goto(`${live.server.url}/create`);
    await page.getByRole('heading', { level: 1, name: 'Créer une Vidéo' }).waitFor();
    let focused = '';
    for (let i = 0; i < 40 && focused !== 'Activer caméra'; i += 1) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    }
    expect(focused).toBe('Activer caméra');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Démarrer' }).and(page.locator(':enabled')).waitFor({ timeout: 30_000 });
    await page.getByLabel('Durée maximale').selectOption('15');
    await page.getByRole('button', { name: 'Lion' }).click();
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'recorder-mobile', { fullPage: false });
    await page.getByRole('button', { name: 'Démarrer' }).click();
    await page.locator('video.recorder__preview').waitFor({ timeout: 60_000 });
    expect(await elapsed(page)).toBe(15);
    expect(await page.getByRole('timer').textContent()).toMatch(/Restant : 0 s/);

    await page.getByRole('button', { name: 'Recommencer' }).click();
    await page.locator('video.recorder__preview').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Démarrer' }).and(page.locator(':enabled')).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Démarrer' }).click();
    await expect.poll(() => elapsed(page), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    await page.getByRole('button', { name: 'Arrêter' }).click();
    await page.locator('video.recorder__preview').waitFor();
    await page.getByRole('button', { name: 'Supprimer' }).click();
    await page.locator('video.recorder__preview').waitFor({ state: 'detached' });
    expect(await enabledButtons(page)).toEqual(['Activer caméra']);
    expect(await elapsed(page)).toBe(0);
    const all = await tracks(page);
    expect(
      all.every((t) => t.endsWith(':ended')),
      all.join(', '),
    ).toBe(true);
    expect(uploads).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);

  it('the camera test page shows a mirrored picture without sound and lets the camera go when left; the test video plays', async () => {
    const { context, page, errors } = await loggedIn();
    await page.goto(`${live.server.url}/test`);
    await page.getByRole('heading', { level: 1, name: 'Test caméra' }).waitFor();
    const camera = page.locator('video.camera-test__video');
    await page.locator('video[data-status="live"]').waitFor();
    await page.waitForFunction(
      () => (document.querySelector('video.camera-test__video') as HTMLVideoElement).videoWidth > 0,
    );
    expect(
      await camera.evaluate((video: HTMLVideoElement) => ({
        transform: getComputedStyle(video).transform,
        audio: (video.srcObject as MediaStream).getAudioTracks().length,
        width: video.videoWidth,
      })),
    ).toEqual({ transform: 'matrix(-1, 0, 0, 1, 0, 0)', audio: 0, width: 640 });
    await page.getByRole('link', { name: 'Accueil', exact: true }).first().click();
    await page.waitForURL((u) => u.pathname === '/');
    await expect.poll(async () => (await tracks(page)).every((t) => t.endsWith(':ended'))).toBe(true);
    expect((await tracks(page)).length).toBeGreaterThan(0);

    await page.goto(`${live.server.url}/test-video`);
    await page.getByRole('heading', { level: 1, name: 'Vidéo de test' }).waitFor();
    const player = page.locator('video.test-video__player');
    expect(await player.getAttribute('src')).toBe('/samples/evo-sample.mp4');
    expect(await player.getAttribute('controls')).toBe('');
    await page.waitForFunction(() => {
      const v = document.querySelector<HTMLVideoElement>('video.test-video__player');
      return !!v && (v.readyState >= 2 || v.error !== null);
    });
    const sample = await player.evaluate((video: HTMLVideoElement) => ({
      duration: video.duration,
      width: video.videoWidth,
      error: video.error?.code ?? null,
      maxHeight: getComputedStyle(video).maxHeight,
    }));
    expect(sample.error).toBeNull();
    expect(sample.duration).toBeGreaterThan(3);
    expect(sample.duration).toBeLessThan(5);
    expect(sample.width).toBeGreaterThan(0);
    expect(sample.maxHeight).toBe('400px');
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);

  it('a refused camera: "Accès caméra refusé" on /create, only a console warning on /test', async () => {
    if (!member) ({ member, client } = await registerAndLogin(live.server.url));
    const refusing = await launchBrowser({ refuseCamera: true });
    try {
      const { context, page } = await loggedInPage(refusing, live.server.url, member, DESKTOP);
      const warnings: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'warning') warnings.push(m.text());
      });
      await page.goto(`${live.server.url}/create`);
      await page.getByRole('button', { name: 'Activer caméra' }).click();
      await page.getByRole('alert').getByText('Accès caméra refusé', { exact: true }).waitFor();
      expect(await enabledButtons(page)).toEqual(['Activer caméra']);
      await screenshot(page, 'recorder-camera-refused', { fullPage: false });
      await page.goto(`${live.server.url}/test`);
      await page.getByRole('heading', { level: 1, name: 'Test caméra' }).waitFor();
      await page.locator('video[data-status="unavailable"]').waitFor();
      await expect.poll(() => warnings.some((w) => w.includes('Test caméra'))).toBe(true);
      expect(await page.locator('.toast').count()).toBe(0);
      await context.close();
    } finally {
      await refusing.close();
    }
  }, 90_000);
});
