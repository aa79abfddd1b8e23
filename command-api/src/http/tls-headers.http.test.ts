import { describe, it, expect, afterAll } from 'vitest';
import { get } from 'node:http';
import { startTestServer, type TestServer } from '../testing/test-server';

/**
 * HSTS and CSP's upgrade-insecure-requests only for a site reached over HTTPS (issue 11 item 10):
 * over plain HTTP under a LAN host name they would send every asset to https:// (a blank page).
 */
const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop();
});

async function headersOf(env: Record<string, string>, headers: Record<string, string> = {}) {
  // evo.test: a LAN name the product serves (any other Host is refused, see host-guard)
  const server = await startTestServer({ ALLOWED_HOSTS: 'evo.test', ...env });
  servers.push(server);
  // node:http, not fetch: fetch may not set Host
  const answer = await new Promise<Record<string, string | string[] | undefined>>((resolve, reject) =>
    get(`${server.url}/health`, { headers: { host: `evo.test:${server.port}`, ...headers } }, (res) => {
      res.resume();
      resolve(res.headers);
    }).on('error', reject),
  );
  const header = (name: string) => (answer[name] === undefined ? null : String(answer[name]));
  return {
    csp: header('content-security-policy') ?? '',
    hsts: header('strict-transport-security'),
    coop: header('cross-origin-opener-policy'),
  };
}

describe('TLS-only headers', () => {
  it('are not sent over plain HTTP, while the rest of the policy is', async () => {
    const { csp, hsts } = await headersOf({});
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval';");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(hsts).toBeNull();
  });

  it('leave out Cross-Origin-Opener-Policy where browsers ignore it (plain HTTP beyond localhost)', async () => {
    expect((await headersOf({})).coop).toBeNull();
    expect((await headersOf({}, { host: 'localhost' })).coop).toBe('same-origin');
    expect((await headersOf({ HTTPS_ONLY: 'true' })).coop).toBe('same-origin');
  });

  it('are not sent for X-Forwarded-Proto: https from a client that is not a trusted proxy', async () => {
    const { csp, hsts } = await headersOf({ TRUST_PROXY: '0' }, { 'x-forwarded-proto': 'https' });
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(hsts).toBeNull();
  });

  it('are sent behind a trusted proxy that says the request came over HTTPS', async () => {
    const { csp, hsts } = await headersOf({ TRUST_PROXY: '1' }, { 'x-forwarded-proto': 'https' });
    expect(csp).toContain('upgrade-insecure-requests');
    expect(hsts).toMatch(/max-age=\d+/);
  });

  it('are sent on every answer with HTTPS_ONLY=true', async () => {
    const { csp, hsts } = await headersOf({ HTTPS_ONLY: 'true' });
    expect(csp).toContain('upgrade-insecure-requests');
    expect(hsts).toMatch(/max-age=\d+/);
  });
});
