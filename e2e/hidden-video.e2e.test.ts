import { describe, it, expect, beforeAll } from 'vitest';
import type { Locator, Page } from 'playwright-core';

import { browserSkipReason, loggedInPage, screenshot } from './harness';
import {
  ADMIN,
  DESKTOP,
  MOBILE,
  SIZES,
  adminClient,
  realErrors,
  serverAndBrowser,
  membersOf,
  sidewaysOverflow,
} from './helpers';

const skip = browserSkipReason();
const SANCTION = 'Votre vidéo a été restreinte pour non-conformité';
const HIDDEN = 'Vidéo masquée par la modération';

/** issue 12 item 5: a video hidden by moderation, as its author, an administrator and others see it */
describe.skipIf(!!skip)('a video hidden by moderation', () => {
  const live = serverAndBrowser();
  const [author, other] = membersOf(live, 2);

  beforeAll(async () => {
    expect((await other.client.post(`/api/report/${author.videoId}`, { reason: 'Contenu choquant' })).status).toBe(201);
    const admin = await adminClient(live.server.url);
    const reports = (await admin.get('/api/admin/reports')).json as unknown as Array<{ id: number; video_id: number }>;
    const report = reports.find((r) => r.video_id === author.videoId)!;
    expect(
      (await admin.put(`/api/admin/reports/${report.id}`, { status: 'ferme', admin_response: SANCTION })).status,
    ).toBe(200);
    expect((await admin.put(`/api/videos/${author.videoId}/visibility`, { status: 'masquée' })).status).toBe(200);
  }, 180_000);

  const loggedIn = (who: { email: string; password: string }, size: { width: number; height: number }) =>
    loggedInPage(live.browser, live.server.url, who, size);

  /** scrolled to, `element` ends above the fixed bottom bar */
  async function notBehindTheBottomBar(page: Page, element: Locator) {
    await element.scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, 200));
    const box = await element.boundingBox();
    const bar = await page.locator('.bottombar').boundingBox();
    expect(box && bar && box.y + box.height <= bar.y).toBe(true);
  }

  for (const size of SIZES) {
    it(`its author sees it on the video page and on their profile, with the status and the moderation message (${size.name})`, async () => {
      const { context, page, errors } = await loggedIn(author.member, size.viewport);
      // from the notification's "Voir la vidéo"
      await page.goto(`${live.server.url}/notifications`);
      await page.getByRole('link', { name: 'Voir la vidéo' }).first().click();
      await page.waitForURL((u) => u.pathname === `/video/${author.videoId}`);
      const notice = page.getByRole('note');
      await expect.poll(() => notice.getByText(HIDDEN).isVisible()).toBe(true);
      expect(await notice.getByText(`Message de la modération : ${SANCTION}`).isVisible()).toBe(true);
      expect(await page.getByText("Cette vidéo n'existe pas ou a été supprimée.").count()).toBe(0);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await notBehindTheBottomBar(page, notice);
      await screenshot(page, `e2e-hidden-video-author-page-${size.name}`, { fullPage: false });

      await page.goto(`${live.server.url}/user/${author.member.pseudo}`);
      const card = page.locator('.video-card', { hasText: author.member.video_title });
      await expect.poll(() => card.getByText(HIDDEN).first().isVisible()).toBe(true);
      expect(await card.getByText(`Message de la modération : ${SANCTION}`).isVisible()).toBe(true);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `e2e-hidden-video-author-profile-${size.name}`);
      expect(realErrors(errors)).toEqual([]);
      await context.close();
    }, 60_000);
  }

  it('an administrator sees it with its status and the message', async () => {
    const { context, page } = await loggedIn(ADMIN, DESKTOP);
    await page.goto(`${live.server.url}/video/${author.videoId}`);
    await expect.poll(() => page.getByRole('note').getByText(HIDDEN).isVisible()).toBe(true);
    expect(await page.getByText(`Message de la modération : ${SANCTION}`).isVisible()).toBe(true);
    await context.close();
  }, 60_000);

  it('any other member is told it is unavailable, and does not find it on the profile', async () => {
    const { context, page } = await loggedIn(other.member, MOBILE);
    await page.goto(`${live.server.url}/video/${author.videoId}`);
    await expect.poll(() => page.getByRole('heading', { name: 'Vidéo indisponible' }).isVisible()).toBe(true);
    expect(await page.getByText(SANCTION).count()).toBe(0);
    await page.goto(`${live.server.url}/user/${author.member.pseudo}`);
    await expect.poll(() => page.getByText('Aucune vidéo pour le moment').isVisible()).toBe(true);
    expect(await page.getByText(HIDDEN).count()).toBe(0);
    await screenshot(page, 'e2e-hidden-video-other-profile-mobile');
    await context.close();
  }, 60_000);
});
