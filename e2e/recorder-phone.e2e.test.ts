/**
 * Issue 30, minor "Recorder on a phone": on a phone held upright the recorder films vertically
 * (9:16: the camera is asked for a portrait picture, the canvas and the stage are 9:16), one main
 * round record button leads and the others are small beside it, and the video is named before
 * "Publier" (the upload's rules: a title is required). A wide screen keeps the product's 320x220
 * frame. At 1280x800 and 390x844. Screenshots: artifacts/screens/recorder-phone-*.png.
 */
import { describe, it, expect } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { registerAndLogin } from '@evo/command-api/testing/test-server';
import { browserSkipReason, loggedInPage, screenshot } from './harness';
import { SIZES, coveredBy, realErrors, serverAndBrowser, sidewaysOverflow, toast } from './helpers';

const skip = browserSkipReason();

/** Keeps the video constraints of every getUserMedia call of the context's pages. */
const keepConstraints = (context: BrowserContext) =>
  context.addInitScript(() => {
    const asked: unknown[] = [];
    (window as unknown as { __asked: unknown[] }).__asked = asked;
    const devices = navigator.mediaDevices;
    if (!devices?.getUserMedia) return;
    const original = devices.getUserMedia.bind(devices);
    devices.getUserMedia = (constraints?: MediaStreamConstraints) => {
      asked.push(constraints?.video ?? null);
      return original(constraints);
    };
  });
const lastAsked = (page: Page) =>
  page.evaluate(() => {
    const asked = (window as unknown as { __asked: unknown[] }).__asked;
    return asked[asked.length - 1] as Record<string, unknown>;
  });

/** Where an element is on the screen as it is now (no scrolling). */
const box = (page: Page, selector: string) =>
  page.locator(selector).evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, width: r.width, height: r.height };
  });

describe.skipIf(!!skip)('recorder: vertical on a phone, one record button, a title before Publier', () => {
  const live = serverAndBrowser();

  for (const size of SIZES) {
    const phone = size.name === 'mobile';
    it(`films ${phone ? 'vertically (9:16)' : 'in the 320x220 frame'}, leads with one record button, asks for a title (${size.name})`, async () => {
      const { member, client } = await registerAndLogin(live.server.url);
      const { context, page, errors } = await loggedInPage(live.browser, live.server.url, member, size.viewport);
      await keepConstraints(context);
      const uploads: string[] = [];
      page.on('request', (r) => {
        if (r.url().endsWith('/api/videos/upload')) uploads.push(r.url());
      });
      await page.goto(`${live.server.url}/create`);
      await page.getByRole('button', { name: 'Activer caméra' }).click();
      await page.getByRole('button', { name: 'Démarrer' }).and(page.locator(':enabled')).waitFor({ timeout: 30_000 });

      const canvas = page.locator('canvas.recorder__canvas');
      const stage = await box(page, '.recorder__stage');
      const asked = await lastAsked(page);
      if (phone) {
        expect(await canvas.evaluate((c: HTMLCanvasElement) => [c.width, c.height])).toEqual([180, 320]);
        expect(stage.width / stage.height).toBeCloseTo(9 / 16, 1);
        expect(asked).toMatchObject({ facingMode: 'user', aspectRatio: { ideal: 9 / 16 } });
      } else {
        expect(await canvas.evaluate((c: HTMLCanvasElement) => [c.width, c.height])).toEqual([320, 220]);
        expect(stage.width / stage.height).toBeCloseTo(320 / 220, 1);
        expect(asked).toMatchObject({ facingMode: 'user', width: 640, height: 480 });
      }

      // one main button: big, round, in view under the stage without scrolling, nothing over it
      await page.evaluate(() => window.scrollTo(0, 0));
      const records = page.locator('.recorder__record');
      expect(await records.count()).toBe(1);
      const record = await box(page, '.recorder__record-mark');
      expect(record.width).toBeGreaterThanOrEqual(64);
      expect(record.bottom).toBeLessThanOrEqual(size.viewport.height - (phone ? 64 : 0));
      expect(await coveredBy(page.getByRole('button', { name: 'Démarrer' }))).toEqual([]);
      for (const name of ['Pause', 'Activer caméra']) {
        const other = await page.getByRole('button', { name }).boundingBox();
        expect(other!.height, name).toBeLessThan(record.height);
      }
      // the row of the recording's actions too (disabled until there is one): above the bottom bar, unscrolled
      for (const name of ['Supprimer', 'Recommencer', 'Publier']) {
        const action = await page.getByRole('button', { name, exact: true }).boundingBox();
        expect(action!.y + action!.height, name).toBeLessThanOrEqual(size.viewport.height - (phone ? 64 : 0));
      }
      await screenshot(page, `recorder-phone-ready-${size.name}`, { fullPage: false });
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);

      await page.getByRole('button', { name: 'Démarrer' }).click();
      await page.getByRole('button', { name: 'Arrêter' }).waitFor();
      expect(await page.locator('.recorder__record').count()).toBe(1);
      // the timer counts the seconds (a loaded machine may show 1 then 3: a poll need not see each one)
      await expect
        .poll(
          async () => Number(/Écoulé : (\d+)/.exec((await page.getByRole('timer').textContent()) ?? '')?.[1] ?? -1),
          { timeout: 15_000 },
        )
        .toBeGreaterThanOrEqual(2);
      await screenshot(page, `recorder-phone-recording-${size.name}`, { fullPage: false });
      await page.getByRole('button', { name: 'Arrêter' }).click();
      const preview = page.locator('video.recorder__preview');
      await preview.waitFor();
      await expect
        .poll(() => preview.evaluate((v: HTMLVideoElement) => [v.videoWidth, v.videoHeight]), { timeout: 10_000 })
        .toEqual(phone ? [180, 320] : [320, 220]);

      // named before Publier: SPEC's title offered, the member's own taken; none is refused
      const title = page.getByLabel('Titre de la vidéo');
      expect(await title.inputValue()).toBe('Vidéo EVO');
      await title.fill('   ');
      await page.getByRole('button', { name: 'Publier' }).click();
      await toast(page, 'Le titre de la vidéo est obligatoire.').waitFor();
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('recorder-title-input');
      expect(uploads).toEqual([]);
      const mine = `Mon clip ${size.name}`;
      await title.fill(mine);
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `recorder-phone-title-${size.name}`, { fullPage: false });
      expect(await coveredBy(page.getByRole('button', { name: 'Publier' }))).toEqual([]);
      await page.getByRole('button', { name: 'Publier' }).click();
      await toast(page, 'Vidéo publiée !').waitFor({ timeout: 30_000 });
      expect(uploads).toHaveLength(1);
      await expect
        .poll(async () =>
          ((await client.get(`/api/users/profile/${member.pseudo}`)).json.videos as Array<{ title: string }>).map(
            (v) => v.title,
          ),
        )
        .toContain(mine);
      expect(realErrors(errors)).toEqual([]);
      await context.close();
    }, 180_000);
  }
});
