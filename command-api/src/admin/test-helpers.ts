import { expect } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import { DEMO_ADMIN_EMAIL, DEMO_ADMIN_PASSWORD } from '@evo/infra';
import { Client, PNG_1PX, type TestServer } from '../testing/test-server';

/** Test helpers of the back-office. */

export async function loginAdmin(server: TestServer): Promise<Client> {
  const admin = new Client(server.url);
  const r = await admin.post('/api/auth/login', { email: DEMO_ADMIN_EMAIL, password: DEMO_ADMIN_PASSWORD });
  expect(r.status).toBe(200);
  return admin;
}

/** A Socket.IO client with the session cookie of `client`; resolves once it got its 'sync'. */
export async function online(server: TestServer, client: Client, sockets: Socket[]): Promise<Socket> {
  const socket = connect(server.url, {
    transports: ['websocket'],
    forceNew: true,
    extraHeaders: { cookie: client.cookie },
    reconnection: false,
  });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('sync', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

/** Every `event` the socket receives, from now on. */
export function collect<T>(socket: Socket, event: string): T[] {
  const seen: T[] = [];
  socket.on(event, (payload: T) => seen.push(payload));
  return seen;
}

/** Resolves once `predicate` holds (polled), fails after `timeoutMs`. */
export async function eventually(
  predicate: () => boolean | Promise<boolean>,
  timeoutMs = 5000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export function imageForm(bytes: Buffer = PNG_1PX, name = 'cadeau.png', type = 'image/png'): FormData {
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(bytes)], { type }), name);
  return form;
}
