/**
 * The recorder (/create), the camera test page (/test) and the test video page
 * (/test-video) in a real headless Chromium with a fake camera and microphone.
 *
 *   npx vite build --config web/vite.config.ts
 *   npx tsx e2e/recorder.screens.ts
 *
 * Builds nothing: it serves web/dist with `vite preview` on port 4174 (started
 * here unless something already answers there), mocks /api/** with page.route,
 * checks the behaviours below and writes PNGs into artifacts/screens/recorder-*.png.
 *
 * - /create: Activer caméra, filter, Démarrer, Pause, Reprendre, Arrêter, preview of
 *   a real webm, Publier (multipart checked) → 'Vidéo publiée !'; enabling rules;
 *   camera tracks stopped after the recording; MediaPipe files served by the app
 *   itself under /mediapipe/face_mesh/ and FaceMesh initialised (the fake camera
 *   shows no face, so no overlay is expected); the production CSP of command-api.
 * - the home page loads no MediaPipe code or file; gzipped JS sizes are printed.
 * - camera refused: 'Accès caméra refusé' on /create, console warning only on /test.
 * - /test: mirrored preview without audio, tracks stopped when leaving.
 * - /test-video: the shipped sample plays, with controls, at most 400 px high.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type Page, type Request } from 'playwright-core';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const distDir = join(root, 'web', 'dist');
const outDir = join(root, 'artifacts', 'screens');
const PORT = 4174;
const BASE = `http://localhost:${PORT}`;

const USER = {
  email: 'alice@example.com',
  pseudo: 'alice',
  role: 'user',
  is_admin: false,
  profile_picture: 'default.png',
};

const BROWSER_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--use-fake-device-for-media-stream',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * What command-api/src/app.ts (helmet) sends with the web app. MediaPipe's wasm
 * glue (embind) calls `new Function`, which this policy forbids: Face Mesh then
 * fails to start and the recorder must still record, without overlay.
 */
const PRODUCTION_CSP = [
  "default-src 'self'",
  "base-uri 'self'",
  "font-src 'self' https: data:",
  "form-action 'self'",
  "frame-ancestors 'self'",
  "object-src 'none'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "script-src-attr 'none'",
  "style-src 'self' https: 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob: data:",
  "connect-src 'self' ws: wss:",
  "worker-src 'self' blob:",
].join('; ');
/** The same with 'unsafe-eval': what Face Mesh needs in production. */
const CSP_WITH_EVAL = PRODUCTION_CSP.replace(
  "script-src 'self' 'wasm-unsafe-eval'",
  "script-src 'self' 'wasm-unsafe-eval' 'unsafe-eval'",
);

/** 1x1 transparent PNG for /uploads/** (profile pictures). */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

interface OpenOptions {
  viewport?: { width: number; height: number };
  /** Milliseconds before the upload is answered (to see the progress bar). */
  uploadDelayMs?: number;
  /** Content-Security-Policy sent with the pages (none, like `vite preview`, by default). */
  csp?: string;
}

interface Upload {
  contentType: string;
  body: Buffer;
}

interface Session {
  context: BrowserContext;
  page: Page;
  problems: string[];
  warnings: string[];
  requests: Request[];
  responses: Map<string, number>;
  uploads: Upload[];
}

async function serverAnswers(): Promise<boolean> {
  try {
    const response = await fetch(`${BASE}/`, { signal: AbortSignal.timeout(1000) });
    return response.ok;
  } catch {
    return false;
  }
}

async function startPreview(): Promise<ChildProcess | null> {
  if (await serverAnswers()) {
    console.log(`  (using the server already on port ${PORT})`);
    return null;
  }
  // `npx vite preview …`, run with node directly so that killing this one process stops it.
  const child = spawn(
    process.execPath,
    [
      join(root, 'node_modules/vite/bin/vite.js'),
      'preview',
      '--config',
      'web/vite.config.ts',
      '--port',
      String(PORT),
      '--strictPort',
    ],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (await serverAnswers()) return child;
    if (child.exitCode !== null) break;
    await new Promise((done) => setTimeout(done, 200));
  }
  child.kill();
  throw new Error(`vite preview did not answer on port ${PORT}`);
}

