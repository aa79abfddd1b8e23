import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeVideo } from './probe';

const run = promisify(execFile);
const ffmpegPath: string = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;
const DEMO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../command-api/assets/demo/demo-3.mp4');

describe('probeVideo', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'evo-probe-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads the duration and the picture size of an mp4 from its header', async () => {
    const probe = await probeVideo(DEMO);
    expect(probe?.durationSeconds).toBeCloseTo(4, 0);
    // the demo clip is portrait, 360 × 640
    expect(probe).toMatchObject({ width: 360, height: 640 });
  });

  it('measures a WebM written as a live stream (as MediaRecorder does), whose header has no duration', async () => {
    const webm = path.join(dir, 'live.webm');
    // `-live 1`: no duration and no cues in the header, like the in-app recorder's files
    await run(
      ffmpegPath,
      ['-v', 'error', '-y', '-i', DEMO, '-c:v', 'libvpx', '-an', '-live', '1', '-f', 'webm', webm],
      {
        timeout: 60_000,
      },
    );
    const probe = await probeVideo(webm);
    expect(probe?.codec).toBe('vp8');
    expect(probe?.durationSeconds).toBeGreaterThan(3.5);
    expect(probe?.durationSeconds).toBeLessThanOrEqual(4.1);
  }, 60_000);
});
