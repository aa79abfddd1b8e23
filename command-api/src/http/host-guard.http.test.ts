import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import os from 'node:os';
import { DEMO_ADMIN_EMAIL, DEMO_ADMIN_PASSWORD, loadConfig } from '@evo/infra';
import { startTestServer, type TestServer } from '../testing/test-server';
import { HOST_MESSAGE, HOST_REFUSED_STATUS, ServedHosts, hostName } from './host-guard';

/**
 * DNS rebinding (issue 29 item 4): a request whose Host is not a name this product serves is
 * refused before any route, the Socket.IO handshake too.
 */

/** One HTTP request with the Host header as given (fetch does not let a caller set it). */
function raw(
  server: TestServer,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown>; text: string; cookie?: string }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        method,
        path,
        headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => {
          let json: Record<string, unknown> = {};
          try {
            json = JSON.parse(text) as Record<string, unknown>;
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, json, text, cookie: res.headers['set-cookie']?.[0]?.split(';')[0] });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    ALLOWED_HOSTS: 'evo.example.fr, 192.0.2.7',
    PUBLIC_URL: 'https://public.example.fr',
  });
});
afterAll(() => server.stop());

describe('the Host a request names', () => {
  it('refuses a rebound name before any route: no login, no administrator page', async () => {
    const attacker = `rebind.attacker.test:${server.port}`;
    const origin = `http://${attacker}`;
    const login = await raw(
      server,
      'POST',
      '/api/auth/login',
      { host: attacker, origin },
      { email: DEMO_ADMIN_EMAIL, password: DEMO_ADMIN_PASSWORD },
    );
    expect(login.status).toBe(HOST_REFUSED_STATUS);
    expect(login.json).toEqual({ error: HOST_MESSAGE });
    expect(login.cookie).toBeUndefined();
    // even with an administrator's session (a cookie for this site would go with the rebound name)
    const admin = await raw(
      server,
      'POST',
      '/api/auth/login',
      { host: `127.0.0.1:${server.port}` },
      { email: DEMO_ADMIN_EMAIL, password: DEMO_ADMIN_PASSWORD },
    );
    expect(admin.status).toBe(200);
    const users = await raw(server, 'GET', '/api/admin/users', { host: attacker, cookie: admin.cookie! });
    expect(users.status).toBe(HOST_REFUSED_STATUS);
    expect(
      (await raw(server, 'GET', '/api/admin/users', { host: `localhost:${server.port}`, cookie: admin.cookie! }))
        .status,
    ).toBe(200);
    // every path, the page and the health check included
    for (const path of ['/', '/health', '/uploads/profile_pics/default.png', '/api/gifts/catalog'])
      expect((await raw(server, 'GET', path, { host: attacker })).status, path).toBe(HOST_REFUSED_STATUS);
  });

  it('serves loopback names, ALLOWED_HOSTS and PUBLIC_URL’s name, any port', async () => {
    for (const host of [
      `127.0.0.1:${server.port}`,
      `localhost:${server.port}`,
      'LOCALHOST',
      `[::1]:${server.port}`,
      '127.8.9.10',
      'evo.example.fr',
      'EVO.example.fr:443',
      '192.0.2.7:3000',
      'public.example.fr',
    ])
      expect((await raw(server, 'GET', '/health', { host })).status, host).toBe(200);
    for (const host of ['example.fr', 'evo.example.fr.attacker.test', 'public.example.fr.evil', '192.0.2.8'])
      expect((await raw(server, 'GET', '/health', { host })).status, host).toBe(HOST_REFUSED_STATUS);
  });

  it('refuses the Socket.IO handshake of a rebound name, in French', async () => {
    const path = '/socket.io/?EIO=4&transport=polling';
    const refused = await raw(server, 'GET', path, { host: 'rebind.attacker.test' });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain(HOST_MESSAGE);
    expect((await raw(server, 'GET', path, { host: `127.0.0.1:${server.port}` })).status).toBe(200);
  });
});

describe('the names served, by HOST', () => {
  it('on this machine only: loopback names and the listed ones', () => {
    const hosts = new ServedHosts(loadConfig({ ALLOWED_HOSTS: 'evo.lan' }));
    expect(hosts.serves('localhost:3000')).toBe(true);
    expect(hosts.serves('evo.lan')).toBe(true);
    expect(hosts.serves(os.hostname())).toBe(false);
  });
  it('on every interface: also this machine’s addresses and name, which a phone on the LAN uses', () => {
    const hosts = new ServedHosts(loadConfig({ HOST: '0.0.0.0', ADMIN_PASSWORD: 'un-secret-a-moi' }));
    for (const list of Object.values(os.networkInterfaces()))
      for (const a of list ?? [])
        if (a.family === 'IPv4') expect(hosts.serves(`${a.address}:3000`), a.address).toBe(true);
    expect(hosts.serves(`${os.hostname()}:3000`)).toBe(true);
    expect(hosts.serves(`${os.hostname().split('.')[0]}.local`)).toBe(true);
    expect(hosts.serves('rebind.attacker.test')).toBe(false);
  });
  it('reads a Host header’s name', () => {
    expect(hostName('Evo.Example.FR:8080')).toBe('evo.example.fr');
    expect(hostName('[::1]:3000')).toBe('::1');
    expect(hostName('evo.example.fr.')).toBe('evo.example.fr');
    expect(hostName('')).toBeUndefined();
    expect(hostName(undefined)).toBeUndefined();
  });
});
