import { describe, it, expect } from 'vitest';
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { VIDEO_MESSAGES } from '@evo/domain';
import { systemContext } from '@evo/infra';
import { ASSETS, registerAndLogin } from '@evo/command-api/testing/test-server';
import { AUTH_ROUTE_MESSAGES, findMemberBy, uploadVideo } from '@evo/command-api';
import { browserSkipReason, newPage, screenshot } from './harness';
import { DESKTOP, MOBILE, login, realErrors, serverAndBrowser, sidewaysOverflow, toast } from './helpers';

const skip = browserSkipReason();

/**
 * What a member sees of the server's own failures (issue 29 item 6): a video whose processing
 * failed at every try, with what they can do about it; a logout the server could not record.
 */
describe.skipIf(!!skip)('the server’s failures, as a member sees them', () => {
  const live = serverAndBrowser();

  it('shows its author a video whose processing failed, with "Relancer le traitement" and "Supprimer", at 1280x800 and 390x844', async () => {
    const server = live.server;
    const author = await registerAndLogin(server.url);
    const ownerId = (await findMemberBy(server.deps.events, 'email', author.member.email))!.userId;
    // a video whose file is missing when its job runs: every try fails
    const name = '7e57c0de-0000-4000-8000-000000000001.mp4';
    const filePath = `/uploads/videos/${name}`;
    const { videoId } = await uploadVideo(
      server.deps.events,
      server.deps.ids,
      ownerId,
      { title: 'Coupée par le disque plein', description: '', filePath, mimeType: 'video/mp4', sizeBytes: 1000 },
      { ...systemContext(), userId: ownerId },
    );
    await server.deps.jobs.add(
      'video.process',
      { videoId, filePath },
      { jobId: `video-${videoId}`, attempts: 2, backoffMs: 10 },
    );
    await server.settle(30_000);

    for (const [viewport, shot] of [
      [DESKTOP, 'video-processing-failed-1280'],
      [MOBILE, 'video-processing-failed-390'],
    ] as const) {
      const context = await live.browser.newContext({ viewport, locale: 'fr-FR' });
      const { page, errors } = await newPage(context);
      await login(page, server.url, author.member);
      const card = page.locator('article', { hasText: 'Coupée par le disque plein' });
      await expect.poll(() => card.getByText('Le traitement de cette vidéo a échoué').isVisible()).toBe(true);
      expect(await card.getByText(VIDEO_MESSAGES.processingFailed).isVisible()).toBe(true);
      expect(await card.getByText('Traitement échoué', { exact: true }).count()).toBe(1);
      expect(await card.getByRole('button', { name: 'Relancer le traitement' }).isVisible()).toBe(true);
      expect(await card.getByRole('button', { name: 'Supprimer', exact: true }).isVisible()).toBe(true);
      expect(await sidewaysOverflow(page)).toBe(0);
      await card.scrollIntoViewIfNeeded();
      await screenshot(page, shot, { fullPage: false });
      expect(realErrors(errors)).toEqual([]);
      await context.close();
    }

    // the file is back: the author relaunches it, and it is processed
    await copyFile(path.join(ASSETS, 'demo/demo-3.mp4'), path.join(server.deps.uploads.localRoot!, 'videos', name));
    const context = await live.browser.newContext({ viewport: MOBILE, locale: 'fr-FR' });
    const { page } = await newPage(context);
    await login(page, server.url, author.member);
    const card = page.locator('article', { hasText: 'Coupée par le disque plein' });
    await card.getByRole('button', { name: 'Relancer le traitement' }).click();
    await expect
      .poll(() => card.getByText('Traitement relancé : la vidéo sera prête dans quelques instants.').isVisible())
      .toBe(true);
    await server.settle(60_000);
    await expect.poll(async () => (await author.client.get(`/api/videos/${videoId}`)).json.processing).toBe('prête');
    await context.close();
  }, 120_000);

  it('keeps the member logged in, and says so, when the server could not record the logout', async () => {
    const server = live.server;
    const member = await registerAndLogin(server.url);
    const context = await live.browser.newContext({ viewport: DESKTOP, locale: 'fr-FR' });
    const { page, errors } = await newPage(context);
    await login(page, server.url, member.member);
    // the sessions file cannot be written (a full disk)
    const sessions = server.deps.sessions;
    const end = sessions.end.bind(sessions);
    sessions.end = () => Promise.reject(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }));
    try {
      await page.getByRole('button', { name: 'Déconnexion' }).click();
      await toast(page, AUTH_ROUTE_MESSAGES.logoutNotRecorded).waitFor();
      expect(new URL(page.url()).pathname).toBe(`/user/${member.member.pseudo}`);
      expect(await page.getByRole('button', { name: 'Déconnexion' }).isVisible()).toBe(true);
      await screenshot(page, 'logout-not-recorded-1280', { fullPage: false });
    } finally {
      sessions.end = end;
    }
    // the disk has room again: the logout goes through
    await page.getByRole('button', { name: 'Déconnexion' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/login');
    expect((await page.request.get(`${server.url}/api/auth/me`)).status()).toBe(401);
    expect(realErrors(errors)).toEqual([]);
    await context.close();
  }, 60_000);
});
