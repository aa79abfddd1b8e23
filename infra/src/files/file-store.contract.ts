import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileTooLargeError, type FileFolder, type FileStore } from './port';

/** Behaviour every FileStore adapter must have. Names are fresh per test, so one store serves all. */
export function fileStoreContract(
  name: string,
  make: () => Promise<{ store: FileStore; cleanup: () => Promise<void> }>,
) {
  describe(`FileStore contract: ${name}`, () => {
    let store: FileStore;
    let cleanup: () => Promise<void>;
    let scratch: string;
    const fresh = (ext = 'bin') => `${randomUUID()}.${ext}`;

    beforeAll(async () => {
      ({ store, cleanup } = await make());
      await store.ready();
      scratch = await mkdtemp(path.join(tmpdir(), 'evo-files-'));
    });
    afterAll(async () => {
      await cleanup();
      await rm(scratch, { recursive: true, force: true });
    });

    it('stores a stream and gives the same bytes back (read, stat, download)', async () => {
      const bytes = randomBytes(300_000);
      const name = fresh('mp4');
      expect(await store.put('videos', name, chunked(bytes), { contentType: 'video/mp4' })).toEqual({
        size: bytes.length,
      });
      const info = await store.stat('videos', name);
      expect(info?.size).toBe(bytes.length);
      expect(info?.etag).toMatch(/^(W\/)?".*"$/);
      expect(Date.now() - info!.modifiedAt.getTime()).toBeLessThan(10 * 60_000);
      expect(await collect(await store.read('videos', name))).toEqual(bytes);
      const local = path.join(scratch, name);
      expect(await store.download('videos', name, local)).toBe(true);
      expect(await readFile(local)).toEqual(bytes);
    });

    it('streams a file larger than its parts (several MiB) without changing a byte', async () => {
      const bytes = randomBytes(19 * 1024 * 1024 + 123);
      const name = fresh('mp4');
      await store.put('videos', name, chunked(bytes, 256 * 1024));
      expect((await store.stat('videos', name))?.size).toBe(bytes.length);
      expect(sha(await collect(await store.read('videos', name)))).toBe(sha(bytes));
    });

    it('loses no byte of a body that another listener already reads', async () => {
      const bytes = randomBytes(200_000);
      const name = fresh('mp4');
      const body = chunked(bytes, 16 * 1024);
      let seen = 0;
      body.on('data', (c: Buffer) => (seen += c.length));
      expect(await store.put('videos', name, body)).toEqual({ size: bytes.length });
      expect(seen).toBe(bytes.length);
      expect(await collect(await store.read('videos', name))).toEqual(bytes);
    });

    it('reads a byte range, first to last inclusive', async () => {
      const bytes = randomBytes(10_000);
      const name = fresh('mp4');
      await store.put('videos', name, chunked(bytes));
      expect(await collect(await store.read('videos', name, { start: 100, end: 199 }))).toEqual(
        bytes.subarray(100, 200),
      );
      expect(await collect(await store.read('videos', name, { start: 9_990, end: 9_999 }))).toEqual(
        bytes.subarray(9_990),
      );
    });

    it('replaces a file of the same name', async () => {
      const name = fresh('jpg');
      await store.put('posters', name, chunked(Buffer.from('premier')));
      await store.put('posters', name, chunked(Buffer.from('second, plus long')));
      expect((await collect(await store.read('posters', name))).toString()).toBe('second, plus long');
      expect((await store.stat('posters', name))?.size).toBe(17);
    });

    it('answers nothing for a missing file', async () => {
      const name = fresh();
      expect(await store.stat('videos', name)).toBeUndefined();
      expect(await store.read('videos', name)).toBeUndefined();
      expect(await store.download('videos', name, path.join(scratch, name))).toBe(false);
      await store.remove('videos', name); // no error
    });

    it('refuses a stream past its cap while it comes, keeping nothing', async () => {
      const name = fresh('png');
      let produced = 0;
      // an endless source: the cap must stop it, not its end
      const endless = new Readable({
        read() {
          produced += 64 * 1024;
          this.push(Buffer.alloc(64 * 1024, 1));
        },
      });
      await expect(store.put('profile_pics', name, endless, { maxBytes: 1024 * 1024 })).rejects.toBeInstanceOf(
        FileTooLargeError,
      );
      expect(produced).toBeLessThan(16 * 1024 * 1024);
      expect(await store.stat('profile_pics', name)).toBeUndefined();
      expect(await names(store, 'profile_pics')).not.toContain(name);
      // exactly at the cap is accepted
      await store.put('profile_pics', name, chunked(Buffer.alloc(1024, 2)), { maxBytes: 1024 });
      expect((await store.stat('profile_pics', name))?.size).toBe(1024);
    });

    it('keeps nothing of a stream that breaks half-way (a client gone)', async () => {
      const name = fresh('mp4');
      let sent = 0;
      const broken = new Readable({
        read() {
          if (sent >= 3) return this.destroy(new Error('client gone'));
          sent++;
          this.push(randomBytes(1024 * 1024));
        },
      });
      await expect(store.put('videos', name, broken)).rejects.toThrow('client gone');
      expect(await store.stat('videos', name)).toBeUndefined();
    });

    it('removes a file', async () => {
      const name = fresh('gif');
      await store.put('gifts', name, chunked(Buffer.from('GIF89a')));
      await store.remove('gifts', name);
      expect(await store.stat('gifts', name)).toBeUndefined();
      expect(await store.read('gifts', name)).toBeUndefined();
    });

    it('lists the files of one folder, with their size and date', async () => {
      const a = fresh('jpg');
      const b = fresh('jpg');
      await Promise.all([
        store.put('posters', a, chunked(Buffer.alloc(10))),
        store.put('posters', b, chunked(Buffer.alloc(20))),
        store.put('gifts', fresh('png'), chunked(Buffer.alloc(5))),
      ]);
      const listed = new Map<string, number>();
      for await (const f of store.list('posters')) {
        listed.set(f.name, f.size);
        expect(f.modifiedAt).toBeInstanceOf(Date);
      }
      expect(listed.get(a)).toBe(10);
      expect(listed.get(b)).toBe(20);
      expect([...listed.keys()].every((n) => !n.includes('/'))).toBe(true);
    });

    it('refuses a name that is not one it generates', async () => {
      for (const bad of ['../x.mp4', 'a/b.mp4', '.hidden.mp4', 'noext']) {
        await expect(store.put('videos', bad, chunked(Buffer.alloc(1)))).rejects.toBeInstanceOf(RangeError);
        await expect(store.stat('videos', bad)).rejects.toBeInstanceOf(RangeError);
      }
    });
  });
}

/** `bytes` as a stream of chunks, as an upload arrives */
export function chunked(bytes: Buffer, size = 64 * 1024): Readable {
  return Readable.from(
    (function* () {
      for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
    })(),
  );
}

export async function collect(stream: Readable | undefined): Promise<Buffer> {
  if (!stream) throw new Error('no stream');
  const parts: Buffer[] = [];
  for await (const c of stream) parts.push(Buffer.from(c as Buffer));
  return Buffer.concat(parts);
}

async function names(store: FileStore, folder: FileFolder): Promise<string[]> {
  const out: string[] = [];
  for await (const f of store.list(folder)) out.push(f.name);
  return out;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
