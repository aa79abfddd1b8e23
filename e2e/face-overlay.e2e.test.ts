import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { FaceMesh, NormalizedLandmarkList, Results } from '@mediapipe/face_mesh';
import { Client, registerAndLogin, type TestServer } from '@evo/command-api/testing/test-server';
import { CAMERA_SIZE, FFMPEG, PORTRAIT_PUPILS, astronautCameraFile, portraitToCamera } from './astronaut';
import { SCREENS, browserSkipReason, launchBrowser, newPage, screenshot, startE2eServer, logInAs } from './harness';
import {
  bestShift,
  differenceBox,
  matchShare,
  overlayBox,
  solidPixels,
  type Placement,
  type Point,
  type Rgba,
} from './overlayPixels';

/**
 * The face overlay on a real face: Chromium's fake camera plays the astronaut
 * portrait (e2e/astronaut.ts) instead of its test pattern. The expected eye
 * landmarks come from an oracle independent of the app's code: the same Face
 * Mesh files, served by the same server, run by this test on the same fake
 * camera in a bare page. The app exposes nothing for the test: what it draws is
 * read from its canvas, and what it publishes from the uploaded file.
 */

const skip = browserSkipReason();

const FILTER = { id: 'cartoon-eyes', name: 'Gros yeux', src: '/filters/cartoon-eyes.svg' } as const;
/** MediaPipe Face Mesh: the eyes' outer corners, and the four points around each eye (corners, lids). */
const OUTER_CORNERS = [33, 263] as const;
const SCREEN_LEFT_EYE = [33, 133, 159, 145] as const;
const SCREEN_RIGHT_EYE = [263, 362, 386, 374] as const;
/** the product business constants: the 100x60 overlay's eye midpoint (see web/public/filters/*.svg) sits on the eyes' midpoint. */
const OVERLAY_EYE_ANCHOR = { x: 50, y: 36 };
const FACE_SEEN = 'Visage détecté : le filtre suit tes yeux.';
const NO_FACE = 'Aucun visage détecté.';

/** Generous waits: Face Mesh's wasm on a loaded 2-core machine. */
const FACE_TIMEOUT = 120_000;

async function logIn(page: Page, server: TestServer) {
  const { member } = await registerAndLogin(server.url);
  await logInAs(page, server.url, member);
  return member;
}

const decode = (shot: { width: number; height: number; base64: string }): Rgba => ({
  width: shot.width,
  height: shot.height,
  data: new Uint8Array(Buffer.from(shot.base64, 'base64')),
});

/** The recorder canvas as it is now (RGBA). */
async function readCanvas(page: Page): Promise<Rgba> {
  const shot = await page.locator('canvas.recorder__canvas').evaluate((canvas: HTMLCanvasElement) => {
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    let binary = '';
    for (let i = 0; i < data.length; i += 0x8000) binary += String.fromCharCode(...data.subarray(i, i + 0x8000));
    return { width: canvas.width, height: canvas.height, base64: btoa(binary) };
  });
  return decode(shot);
}

/** The overlay image rasterised at 100x60, as the recorder draws it. */
async function readOverlay(page: Page, src: string): Promise<Rgba> {
  const shot = await page.evaluate(async (url) => {
    const image = new Image(100, 60);
    image.src = url;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = 100;
    canvas.height = 60;
    const context = canvas.getContext('2d')!;
    context.drawImage(image, 0, 0, 100, 60);
    const { data } = context.getImageData(0, 0, 100, 60);
    let binary = '';
    for (let i = 0; i < data.length; i += 0x8000) binary += String.fromCharCode(...data.subarray(i, i + 0x8000));
    return { width: 100, height: 60, base64: btoa(binary) };
  }, src);
  return decode(shot);
}

interface Eyes {
  /** The eyes' outer corners (landmarks 33, 263), in camera pixels. */
  corners: [Point, Point];
  /** Centre of the four points around each eye, in camera pixels. */
  centres: [Point, Point];
  frame: { width: number; height: number };
  /** Detections run before a face was found, and the spread of the corners over the last runs (camera px). */
  attempts: number;
  jitter: number;
}

/**
 * The oracle: Face Mesh (the files the app serves) on the fake camera, in a bare
 * page of the server's origin, with the recorder's options (the product business constants).
 */
