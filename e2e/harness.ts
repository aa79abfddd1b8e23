import { existsSync, mkdirSync } from 'node:fs';
import { execSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startTestServer, type TestServer } from '@evo/command-api/testing/test-server';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const WEB_DIST = path.join(ROOT, 'web/dist');
export const SCREENS = path.join(ROOT, 'artifacts/screens');
export const CHROMIUM = '/usr/bin/chromium';

/** Why browser tests cannot run here, or undefined when they can. */
export function browserSkipReason(): string | undefined {
  if (!existsSync(CHROMIUM)) return `browser tests skipped: ${CHROMIUM} is missing (apt-get install chromium)`;
  return undefined;
}

/** The web app as `npm start` serves it: (re)built when web/dist is missing or older than its sources. */
export function ensureWebBuild(): void {
  execSync('node scripts/ensure-web-build.mjs', { cwd: ROOT, stdio: 'inherit' });
}

/** A real server (as `npm start` runs it) on a fresh DATA_DIR and a free port, serving the built web app. */
export async function startE2eServer(
  env: Record<string, string> = {},
  options: Parameters<typeof startTestServer>[3] = {},
): Promise<TestServer> {
  ensureWebBuild();
  return startTestServer(env, undefined, WEB_DIST, options);
}

export interface LaunchOptions {
  /** A .y4m (or .mjpeg) the fake camera plays in a loop instead of Chromium's generated test pattern. */
  fakeVideoCapture?: string;
  /** more Chromium switches, e.g. `--host-resolver-rules=MAP evo.test 127.0.0.1` */
  args?: string[];
  /** no auto-accepted permission prompt: the page's camera request is refused, as when a person says no */
  refuseCamera?: boolean;
}

/** Headless Debian Chromium with a fake camera and microphone that need no permission prompt (unless refused). */
export async function launchBrowser(options: LaunchOptions = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--use-fake-device-for-media-stream',
      ...(options.refuseCamera ? [] : ['--use-fake-ui-for-media-stream']),
      ...(options.fakeVideoCapture ? [`--use-file-for-fake-video-capture=${options.fakeVideoCapture}`] : []),
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      ...(options.args ?? []),
    ],
  });
}

/** A page that records console errors and page errors, for "no console error" checks. */
export async function newPage(context: BrowserContext): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${page.url()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
  return { page, errors };
}

/**
 * A new browser context (French locale, the given viewport) logged in as `who` through the login
 * page, as a member does it: the page has left /login when it resolves.
 */
export async function loggedInPage(
  browser: Browser,
  baseUrl: string,
  who: { email: string; password: string },
  viewport: { width: number; height: number } = { width: 1280, height: 800 },
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport, locale: 'fr-FR' });
  const { page, errors } = await newPage(context);
  await logInAs(page, baseUrl, who);
  return { context, page, errors };
}

/**
 * Fills and sends the login form of the page that is open (the login page, or one that asks to log in).
 * The fields are looked up inside the form that sends 'Se connecter': right after an in-app move to
 * /login the registration form (its own Email and password) can still be on screen, and filling it
 * sent an empty login form (CI: visitor-links timed out waiting for the profile).
 */
export async function fillLogin(page: Page, who: { email: string; password: string }): Promise<void> {
  const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Se connecter' }) });
  await form.getByLabel('Email').fill(who.email);
  await form.getByLabel('Mot de passe').fill(who.password);
  await form.getByRole('button', { name: 'Se connecter' }).click();
}

/** Logs `who` (a member or the administrator) in through the login page; resolves once the app left it. */
export async function logInAs(page: Page, baseUrl: string, who: { email: string; password: string }): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await fillLogin(page, who);
  await page.waitForURL((u) => u.pathname !== '/login');
}

/** artifacts/screens/<name>.png: the whole page, or only the viewport (fixed bars where a person sees them). */
export async function screenshot(page: Page, name: string, { fullPage = true } = {}): Promise<void> {
  mkdirSync(SCREENS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENS, `${name}.png`), fullPage });
}