async function open(browser: Browser, options: OpenOptions = {}): Promise<Session> {
  const { viewport = { width: 1280, height: 900 }, uploadDelayMs = 0, csp } = options;
  const context = await browser.newContext({ viewport, locale: 'fr-FR', deviceScaleFactor: 1 });
  const page = await context.newPage();
  const session: Session = {
    context,
    page,
    problems: [],
    warnings: [],
    requests: [],
    responses: new Map(),
    uploads: [],
  };
  page.on('pageerror', (err) => session.problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'warning') session.warnings.push(msg.text());
    if (msg.type() === 'error' && !msg.text().includes('Failed to load resource')) {
      session.problems.push(`console: ${msg.text()}`);
    }
  });
  page.on('request', (request) => session.requests.push(request));
  page.on('response', (response) => session.responses.set(response.url(), response.status()));

  // Keep every MediaStream the page opens, to check that its tracks get stopped.
  await page.addInitScript(() => {
    const streams: MediaStream[] = [];
    (window as unknown as { __streams: MediaStream[] }).__streams = streams;
    const devices = navigator.mediaDevices;
    if (!devices?.getUserMedia) return;
    const original = devices.getUserMedia.bind(devices);
    devices.getUserMedia = async (constraints?: MediaStreamConstraints) => {
      const stream = await original(constraints);
      streams.push(stream);
      return stream;
    };
  });

  await page.route('**/socket.io/**', (route) => route.abort());
  await page.route('**/uploads/**', (route) => route.fulfill({ status: 200, contentType: 'image/png', body: PIXEL }));
  await page.route(
    (url) => url.pathname.startsWith('/api/'),
    async (route) => {
      const request = route.request();
      const path = new URL(request.url()).pathname;
      const json = (status: number, body: unknown) =>
        route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
      if (path === '/api/auth/me') return json(200, USER);
      if (path === '/api/notifications' && request.method() === 'GET') return json(200, []); // the bell
      if (path === '/api/videos/upload' && request.method() === 'POST') {
        session.uploads.push({
          contentType: request.headers()['content-type'] ?? '',
          body: request.postDataBuffer() ?? Buffer.alloc(0),
        });
        if (uploadDelayMs) await new Promise((done) => setTimeout(done, uploadDelayMs));
        return json(201, {
          message: 'Vidéo envoyée',
          video: {
            id: 7,
            title: 'Vidéo EVO',
            description: 'Vidéo enregistrée avec EVO',
            file_path: '/uploads/videos/7.webm',
          },
        });
      }
      return json(404, { error: 'Introuvable' });
    },
  );
  if (csp) {
    await page.route(
      (url) => url.origin === BASE && !url.pathname.startsWith('/api/'),
      async (route) => {
        if (route.request().resourceType() !== 'document') return route.fallback();
        const response = await route.fetch();
        return route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': csp } });
      },
    );
  }
  await page.goto(`${BASE}/`);
  await page.evaluate((user) => localStorage.setItem('currentUser', JSON.stringify(user)), USER);
  return session;
}

async function shot(page: Page, name: string, fullPage = false) {
  const file = join(outDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage });
  console.log(`  ✓ ${name}.png`);
}

/** gzip -9 size of a file of web/dist, by URL path. */
async function gzipped(path: string): Promise<number> {
  return gzipSync(await readFile(join(distDir, path)), { level: 9 }).length;
}

const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

function jsPaths(requests: Request[]): string[] {
  return [
    ...new Set(requests.map((r) => new URL(r.url())).filter((u) => u.origin === BASE && u.pathname.endsWith('.js'))),
  ].map((u) => u.pathname);
}

async function jsReport(paths: string[]) {
  let total = 0;
  for (const path of paths) total += await gzipped(path);
  return total;
}

const isMediapipe = (url: string) => /mediapipe|face_?mesh/i.test(url);

async function streamsState(page: Page) {
  return page.evaluate(() =>
    (window as unknown as { __streams: MediaStream[] }).__streams.map((stream) =>
      stream.getTracks().map((track) => `${track.kind}:${track.readyState}`),
    ),
  );
}

