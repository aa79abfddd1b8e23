import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryFolders } from '../testing/temporary-folders';
import { writeFileAtomically } from './atomic-file';

const folder = temporaryFolders('evo-atomic-');

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
