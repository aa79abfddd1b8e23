/**
 * Issue 32 item 1: a creator's analytics, from their profile and from a video's page, with 60 days
 * of history written at past times (views, likes and unlikes, follows and unfollows, gifts); an
 * administrator reads anyone's, a member someone else's gets the French refusal. At 1280x800 and
 * 390x844. Screenshots: artifacts/screens/analytics-*.png.
 */
import { randomUUID } from 'node:crypto';
import { describe, it, expect, beforeAll } from 'vitest';
import { followDecider, followingStream, likeDecider, likeStream, walletDecider, walletStream } from '@evo/domain';
import { handleCommand, type CommandContext } from '@evo/infra';
import { registerMember, videoState, viewVideo } from '@evo/projections/testing/member-commands';
import { demoVideo } from '@evo/command-api/testing/test-server';
import { browserSkipReason, loggedInPage, screenshot } from './harness';
import { ADMIN, SIZES, coveredBy, realErrors, serverAndBrowser, sidewaysOverflow, membersOf } from './helpers';

const skip = browserSkipReason();
const DAY = 86_400_000;
const parisClock = new Intl.DateTimeFormat('en-US', {
  timeZone: 'Europe/Paris',
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
});
/** How far Paris's clock is ahead of UTC at `t` (one hour in winter, two in summer). */
function parisOffset(t: number): number {
  const p = Object.fromEntries(parisClock.formatToParts(new Date(t)).map((x) => [x.type, Number(x.value)]));
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
  return wall - Math.floor(t / 60_000) * 60_000;
}

