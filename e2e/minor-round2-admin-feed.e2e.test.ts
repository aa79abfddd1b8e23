import { describe, it, expect, beforeAll } from 'vitest';
import { browserSkipReason, loggedInPage, screenshot } from './harness';
import {
  ADMIN,
  SIZES,
  adminClient,
  follow,
  registerAtOnce,
  serverAndBrowser,
  sidewaysOverflow,
  toast,
  membersOf,
} from './helpers';

const SANCTION = 'Votre vidéo a été restreinte pour non-conformité';

const skip = browserSkipReason();

/** issue 30, the "Minor" list, second part: the admin audit and reports, the feed's taps and keys */
describe.skipIf(!!skip)('minor fixes, second round: admin and feed (issue 30)', () => {
  const live = serverAndBrowser();
  const [buyer, ...authors] = membersOf(live, 3);

  beforeAll(async () => {
    expect((await buyer.client.post('/api/coins/purchase', { email: buyer.member.email, packId: 1 })).status).toBe(200);
  }, 180_000);

  for (const size of SIZES) {
    it(`coin audit: events are named in French and referred to by their number in the log (${size.name})`, async () => {
      const { context, page, errors } = await loggedInPage(live.browser, live.server.url, ADMIN, size.viewport);
      await page.goto(`${live.server.url}/admin/transactions/${encodeURIComponent(buyer.member.email)}`);
      const row = page.locator('.admin-table--ledger tbody tr').first();
      await row.waitFor();
      const text = (await row.textContent()) ?? '';
      expect(text).toContain('Achat de coins');
      expect(text).toMatch(/Événement n° \d+ du journal/);
      expect(text).not.toContain('CoinsPurchased');
      expect(text).not.toMatch(/position \d/);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await row.scrollIntoViewIfNeeded();
      await screenshot(page, `e2e-r2-ledger-audit-labels-${size.name}`, { fullPage: false });
      expect(errors.filter((e) => !e.includes('Failed to load resource'))).toEqual([]);
      await context.close();
    }, 90_000);
  }
  SIZES.forEach((size, i) => {
    it(`reports: "Masquer" says it is done and is then disabled; "Rendre publique" is disabled on a public video; the author's notice reads "EVO : Votre vidéo…" (${size.name})`, async () => {
      const author = authors[i];
      const admin = await adminClient(live.server.url);
      const videoId = author.videoId;
      expect((await buyer.client.post(`/api/report/${videoId}`, { reason: `Signalé (${size.name})` })).status).toBe(
        201,
      );
      await expect
        .poll(async () =>
          ((await admin.get('/api/admin/reports')).json as unknown as Array<{ video_id: number }>).some(
            (r) => r.video_id === videoId,
          ),
        )
        .toBe(true);

      const { context, page, errors } = await loggedInPage(live.browser, live.server.url, ADMIN, size.viewport);
      await page.goto(`${live.server.url}/admin/reports`);
      const card = page.locator('.reports > li', { hasText: `Signalé (${size.name})` });
      await card.waitFor();
      const hide = card.getByRole('button', { name: 'Masquer' });
      const publish = card.getByRole('button', { name: 'Rendre publique' });
      // a public video: making it public again is not offered
      expect(await publish.isDisabled()).toBe(true);
      expect(await hide.isEnabled()).toBe(true);
      await card.getByLabel("Message à l'auteur").selectOption(SANCTION);
      await hide.click();
      await toast(page, 'Vidéo mise à jour : masquée').waitFor();
      await expect.poll(() => hide.isDisabled()).toBe(true);
      expect(await hide.getAttribute('title')).toBe('La vidéo est déjà masquée');
      await expect.poll(() => publish.isEnabled()).toBe(true);
      expect(await card.locator('dd', { hasText: /^masquée$/ }).count()).toBe(1);
      // after a reload too (the server's visibility)
      await page.reload();
      await card.waitFor();
      await expect.poll(() => hide.isDisabled()).toBe(true);
      expect(await publish.isEnabled()).toBe(true);
      await card.scrollIntoViewIfNeeded();
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `e2e-r2-report-hidden-${size.name}`, { fullPage: false });
      expect(errors.filter((e) => !e.includes('Failed to load resource'))).toEqual([]);
      await context.close();

      // the author is told, by the platform (no member): its name and the sentence are apart
      const mine = await loggedInPage(live.browser, live.server.url, author.member, size.viewport);
      await mine.page.goto(`${live.server.url}/notifications`);
      const notice = mine.page.locator('.notif', { hasText: SANCTION }).first();
      await notice.waitFor();
      const text = ((await notice.locator('.notif__text, .notif__open').first().textContent()) ?? '').trim();
      expect(text.startsWith(`EVO : ${SANCTION}`), text).toBe(true);
      await screenshot(mine.page, `e2e-r2-report-notice-${size.name}`, { fullPage: false });
      await mine.context.close();
    }, 120_000);
  });
  for (const size of SIZES) {
    it(`feed: a tap on the video pauses and plays without touching the sound; Space does the same (${size.name})`, async () => {
      const [viewer, star] = await registerAtOnce(live.server.url, 2);
      await follow(viewer, star.member);
      const { context, page, errors } = await loggedInPage(live.browser, live.server.url, viewer.member, size.viewport);
      await page.goto(`${live.server.url}/feed`);
      const slide = page.locator('.feed-slide--active');
      await slide.waitFor();
      const state = () =>
        page.evaluate(() => {
          const v = document.querySelector<HTMLVideoElement>('.feed-slide--active video');
          return v ? { paused: v.paused, muted: v.muted } : null;
        });
      await expect.poll(async () => (await state())?.paused, { timeout: 15_000 }).toBe(false);
      expect((await state())?.muted).toBe(true);
      // the tap pauses (the sound stays off: it has its own "Activer le son")
      await slide.locator('.feed-slide__tap').click();
      await expect.poll(async () => (await state())?.paused).toBe(true);
      expect((await state())?.muted).toBe(true);
      await slide.getByRole('button', { name: 'Lire la vidéo' }).waitFor();
      await screenshot(page, `e2e-r2-feed-tap-paused-${size.name}`, { fullPage: false });
      await slide.locator('.feed-slide__tap').click();
      await expect.poll(async () => (await state())?.paused).toBe(false);
      expect((await state())?.muted).toBe(true);
      await slide.getByRole('button', { name: 'Activer le son' }).waitFor();
      // Space, with nothing focused: pause, then play; the page does not scroll
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      const scrollY = await page.evaluate(() => window.scrollY);
      await page.keyboard.press('Space');
      await expect.poll(async () => (await state())?.paused).toBe(true);
      await page.keyboard.press('Space');
      await expect.poll(async () => (await state())?.paused).toBe(false);
      expect(await page.evaluate(() => window.scrollY)).toBe(scrollY);
      expect(errors.filter((e) => !e.includes('Failed to load resource'))).toEqual([]);
      await context.close();
    }, 90_000);
  }
});
