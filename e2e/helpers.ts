/**
 * What the browser journeys share on top of harness.ts: a server and a browser per describe block,
 * the two screen sizes, the demo administrator, members as registerAndLogin returns them, and the
 * small checks and API steps several journeys make the same way. Vitest-only (harness.ts also
 * serves scripts, so the hooks live here).
 */
import { afterAll, beforeAll, expect } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { DEMO_ADMIN_EMAIL, DEMO_ADMIN_PASSWORD } from '@evo/infra';
import {
  Client,
  registerAndLogin,
  type Member,
  type Registration,
  type TestServer,
} from '@evo/command-api/testing/test-server';
import {
  fillLogin,
  launchBrowser,
  loggedInPage,
  newPage,
  screenshot,
  startE2eServer,
  type LaunchOptions,
} from './harness';

export const DESKTOP = { width: 1280, height: 800 };
export const MOBILE = { width: 390, height: 844 };
/** the demo administrator the server seeds */
export const ADMIN = { email: DEMO_ADMIN_EMAIL, password: DEMO_ADMIN_PASSWORD };

export type { Member };

/**
 * The console errors a journey does not expect: the browser reports answered 4xx/5xx as console
 * errors ("Failed to load resource"), and a test may name more that it provokes itself.
 */
export const realErrors = (errors: string[], ...expected: string[]) =>
  errors.filter((e) => !e.includes('Failed to load resource') && !expected.some((x) => e.includes(x)));

/** No sideways scroll: how much wider the document is than the viewport (0 when it fits). */
export const sidewaysOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** On a phone, `path` as `who` sees it (once `loaded` shows) does not scroll sideways; `shot`: its screenshot's name. */
export async function fitsAPhone(
  live: { server: TestServer; browser: Browser },
  who: { email: string; password: string },
  path: string,
  loaded: (page: Page) => Locator,
  shot?: string,
): Promise<void> {
  const phone = await loggedInPage(live.browser, live.server.url, who, MOBILE);
  await phone.page.goto(`${live.server.url}${path}`);
  await loaded(phone.page).waitFor();
  expect(await sidewaysOverflow(phone.page)).toBeLessThanOrEqual(0);
  if (shot) await screenshot(phone.page, shot, { fullPage: false });
  await phone.context.close();
}

/** the first toast showing `text` */
export const toast = (page: Page, text: string) => page.locator('.toast', { hasText: text }).first();

/** `count` members registered and logged in at the same time. */
export function registerAtOnce(baseUrl: string, count: number): Promise<Member[]> {
  return Promise.all(Array.from({ length: count }, () => registerAndLogin(baseUrl)));
}

/** A member as `membersOf` gives them: also the id of the video they registered with. */
export type MemberWithVideo = Member & { videoId: number };

/**
 * Members registered and logged in at once by a beforeAll of the describe block this is called in,
 * after `live`'s server has started (hooks run in the order they are declared), each with the id of
 * the video they registered with: `count` of them, or one for each registration's overrides. The
 * objects are returned now and filled in then, so a block names its members once:
 * `const [author, fan] = membersOf(live, 2)`.
 */
export function membersOf(
  live: { server: TestServer },
  count: number | Array<Partial<Registration>>,
): MemberWithVideo[] {
  const overrides = typeof count === 'number' ? Array.from({ length: count }, () => ({})) : count;
  const members = overrides.map(() => ({}) as MemberWithVideo);
  beforeAll(async () => {
    const registered = await Promise.all(overrides.map((o) => registerAndLogin(live.server.url, o)));
    for (const [i, m] of registered.entries())
      Object.assign(members[i], m, { videoId: await firstVideoId(m.client, m.member.pseudo) });
  }, 180_000);
  return members;
}

/** An API client logged in as the demo administrator. */
export async function adminClient(baseUrl: string): Promise<Client> {
  const admin = new Client(baseUrl);
  expect((await admin.post('/api/auth/login', ADMIN)).status).toBe(200);
  return admin;
}

/** `from` follows `to` (a member, or anyone by their pseudo) through the API. */
export async function follow(from: Member, to: Member | { pseudo: string }): Promise<void> {
  const followingPseudo = 'member' in to ? to.member.pseudo : to.pseudo;
  const r = await from.client.post('/api/users/follows/follow', { followerEmail: from.member.email, followingPseudo });
  expect(r.status).toBe(200);
}