async function measureEyes(context: BrowserContext, base: string): Promise<Eyes> {
  const page = await context.newPage();
  await page.route(`${base}/face-oracle`, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>oracle</title>' }),
  );
  await page.goto(`${base}/face-oracle`);
  const result = await page.evaluate(
    async ({ camera, timeoutMs }) => {
      await new Promise((resolve, reject) => {
        const script = document.createElement('script');
        script.src = '/mediapipe/face_mesh/face_mesh.js';
        script.onload = resolve;
        script.onerror = reject;
        document.head.append(script);
      });
      const stream = await navigator.mediaDevices.getUserMedia({ video: camera, audio: false });
      const video = document.createElement('video');
      video.muted = true;
      video.srcObject = stream;
      await video.play();
      const Ctor = (window as unknown as { FaceMesh: typeof FaceMesh }).FaceMesh;
      const mesh = new Ctor({ locateFile: (file: string) => `/mediapipe/face_mesh/${file}` });
      mesh.setOptions({ maxNumFaces: 1, minDetectionConfidence: 0.5, minTrackingConfidence: 0.5 });
      let latest: NormalizedLandmarkList | null = null;
      mesh.onResults((results: Results) => {
        latest = results.multiFaceLandmarks?.[0] ?? null;
      });
      await mesh.initialize();
      const seen: NormalizedLandmarkList[] = [];
      let attempts = 0;
      const deadline = performance.now() + timeoutMs;
      while (seen.length < 5 && performance.now() < deadline) {
        latest = null;
        await mesh.send({ image: video });
        if (latest) seen.push(latest);
        else attempts++;
      }
      await mesh.close();
      for (const track of stream.getTracks()) track.stop();
      return {
        attempts,
        frame: { width: video.videoWidth, height: video.videoHeight },
        runs: seen.map((landmarks) => landmarks.map(({ x, y }) => ({ x, y }))),
      };
    },
    { camera: { width: CAMERA_SIZE.width, height: CAMERA_SIZE.height }, timeoutMs: FACE_TIMEOUT - 30_000 },
  );
  await page.close();
  expect(result.runs.length, 'Face Mesh found no face in the fake camera').toBe(5);
  const { width, height } = result.frame;
  const px = (p: { x: number; y: number }) => ({ x: p.x * width, y: p.y * height });
  const last = result.runs[result.runs.length - 1];
  const centre = (ids: readonly number[]) => {
    const points = ids.map((id) => px(last[id]));
    return { x: points.reduce((s, p) => s + p.x, 0) / ids.length, y: points.reduce((s, p) => s + p.y, 0) / ids.length };
  };
  let jitter = 0;
  for (const run of result.runs) {
    for (const id of OUTER_CORNERS) {
      const a = px(run[id]);
      const b = px(last[id]);
      jitter = Math.max(jitter, Math.hypot(a.x - b.x, a.y - b.y));
    }
  }
  return {
    corners: [px(last[OUTER_CORNERS[0]]), px(last[OUTER_CORNERS[1]])],
    centres: [centre(SCREEN_LEFT_EYE), centre(SCREEN_RIGHT_EYE)],
    frame: result.frame,
    attempts: result.attempts,
    jitter,
  };
}

/**
 * Where the product business constants puts the overlay for these eyes on the recorder canvas: the
 * camera frame drawn to fill the canvas (cover, centred), the overlay's eye
 * anchor on the outer corners' midpoint, turned with the eye line.
 */
function expectedPlacement(eyes: Eyes, canvas: { width: number; height: number }): Placement {
  const scale = Math.max(canvas.width / eyes.frame.width, canvas.height / eyes.frame.height);
  const offset = {
    x: (canvas.width - eyes.frame.width * scale) / 2,
    y: (canvas.height - eyes.frame.height * scale) / 2,
  };
  const [a, b] = eyes.corners.map((p) => ({ x: offset.x + p.x * scale, y: offset.y + p.y * scale }));
  const pivot = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
  const [left, right] = a.x <= b.x ? [a, b] : [b, a];
  return {
    x: pivot.x - OVERLAY_EYE_ANCHOR.x,
    y: pivot.y - OVERLAY_EYE_ANCHOR.y,
    angle: Math.atan2(right.y - left.y, right.x - left.x),
    pivot,
  };
}

/** One frame of a video file, decoded by the project's ffmpeg, as RGBA at its own size. */
function decodeFrame(file: string, atSeconds: number, size: { width: number; height: number }): Rgba {
  const data = execFileSync(
    FFMPEG,
    // seek after -i: MediaRecorder's webm has no cues, decode from the start
    ['-v', 'error', '-i', file, '-ss', String(atSeconds), '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgba', '-'],
    { maxBuffer: 64 * 1024 * 1024, timeout: 60_000 },
  );
  expect(data.length).toBe(size.width * size.height * 4);
  return { ...size, data: new Uint8Array(data) };
}

/** Writes a frame as artifacts/screens/<name>.png, to look at what was published. */
function savePng(frame: Rgba, name: string) {
  mkdirSync(SCREENS, { recursive: true });
  const size = `${frame.width}x${frame.height}`;
  const png = path.join(SCREENS, `${name}.png`);
  execFileSync(FFMPEG, ['-v', 'error', '-y', '-f', 'rawvideo', '-pix_fmt', 'rgba', '-s', size, '-i', '-', png], {
    input: frame.data,
  });
}

