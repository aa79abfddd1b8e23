/**
 * Screenshots of the web shell in a real (headless) Chromium, with /api mocked.
 *
 *   npx vite build --config web/vite.config.ts
 *   npx tsx e2e/web-shell.screens.ts
 *
 * Serves web/dist with a tiny static server (SPA fallback), mocks /api/** with
 * page.route (except the video upload, which the static server answers slowly so
 * that real upload progress is visible), checks a few behaviours and writes PNGs
 * into artifacts/screens/.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type Page, type Route } from 'playwright-core';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const distDir = join(root, 'web', 'dist');
const outDir = join(root, 'artifacts', 'screens');

const USER = {
  email: 'alice@example.com',
  pseudo: 'alice',
  role: 'user',
  is_admin: false,
  profile_picture: 'default.png',
};
const ADMIN = {
  email: 'admin@evo.test',
  pseudo: 'admin',
  role: 'admin',
  is_admin: true,
  profile_picture: 'default.png',
};

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
};

/** Upload requests the static server has received but not answered yet. */
const pendingUploads: Array<() => void> = [];
/** When set, the next uploads are answered 401 at once (session expired). */
let uploadsUnauthorized = false;

async function handleUpload(req: IncomingMessage, res: ServerResponse) {
  if (uploadsUnauthorized) {
    req.on('data', () => undefined);
    req.on('end', () => {
      res.writeHead(401, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: 'Non connecté.' }));
    });
    return;
  }
  // Do not read the body at first: TCP back-pressure keeps the upload part-way.
  req.pause();
  await new Promise<void>((release) => pendingUploads.push(release));
  req.resume();
  req.on('data', () => undefined);
  req.on('end', () => {
    res.writeHead(201, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ video: { id: 42, title: 'Ma vidéo' } }));
  });
}

async function serveStatic(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname === '/api/videos/upload' && req.method === 'POST') return handleUpload(req, res);
  if (
    url.pathname.startsWith('/api/') ||
    url.pathname.startsWith('/uploads/') ||
    url.pathname.startsWith('/socket.io')
  ) {
    res.writeHead(404, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ error: 'Introuvable' }));
    return;
  }
  const file = normalize(join(distDir, decodeURIComponent(url.pathname)));
  const insideDist = file.startsWith(distDir);
  let body: Buffer;
  let type: string;
  try {
    if (!insideDist || !extname(file)) throw new Error('spa');
    body = await readFile(file);
    type = MIME[extname(file)] ?? 'application/octet-stream';
  } catch {
    if (extname(url.pathname)) {
      res.writeHead(404);
      res.end();
      return;
    }
    body = await readFile(join(distDir, 'index.html'));
    type = MIME['.html'];
  }
  res.writeHead(200, { 'Content-Type': type });
  res.end(body);
}

interface MockState {
  me: typeof USER | null;
  loginAnswer: { status: number; body: unknown };
  calls: string[];
}

async function mockApi(page: Page, state: MockState) {
  await page.route('**/socket.io/**', (route) => route.abort());
  await page.route(
    (url) => url.pathname.startsWith('/api/') && url.pathname !== '/api/videos/upload',
    async (route: Route) => {
      const request = route.request();
      const path = new URL(request.url()).pathname;
      state.calls.push(`${request.method()} ${path}`);
      const json = (status: number, body: unknown) =>
        route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
      if (path === '/api/auth/me') {
        return state.me ? json(200, { ...state.me, admin_email: ADMIN.email }) : json(401, { error: 'Non connecté.' });
      }
      if (path === '/api/auth/login') {
        assert.equal(request.headers()['content-type'], 'application/json');
        return json(state.loginAnswer.status, state.loginAnswer.body);
      }
      if (path === '/api/auth/logout') {
        state.me = null;
        return route.fulfill({ status: 204 });
      }
      if (path === '/api/auth/register') return json(201, { message: 'Compte créé' });
      return json(404, { error: 'Introuvable' });
    },
  );
}

async function newPage(browser: Browser, state: MockState, viewport = { width: 1280, height: 800 }) {
  const context: BrowserContext = await browser.newContext({ viewport, locale: 'fr-FR', deviceScaleFactor: 1 });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const text = msg.text();
    // Expected: the profile picture is not served here (fallback initial shown), mocked 401/404s.
    if (text.includes('Failed to load resource')) return;
    problems.push(`console: ${text}`);
  });
  await mockApi(page, state);
  return { context, page, problems };
}