describe.skipIf(!!skip)('creator analytics', () => {
  const live = serverAndBrowser();
  const [alice, bob] = membersOf(live, 2);
  let first: number;
  let second: number;
  /** what alice's 7-day totals must say */
  const week = { views: 0, likesGiven: 0, likesWithdrawn: 0, gained: 0, lost: 0 };

  beforeAll(async () => {
    const { events } = live.server.deps;
    first = alice.videoId;
    const form = new FormData();
    form.append('title', 'Coucher de soleil sur la Loire');
    form.append('video', new Blob([await demoVideo()], { type: 'video/mp4' }), 'x.mp4');
    const up = await alice.client.post('/api/videos/upload', form);
    expect(up.status).toBe(201);
    second = (up.json.video as { id: number }).id;

    const now = Date.now();
    // `days` Paris calendar days before now at the same Paris time (24-hour steps would cross a
    // change of summer time onto the next or previous day late in the evening), less `minutes`
    const ago = (days: number, minutes = 0) => {
      const t = now - days * DAY;
      return new Date(t + parisOffset(now) - parisOffset(t) - minutes * 60_000);
    };
    const c = (userId: string | undefined, at: Date): CommandContext => ({
      userId,
      correlationId: randomUUID(),
      now: at,
    });
    const fans: string[] = [];
    for (let i = 0; i < 8; i++) {
      const userId = randomUUID();
      fans.push(userId);
      await registerMember(
        events,
        {
          userId,
          email: `fan${i}-${userId.slice(0, 8)}@test.fr`,
          pseudo: `fan${i}${userId.slice(0, 6)}`,
          bio: 'b',
          profilePicture: 'p.png',
        },
        c(userId, ago(61)),
      );
    }
    const aliceId = (await live.server.deps.read.collection('users').findOne({ email_lc: alice.member.email }))!
      ._id as string;
    // the period: today and the 6 days before (a write a few minutes before now is still today, but just after Paris midnight)
    const inWeek = (k: number) => k <= 6;
    for (let k = 59; k >= 0; k--) {
      const at = ago(k, 1);
      const views = 2 + ((k * 7) % 11);
      for (let v = 0; v < views; v++) await viewVideo(events, first, fans[(k + v) % 8], c(fans[(k + v) % 8], at));
      for (let v = 0; v < (k * 3) % 5; v++) await viewVideo(events, second, fans[v], c(fans[v], at));
      if (inWeek(k)) week.views += views + ((k * 3) % 5);
    }
    const like = async (fan: number, videoId: number, type: 'Like' | 'Unlike', k: number) => {
      const at = ago(k, 2);
      await handleCommand(
        events,
        likeStream(videoId, fans[fan]),
        likeDecider,
        { type, videoId, userId: fans[fan], video: await videoState(events, videoId), now: at },
        c(fans[fan], at),
      );
      if (inWeek(k) && videoId === first) week[type === 'Like' ? 'likesGiven' : 'likesWithdrawn'] += 1;
    };
    const follow = async (fan: number, type: 'Follow' | 'Unfollow', k: number) => {
      const at = ago(k, 3);
      await handleCommand(
        events,
        followingStream(fans[fan]),
        followDecider,
        { type, followerId: fans[fan], followeeId: aliceId, now: at },
        c(fans[fan], at),
      );
      if (inWeek(k)) week[type === 'Follow' ? 'gained' : 'lost'] += 1;
    };
    for (let i = 0; i < 8; i++) {
      await like(i, first, 'Like', 50 - i * 7);
      await follow(i, 'Follow', 55 - i * 7);
    }
    await like(1, second, 'Like', 10);
    await like(2, first, 'Unlike', 2);
    await like(5, first, 'Unlike', 1);
    await follow(3, 'Unfollow', 4);
    await follow(1, 'Unfollow', 25);
    // gifts: coins added to two fans, sent at past days; the gift-credit process manager credits alice
    for (const [i, fan] of [0, 1].entries()) {
      await handleCommand(
        events,
        walletStream(fans[fan]),
        walletDecider,
        { type: 'AddCoins', userId: fans[fan], txId: 990_000 + i, amount: 1000 },
        c(fans[fan], ago(59)),
      );
    }
    let giftId = 990_100;
    for (const [fan, k, coinCost] of [
      [0, 40, 50],
      [1, 20, 100],
      [0, 3, 20],
      [1, 1, 200],
      [0, 0, 10],
    ] as const) {
      await handleCommand(
        events,
        walletStream(fans[fan]),
        walletDecider,
        {
          type: 'SendGift',
          userId: fans[fan],
          giftId: giftId++,
          receiverId: aliceId,
          gift: { id: 1, name: 'Rose', emoji: '🌹', coinCost },
          feePercent: 10,
        },
        c(fans[fan], ago(k, 4)),
      );
    }
    // every gift credited and projected (expect.poll is for tests, not hooks)
    const giftsProjected = async () =>
      ((await alice.client.get('/api/analytics?period=60')).json.totals as { gifts?: number } | undefined)?.gifts;
    for (let tries = 0; (await giftsProjected()) !== 5; tries++) {
      if (tries > 100) throw new Error('the gifts were not credited');
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 180_000);

  for (const size of SIZES) {
    it(`a creator reads their analytics from their profile, and a video's from its page (${size.name})`, async () => {
      const { context, page, errors } = await loggedInPage(live.browser, live.server.url, alice.member, size.viewport);
      await page.goto(`${live.server.url}/user/${alice.member.pseudo}`);
      const link = page.getByRole('link', { name: 'Mes statistiques' });
      expect(await coveredBy(link)).toEqual([]);
      await link.click();
      await page.waitForURL('**/analytics');
      await page.getByRole('heading', { name: 'Mes statistiques' }).waitFor();
      await page.getByText('heure de Paris', { exact: false }).first().waitFor();
      const card = (label: string) => page.locator('.analytics__card', { hasText: label }).locator('strong');
      // figures as written in French ('1 234', '−1'), read back as numbers
      const figure = async (label: string) =>
        Number((await card(label).textContent())!.replace(/\s/g, '').replace('−', '-'));
      // views: the history's, and alice's own displays of her cards on her profile (counted as the
      // videos' counters count them)
      const answered = async () => (await alice.client.get('/api/analytics')).json.totals as { views: number };
      await expect.poll(async () => (await figure('Vues')) === (await answered()).views).toBe(true);
      expect((await answered()).views - week.views).toBeGreaterThanOrEqual(0);
      expect((await answered()).views - week.views).toBeLessThanOrEqual(4);
      expect(await figure('J’aime (nets)')).toBe(week.likesGiven - week.likesWithdrawn);
      expect(await figure('Abonnés gagnés')).toBe(week.gained);
      expect(await figure('Abonnés perdus')).toBe(week.lost);
      // gifts of 3 days ago, yesterday and today: 20 + 200 + 10 coins less 10 % each
      expect(await card('Cadeaux reçus').textContent()).toBe('3');
      expect(await card('Pièces reçues').textContent()).toBe('207');
      // five charts, each an image with a French description and a table
      const charts = page.locator('figure.analytics-chart');
      expect(await charts.count()).toBe(5);
      const svg = charts.first().locator('svg[role="img"]');
      expect(await svg.locator('desc').textContent()).toMatch(/^Vues : [\d  ]+ sur la période, au plus \d+ le /);
      expect(await charts.first().locator('svg text', { hasText: 'Jour (heure de Paris)' }).count()).toBe(1);
      // the x axis in French: '12 janv.'-like labels
      expect(await charts.first().locator('svg text').allTextContents()).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^\d{1,2} (janv|févr|mars|avr|mai|juin|juil|août|sept|oct|nov|déc)\.?$/),
        ]),
      );
      const bars = await charts.first().locator('rect').count();
      expect(bars).toBe(7);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `analytics-7-${size.name}`);

      // 60 days: 60 bars of views, the top videos
      await page.getByRole('button', { name: '60 jours' }).click();
      await page.waitForURL('**/analytics?period=60');
      await expect.poll(() => charts.first().locator('rect').count()).toBe(60);
      await expect.poll(() => card('Cadeaux reçus').textContent()).toBe('5');
      const top = page.locator('.analytics__top-list li');
      expect(await top.count()).toBe(2);
      expect(await top.first().textContent()).toContain('Ma première vidéo');
      // the followers chart: gained up, lost down
      const followers = charts.filter({ hasText: 'Abonnés gagnés et perdus' });
      expect(await followers.locator('svg desc').textContent()).toMatch(
        /Gagnés : 8 sur la période.*Perdus : 2 sur la période/,
      );
      // as a person sees it on screen: no fixed bar over the chart
      await followers.locator('svg').scrollIntoViewIfNeeded();
      expect(await coveredBy(followers.locator('svg'))).toEqual([]);
      await screenshot(page, `analytics-followers-${size.name}`, { fullPage: false });
      // its data as a table
      await followers.getByText('Voir les données (tableau)').click();
      expect(await followers.locator('tbody tr').count()).toBe(60);
      expect(await followers.locator('tfoot').textContent()).toContain('Total82');
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `analytics-60-${size.name}`);

      // a video's page: its own analytics
      await page.goto(`${live.server.url}/video/${first}`);
      await page.getByRole('link', { name: 'Statistiques de la vidéo' }).click();
      await page.waitForURL(`**/analytics/video/${first}`);
      await page.getByRole('heading', { name: 'Statistiques de « Ma première vidéo »' }).waitFor();
      await expect.poll(() => charts.count()).toBe(3);
      await page.getByRole('button', { name: '30 jours' }).click();
      await expect.poll(() => charts.first().locator('rect').count()).toBeGreaterThan(10);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `analytics-video-${size.name}`);
      expect(realErrors(errors)).toEqual([]);
      await context.close();
    }, 120_000);
  }

  it("a member gets the French refusal on someone else's analytics; an administrator reads them", async () => {
    const { context, page } = await loggedInPage(live.browser, live.server.url, bob.member, SIZES[1].viewport);
    await page.goto(`${live.server.url}/analytics?pseudo=${alice.member.pseudo}`);
    await page.getByText('Tu ne peux consulter que tes propres statistiques.').waitFor();
    await page.goto(`${live.server.url}/analytics/video/${first}`);
    await page.getByText('Tu ne peux consulter que tes propres statistiques.').waitFor();
    await screenshot(page, 'analytics-refused-mobile');
    await context.close();

    const admin = await loggedInPage(live.browser, live.server.url, ADMIN, SIZES[0].viewport);
    await admin.page.goto(`${live.server.url}/user/${alice.member.pseudo}`);
    await admin.page.getByRole('link', { name: 'Statistiques du créateur' }).click();
    await admin.page.getByRole('heading', { name: `Statistiques de @${alice.member.pseudo}` }).waitFor();
    await expect.poll(() => admin.page.locator('figure.analytics-chart').count()).toBe(5);
    await screenshot(admin.page, 'analytics-admin-desktop');
    await admin.context.close();
  }, 90_000);

  it('a creator sees a new follower counted without reloading the page', async () => {
    const { context, page, errors } = await loggedInPage(
      live.browser,
      live.server.url,
      alice.member,
      SIZES[0].viewport,
    );
    await page.goto(`${live.server.url}/analytics`);
    const gained = page.locator('.analytics__card', { hasText: 'Abonnés gagnés' }).locator('strong');
    await expect.poll(() => gained.textContent()).toBe(String(week.gained));
    // the socket is connected once the app has its catch-up ('sync')
    await page.waitForLoadState('networkidle');
    const follow = await bob.client.post('/api/users/follows/follow', { followingPseudo: alice.member.pseudo });
    expect(follow.status).toBe(200);
    await expect.poll(() => gained.textContent(), { timeout: 15_000 }).toBe(String(week.gained + 1));
    expect(realErrors(errors)).toEqual([]);
    await context.close();
  }, 60_000);
});
