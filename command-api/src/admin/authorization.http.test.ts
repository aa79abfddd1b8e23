import { describe, it, expect, beforeAll } from 'vitest';
import { AUTH_MESSAGES } from '../http/session';
import { Client } from '../testing/test-server';
import { serverFixture } from '../testing/server-fixture';
import { eventually, imageForm } from './test-helpers';

const t = serverFixture({ admin: true, members: 2 });
const [member, other] = t.members;
let videoId: number;

beforeAll(async () => {
  videoId = await t.firstVideoId(member.client, member.member.pseudo);
});

type Call = { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string; body?: () => unknown };

/**
 * Every administrator call, built once. The bodies are valid (a member's refusal must not be a
 * 400), and an administrator's call may change things: the list runs in this order.
 */
const calls = (): Call[] => [
  { method: 'GET', path: '/api/admin/reports' },
  { method: 'GET', path: '/api/admin/reports?status=ferme' },
  { method: 'PUT', path: '/api/admin/reports/999999', body: () => ({ status: 'en_cours', admin_response: null }) },
  { method: 'PUT', path: `/api/videos/${videoId}/visibility`, body: () => ({ status: 'masquee' }) },
  { method: 'GET', path: '/api/admin/gifts' },
  { method: 'POST', path: '/api/admin/gifts', body: () => ({ name: 'Matrice', emoji: '🧪', price: 3 }) },
  { method: 'PUT', path: '/api/admin/gifts/999999', body: () => ({ name: 'Matrice', price: 3 }) },
  { method: 'DELETE', path: '/api/admin/gifts/999999' },
  { method: 'POST', path: '/api/admin/gifts/image', body: () => imageForm() },
  ...['', '/advanced', '/users', '/videos', '/messages', '/gifts', '/coins'].flatMap((k): Call[] => [
    { method: 'GET', path: `/api/admin/stats${k}` },
    { method: 'GET', path: `/api/admin/stats${k}?asOf=2026-01-01T00:00:00Z` },
  ]),
  { method: 'GET', path: '/api/admin/users?q=m&page=1&limit=5' },
  { method: 'POST', path: '/api/admin/users/grant', body: () => ({ email: other.member.email }) },
  { method: 'POST', path: '/api/admin/users/revoke', body: () => ({ email: other.member.email }) },
  { method: 'POST', path: '/api/admin/users/unlock-login', body: () => ({ email: other.member.email }) },
  // decisions, appeals, restrictions (issue 32)
  { method: 'GET', path: '/api/admin/appeals' },
  { method: 'PUT', path: '/api/admin/appeals/video-999999-1', body: () => ({ outcome: 'maintenue', answer: 'Non' }) },
  { method: 'GET', path: '/api/admin/restrictions' },
  { method: 'DELETE', path: '/api/admin/restrictions/restriction-personne-1' },
  { method: 'GET', path: '/api/admin/audit?page=1&limit=5' },
  { method: 'GET', path: '/api/admin/projections/rebuild' },
  { method: 'POST', path: '/api/admin/projections/rebuild' },
  { method: 'GET', path: '/api/coins/admin/transactions' },
  { method: 'GET', path: '/api/admin/ledger/reconcile' },
  { method: 'GET', path: `/api/admin/ledger/${encodeURIComponent(member.member.email)}` },
  // an administrator path that does not exist is still refused before it is found missing
  { method: 'GET', path: '/api/admin/nexiste-pas' },
  { method: 'POST', path: '/api/admin/nexiste-pas', body: () => ({}) },
];

const send = (client: Client, c: Call) => client.request(c.method, c.path, c.body?.());

describe('every administrator call is enforced on the server', () => {
  it('refuses visitors with 401 and appends nothing', async () => {
    const anonymous = new Client(t.server.url);
    for (const c of calls()) await t.expectRefused(() => send(anonymous, c), 401, AUTH_MESSAGES.unauthenticated);
  });

  it('refuses members with 403 and appends nothing', async () => {
    for (const c of calls()) await t.expectRefused(() => send(member.client, c), 403, AUTH_MESSAGES.adminOnly);
  });

  it('answers administrators (2xx, or a 4xx that is not about who they are)', async () => {
    const answers: Array<[string, number]> = [];
    for (const c of calls()) {
      const r = await send(t.admin, c);
      answers.push([`${c.method} ${c.path}`, r.status]);
      expect(r.status, `${c.method} ${c.path}: ${r.text}`).toBeLessThan(500);
      expect([401, 403], `${c.method} ${c.path}: ${r.text}`).not.toContain(r.status);
    }
    const statusOf = (key: string) => answers.find(([k]) => k === key)?.[1];
    expect(statusOf('PUT /api/admin/reports/999999')).toBe(404);
    expect(statusOf('PUT /api/admin/appeals/video-999999-1')).toBe(404);
    expect(statusOf('DELETE /api/admin/restrictions/restriction-personne-1')).toBe(404);
    expect(statusOf(`PUT /api/videos/${videoId}/visibility`)).toBe(200);
    expect(statusOf('POST /api/admin/gifts')).toBe(201);
    expect(statusOf('POST /api/admin/gifts/image')).toBe(201);
    expect(statusOf('POST /api/admin/projections/rebuild')).toBe(202);
    expect(statusOf('GET /api/admin/nexiste-pas')).toBe(404);
    expect(answers.filter(([, s]) => s === 200).length).toBeGreaterThan(20);
    // let the rebuild finish before the server stops
    await eventually(
      async () => (await t.admin.get('/api/admin/projections/rebuild')).json.status === 'done',
      10_000,
      'rebuild done',
    );
  });

  it('takes a command’s role from the member’s stream: a member just granted may act, just revoked may not', async () => {
    const granted = await t.admin.post('/api/admin/users/grant', { email: other.member.email });
    expect(granted.status).toBe(200);
    // a command decides from the stream: no need to wait for the read models
    const put = await other.client.put(`/api/videos/${videoId}/visibility`, { status: 'publique' });
    expect(put.status).toBe(200);
    expect(put.json).toEqual({ message: 'Vidéo mise à jour : publique' });
    await t.admin.post('/api/admin/users/revoke', { email: other.member.email });
    await t.expectRefused(
      () => other.client.put(`/api/videos/${videoId}/visibility`, { status: 'masquée' }),
      403,
      AUTH_MESSAGES.adminOnly,
    );
  });
});
