import { expect } from 'vitest';
import type { TestServer } from './test-server';

/**
 * The event store's last position, once background video processing (which appends too) is done
 * and the read models hold it (they follow the log apart from the requests).
 */
export async function settledLastPosition(server: TestServer) {
  await server.settle();
  return server.deps.events.lastPosition();
}

/** The request must be refused with this status and French message, and append nothing. */
export async function expectRefusedBy(
  server: TestServer,
  send: () => Promise<{ status: number; json: { error?: string } }>,
  status: number,
  error?: string,
) {
  const before = await settledLastPosition(server);
  const r = await send();
  expect(r.status).toBe(status);
  expect(typeof r.json?.error).toBe('string');
  if (error) expect(r.json.error).toBe(error);
  expect(await settledLastPosition(server)).toBe(before);
}

/** A request and the refusal it must get: its status and, when given, its French message. */
export type Refusal = [
  send: () => Promise<{ status: number; json: { error?: string } }>,
  status: number,
  error?: string,
];

/** Each request in turn must be refused as its case says, and append nothing. */
export async function expectRefusalsBy(server: TestServer, cases: Refusal[]) {
  for (const [send, status, error] of cases) await expectRefusedBy(server, send, status, error);
}