/** The id of the first video on `pseudo`'s profile, as `client` reads it. */
export async function firstVideoId(client: Client, pseudo: string): Promise<number> {
  return ((await client.get(`/api/users/profile/${pseudo}`)).json.videos as Array<{ id: number }>)[0].id;
}

/**
 * Watches a page's Socket.IO traffic, over HTTP long-polling or the WebSocket: each payload the page
 * sends goes to `onSent`, and `lost` counts the connections that failed or closed.
 */
export function watchSocketIo(page: Page, onSent: (payload: string) => void): { lost: number } {
  const socket = { lost: 0 };
  page.on('request', (r) => {
    if (r.url().includes('/socket.io/') && r.method() === 'POST') onSent(r.postData() ?? '');
  });
  page.on('requestfailed', (r) => {
    if (r.url().includes('/socket.io/')) socket.lost += 1;
  });
  page.on('websocket', (ws) => {
    ws.on('framesent', (f) => {
      if (typeof f.payload === 'string') onSent(f.payload);
    });
    ws.on('close', () => (socket.lost += 1));
  });
  return socket;
}

/** The two screen sizes every journey is checked at. */
export const SIZES = [
  { name: 'desktop', viewport: DESKTOP },
  { name: 'mobile', viewport: MOBILE },
] as const;

/** Logs `m` in through the login page, which then lands on their profile. */
export async function login(page: Page, base: string, m: Registration): Promise<void> {
  await page.goto(`${base}/login`);
  await fillLogin(page, m);
  await page.waitForURL(`**/user/${m.pseudo}`);
}

/** A logged-out visitor's page at `viewport`, in its own browser context. */
export async function visitorPage(browser: Browser, viewport: { width: number; height: number } = DESKTOP) {
  const context = await browser.newContext({ viewport, locale: 'fr-FR' });
  return { context, ...(await newPage(context)) };
}

/**
 * The real server and a headless browser for the describe block it is called in: both started before
 * the block's own beforeAll runs (hooks run in the order they are declared), both stopped after its
 * tests. Read `live.server` and `live.browser` from the tests and hooks, once started.
 */
export function serverAndBrowser(
  launch: LaunchOptions = {},
  env: Record<string, string> = {},
  options: Parameters<typeof startE2eServer>[1] = {},
): { server: TestServer; browser: Browser } {
  const live = {} as { server: TestServer; browser: Browser };
  beforeAll(async () => {
    live.server = await startE2eServer(env, options);
    live.browser = await launchBrowser(launch);
  }, 180_000);
  afterAll(async () => {
    await live.browser?.close();
    await live.server?.stop();
  });
  return live;
}

/**
 * A slow uplink for `page` (Chrome DevTools network emulation), so that an upload's progress is
 * seen moving; the function it returns gives the page its full speed back.
 */
export async function slowUplink(
  context: BrowserContext,
  page: Page,
  bytesPerSecond: number,
): Promise<() => Promise<void>> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
  return async () => {
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
  };
}

/**
 * What covers `locator` (a fixed bar, a toast…), once scrolled into view: what the browser hits at
 * its centre and halfway to its four corners, when that is not the element itself. Empty when it is
 * wholly visible and uncovered.
 */
export async function coveredBy(locator: Locator): Promise<string[]> {
  await locator.scrollIntoViewIfNeeded();
  return locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return ['nothing: not displayed'];
    if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) return ['nothing: cut off'];
    // the centre and the points halfway to each corner (inside rounded corners and pills)
    const [cx, cy, dx, dy] = [r.left + r.width / 2, r.top + r.height / 2, r.width / 4, r.height / 4];
    const points: Array<[number, number]> = [
      [cx, cy],
      [cx - dx, cy - dy],
      [cx + dx, cy - dy],
      [cx - dx, cy + dy],
      [cx + dx, cy + dy],
    ];
    const found: string[] = [];
    for (const [x, y] of points) {
      const hit = document.elementFromPoint(x, y);
      if (!hit || !(hit === el || el.contains(hit))) {
        const bar = hit?.closest('nav, header, [role="status"], [role="alert"]') ?? hit;
        found.push(bar ? `${bar.tagName.toLowerCase()}.${bar.className}` : 'nothing');
      }
    }
    return found;
  });
}
