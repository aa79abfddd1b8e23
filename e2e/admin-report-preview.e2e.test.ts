/**
 * Issue 30, minor "Admin reports": the administrator plays the reported video inside its report
 * card, without leaving /admin/reports, a hidden video included. At 1280x800 and 390x844.
 * Screenshots: artifacts/screens/admin-report-preview-*.png.
 */
import { describe, it, expect } from 'vitest';
import { browserSkipReason, loggedInPage, screenshot } from './harness';
import {
  ADMIN,
  SIZES,
  adminClient,
  coveredBy,
  realErrors,
  serverAndBrowser,
  sidewaysOverflow,
  membersOf,
} from './helpers';

const skip = browserSkipReason();

describe.skipIf(!!skip)('admin reports: the reported video plays in its card', () => {
  const live = serverAndBrowser();
  const [reporter, ...authors] = membersOf(live, 3);

  SIZES.forEach((size, i) => {
    it(`"Voir la vidéo ici" plays the hidden video in the card, on the same page (${size.name})`, async () => {
      const author = authors[i];
      const admin = await adminClient(live.server.url);
      const videoId = author.videoId;
      const reason = `Aperçu (${size.name})`;
      expect((await reporter.client.post(`/api/report/${videoId}`, { reason })).status).toBe(201);
      // hidden: gone from the members' screens, still the administrator's to judge
      expect((await admin.put(`/api/videos/${videoId}/visibility`, { status: 'masquée' })).status).toBe(200);
      await expect
        .poll(async () =>
          ((await admin.get('/api/admin/reports')).json as unknown as Array<{ video_id: number; video_status: string }>)
            .filter((r) => r.video_id === videoId)
            .map((r) => r.video_status),
        )
        .toEqual(['masquée']);

      const { context, page, errors } = await loggedInPage(live.browser, live.server.url, ADMIN, size.viewport);
      const files: number[] = [];
      page.on('response', (r) => {
        if (new URL(r.url()).pathname.startsWith('/uploads/videos/')) files.push(r.status());
      });
      await page.goto(`${live.server.url}/admin/reports`);
      const card = page.locator('.reports > li', { hasText: reason });
      await card.waitFor();
      // nothing is loaded before it is asked for
      expect(await card.locator('video').count()).toBe(0);
      const open = card.getByRole('button', { name: 'Voir la vidéo ici' });
      expect(await open.getAttribute('aria-expanded')).toBe('false');
      await open.click();
      const player = card.getByLabel(/^Vidéo signalée : /);
      await player.waitFor();
      expect(await card.getByRole('button', { name: 'Fermer l’aperçu' }).getAttribute('aria-expanded')).toBe('true');
      expect(await player.getAttribute('controls')).toBe('');
      // it plays, here
      await expect
        .poll(() =>
          player.evaluate(async (v: HTMLVideoElement) => {
            v.muted = true;
            if (v.paused) await v.play().catch(() => undefined);
            return v.readyState >= 2 && v.videoWidth > 0 && v.currentTime > 0;
          }),
        )
        .toBe(true);
      expect(new URL(page.url()).pathname).toBe('/admin/reports');
      expect(files.length).toBeGreaterThan(0);
      expect(files.every((s) => s === 200 || s === 206)).toBe(true);
      expect(await coveredBy(player)).toEqual([]);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `admin-report-preview-${size.name}`, { fullPage: false });

      // closed again: the player leaves the card
      await card.getByRole('button', { name: 'Fermer l’aperçu' }).click();
      await expect.poll(() => card.locator('video').count()).toBe(0);
      expect(realErrors(errors)).toEqual([]);
      await context.close();
    }, 120_000);
  });
});
