/**
 * Issue 30, Major 1: the first load on a slow phone connection. Chromium's own network emulation
 * with DevTools' "Slow 3G" preset (400 kbit/s each way, 2 s added to every request), a cold cache,
 * the real server: the first contentful paint comes with the HTML alone, before any script or
 * stylesheet has arrived, and the JavaScript a first screen needs weighs at most 120 kB as sent
 * (compressed). Screenshots: artifacts/screens/first-load-*.png.
 *
 * Issue 30 asked for the paint within 3 s. At Slow 3G's 2 s a request, that holds when the paint
 * needs the HTML only, and waiting for any script or stylesheet puts it past 4 s: so the test checks
 * what the paint waited for, which does not depend on how loaded the machine is, and prints the
 * time.
 */
import { describe, it, expect } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';

import { browserSkipReason, newPage, screenshot, logInAs } from './harness';
import { SIZES, serverAndBrowser, sidewaysOverflow, membersOf } from './helpers';

const skip = browserSkipReason();

/** DevTools' "Slow 3G" (now "3G"): 500 kbit/s × 0.8 each way, 400 ms × 5 of latency per request */
export const SLOW_3G = {
  offline: false,
  latency: 2000,
  downloadThroughput: (500 * 1000 * 0.8) / 8,
  uploadThroughput: (500 * 1000 * 0.8) / 8,
};

const INITIAL_JS_BUDGET_BYTES = 120 * 1024;

interface Loaded {
  /** first contentful paint, ms from the navigation */
  fcp: number;
  /** when the first script or stylesheet had arrived, ms from the navigation */
  firstAssetArrived: number;
  /** when the first screen's content was there */
  shown: number;
  /** JavaScript bodies as sent (compressed when the server compressed them), by path, fetched before `shown` */
  initial: Map<string, number>;
  /** the JavaScript fetched after it (live updates, prefetches) */
  later: Map<string, number>;
}

async function throttled(context: BrowserContext): Promise<Page> {
  const { page } = await newPage(context);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.clearBrowserCache');
  await cdp.send('Network.emulateNetworkConditions', SLOW_3G);
  return page;
}

/**
 * Waits for `content` (the first screen's own content), notes when it came, lets the network
 * settle, then reads the paint and the scripts from the page's own timings.
 */
async function measure(page: Page, content: Locator): Promise<Loaded> {
  await content.waitFor({ timeout: 60_000 });
  const shown = await page.evaluate(() => performance.now());
  await page.waitForLoadState('networkidle', { timeout: 60_000 });
  const { fcp, firstAssetArrived, scripts } = await page.evaluate(() => {
    const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    return {
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
      firstAssetArrived: Math.min(
        ...resources.filter((e) => /\.(m?js|css)(\?|$)/.test(e.name)).map((e) => e.responseEnd),
      ),
      scripts: resources
        .filter((e) => /\.m?js(\?|$)/.test(e.name))
        .map((e) => ({ path: new URL(e.name).pathname, start: e.startTime, bytes: e.encodedBodySize })),
    };
  });
  const initial = new Map(scripts.filter((s) => s.start < shown).map((s) => [s.path, s.bytes]));
  const later = new Map(scripts.filter((s) => s.start >= shown).map((s) => [s.path, s.bytes]));
  return { fcp, firstAssetArrived, shown, initial, later };
}

const total = (js: Map<string, number>) => [...js.values()].reduce((a, b) => a + b, 0);
const kB = (n: number) => `${(n / 1024).toFixed(1)} kB`;

function report(what: string, { fcp, firstAssetArrived, shown, initial, later }: Loaded) {
  console.log(
    `${what}: first contentful paint ${(fcp / 1000).toFixed(2)} s, first script or stylesheet at ` +
      `${(firstAssetArrived / 1000).toFixed(2)} s, content at ${(shown / 1000).toFixed(1)} s; ` +
      `JavaScript before it ${kB(total(initial))} in ${initial.size} files, after it ${kB(total(later))}`,
  );
  for (const [path, bytes] of initial) console.log(`  ${kB(bytes)}  ${path}`);
  for (const [path, bytes] of later) console.log(`  (after) ${kB(bytes)}  ${path}`);
}

/** the first paint came with the HTML alone: before any script or stylesheet arrived (and some did) */
function expectPaintBeforeAssets({ fcp, firstAssetArrived }: Loaded) {
  expect(Number.isFinite(firstAssetArrived)).toBe(true);
  expect(fcp).toBeLessThan(firstAssetArrived);
}

describe.skipIf(!!skip)('first load on a slow connection (Slow 3G, cold cache)', () => {
  const live = serverAndBrowser();
  const [author] = membersOf(live, 1);

  for (const size of SIZES) {
    it(`a visitor's home page paints at once and needs little JavaScript (${size.name})`, async () => {
      const context = await live.browser.newContext({ viewport: size.viewport, locale: 'fr-FR' });
      const page = await throttled(context);
      await page.goto(`${live.server.url}/`, { waitUntil: 'commit' });
      // the shell, before any script or stylesheet came
      await page.getByRole('status').filter({ hasText: 'Chargement...' }).waitFor({ timeout: 60_000 });
      await screenshot(page, `first-load-shell-${size.name}`, { fullPage: false });
      const loaded = await measure(page, page.getByRole('heading', { name: /Bienvenue sur EVO/ }));
      report(`visitor, / (${size.name})`, loaded);
      await screenshot(page, `first-load-home-${size.name}`, { fullPage: false });
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      expectPaintBeforeAssets(loaded);
      expect(total(loaded.initial)).toBeLessThanOrEqual(INITIAL_JS_BUDGET_BYTES);

      // the next visit takes every script from the browser's cache (hashed names, kept a year)
      const again = await context.newPage();
      await again.goto(`${live.server.url}/`);
      await again.getByRole('heading', { name: /Bienvenue sur EVO/ }).waitFor({ timeout: 60_000 });
      const fetched = await again.evaluate(() =>
        (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
          .filter((e) => /\/assets\/.*\.js$/.test(e.name) && e.transferSize > 0)
          .map((e) => e.name),
      );
      expect(fetched).toEqual([]);
      await context.close();
    }, 120_000);
  }

  it("a member's feed on a phone: the app shell paints at once, the feed's code comes after", async () => {
    const context = await live.browser.newContext({ viewport: SIZES[1].viewport, locale: 'fr-FR' });
    // logged in beforehand (full speed): the session cookie and the stored user, as on a phone in use
    const { page: setup } = await newPage(context);
    await logInAs(setup, live.server.url, author.member);
    await setup.close();
    // a fresh page of the same context still shares its HTTP cache: throttled() clears it (a cold load)
    const page = await throttled(context);
    await page.goto(`${live.server.url}/video/${author.videoId}`);
    const loaded = await measure(page, page.getByRole('heading', { name: 'Ma première vidéo' }));
    report('member, /video/:id (mobile)', loaded);
    await screenshot(page, 'first-load-video-mobile', { fullPage: false });
    expectPaintBeforeAssets(loaded);
    expect(total(loaded.initial)).toBeLessThanOrEqual(INITIAL_JS_BUDGET_BYTES);
    await context.close();
  }, 120_000);
});