/** Records the JS files a page loads; `report` prints their gzipped total (from web/dist). */
function trackScripts(page: Page) {
  const files = new Set<string>();
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (path.endsWith('.js')) files.add(path);
  });
  return async (label: string) => {
    let total = 0;
    for (const file of files) total += gzipSync(await readFile(join(distDir, file)), { level: 9 }).length;
    console.log(
      `    ${label}: ${files.size} JS files, ${(total / 1024).toFixed(1)} kB gzipped (${[...files].join(', ')})`,
    );
  };
}

async function shot(page: Page, name: string, fullPage = false) {
  await page.evaluate('document.fonts.ready');
  const file = join(outDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage });
  console.log(`  ✓ ${name}.png`);
}

async function main() {
  if (!existsSync(join(distDir, 'index.html'))) {
    throw new Error('web/dist is missing: run `npx vite build --config web/vite.config.ts` first');
  }
  await mkdir(outDir, { recursive: true });
  const server = createServer((req, res) => {
    serveStatic(req, res).catch((err: unknown) => {
      res.writeHead(500);
      res.end(String(err));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const allProblems: string[] = [];

  try {
    // 1. Home, logged out.
    {
      const state: MockState = { me: null, loginAnswer: { status: 200, body: USER }, calls: [] };
      const { context, page, problems } = await newPage(browser, state);
      const reportScripts = trackScripts(page);
      await page.goto(`${base}/`);
      await page.getByRole('heading', { level: 1, name: /^Bienvenue sur EVO\s!$/u }).waitFor();
      await page.waitForLoadState('networkidle');
      await reportScripts('home, logged out');
      await page.waitForFunction('document.title.length > 0');
      assert.ok(state.calls.includes('GET /api/auth/me'), 'GET /api/auth/me at start');
      assert.equal(await page.getByRole('link', { name: 'Se connecter' }).count(), 1);
      assert.equal(await page.getByRole('link', { name: 'Créer un compte' }).count(), 1);
      assert.equal(await page.getByRole('button', { name: 'Notifications' }).count(), 0);
      assert.equal(await page.getByRole('link', { name: 'Admin', exact: true }).count(), 0);
      assert.equal(await page.getByRole('link', { name: 'Mon profil', exact: true }).getAttribute('href'), '/admin');
      assert.equal(await page.getByRole('link', { name: 'Voir mon profil' }).getAttribute('href'), '/profile');
      assert.equal(await page.getByRole('link', { name: 'Ajouter une vidéo' }).getAttribute('href'), '/upload');
      await shot(page, '01-home-logged-out');

      // Carousel controls.
      await page.getByRole('button', { name: 'Diapositive suivante' }).click();
      await page.getByRole('link', { name: /Créer une Vidéo/ }).waitFor();
      assert.equal(await page.getByRole('link', { name: /Créer une Vidéo/ }).getAttribute('href'), '/create');
      await page.getByRole('button', { name: /Aller à la diapositive 3/ }).click();
      assert.equal(
        await page.getByRole('link', { name: /Importer depuis la Galerie/ }).getAttribute('href'),
        '/upload/video',
      );
      allProblems.push(...problems);
      await context.close();
    }

    // 2. Login: bad credentials, then success → /user/alice, home logged in, logout.
    {
      const state: MockState = {
        me: null,
        loginAnswer: { status: 401, body: { error: 'Email ou mot de passe incorrect.' } },
        calls: [],
      };
      const { context, page, problems } = await newPage(browser, state);
      await page.goto(`${base}/login`);
      await page.getByRole('heading', { name: 'Connexion' }).waitFor();
      assert.equal(await page.locator('.topbar').count(), 0, '/login is outside the layout');
      await shot(page, '02-login');

      await page.getByLabel('Email').fill('alice@example.com');
      await page.getByLabel('Mot de passe').fill('mauvais');
      await page.getByRole('button', { name: 'Se connecter' }).click();
      await page.getByText("❌ Impossible de se connecter. Vérifie tes identifiants ou l'état du serveur.").waitFor();
      await shot(page, '03-login-error');

      state.loginAnswer = { status: 200, body: {} };
      await page.getByRole('button', { name: 'Se connecter' }).click();
      await page.getByText('Email ou mot de passe incorrect.', { exact: true }).waitFor();

      state.loginAnswer = { status: 200, body: USER };
      state.me = USER;
      await page.getByRole('button', { name: 'Se connecter' }).click();
      await page.waitForURL(`${base}/user/alice`);
      const stored = JSON.parse(String(await page.evaluate('localStorage.getItem("currentUser")'))) as typeof USER;
      assert.equal(stored.pseudo, 'alice');
      assert.equal(await page.evaluate('localStorage.getItem("userEmail")'), USER.email);
      assert.equal(await page.evaluate('localStorage.getItem("userPseudo")'), USER.pseudo);
      await page.getByRole('heading', { name: 'Profil' }).waitFor();
      await shot(page, '04-placeholder-user-profile');

      await page.getByRole('link', { name: 'Accueil', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: /^Bienvenue sur EVO, alice\s!$/u }).waitFor();
      const bell = page.getByRole('button', { name: 'Notifications', exact: true });
      assert.equal(await bell.count(), 1);
      assert.equal(await page.locator('.badge').count(), 0, 'no badge at 0');
      assert.equal(
        await page.getByRole('link', { name: 'Mon profil', exact: true }).getAttribute('href'),
        '/user/alice',
      );
      assert.equal(
        await page.getByRole('link', { name: 'Admin', exact: true }).count(),
        0,
        'no Admin link for a member',
      );
      await shot(page, '05-home-logged-in');

      await page.getByRole('button', { name: 'Déconnexion' }).click();
      await page.waitForURL(`${base}/login`);
      assert.ok(state.calls.includes('POST /api/auth/logout'));
      assert.equal(await page.evaluate('localStorage.getItem("currentUser")'), null);
      assert.equal(await page.evaluate('localStorage.getItem("userEmail")'), null);
      allProblems.push(...problems);
      await context.close();
    }

    // 3. Register with mismatching passwords.
    {
      const state: MockState = { me: null, loginAnswer: { status: 200, body: USER }, calls: [] };
      const { context, page, problems } = await newPage(browser, state);
      await page.goto(`${base}/register`);
      await page.getByRole('heading', { name: 'Créer un compte' }).waitFor();
      const submit = page.getByRole('button', { name: 'Créer mon compte' });
      assert.ok(await submit.isDisabled(), 'submit disabled while empty');
      await page.getByLabel('Email').fill('bob@example.com');
      await page.getByLabel('Pseudo').fill('bob');
      await page.getByLabel('Mot de passe', { exact: true }).fill('secret123');
      await page.getByLabel('Confirmer le mot de passe').fill('secret124');
      await page.getByLabel('Bio').fill('Fan de vélo et de vidéos courtes.');
      await page
        .getByLabel('Photo de profil')
        .setInputFiles({ name: 'moi.png', mimeType: 'image/png', buffer: Buffer.from('png') });
      await page
        .getByLabel('Vidéo', { exact: true })
        .setInputFiles({ name: 'clip.mp4', mimeType: 'video/mp4', buffer: Buffer.from('mp4') });
      await page.getByLabel('Titre de la vidéo').fill('Ma première vidéo');
      await page.getByText('❌ Les mots de passe ne correspondent pas.').waitFor();
      assert.ok(await submit.isDisabled(), 'submit disabled while passwords differ');
      await shot(page, '06-register-mismatch', true);

      await page.getByLabel('Confirmer le mot de passe').fill('secret123');
      assert.ok(await submit.isEnabled(), 'submit enabled once everything is valid');
      await submit.click();
      await page.waitForURL(`${base}/login`);
      await page.getByText('✅ Compte créé avec succès ! Vous pouvez vous connecter.').waitFor();
      assert.equal(await page.getByLabel('Email').inputValue(), 'bob@example.com');
      await shot(page, '07-register-success-login');
      allProblems.push(...problems);
      await context.close();
    }

    // 4. Upload with progress, placeholder, 404 (logged in).
    {
      const state: MockState = { me: USER, loginAnswer: { status: 200, body: USER }, calls: [] };
      const { context, page, problems } = await newPage(browser, state);
      await page.goto(`${base}/`);
      await page.evaluate(`localStorage.setItem('currentUser', ${JSON.stringify(JSON.stringify(USER))})`);
      await page.goto(`${base}/upload/video`);
      await page.getByRole('heading', { name: 'Publier une vidéo' }).waitFor();
      await page.getByLabel('Titre').fill('Coucher de soleil');
      await page.getByRole('button', { name: 'Publier' }).click();
      await page.getByText('Choisis une vidéo.').waitFor();
      await shot(page, '08-upload-no-file');

      await page.getByLabel('Fichier vidéo').setInputFiles({
        name: 'coucher.mp4',
        mimeType: 'video/mp4',
        buffer: Buffer.alloc(48 * 1024 * 1024, 7),
      });
      await page.getByLabel(/Légende/).fill('Vu depuis la plage.');
      await page.getByRole('button', { name: 'Publier' }).click();
      const bar = page.getByRole('progressbar');
      await bar.waitFor();
      await page.waitForFunction(
        `Number(document.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow')) > 0`,
        undefined,
        { timeout: 10_000 },
      );
      await page.waitForTimeout(800);
      const now = Number(await bar.getAttribute('aria-valuenow'));
      console.log(`    upload progress shown: ${now} %`);
      assert.ok(now > 0 && now < 100, 'progress part-way');
      await shot(page, '09-upload-progress');
      for (const release of pendingUploads.splice(0)) release();
      await page.getByText('Vidéo envoyée avec succès !').waitFor();
      await shot(page, '10-upload-success');

      await page.goto(`${base}/feed`);
      await page.getByRole('heading', { name: 'Feed Amis' }).waitFor();
      await page.getByText('Les vidéos des personnes que vous suivez apparaîtront ici.').waitFor();
      assert.equal(await page.title(), 'Feed Amis · EVO');
      await shot(page, '11-placeholder-feed');

      await page.goto(`${base}/coins/conversion`);
      await page.getByText('Cette page est à compléter.').waitFor();

      await page.goto(`${base}/cette-page-n-existe-pas`);
      await page.getByRole('heading', { name: 'Page introuvable' }).waitFor();
      assert.equal(await page.getByRole('link', { name: "Retour à l'accueil" }).getAttribute('href'), '/');
      await shot(page, '12-not-found');

      // Session expired: a 401 clears the stored user and goes to /login.
      uploadsUnauthorized = true;
      await page.getByRole('link', { name: 'Ajouter une vidéo' }).click();
      await page.getByRole('heading', { name: 'Publier une vidéo' }).waitFor();
      await page
        .getByLabel('Fichier vidéo')
        .setInputFiles({ name: 'a.mp4', mimeType: 'video/mp4', buffer: Buffer.from('mp4') });
      await page.getByLabel('Titre').fill('Encore');
      await page.getByRole('button', { name: 'Publier' }).click();
      await page.waitForURL(`${base}/login`);
      assert.equal(await page.evaluate('localStorage.getItem("currentUser")'), null, '401 clears the stored user');
      uploadsUnauthorized = false;
      allProblems.push(...problems);
      await context.close();
    }

    // 5. /admin as an admin: light top bar and Admin link.
    {
      const state: MockState = { me: ADMIN, loginAnswer: { status: 200, body: ADMIN }, calls: [] };
      const { context, page, problems } = await newPage(browser, state);
      await page.goto(`${base}/admin`);
      await page.getByRole('heading', { name: 'Administration' }).waitFor();
      await page.getByRole('link', { name: 'Admin', exact: true }).waitFor();
      assert.ok((await page.locator('header.topbar').getAttribute('class'))?.includes('topbar--light'));
      await shot(page, '13-admin-light-bar');
      await page.goto(`${base}/`);
      await page.getByRole('heading', { level: 1, name: /Bienvenue sur EVO/ }).waitFor();
      assert.ok((await page.locator('header.topbar').getAttribute('class'))?.includes('topbar--dark'));
      allProblems.push(...problems);
      await context.close();
    }

    // 6. Home at 375x812 with the bottom bar (logged in).
    {
      const state: MockState = { me: USER, loginAnswer: { status: 200, body: USER }, calls: [] };
      const { context, page, problems } = await newPage(browser, state, { width: 375, height: 812 });
      const reportScripts = trackScripts(page);
      await page.goto(`${base}/`);
      await page.getByRole('heading', { level: 1, name: /^Bienvenue sur EVO, alice\s!$/u }).waitFor();
      await page.waitForLoadState('networkidle');
      await reportScripts('home, logged in (with socket.io-client)');
      const width = Number(await page.evaluate('document.documentElement.scrollWidth'));
      assert.ok(width <= 375, `no horizontal scroll at 375 px (scrollWidth ${width})`);
      const barBox = await page.getByRole('navigation', { name: 'Barre de navigation' }).boundingBox();
      assert.ok(barBox && Math.round(barBox.y + barBox.height) === 812, 'bottom bar fixed at the bottom');
      await shot(page, '14-home-mobile');

      // Keyboard: Tab reaches the skip link first, then the brand.
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate('document.activeElement?.textContent'), 'Aller au contenu');
      await page.keyboard.press('Tab');
      await shot(page, '15-home-mobile-focus');

      await page.getByRole('link', { name: 'Ajouter une vidéo' }).click();
      await page.getByRole('heading', { name: 'Publier une vidéo' }).waitFor();
      assert.equal(await page.evaluate('document.activeElement?.id'), 'contenu', 'focus moves to the new content');
      await shot(page, '16-upload-mobile');
      allProblems.push(...problems);
      await context.close();
    }
  } finally {
    await browser.close();
    for (const release of pendingUploads.splice(0)) release();
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
  }

  if (allProblems.length > 0) {
    console.error('Browser problems:\n' + allProblems.join('\n'));
    process.exitCode = 1;
  } else {
    console.log(`All screens written to ${outDir}`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
