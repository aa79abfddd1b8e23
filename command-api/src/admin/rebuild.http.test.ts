import { describe, it, expect, afterEach } from 'vitest';
import type { Socket } from 'socket.io-client';
import { MODERATION_MESSAGES } from '@evo/domain';
import { SqliteReadStore } from '@evo/infra';
import { allProjectors, rebuildReadModels } from '@evo/projections';
import { dumpReadModels } from '@evo/projections/testing/read-model-dump';
import { serverFixture } from '../testing/server-fixture';
import { collect, eventually, online } from './test-helpers';

const t = serverFixture({ admin: true, members: 4 });
const { members } = t;

const sockets: Socket[] = [];
afterEach(() => {
  while (sockets.length) sockets.pop()!.disconnect();
});

type Progress = { status: string; done: number; rate: number; etaSeconds: number; fraction: number };

/** Members following, liking, commenting, reporting, adding coins and sending gifts, `rounds` times. */
async function traffic(rounds: number, tag: string) {
  const videos = await Promise.all(members.map((m) => t.firstVideoId(m.client, m.member.pseudo)));
  for (let r = 0; r < rounds; r++) {
    await Promise.all(
      members.map(async (m, i) => {
        const next = members[(i + 1) % members.length];
        const video = videos[(i + 1) % members.length];
        await m.client.post('/api/users/follows/follow', { followingPseudo: next.member.pseudo });
        await m.client.post(`/api/videos/${video}/like`);
        await m.client.post('/api/videos/views', { videoId: video });
        await m.client.post(`/api/videos/${video}/comment`, { content: `${tag} ${r}` });
        await m.client.post('/api/coins/add', { email: m.member.email, amount: 10 });
        await m.client.post('/api/gifts/send', {
          sender_email: m.member.email,
          receiver_email: next.member.email,
          gift_id: 1,
        });
        await m.client.post('/api/messages', { receiverEmail: next.member.email, content: `${tag} ${r}` });
        if (r === 0) await m.client.post(`/api/report/${video}`);
      }),
    );
  }
}

describe('rebuilding the projections from the back-office', () => {
  it('rebuilds while the product serves traffic; the read models then equal a fresh rebuild', async () => {
    await traffic(6, 'avant');
    const progress = collect<Progress>(await online(t.server, t.admin, sockets), 'rebuild:progress');
    const during = traffic(6, 'pendant');
    // two requests at once: one starts it, the other is told it is running
    const [a, b] = await Promise.all([
      t.admin.post('/api/admin/projections/rebuild'),
      t.admin.post('/api/admin/projections/rebuild'),
    ]);
    expect([a.status, b.status].sort()).toEqual([202, 409]);
    expect([a, b].find((r) => r.status === 202)!.json).toEqual({ message: 'Reconstruction lancée.' });
    expect([a, b].find((r) => r.status === 409)!.json).toEqual({ error: MODERATION_MESSAGES.rebuildRunning });
    // the product keeps answering meanwhile
    expect((await members[0].client.get(`/api/users/profile/${members[1].member.pseudo}`)).status).toBe(200);
    await during;
    await eventually(
      async () => (await t.admin.get('/api/admin/projections/rebuild')).json.status === 'done',
      20_000,
      'rebuild done',
    );
    const state = (await t.admin.get('/api/admin/projections/rebuild')).json as Progress & {
      events: number;
      startedAt: string;
      finishedAt: string;
    };
    expect(state).toMatchObject({
      status: 'done',
      fraction: 1,
      etaSeconds: 0,
      events: expect.any(Number),
      startedAt: expect.any(String),
      finishedAt: expect.any(String),
    });
    expect(state.done).toBe(state.events);
    await traffic(1, 'après');

    // pushed to the administrators: running, ..., done
    await eventually(() => progress.some((p) => p.status === 'done'), 5000, 'final progress push');
    expect(progress[0]).toMatchObject({ status: 'running' });
    expect(progress.at(-1)).toMatchObject({ status: 'done', fraction: 1 });
    for (const p of progress)
      expect(Object.keys(p)).toEqual(expect.arrayContaining(['status', 'done', 'rate', 'etaSeconds', 'fraction']));

    // recorded for the audit
    const audit = (await t.admin.get('/api/admin/audit')).json as { items: Array<{ action: string }> };
    expect(audit.items.map((i) => i.action)).toContain('Reconstruction des projections lancée');

    // the served read models equal a rebuild from scratch (gift credits and video processing included)
    await eventually(
      async () => {
        await t.server.settle(30_000);
        const last = (await t.server.deps.events.lastPosition())!;
        await new Promise((r) => setTimeout(r, 100));
        return last === (await t.server.deps.events.lastPosition()) && (await t.server.runner!.waitFor(last, 5000));
      },
      20_000,
      'log settled',
    );
    const fresh = SqliteReadStore.temporary();
    await rebuildReadModels({ events: t.server.deps.events, read: fresh, projectors: allProjectors });
    const served = await dumpReadModels(t.server.runner!.read);
    expect(served).toEqual(await dumpReadModels(fresh));
    expect((served.comments ?? []).length).toBe(members.length * 13);
    expect((served.gifts_received ?? []).length).toBe(members.length * 13);
  }, 60_000);
});
