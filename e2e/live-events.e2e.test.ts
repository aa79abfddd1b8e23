import { describe, it, expect, beforeAll } from 'vitest';
import type { Page } from 'playwright-core';
import { registerAndLogin, type Client } from '@evo/command-api/testing/test-server';
import { browserSkipReason, loggedInPage } from './harness';
import { ADMIN, adminClient, serverAndBrowser, membersOf } from './helpers';

const skip = browserSkipReason();

/**
 * Every event the server pushes has a listener in the web app (issue 13, "one contract"): each test
 * keeps a page open, changes something through the API as another member or an administrator, and
 * waits for the page to show it without a reload.
 */
describe.skipIf(!!skip)('pushed events change open pages without a reload', () => {
  const live = serverAndBrowser();
  const [author, fan] = membersOf(live, 2);
  let admin: Client;

  beforeAll(async () => {
    admin = await adminClient(live.server.url);
  }, 180_000);

  const loggedIn = (m: { email: string; password: string }) => loggedInPage(live.browser, live.server.url, m);

  /** the socket is connected once the app has its catch-up ('sync') */
  const settled = (page: Page) => page.waitForLoadState('networkidle');

  it("'report:new': an administrator's report list shows a new report at once", async () => {
    const { context, page } = await loggedIn(ADMIN);
    await page.goto(`${live.server.url}/admin/reports`);
    await settled(page);
    const reason = `Motif en direct ${Date.now()}`;
    expect(await page.getByText(reason).count()).toBe(0);
    expect((await fan.client.post(`/api/report/${author.videoId}`, { reason })).status).toBe(201);
    await expect.poll(() => page.getByText(reason).count(), { timeout: 15_000 }).toBe(1);
    await context.close();
  }, 90_000);

  it("'catalogue:changed': a member's open gift catalogue shows a gift an administrator adds", async () => {
    const { context, page } = await loggedIn(fan.member);
    await page.goto(`${live.server.url}/catalogue?receiver=${encodeURIComponent(author.member.pseudo)}`);
    await page.locator('.gift-tile__name').first().waitFor();
    await settled(page);
    const name = `Comète ${Date.now() % 100000}`;
    const added = await admin.post('/api/admin/gifts', { name, emoji: '☄️', price: 7, image_url: '' });
    expect(added.status).toBe(201);
    await expect.poll(() => page.locator('.gift-tile__name', { hasText: name }).count(), { timeout: 15_000 }).toBe(1);
    await context.close();
  }, 90_000);

  it("'follow:new': a member's own profile counts a new follower at once", async () => {
    const { context, page } = await loggedIn(author.member);
    await page.goto(`${live.server.url}/user/${author.member.pseudo}`);
    const followers = page.locator('dt', { hasText: 'Abonnés' }).locator('xpath=following-sibling::dd[1]');
    // the counters are read (a loaded machine can go idle before they are asked)
    await expect.poll(() => followers.textContent(), { timeout: 15_000 }).toMatch(/^\d+$/);
    await settled(page);
    const before = Number(await followers.textContent());
    const follow = await fan.client.post('/api/users/follows/follow', {
      followerEmail: fan.member.email,
      followingPseudo: author.member.pseudo,
    });
    expect(follow.status).toBe(200);
    await expect.poll(async () => Number(await followers.textContent()), { timeout: 15_000 }).toBe(before + 1);
    await context.close();
  }, 90_000);

  it("'session:changed': a member made administrator sees the Admin link without logging in again", async () => {
    const member = await registerAndLogin(live.server.url);
    const { context, page } = await loggedIn(member.member);
    await settled(page);
    const adminLink = page.getByRole('link', { name: 'Admin', exact: true });
    expect(await adminLink.count()).toBe(0);
    expect((await admin.post('/api/admin/users/grant', { email: member.member.email })).status).toBe(200);
    await expect.poll(() => adminLink.count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await context.close();
  }, 90_000);
});
