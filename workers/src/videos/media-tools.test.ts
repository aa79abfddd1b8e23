import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { announceMediaTools, findMediaTools, mediaTools } from './media-tools';

/** Issue 29 item 10: the system's ffmpeg parses uploads when there is one, the bundled 2018 build only as a fallback. */
const scratch = mkdtempSync(path.join(tmpdir(), 'evo-media-tools-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const logged = () => {
  const lines: Array<{ level: 'info' | 'warn'; msg: string }> = [];
  return {
    lines,
    info: (_o: object, msg: string) => lines.push({ level: 'info', msg }),
    warn: (_o: object, msg: string) => lines.push({ level: 'warn', msg }),
  };
};

describe('whose ffmpeg reads the uploads', () => {
  it("takes the system's ffmpeg and ffprobe from PATH (Debian's here)", async () => {
    const tools = await findMediaTools(`${scratch}${path.delimiter}/usr/bin`);
    expect(tools).toMatchObject({ source: 'system', ffmpeg: '/usr/bin/ffmpeg', ffprobe: '/usr/bin/ffprobe' });
    expect(tools.version).toMatch(/^ffmpeg version /);
    // what the process uses (PATH of this test run)
    expect((await mediaTools()).source).toBe('system');
    const log = logged();
    await announceMediaTools(log, Promise.resolve(tools));
    expect(log.lines.map((l) => l.level)).toEqual(['info']);
  });

  it('falls back to the bundled binaries without them on PATH, and warns at start', async () => {
    const tools = await findMediaTools(scratch);
    expect(tools.source).toBe('bundled');
    expect(tools.ffmpeg).toContain(`${path.sep}node_modules${path.sep}@ffmpeg-installer${path.sep}`);
    expect(tools.ffprobe).toContain(`${path.sep}node_modules${path.sep}@ffprobe-installer${path.sep}`);
    const log = logged();
    await announceMediaTools(log, Promise.resolve(tools));
    expect(log.lines).toEqual([{ level: 'warn', msg: expect.stringContaining('version de 2018') }]);
  });

  it('falls back when the ffmpeg on PATH does not run, or ffprobe is missing', async () => {
    const broken = path.join(scratch, 'broken');
    const lonely = path.join(scratch, 'lonely');
    for (const dir of [broken, lonely]) rmSync(dir, { recursive: true, force: true });
    for (const [dir, names] of [
      [broken, ['ffmpeg', 'ffprobe']],
      [lonely, ['ffmpeg']],
    ] as const) {
      mkdirSync(dir);
      for (const name of names) {
        writeFileSync(
          path.join(dir, name),
          dir === broken ? '#!/bin/sh\nexit 1\n' : '#!/bin/sh\necho ffmpeg version test\n',
        );
        chmodSync(path.join(dir, name), 0o755);
      }
    }
    expect((await findMediaTools(broken)).source).toBe('bundled');
    expect((await findMediaTools(lonely)).source).toBe('bundled');
  });
});