/** Every enabled/disabled button of the recorder, by name. */
async function recorderButtons(page: Page) {
  const names = ['Activer caméra', 'Démarrer', 'Pause', 'Reprendre', 'Arrêter', 'Supprimer', 'Recommencer', 'Publier'];
  const enabled: string[] = [];
  for (const name of names) {
    if (await page.getByRole('button', { name, exact: true }).isEnabled()) enabled.push(name);
  }
  return enabled;
}

async function elapsedSeconds(page: Page): Promise<number> {
  const text = (await page.getByRole('timer').textContent()) ?? '';
  const match = /Écoulé : (\d+) s/.exec(text);
  assert.ok(match, `timer text: ${text}`);
  return Number(match[1]);
}

/** Reads the multipart body: field name → value (files as Buffer + file name + type). */
function parseMultipart(upload: Upload) {
  const boundary = /boundary=(.+)$/.exec(upload.contentType)?.[1];
  assert.ok(boundary, `multipart boundary in ${upload.contentType}`);
  const fields = new Map<string, { value: Buffer; filename?: string; type?: string }>();
  const delimiter = Buffer.from(`--${boundary}`);
  let start = upload.body.indexOf(delimiter);
  while (start !== -1) {
    const next = upload.body.indexOf(delimiter, start + delimiter.length);
    if (next === -1) break;
    const part = upload.body.subarray(start + delimiter.length + 2, next - 2); // skip CRLFs
    const headerEnd = part.indexOf('\r\n\r\n');
    const headers = part.subarray(0, headerEnd).toString('utf8');
    const name = /name="([^"]+)"/.exec(headers)?.[1];
    if (name) {
      fields.set(name, {
        value: part.subarray(headerEnd + 4),
        filename: /filename="([^"]*)"/.exec(headers)?.[1],
        type: /Content-Type: ([^\r\n]+)/i.exec(headers)?.[1],
      });
    }
    start = next;
  }
  return fields;
}