/** Mean absolute channel difference between two frames of one size, over a box or the whole frame. */
function meanDifference(a: Rgba, b: Rgba, box?: { minX: number; minY: number; maxX: number; maxY: number }) {
  const x0 = Math.max(0, Math.floor(box?.minX ?? 0));
  const y0 = Math.max(0, Math.floor(box?.minY ?? 0));
  const x1 = Math.min(a.width - 1, Math.ceil(box?.maxX ?? a.width - 1));
  const y1 = Math.min(a.height - 1, Math.ceil(box?.maxY ?? a.height - 1));
  let sum = 0;
  let count = 0;
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const i = (y * a.width + x) * 4;
      for (let c = 0; c < 3; c++) sum += Math.abs(a.data[i + c] - b.data[i + c]);
      count += 3;
    }
  }
  return sum / count;
}

const canvasSize = (page: Page) =>
  page.locator('canvas.recorder__canvas').evaluate((canvas: HTMLCanvasElement) => ({
    width: canvas.width,
    height: canvas.height,
  }));

/** Logs a new member in, opens /create, switches the camera on and picks the filter. */
async function openRecorderWithFilter(page: Page, server: TestServer) {
  const member = await logIn(page, server);
  await page.goto(`${server.url}/create`);
  await page.getByRole('button', { name: 'Activer caméra' }).click();
  await page.getByRole('button', { name: 'Démarrer' }).and(page.locator(':enabled')).waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: FILTER.name }).click();
  return member;
}

/** Waits for the face to be seen, then until the overlay sits where the eyes put it (the tracker settles). */
async function waitForOverlay(page: Page, pixels: ReturnType<typeof solidPixels>, placement: Placement) {
  await page.getByText(FACE_SEEN).waitFor({ timeout: FACE_TIMEOUT });
  const deadline = Date.now() + 60_000;
  let canvas = await readCanvas(page);
  while (matchShare(canvas, pixels, placement, 12) < 0.9 && Date.now() < deadline) {
    await page.waitForTimeout(250);
    canvas = await readCanvas(page);
  }
  return canvas;
}

