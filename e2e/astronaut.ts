import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A real face for Chromium's fake camera: the NASA portrait of astronaut Eileen
 * Collins (public domain) that Debian's python3-skimage ships as
 * skimage/data/astronaut.png (512x512). Nothing is committed: the test set-up
 * fetches the package with apt-get (Debian's mirror), extracts that one file and
 * turns it into a short 640x480 .y4m (the camera size the recorder asks for,
 * the product business constants) with the ffmpeg the project already depends on
 * (@ffmpeg-installer, so CI has it after `npm ci`). Cached in .cache/e2e-face/.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = path.join(ROOT, '.cache/e2e-face');
const PACKAGE = 'python3-skimage';
const MEMBER = './usr/lib/python3/dist-packages/skimage/data/astronaut.png';
/** The picture the measurements below were taken on (python3-skimage 0.19.3-8, Debian bookworm). */
const PORTRAIT_SHA256 = '88431cd9653ccd539741b555fb0a46b61558b301d4110412b5bc28b5e3ea6cb5';

/**
 * The part of the portrait the camera films: a 4:3 head-and-shoulders crop, scaled
 * to 640x480 (x1.905), so the face fills the frame as in a selfie and the eyes
 * (about 42 px apart in the portrait, 80 px in the frame, 40 px on the recorder's
 * half-size canvas) are as far apart as the overlays' eyes (the product business constants: 100x60).
 */
export const CAMERA_CROP = { x: 56, y: 2, width: 336, height: 252 } as const;
export const CAMERA_SIZE = { width: 640, height: 480 } as const;
const FPS = 15;
const FRAMES = 15;

/**
 * Pupil centres in the 512x512 portrait, measured by eye on a 4x enlargement
 * (screen left = her right eye), to check that the face mesh found this face.
 */
export const PORTRAIT_PUPILS = { screenLeft: { x: 204, y: 102 }, screenRight: { x: 245, y: 104 } } as const;

/** A point of the portrait in camera-frame pixels. */
export function portraitToCamera(p: { x: number; y: number }) {
  return {
    x: ((p.x - CAMERA_CROP.x) * CAMERA_SIZE.width) / CAMERA_CROP.width,
    y: ((p.y - CAMERA_CROP.y) * CAMERA_SIZE.height) / CAMERA_CROP.height,
  };
}

const require = createRequire(import.meta.url);
export const FFMPEG: string = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

function downloadPackage(): string {
  const find = () => readdirSync(CACHE).find((f) => f.startsWith(`${PACKAGE}_`) && f.endsWith('.deb'));
  const cached = find();
  if (cached) return path.join(CACHE, cached);
  const download = () => execFileSync('apt-get', ['download', '-qq', PACKAGE], { cwd: CACHE, stdio: 'pipe' });
  try {
    download();
  } catch {
    try {
      // a fresh machine has no package lists yet (CI runs as root, as apt-get update needs)
      execFileSync('apt-get', ['update', '-qq'], { stdio: 'pipe' });
      download();
    } catch (err) {
      const detail = err instanceof Error && 'stderr' in err ? String(err.stderr).trim() : String(err);
      throw new Error(`the astronaut portrait needs \`apt-get download ${PACKAGE}\` (Debian's mirror): ${detail}`);
    }
  }
  const deb = find();
  if (!deb) throw new Error(`apt-get download ${PACKAGE}: no .deb in ${CACHE}`);
  return path.join(CACHE, deb);
}

/** skimage/data/astronaut.png, extracted from the Debian package (once). */
export function astronautPortrait(): string {
  mkdirSync(CACHE, { recursive: true });
  const png = path.join(CACHE, 'astronaut.png');
  if (!existsSync(png)) {
    const deb = downloadPackage();
    const partial = `${png}.${process.pid}.part`;
    execFileSync('sh', ['-c', 'dpkg-deb --fsys-tarfile "$1" | tar -xO "$2" > "$3"', 'sh', deb, MEMBER, partial]);
    renameSync(partial, png);
    rmSync(deb, { force: true }); // 20 MB for one 0.8 MB picture
  }
  const digest = sha256(png);
  if (digest !== PORTRAIT_SHA256) {
    throw new Error(`${png}: sha256 ${digest}, expected ${PORTRAIT_SHA256} (another version of ${PACKAGE}?)`);
  }
  return png;
}

/** The fake camera's file: one second of the still portrait crop, 640x480 yuv420p at 15 fps, looped by Chromium. */
export function astronautCameraFile(): string {
  const png = astronautPortrait();
  const { x, y, width, height } = CAMERA_CROP;
  const y4m = path.join(CACHE, `astronaut-${width}x${height}+${x}+${y}-${CAMERA_SIZE.width}x${CAMERA_SIZE.height}.y4m`);
  if (existsSync(y4m)) return y4m;
  const partial = `${y4m}.${process.pid}.part`;
  execFileSync(FFMPEG, [
    '-v',
    'error',
    '-y',
    '-loop',
    '1',
    '-framerate',
    String(FPS),
    '-i',
    png,
    '-vf',
    `crop=${width}:${height}:${x}:${y},scale=${CAMERA_SIZE.width}:${CAMERA_SIZE.height}:flags=bicubic,format=yuv420p`,
    '-frames:v',
    String(FRAMES),
    '-f',
    'yuv4mpegpipe',
    partial,
  ]);
  renameSync(partial, y4m);
  return y4m;
}