async function main() {
  if (!existsSync(join(distDir, 'index.html'))) {
    throw new Error('web/dist is missing: run `npx vite build --config web/vite.config.ts` first');
  }
  assert.ok(
    existsSync(join(distDir, 'mediapipe/face_mesh/face_mesh.js')),
    'web/dist/mediapipe/face_mesh is missing: rebuild with web/vite.config.ts',
  );
  await mkdir(outDir, { recursive: true });
  const preview = await startPreview();
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [...BROWSER_ARGS, '--use-fake-ui-for-media-stream'],
  });
  // Same browser without the auto-accepted prompt: the camera is refused.
  const denyingBrowser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: BROWSER_ARGS,
  });
  const problems: string[] = [];

  try {
    // 1. Home: no MediaPipe code or file; then what /create adds.
    {
      const s = await open(browser);
      s.requests.length = 0;
      await s.page.goto(`${BASE}/`);
      await s.page.getByRole('heading', { level: 1, name: /Bienvenue sur EVO/ }).waitFor();
      await s.page.waitForLoadState('networkidle');
      const homeUrls = s.requests.map((r) => r.url());
      assert.deepEqual(homeUrls.filter(isMediapipe), [], 'the home page requests no MediaPipe file');
      assert.ok(!homeUrls.some((u) => /RecorderScreen|faceMesh/.test(u)), 'no recorder chunk on the home page');
      const homeJs = jsPaths(s.requests);
      const homeSize = await jsReport(homeJs);
      console.log(`    home: ${homeJs.length} JS files, ${kB(homeSize)} gzipped (${homeJs.join(', ')})`);

      // Client-side navigation to /create through the carousel, then the camera.
      const before = s.requests.length;
      await s.page.getByRole('link', { name: /Créer une Vidéo/ }).click();
      await s.page.getByRole('heading', { level: 1, name: 'Créer une Vidéo' }).waitFor();
      await s.page.waitForLoadState('networkidle');
      const screenJs = jsPaths(s.requests.slice(before)).filter((p) => !homeJs.includes(p));
      console.log(`    /create screen adds: ${kB(await jsReport(screenJs))} gzipped JS (${screenJs.join(', ')})`);
      assert.deepEqual(
        s.requests
          .slice(before)
          .map((r) => r.url())
          .filter((u) => /\/mediapipe\//.test(u)),
        [],
      );

      const beforeCamera = s.requests.length;
      await s.page.getByRole('button', { name: 'Activer caméra' }).click();
      await s.page.locator('.recorder__face-status[data-status="ready"]').waitFor({ timeout: 90_000 });
      const cameraRequests = s.requests.slice(beforeCamera);
      const chunkJs = jsPaths(cameraRequests).filter((p) => !p.startsWith('/mediapipe/'));
      const mediapipeFiles = [
        ...new Set(cameraRequests.map((r) => new URL(r.url()).pathname).filter((p) => p.startsWith('/mediapipe/'))),
      ];
      let mediapipeRaw = 0;
      let mediapipeGz = 0;
      for (const file of mediapipeFiles) {
        mediapipeRaw += (await stat(join(distDir, file))).size;
        mediapipeGz += await gzipped(file);
      }
      console.log(`    Activer caméra adds: ${kB(await jsReport(chunkJs))} gzipped JS (${chunkJs.join(', ')})`);
      console.log(
        `      + MediaPipe files: ${kB(mediapipeRaw)} raw, ${kB(mediapipeGz)} gzipped (${mediapipeFiles.join(', ')})`,
      );
      problems.push(...s.problems);
      await s.context.close();
    }

    // 2. The recorder, from camera to publication.
    {
      const s = await open(browser, { uploadDelayMs: 700 });
      const { page } = s;
      await page.goto(`${BASE}/create`);
      await page.getByRole('heading', { level: 1, name: 'Créer une Vidéo' }).waitFor();
      assert.equal(await page.title(), 'Créer une Vidéo · EVO');
      assert.deepEqual(await recorderButtons(page), ['Activer caméra'], 'camera off: only Activer caméra');
      assert.equal(await page.getByLabel('Durée maximale').inputValue(), '30', 'default duration 30 s');
      assert.deepEqual(
        await page
          .getByLabel('Durée maximale')
          .locator('option')
          .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value)),
        ['15', '30', '60'],
      );
      assert.match((await page.getByRole('timer').textContent()) ?? '', /Écoulé : 0 s.*Restant : 30 s/);
      const filterGroup = page.getByRole('group', { name: 'Filtres de visage' });
      const filterNames = await filterGroup.getByRole('button').allTextContents();
      assert.equal(filterNames.length, 9, `8 filters + Aucun filtre: ${filterNames.join(', ')}`);
      assert.equal(filterNames[0], 'Aucun filtre');
      assert.equal(
        await filterGroup.getByRole('button', { name: 'Aucun filtre' }).getAttribute('aria-pressed'),
        'true',
      );
      await page.waitForFunction(() =>
        [...document.querySelectorAll<HTMLImageElement>('.filter-picker img')].every(
          (img) => img.complete && img.naturalWidth > 0,
        ),
      );
      assert.deepEqual(
        s.requests.map((r) => r.url()).filter((u) => u.includes('/mediapipe/')),
        [],
        'not before the camera',
      );
      await shot(page, 'recorder-01-idle');

      await page.getByRole('button', { name: 'Activer caméra' }).click();
      await page.getByRole('button', { name: 'Démarrer' }).and(page.locator(':enabled')).waitFor();
      assert.deepEqual(await recorderButtons(page), ['Démarrer'], 'camera on: Démarrer');
      const settings = await page.evaluate(() => {
        const streams = (window as unknown as { __streams: MediaStream[] }).__streams;
        const stream = streams[streams.length - 1];
        const video = stream.getVideoTracks()[0].getSettings();
        return { width: video.width, height: video.height, audio: stream.getAudioTracks().length };
      });
      assert.deepEqual(settings, { width: 640, height: 480, audio: 1 }, 'front camera 640x480 + microphone');

      await page.locator('.recorder__face-status[data-status="ready"]').waitFor({ timeout: 90_000 });
      await page.getByText('Aucun visage détecté.').waitFor();
      const faceMeshResponses = [...s.responses].filter(([url]) => url.includes('/mediapipe/face_mesh/'));
      for (const [url, status] of faceMeshResponses) {
        assert.equal(new URL(url).origin, BASE, `same origin: ${url}`);
        assert.equal(status, 200, `${url} → ${status}`);
      }
      const served = faceMeshResponses.map(([url]) => new URL(url).pathname.replace('/mediapipe/face_mesh/', ''));
      for (const needed of ['face_mesh.js', 'face_mesh.binarypb', 'face_mesh_solution_packed_assets.data']) {
        assert.ok(served.includes(needed), `${needed} requested (${served.join(', ')})`);
      }
      assert.ok(
        served.some((f) => f.endsWith('.wasm')),
        'a wasm file requested',
      );
      assert.ok(
        await page.evaluate(() => typeof (window as unknown as { FaceMesh?: unknown }).FaceMesh === 'function'),
      );
      console.log(`    FaceMesh initialised from ${served.length} same-origin files: ${served.join(', ')}`);

      await page.getByRole('button', { name: 'Pirate' }).click();
      assert.equal(await page.getByRole('button', { name: 'Pirate' }).getAttribute('aria-pressed'), 'true');
      assert.equal(await page.getByRole('button', { name: 'Aucun filtre' }).getAttribute('aria-pressed'), 'false');
      assert.equal(await page.locator('canvas').getAttribute('aria-label'), 'Image de la caméra avec le filtre Pirate');
      const canvasSize = await page
        .locator('canvas')
        .evaluate((c) => [(c as HTMLCanvasElement).width, (c as HTMLCanvasElement).height]);
      assert.deepEqual(canvasSize, [320, 220]);
      // The canvas shows the camera frames (the fake camera is not black).
      await page.waitForFunction(() => {
        const canvas = document.querySelector('canvas')!;
        const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
        let lit = 0;
        for (let i = 0; i < data.length; i += 4 * 97) if (data[i] + data[i + 1] + data[i + 2] > 120) lit += 1;
        return lit > 50;
      });
      await shot(page, 'recorder-02-camera-on-filters');

      const startedAt = Date.now();
      await page.getByRole('button', { name: 'Démarrer' }).click();
      const stage = page.locator('.recorder__stage');
      await page.locator('.recorder__stage--recording').waitFor();
      assert.equal(await stage.evaluate((el) => getComputedStyle(el).borderTopColor), 'rgb(225, 6, 0)', 'red border');
      assert.deepEqual(await recorderButtons(page), ['Pause', 'Arrêter'], 'recording: Pause, Arrêter');
      assert.ok(await page.getByLabel('Durée maximale').isDisabled(), 'duration fixed while recording');
      await page.waitForTimeout(2000);
      const afterTwo = await elapsedSeconds(page);
      const realSeconds = (Date.now() - startedAt) / 1000;
      // ≥ 2 s since the red border showed, ≤ the time since the click was sent.
      assert.ok(afterTwo >= 2 && afterTwo <= Math.ceil(realSeconds), `elapsed ${afterTwo} s after ${realSeconds} s`);
      assert.match((await page.getByRole('timer').textContent()) ?? '', new RegExp(`Restant : ${30 - afterTwo} s`));
      await shot(page, 'recorder-03-recording');

      await page.getByRole('button', { name: 'Pause' }).click();
      assert.deepEqual(await recorderButtons(page), ['Reprendre', 'Arrêter'], 'paused: Reprendre, Arrêter');
      assert.ok(await page.locator('.recorder__stage--recording').count(), 'paused still counts as recording');
      const pausedAt = await elapsedSeconds(page);
      await page.waitForTimeout(1600);
      assert.equal(await elapsedSeconds(page), pausedAt, 'pause stops the clock');
      await shot(page, 'recorder-04-paused');
      await page.getByRole('button', { name: 'Reprendre' }).click();
      assert.deepEqual(await recorderButtons(page), ['Pause', 'Arrêter']);
      await page.waitForTimeout(1200);
      assert.ok((await elapsedSeconds(page)) > pausedAt, 'the clock runs again');
      await page.getByRole('button', { name: 'Arrêter' }).click();

      const previewVideo = page.locator('video.recorder__preview');
      await previewVideo.waitFor();
      assert.equal(await page.locator('.recorder__stage--recording').count(), 0, 'no red border after stop');
      assert.match((await previewVideo.getAttribute('src')) ?? '', /^blob:/);
      assert.equal(await previewVideo.getAttribute('controls'), '');
      assert.deepEqual(await recorderButtons(page), ['Supprimer', 'Recommencer', 'Publier'], 'stopped');
      const recorded = await previewVideo.evaluate(async (video: HTMLVideoElement) => {
        const blob = await (await fetch(video.src)).blob();
        const deadline = Date.now() + 10_000;
        while (!(Number.isFinite(video.duration) && video.duration > 0) && Date.now() < deadline) {
          await new Promise((done) => setTimeout(done, 100));
        }
        return {
          size: blob.size,
          type: blob.type,
          duration: video.duration,
          width: video.videoWidth,
          height: video.videoHeight,
        };
      });
      console.log(
        `    recorded: ${kB(recorded.size)} ${recorded.type}, ${recorded.duration.toFixed(2)} s, ${recorded.width}x${recorded.height}`,
      );
      assert.equal(recorded.type, 'video/webm');
      assert.ok(recorded.size > 10 * 1024, 'recorded blob > 10 kB');
      assert.ok(recorded.duration > 1, 'recorded video lasts more than 1 s');
      assert.deepEqual(
        [recorded.width, recorded.height],
        [320, 220],
        'the canvas (with the overlay) is what is recorded',
      );
      const tracks = (await streamsState(page)).flat();
      assert.ok(
        tracks.length >= 2 && tracks.every((t) => t.endsWith(':ended')),
        `camera tracks stopped: ${tracks.join(', ')}`,
      );
      await shot(page, 'recorder-05-preview');

      await page.getByRole('button', { name: 'Publier' }).click();
      await page.getByRole('progressbar', { name: 'Envoi de la vidéo' }).waitFor();
      await shot(page, 'recorder-06-publishing');
      await page.getByText('Vidéo publiée !').waitFor();
      await page.locator('video.recorder__preview').waitFor({ state: 'detached' });
      assert.deepEqual(await recorderButtons(page), ['Activer caméra'], 'cleared after publication');
      await shot(page, 'recorder-07-published');

      assert.equal(s.uploads.length, 1, 'one upload');
      const fields = parseMultipart(s.uploads[0]);
      assert.match(s.uploads[0].contentType, /^multipart\/form-data; boundary=/);
      const video = fields.get('video');
      assert.ok(video, 'video field');
      assert.equal(video.filename, 'enregistrement.webm');
      assert.equal(video.type, 'video/webm');
      assert.equal(video.value.subarray(0, 4).toString('hex'), '1a45dfa3', 'EBML (webm) header');
      assert.ok(video.value.includes(Buffer.from('webm')), 'webm doctype');
      assert.equal(video.value.length, recorded.size);
      assert.equal(fields.get('email')?.value.toString(), USER.email);
      assert.equal(fields.get('pseudo')?.value.toString(), USER.pseudo);
      assert.equal(fields.get('title')?.value.toString(), 'Vidéo EVO');
      assert.equal(fields.get('description')?.value.toString(), 'Vidéo enregistrée avec EVO');
      console.log(`    upload: ${[...fields.keys()].join(', ')}; video ${kB(video.value.length)}`);

      // Unmocked /api calls of other screens (e.g. notifications) answer 404 on purpose.
      const notFound = [...s.responses].filter(
        ([url, status]) => status >= 400 && !new URL(url).pathname.startsWith('/api/'),
      );
      assert.deepEqual(notFound, [], 'no missing file');
      const foreign = s.requests
        .map((r) => new URL(r.url()))
        .filter((u) => /^https?:$/.test(u.protocol) && u.origin !== BASE);
      assert.deepEqual(foreign.map(String), [], 'no third-party (CDN) request');
      problems.push(...s.problems);
      await s.context.close();
    }

    // 3. Recommencer / Supprimer, and the timer stopping by itself (15 s), on a phone.
    {
      const s = await open(browser, { viewport: { width: 375, height: 812 } });
      const { page } = s;
      await page.goto(`${BASE}/create`);
      await page.getByRole('heading', { level: 1, name: 'Créer une Vidéo' }).waitFor();
      // Keyboard only: Tab to "Activer caméra", Enter.
      let focused = '';
      for (let i = 0; i < 40 && focused !== 'Activer caméra'; i += 1) {
        await page.keyboard.press('Tab');
        focused = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
      }
      assert.equal(focused, 'Activer caméra', 'reachable with Tab');
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Démarrer' }).and(page.locator(':enabled')).waitFor();
      await page.getByLabel('Durée maximale').selectOption('15');
      await page.getByRole('button', { name: 'Lion' }).click();
      assert.ok(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
        'no horizontal scroll at 375 px',
      );
      await page.evaluate(() => window.scrollTo(0, 0));
      await shot(page, 'recorder-08-mobile', true);
      await page.getByRole('button', { name: 'Démarrer' }).click();
      await page.locator('video.recorder__preview').waitFor({ timeout: 25_000 });
      assert.equal(await elapsedSeconds(page), 15, 'stopped automatically at 15 s');
      assert.match((await page.getByRole('timer').textContent()) ?? '', /Restant : 0 s/);
      await page.evaluate(() => window.scrollTo(0, 0));
      await shot(page, 'recorder-09-mobile-auto-stop', true);

      await page.getByRole('button', { name: 'Recommencer' }).click();
      await page.locator('video.recorder__preview').waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Démarrer' }).and(page.locator(':enabled')).waitFor();
      await page.getByRole('button', { name: 'Démarrer' }).click();
      await page.waitForTimeout(1200);
      await page.getByRole('button', { name: 'Arrêter' }).click();
      await page.locator('video.recorder__preview').waitFor();
      await page.getByRole('button', { name: 'Supprimer' }).click();
      await page.locator('video.recorder__preview').waitFor({ state: 'detached' });
      assert.deepEqual(await recorderButtons(page), ['Activer caméra'], 'Supprimer clears the recording');
      assert.equal(await elapsedSeconds(page), 0);
      const tracks = (await streamsState(page)).flat();
      assert.ok(
        tracks.every((t) => t.endsWith(':ended')),
        `all tracks stopped: ${tracks.join(', ')}`,
      );
      assert.equal(s.uploads.length, 0);
      problems.push(...s.problems);
      await s.context.close();
    }

    // 3b. Under command-api's Content-Security-Policy.
    for (const [label, csp] of [
      ['production CSP', PRODUCTION_CSP],
      ["production CSP + 'unsafe-eval'", CSP_WITH_EVAL],
    ] as const) {
      const s = await open(browser, { csp });
      const { page } = s;
      const violations: string[] = [];
      page.on('console', (msg) => {
        if (msg.text().includes('Content Security Policy')) violations.push(msg.text().slice(0, 160));
      });
      await page.goto(`${BASE}/create`);
      await page.getByRole('button', { name: 'Activer caméra' }).click();
      await page
        .locator('.recorder__face-status:is([data-status="ready"], [data-status="error"])')
        .waitFor({ timeout: 90_000 });
      const status = await page.locator('.recorder__face-status').getAttribute('data-status');
      await page.getByRole('button', { name: 'Pirate' }).click();
      await page.getByRole('button', { name: 'Démarrer' }).click();
      await page.waitForTimeout(1500);
      await page.getByRole('button', { name: 'Arrêter' }).click();
      await page.locator('video.recorder__preview').waitFor();
      console.log(
        `    ${label}: Face Mesh ${status === 'ready' ? 'initialised' : 'unavailable'}, recording works` +
          (violations.length ? ` — ${violations[0]}` : ''),
      );
      if (csp === CSP_WITH_EVAL) assert.equal(status, 'ready', "Face Mesh works once 'unsafe-eval' is allowed");
      else if (status === 'error') {
        assert.ok(await page.getByText('Détection du visage indisponible').isVisible(), 'the user is told');
        await shot(page, 'recorder-13-production-csp');
      }
      problems.push(...s.problems.filter((p) => !p.includes('Content Security Policy') && !p.includes('unsafe-eval')));
      await s.context.close();
    }

    // 4. Camera refused.
    {
      const s = await open(denyingBrowser);
      const { page } = s;
      await page.goto(`${BASE}/create`);
      await page.getByRole('button', { name: 'Activer caméra' }).click();
      await page.getByRole('alert').getByText('Accès caméra refusé', { exact: true }).waitFor();
      assert.deepEqual(await recorderButtons(page), ['Activer caméra'], 'still off after a refusal');
      await shot(page, 'recorder-10-camera-refused');

      await page.goto(`${BASE}/test`);
      await page.getByRole('heading', { level: 1, name: 'Test caméra' }).waitFor();
      await page.locator('video[data-status="unavailable"]').waitFor();
      assert.ok(
        s.warnings.some((w) => w.includes('Test caméra')),
        `console.warn on /test: ${s.warnings.join(' | ')}`,
      );
      assert.equal(await page.locator('.toast').count(), 0, 'no alert on /test');
      problems.push(...s.problems);
      await s.context.close();
    }

    // 5. Camera test page: mirrored, no audio, tracks stopped when leaving.
    {
      const s = await open(browser);
      const { page } = s;
      await page.goto(`${BASE}/test`);
      await page.getByRole('heading', { level: 1, name: 'Test caméra' }).waitFor();
      const live = page.locator('video.camera-test__video');
      await page.locator('video[data-status="live"]').waitFor();
      await page.waitForFunction(
        () => (document.querySelector('video.camera-test__video') as HTMLVideoElement).videoWidth > 0,
      );
      const info = await live.evaluate((video: HTMLVideoElement) => ({
        transform: getComputedStyle(video).transform,
        audio: (video.srcObject as MediaStream).getAudioTracks().length,
        muted: video.muted,
        width: video.videoWidth,
      }));
      assert.equal(info.transform, 'matrix(-1, 0, 0, 1, 0, 0)', 'mirrored');
      assert.equal(info.audio, 0, 'no audio');
      assert.equal(info.width, 640);
      await shot(page, 'recorder-11-camera-test');
      await page.getByRole('link', { name: 'Accueil', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: /Bienvenue sur EVO/ }).waitFor();
      const tracks = (await streamsState(page)).flat();
      assert.ok(
        tracks.length > 0 && tracks.every((t) => t.endsWith(':ended')),
        `stopped on unmount: ${tracks.join(', ')}`,
      );
      problems.push(...s.problems);
      await s.context.close();
    }

    // 6. Test video page.
    {
      const s = await open(browser);
      const { page } = s;
      await page.goto(`${BASE}/test-video`);
      await page.getByRole('heading', { level: 1, name: 'Vidéo de test' }).waitFor();
      const player = page.locator('video.test-video__player');
      assert.equal(await player.getAttribute('src'), '/samples/evo-sample.mp4');
      assert.equal(await player.getAttribute('controls'), '');
      const sample = await player.evaluate(async (video: HTMLVideoElement) => {
        const deadline = Date.now() + 10_000;
        while (video.readyState < 2 && !video.error && Date.now() < deadline) {
          await new Promise((done) => setTimeout(done, 100));
        }
        return {
          duration: video.duration,
          width: video.videoWidth,
          error: video.error?.code ?? null,
          maxHeight: getComputedStyle(video).maxHeight,
        };
      });
      console.log(`    sample: ${JSON.stringify(sample)}`);
      assert.equal(sample.error, null, 'the sample decodes');
      assert.ok(sample.duration > 3 && sample.duration < 5, 'a 3–4 s sample');
      assert.ok(sample.width > 0);
      assert.equal(sample.maxHeight, '400px');
      await shot(page, 'recorder-12-test-video');
      problems.push(...s.problems);
      await s.context.close();
    }
  } finally {
    await browser.close();
    await denyingBrowser.close();
    preview?.kill();
  }

  if (problems.length > 0) {
    console.error(problems.join('\n'));
    throw new Error(`${problems.length} page problem(s)`);
  }
  console.log('recorder screens: all checks passed');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
