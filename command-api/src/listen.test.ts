import { describe, it, expect, afterAll } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort, spawnProduct, waitReady, type ProductProcess } from './testing/product-process';

/**
 * Where the product listens (issue 11 item 11): this machine only by default, every interface
 * with HOST=0.0.0.0 but never with the public demo administrator password; the log says where.
 */
const lanAddress = Object.values(os.networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

const dirs: string[] = [];
const products: ProductProcess[] = [];
afterAll(async () => {
  for (const p of products) await p.stop();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function start(env: Record<string, string>) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'evo-listen-'));
  dirs.push(dir);
  const port = await freePort();
  const product = spawnProduct({ DATA_DIR: dir, PORT: String(port), LOG_LEVEL: 'info', ...env });
  products.push(product);
  return { product, port };
}

const reachable = (url: string) =>
  fetch(url).then(
    (r) => r.status === 200,
    () => false,
  );

describe('HOST', () => {
  if (!lanAddress) console.warn('listen tests on a LAN address skipped: this machine has no non-loopback IPv4 address');

  it.skipIf(!lanAddress)(
    'listens on 127.0.0.1 by default, says so, and is not reachable from the network',
    async () => {
      const { product, port } = await start({});
      await waitReady(`http://127.0.0.1:${port}`, product);
      expect(product.output()).toContain(`EVO écoute sur http://127.0.0.1:${port}`);
      expect(await reachable(`http://${lanAddress}:${port}/health`)).toBe(false);
    },
    90_000,
  );

  it.skipIf(!lanAddress)(
    'listens on every interface with HOST=0.0.0.0 and an administrator password',
    async () => {
      const { product, port } = await start({ HOST: '0.0.0.0', ADMIN_PASSWORD: 'un-secret-du-lan' });
      await waitReady(`http://127.0.0.1:${port}`, product);
      expect(product.output()).toContain(`EVO écoute sur http://0.0.0.0:${port}`);
      expect(await reachable(`http://${lanAddress}:${port}/health`)).toBe(true);
    },
    90_000,
  );

  it('refuses to start on a network address with the demo administrator password', async () => {
    const { product } = await start({ HOST: '0.0.0.0' });
    const timer = setTimeout(() => product.child.kill('SIGKILL'), 60_000);
    const code = await product.exited;
    clearTimeout(timer);
    expect(code).toBe(1);
    expect(product.output()).toContain('Configuration invalide : ADMIN_PASSWORD est obligatoire quand HOST (0.0.0.0)');
    expect(product.output()).not.toMatch(/\n\s+at /);
  }, 90_000);

  it('refuses to start on a network address with a password published in README.md as ADMIN_PASSWORD', async () => {
    const { product } = await start({ HOST: '0.0.0.0', ADMIN_PASSWORD: 'evo-admin-2026' });
    const timer = setTimeout(() => product.child.kill('SIGKILL'), 60_000);
    const code = await product.exited;
    clearTimeout(timer);
    expect(code).toBe(1);
    expect(product.output()).toContain(
      'Configuration invalide : ADMIN_PASSWORD ne peut pas être un mot de passe publié dans README.md quand HOST (0.0.0.0)',
    );
    expect(product.output()).not.toMatch(/\n\s+at /);
  }, 90_000);
});
