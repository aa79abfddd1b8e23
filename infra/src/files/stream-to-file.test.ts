import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { temporaryFolders } from '../testing/temporary-folders';
import { streamToFile } from './stream-to-file';

const folder = temporaryFolders('evo-stream-to-file-');

describe('streamToFile', () => {
  it('writes every byte of the body', async () => {
    const dir = folder();
    const body = new PassThrough();
    body.end(Buffer.alloc(100_000, 7));
    await streamToFile(body, join(dir, 'f'), { flags: 'wx', flush: true });
    expect(readFileSync(join(dir, 'f'))).toEqual(Buffer.alloc(100_000, 7));
  });

  // an upload whose client leaves while its file opens (seen as a crash of the whole process:
  // the body's 'error' came before anything listened to it)
  it('fails with the error the body meets while its file opens, and leaves no file', async () => {
    const dir = folder();
    const body = new PassThrough();
    body.write('the first bytes');
    const copy = streamToFile(body, join(dir, 'f'), { flags: 'wx' });
    body.destroy(new Error('Request aborted'));
    await expect(copy).rejects.toThrow('Request aborted');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('fails when the body is closed without an error while its file opens, and leaves no file', async () => {
    const dir = folder();
    const body = new PassThrough();
    body.write('the first bytes');
    const copy = streamToFile(body, join(dir, 'f'));
    body.destroy();
    await expect(copy).rejects.toThrow();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('fails with the error the body meets midway, and leaves no file', async () => {
    const dir = folder();
    const body = new PassThrough();
    const copy = streamToFile(body, join(dir, 'f'));
    body.write(Buffer.alloc(64 * 1024, 1));
    setTimeout(() => body.destroy(new Error('Request aborted')), 20);
    await expect(copy).rejects.toThrow('Request aborted');
    expect(readdirSync(dir)).toEqual([]);
  });
});
