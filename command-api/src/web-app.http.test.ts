import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { registerAndLogin, startTestServer, type TestServer } from './testing/test-server';
import { CACHE_HASHED, CACHE_OTHER, CACHE_PAGE } from './web-app';

/** a raw GET (node's fetch would decompress and hide Content-Encoding) */
function get(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolve, reject) => {
      request(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
        .on('error', reject)
        .end();
    },
  );
}

const script = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `mot${i % 20}`))};\n`;
const shell = `<div id="root">${'<p>Chargement...</p>'.repeat(80)}</div>`;
const page = `<!doctype html><html lang="fr"><head><meta name="description" content="EVO" /><title>EVO</title></head><body>${shell}</body></html>`;

/** the Open Graph properties of a page, in order */
const ogOf = (html: string) =>
  [...html.matchAll(/<meta property="(og:[a-z:]+)" content="([^"]*)" \/>/g)].map(([, p, c]) => [p, c] as const);

describe('the built web app as the server sends it (issue 30, Major 1)', () => {
  let dist: string;
  let server: TestServer;

  beforeAll(async () => {
    // a build as web/vite.config.ts leaves it: hashed assets with their .br and .gz beside them
    dist = await mkdtemp(path.join(os.tmpdir(), 'evo-dist-'));
    await mkdir(path.join(dist, 'assets'));
    await mkdir(path.join(dist, 'filters'));
    await writeFile(path.join(dist, 'index.html'), page);
    await writeFile(path.join(dist, 'assets/index-Ab12Cd34.js'), script);
    await writeFile(path.join(dist, 'assets/index-Ab12Cd34.js.br'), brotliCompressSync(script));
    await writeFile(path.join(dist, 'assets/index-Ab12Cd34.js.gz'), gzipSync(script));
    await writeFile(path.join(dist, 'filters/pirate.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    server = await startTestServer({}, undefined, dist);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await rm(dist, { recursive: true, force: true });
  });

  it('sends a script as Brotli when the browser accepts it, else gzip, else as it is; cached for a year', async () => {
    const url = `${server.url}/assets/index-Ab12Cd34.js`;
    const br = await get(url, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).toString()).toBe(script);
    expect(br.headers['content-type']).toMatch(/^text\/javascript/);
    expect(br.headers['vary']).toMatch(/Accept-Encoding/i);
    expect(br.headers['cache-control']).toBe(CACHE_HASHED);

    const gz = await get(url, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(script);
    expect(gz.headers['cache-control']).toBe(CACHE_HASHED);

    const plain = await get(url);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
    expect(plain.headers['cache-control']).toBe(CACHE_HASHED);
  });

  it('keeps files without a hash in their name an hour only', async () => {
    const png = await get(`${server.url}/filters/pirate.png`, { 'accept-encoding': 'br' });
    expect(png.status).toBe(200);
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.headers['cache-control']).toBe(CACHE_OTHER);
  });

  it('sends the page of every screen compressed, and never from a cache without asking', async () => {
    for (const [path, status] of [
      ['/', 200],
      ['/feed', 200],
      ['/nulle-part', 404],
    ] as const) {
      const res = await get(`${server.url}${path}`, { 'accept-encoding': 'br, gzip' });
      expect(res.status, path).toBe(status);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['content-encoding'], path).toBe('br');
      const html = brotliDecompressSync(res.body).toString();
      expect(html).toContain(shell);
      expect(html).toContain('<title>EVO</title>');
      expect(res.headers['cache-control']).toBe(CACHE_PAGE);
    }
  });

  it("names a public video's title, author and poster in its page, for link previews (issue 30, Major 2)", async () => {
    const { client, member } = await registerAndLogin(server.url, {
      video_title: 'Mon "chat" & <moi> $&',
      bio: 'Une bio',
    });
    const video = ((await client.get(`/api/users/profile/${member.pseudo}`)).json.videos as Array<{ id: number }>)[0];
    await server.settle(60_000);
    const html = (await get(`${server.url}/video/${video.id}`)).body.toString();
    expect(html).toContain('<title>Mon &quot;chat&quot; &amp; &lt;moi&gt; $&amp; · EVO</title>');
    expect(html).toContain(`<meta name="description" content="Une vidéo de @${member.pseudo} sur EVO." />`);
    const og = new Map(ogOf(html));
    expect(og.get('og:type')).toBe('video.other');
    expect(og.get('og:title')).toBe(`Mon &quot;chat&quot; &amp; &lt;moi&gt; $&amp; · @${member.pseudo}`);
    expect(og.get('og:url')).toBe(`${server.url}/video/${video.id}`);
    expect(og.get('og:locale')).toBe('fr_FR');
    const poster = og.get('og:image');
    expect(poster).toMatch(new RegExp(`^${server.url}/uploads/posters/`));
    // whoever builds the preview has no session: the poster is theirs to fetch
    const image = await get(poster!);
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toMatch(/^image\//);
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image" />');
    expect(html).not.toContain(member.email);

    // any other page: the site's own preview
    const feed = (await get(`${server.url}/feed`)).body.toString();
    expect(new Map(ogOf(feed)).get('og:title')).toBe('EVO');
    expect(new Map(ogOf(feed)).get('og:image')).toBeUndefined();
    // an unknown video: the site's preview too (and the app says "Vidéo indisponible")
    const unknown = await get(`${server.url}/video/999999`);
    expect(unknown.status).toBe(200);
    expect(new Map(ogOf(unknown.body.toString())).get('og:type')).toBe('website');
  });

  it('compresses API answers above 1 kB', async () => {
    // a profile with a long bio: over 1 kB of JSON
    const { client, member } = await registerAndLogin(server.url, { bio: 'Une longue bio. '.repeat(30) });
    const res = await get(`${server.url}/api/users/profile/${member.pseudo}`, {
      'accept-encoding': 'gzip',
      cookie: client.cookie,
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    const json = gunzipSync(res.body).toString();
    expect(json.length).toBeGreaterThan(1024);
    expect(JSON.parse(json)).toMatchObject({ user: { pseudo: member.pseudo } });
  });
});