describe.skipIf(!!skip)('face overlay on a real face (the astronaut portrait as the camera)', () => {
  let server: TestServer;
  let browser: Browser;
  let oracle: Promise<Eyes> | undefined;
  /** The oracle's eyes, measured once for the file (each test may also run alone). */
  const measuredEyes = () =>
    (oracle ??= (async () => {
      const context = await browser.newContext();
      try {
        return await measureEyes(context, server.url);
      } finally {
        await context.close();
      }
    })());

  beforeAll(async () => {
    const cameraFile = astronautCameraFile();
    server = await startE2eServer();
    browser = await launchBrowser({ fakeVideoCapture: cameraFile });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("Face Mesh finds the astronaut's eyes in the fake camera", async () => {
    const eyes = await measuredEyes();
    console.info('oracle eyes', JSON.stringify(eyes));
    expect(eyes.frame).toEqual(CAMERA_SIZE);
    // the landmarks are on her eyes (pupils measured by hand on the portrait), not anywhere on the picture
    const pupils = [portraitToCamera(PORTRAIT_PUPILS.screenLeft), portraitToCamera(PORTRAIT_PUPILS.screenRight)];
    const [left, right] = [...eyes.centres].sort((a, b) => a.x - b.x);
    expect(Math.hypot(left.x - pupils[0].x, left.y - pupils[0].y)).toBeLessThan(12);
    expect(Math.hypot(right.x - pupils[1].x, right.y - pupils[1].y)).toBeLessThan(12);
  }, 180_000);

  it('the recorder sees the face and draws "Gros yeux" where the eye landmarks put it; the published webm carries it', async () => {
    const eyes = await measuredEyes();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await newPage(context);
    // Face Mesh keeps the page's main thread busy: on a loaded 2-core machine a canvas read waits its turn
    page.setDefaultTimeout(90_000);
    const member = await openRecorderWithFilter(page, server);
    const overlay = await readOverlay(page, FILTER.src);
    const pixels = solidPixels(overlay);
    expect(pixels.length).toBeGreaterThan(200);
    const placement = expectedPlacement(eyes, await canvasSize(page));

    // a face is detected, and the overlay is drawn at the landmarks' eyes
    const withFilter = await waitForOverlay(page, pixels, placement);
    await expect.poll(() => page.getByText(NO_FACE).count()).toBe(0);
    await screenshot(page, 'e2e-face-astronaut-desktop');
    const shift = bestShift(withFilter, pixels, placement, 12);
    console.info('canvas: match at the landmarks', matchShare(withFilter, pixels, placement, 12), 'best shift', shift);
    expect(matchShare(withFilter, pixels, placement, 12)).toBeGreaterThanOrEqual(0.9);
    expect(Math.hypot(shift.dx, shift.dy)).toBeLessThanOrEqual(3);

    // without the filter the same place shows her face, and only the overlay's box changed
    await page.getByRole('button', { name: 'Aucun filtre' }).click();
    await expect
      .poll(() => readCanvas(page).then((c) => matchShare(c, pixels, placement, 12)), { timeout: 30_000 })
      .toBeLessThan(0.2);
    const withoutFilter = await readCanvas(page);
    const changed = differenceBox(withFilter, withoutFilter);
    const box = overlayBox(overlay, placement);
    console.info('changed pixels', changed, 'overlay box', box);
    expect(changed).not.toBeNull();
    expect(Math.abs(changed!.minX - box.minX)).toBeLessThanOrEqual(4);
    expect(Math.abs(changed!.maxX - box.maxX)).toBeLessThanOrEqual(4);
    expect(Math.abs(changed!.minY - box.minY)).toBeLessThanOrEqual(4);
    expect(Math.abs(changed!.maxY - box.maxY)).toBeLessThanOrEqual(4);

    // record about 3 s with the filter and publish: the uploaded webm has the overlay on her eyes
    await page.getByRole('button', { name: FILTER.name }).click();
    await waitForOverlay(page, pixels, placement);
    await page.getByRole('button', { name: 'Démarrer' }).click();
    await page.getByRole('button', { name: 'Arrêter' }).and(page.locator(':enabled')).waitFor({ timeout: 30_000 });
    await page.waitForTimeout(3_000);
    await page.getByRole('button', { name: 'Arrêter' }).click();
    await page.locator('video[src^="blob:"]').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Publier' }).click();
    await page.getByText('Vidéo publiée !').waitFor({ timeout: 60_000 });

    const client = new Client(server.url);
    await client.post('/api/auth/login', { email: member.email, password: member.password });
    const profile = await client.get(`/api/users/profile/${member.pseudo}`);
    const published = (profile.json.videos as Array<{ file_path: string }>).find((v) => v.file_path.endsWith('.webm'));
    expect(published, 'the recording is on the profile').toBeDefined();
    const file = path.join(server.deps.config.uploadsDir, path.relative('/uploads', published!.file_path));
    const frame = decodeFrame(file, 1.5, await canvasSize(page));
    savePng(frame, 'e2e-face-astronaut-webm-frame');
    const webmShare = matchShare(frame, pixels, placement, 40);
    const webmShift = bestShift(frame, pixels, placement, 40);
    console.info('webm frame at 1.5 s: match at the landmarks', webmShare, 'best shift', webmShift, {
      strictMatch: matchShare(frame, pixels, placement, 12),
      withoutFilterMatch: matchShare(withoutFilter, pixels, placement, 40),
      meanDiffWhole: meanDifference(frame, withFilter),
      meanDiffBoxWithFilter: meanDifference(frame, withFilter, box),
      meanDiffBoxWithoutFilter: meanDifference(frame, withoutFilter, box),
    });
    expect(webmShare).toBeGreaterThanOrEqual(0.8);
    expect(Math.hypot(webmShift.dx, webmShift.dy)).toBeLessThanOrEqual(3);
    expect(matchShare(withoutFilter, pixels, placement, 40)).toBeLessThan(0.3);
    // and it is her face around the overlay: the frame is the canvas with the filter, give or take the codec
    expect(meanDifference(frame, withFilter)).toBeLessThan(20);
    expect(meanDifference(frame, withFilter, box)).toBeLessThan(meanDifference(frame, withoutFilter, box) / 2);
    expect(errors).toEqual([]);
    await context.close();
  }, 420_000);

  it('on a phone-sized screen too, the overlay lands on her eyes', async () => {
    const eyes = await measuredEyes();
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const { page, errors } = await newPage(context);
    // Face Mesh keeps the page's main thread busy: on a loaded 2-core machine a canvas read waits its turn
    page.setDefaultTimeout(90_000);
    await openRecorderWithFilter(page, server);
    const pixels = solidPixels(await readOverlay(page, FILTER.src));
    const placement = expectedPlacement(eyes, await canvasSize(page));
    const canvas = await waitForOverlay(page, pixels, placement);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'e2e-face-astronaut-mobile', { fullPage: false });
    expect(matchShare(canvas, pixels, placement, 12)).toBeGreaterThanOrEqual(0.9);
    expect(errors).toEqual([]);
    await context.close();
  }, 300_000);
});
