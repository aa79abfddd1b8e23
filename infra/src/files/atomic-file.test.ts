import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileAtomically } from './atomic-file';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'evo-atomic-'));
  dirs.push(dir);
  return dir;
}

describe('writeFileAtomically', () => {
  it('replaces the file with what was written, leaving nothing beside it', async () => {
    const dir = folder();
    const file = join(dir, 'state');
    writeFileSync(file, 'old');
    await writeFileAtomically(file, async (fh) => {
      await fh.write('new ');
      await fh.write('content');
    });
    expect(readFileSync(file, 'utf8')).toBe('new content');
    expect(readdirSync(dir)).toEqual(['state']);
  });

  it('leaves the previous file as it was, and no temporary file, when writing fails halfway', async () => {
    const dir = folder();
    const file = join(dir, 'state');
    writeFileSync(file, 'old');
    await expect(
      writeFileAtomically(file, async (fh) => {
        await fh.write('half of it');
        throw new Error('disk full');
      }),
    ).rejects.toThrow('disk full');
    expect(readFileSync(file, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['state']);
  });
});
