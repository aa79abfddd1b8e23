import { describe, it, expect, beforeAll } from 'vitest';
import type { AuditPage } from '@evo/contracts';
import { MESSAGES } from '@evo/domain';
import { DEMO_ADMIN_EMAIL } from '@evo/infra';
import { AUTH_MESSAGES } from '../http/session';
import { type Member } from '../testing/test-server';
import { serverFixture } from '../testing/server-fixture';
import type { Socket } from 'socket.io-client';
import { collect, eventually, online } from './test-helpers';

const t = serverFixture({ admin: true, members: [{ pseudo: `Alice${Date.now().toString(36)}` }, {}] });
const [alice, bob] = t.members;
beforeAll(() => t.settle());

type UserRow = {
  id: string;
  pseudo: string;
  email: string;
  role: string;
  is_admin: boolean;
  created_at: string;
  last_login_at: string | null;
  videos: number;
  followers: number;
  balance: number;
};
type Page<T> = { items: T[]; total: number; page: number; limit: number };

describe('members and administrator rights', () => {
  it('lists members by email or pseudo (any case), newest first, paginated', async () => {
    expect((await bob.client.post('/api/users/follows/follow', { followingPseudo: alice.member.pseudo })).status).toBe(
      200,
    );
    expect((await alice.client.post('/api/coins/add', { email: alice.member.email, amount: 25 })).status).toBe(200);
    await t.settle();
    const all = (await t.admin.get('/api/admin/users')).json as unknown as Page<UserRow>;
    expect(all).toMatchObject({ total: 3, page: 1, limit: 20 });
    expect(all.items.map((u) => u.email)).toEqual([bob.member.email, alice.member.email, DEMO_ADMIN_EMAIL]);
    const found = (await t.admin.get(`/api/admin/users?q=${alice.member.pseudo.slice(0, 7).toUpperCase()}`))
      .json as unknown as Page<UserRow>;
    expect(found.items).toEqual([
      {
        id: expect.any(String),
        pseudo: alice.member.pseudo,
        email: alice.member.email,
        role: 'user',
        is_admin: false,
        created_at: expect.any(String),
        last_login_at: expect.any(String),
        videos: 1,
        followers: 1,
        balance: 25,
        login_failures: 0,
      },
    ]);
    expect(
      (
        (await t.admin.get(`/api/admin/users?q=${encodeURIComponent(bob.member.email.toUpperCase())}`))
          .json as unknown as Page<UserRow>
      ).items.map((u) => u.email),
    ).toEqual([bob.member.email]);
    expect((await t.admin.get('/api/admin/users?q=.*')).json).toMatchObject({ items: [], total: 0 });
    const second = (await t.admin.get('/api/admin/users?page=2&limit=2')).json as unknown as Page<UserRow>;
    expect(second).toMatchObject({ total: 3, page: 2, limit: 2 });
    expect(second.items.map((u) => u.email)).toEqual([DEMO_ADMIN_EMAIL]);
    expect((await t.admin.get('/api/admin/users?limit=5000')).json).toMatchObject({ limit: 100 });
    for (const bad of ['page=0', 'page=abc', 'limit=-1', 'page=1&page=2']) {
      expect((await t.admin.get(`/api/admin/users?${bad}`)).json).toEqual({ error: 'Pagination invalide.' });
    }
    expect((await t.admin.get(`/api/admin/users?q=${'x'.repeat(101)}`)).json).toEqual({ error: 'Recherche invalide.' });
  });

  it('grants and revokes the role; refuses what makes no sense and appends nothing', async () => {
    const granted = await t.admin.post('/api/admin/users/grant', { email: ` ${alice.member.email} ` });
    expect(granted.status).toBe(200);
    expect(granted.json).toEqual({
      message: `✅ ${alice.member.email} est maintenant administrateur.`,
      user: {
        id: expect.any(String),
        email: alice.member.email,
        pseudo: alice.member.pseudo,
        role: 'admin',
        is_admin: true,
      },
    });
    const before = await t.lastPosition();
    expect((await t.admin.post('/api/admin/users/grant', { email: alice.member.email })).json).toMatchObject({
      message: `${alice.member.email} était déjà administrateur.`,
    });
    expect(await t.lastPosition()).toBe(before);
    // the new administrator's reads are allowed once the read models know
    await t.settle();
    expect((await alice.client.get('/api/admin/stats')).status).toBe(200);

    await t.expectRefusals([
      [() => t.admin.post('/api/admin/users/revoke', { email: bob.member.email }), 409, MESSAGES.notAdmin],
      [() => t.admin.post('/api/admin/users/grant', { email: 'personne@test.fr' }), 404, MESSAGES.unknownUser],
      [() => t.admin.post('/api/admin/users/grant', { email: 'pas-un-email' }), 400, MESSAGES.emailInvalid],
      [() => t.admin.post('/api/admin/users/grant', {}), 400, MESSAGES.emailRequired],
      [() => bob.client.post('/api/admin/users/grant', { email: bob.member.email }), 403, AUTH_MESSAGES.adminOnly],
    ]);

    const revoked = await t.admin.post('/api/admin/users/revoke', { email: alice.member.email });
    expect(revoked.json).toEqual({
      message: `✅ ${alice.member.email} n'est plus administrateur.`,
      user: {
        id: expect.any(String),
        email: alice.member.email,
        pseudo: alice.member.pseudo,
        role: 'user',
        is_admin: false,
      },
    });
    await t.settle();
    await t.expectRefused(() => alice.client.get('/api/admin/stats'), 403, AUTH_MESSAGES.adminOnly);
  });

  it('never leaves the platform without an administrator', async () => {
    await t.admin.post('/api/admin/users/grant', { email: alice.member.email });
    await t.settle();
    // alice removes the original administrator, then may not remove herself: she is the last one
    expect((await alice.client.post('/api/admin/users/revoke', { email: DEMO_ADMIN_EMAIL })).status).toBe(200);
    await t.settle();
    await t.expectRefused(
      () => alice.client.post('/api/admin/users/revoke', { email: alice.member.email }),
      409,
      'Impossible de retirer le dernier administrateur.',
    );
    // with another administrator again, she may
    expect((await alice.client.post('/api/admin/users/grant', { email: DEMO_ADMIN_EMAIL })).status).toBe(200);
    await t.settle();
    expect((await alice.client.post('/api/admin/users/revoke', { email: alice.member.email })).status).toBe(200);
  });

  it('logs every role change in the audit log, with who did it', async () => {
    await t.settle();
    const audit = (await t.admin.get('/api/admin/audit?limit=100')).json as unknown as AuditPage;
    const roles = audit.items
      .filter((i) => i.action.startsWith('Rôle'))
      .map((i) => [i.admin_email, i.action, i.target]);
    expect(roles).toEqual([
      [alice.member.email, 'Rôle administrateur retiré', alice.member.email],
      [alice.member.email, 'Rôle administrateur accordé', DEMO_ADMIN_EMAIL],
      [alice.member.email, 'Rôle administrateur retiré', DEMO_ADMIN_EMAIL],
      [DEMO_ADMIN_EMAIL, 'Rôle administrateur accordé', alice.member.email],
      [DEMO_ADMIN_EMAIL, 'Rôle administrateur retiré', alice.member.email],
      [DEMO_ADMIN_EMAIL, 'Rôle administrateur accordé', alice.member.email],
    ]);
    expect(audit.total).toBe(audit.items.length);
    expect(audit.items[0]).toEqual({
      id: expect.any(String),
      at: expect.any(String),
      admin_email: alice.member.email,
      admin_pseudo: alice.member.pseudo,
      action: 'Rôle administrateur retiré',
      target: alice.member.email,
      details: '',
    });
    const paged = (await t.admin.get('/api/admin/audit?page=2&limit=2')).json as unknown as Page<{ id: string }>;
    expect(paged).toMatchObject({ page: 2, limit: 2, total: audit.total });
    expect(paged.items.map((i) => i.id)).toEqual(audit.items.slice(2, 4).map((i) => i.id));
  });

  it("an open socket hears the administrators' pushes from the grant on, and no longer after the revocation", async () => {
    const sockets: Socket[] = [];
    try {
      const carol = await t.member();
      const reporter = await t.member();
      const heard = collect<{ id: number }>(await online(t.server, carol.client, sockets), 'report:new');
      const videoId = await t.firstVideoId(reporter.client, reporter.member.pseudo);
      const report = async (by: Member) => {
        expect((await by.client.post(`/api/report/${videoId}`)).status).toBe(201);
        await t.settle();
      };

      expect((await t.admin.post('/api/admin/users/grant', { email: carol.member.email })).status).toBe(200);
      await t.settle();
      await report(bob);
      // the same socket, never reconnected
      await eventually(() => heard.length === 1, 5000, 'report:new on the new administrator socket');

      expect((await t.admin.post('/api/admin/users/revoke', { email: carol.member.email })).status).toBe(200);
      await t.settle();
      const marker = collect<unknown>(sockets[0], 'notification:new');
      await report(alice);
      // a push to the member's own room after the report: once it is there, 'report:new' would be too
      const follow = await reporter.client.post('/api/users/follows/follow', { followingPseudo: carol.member.pseudo });
      expect(follow.status).toBe(200);
      await eventually(() => marker.length === 1, 5000, 'the notification after the report');
      expect(heard).toHaveLength(1);
    } finally {
      for (const s of sockets) s.disconnect();
    }
  });
});
