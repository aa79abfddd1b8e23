// The query plans of what the API asks the read models (issue 27): every query that the routes of
// a member's and an administrator's screens send to the embedded SQLite read models, recorded
// while they answer, is explained by SQLite: it must search an index (or the primary key), never
// scan a collection, and a sorted page must come in the index's order (no temporary B-tree).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_ADMIN_EMAIL, DEMO_ADMIN_PASSWORD, SqliteReadStore, type Filter, type Sort } from '@evo/infra';
import { Client, registerMembers, startTestServer, type Member, type TestServer } from './testing/test-server';
import { explain } from '@evo/infra/testing/read-store-plans';

interface Asked {
  store: SqliteReadStore;
  collection: string;
  filter: Filter;
  sort: Sort | undefined;
  limited: boolean;
  counted: boolean;
  url: string;
}

/**
 * Collections a query may scan, and why: each is small by construction (a fixed catalogue, one
 * document per projection), never one that grows with members or their activity.
 */
const SMALL = new Map([
  ['gift_catalog', 'the catalogue of gifts: a handful of documents the administrator keeps'],
  ['_checkpoints', 'one document per projection'],
  ['_projection_status', 'one document per projection'],
]);

describe('the read models answer the API from their indexes (SQLite query plans)', () => {
  let server: TestServer;
  let a: Member;
  let b: Member;
  let admin: Client;
  const asked: Asked[] = [];
  let current = '';

  beforeAll(async () => {
    server = await startTestServer();
    [a, b] = await registerMembers(server.url, 2);
    admin = new Client(server.url);
    await admin.post('/api/auth/login', { email: DEMO_ADMIN_EMAIL, password: DEMO_ADMIN_PASSWORD });
    // a little of everything: follows both ways, a like, a view, a comment, a message, coins, a gift
    await a.client.post('/api/users/follows/follow', { followingPseudo: b.member.pseudo });
    await b.client.post('/api/users/follows/follow', { followingPseudo: a.member.pseudo });
    // b's video, once its processing made it public
    let video: number | undefined;
    for (const until = Date.now() + 60_000; video === undefined && Date.now() < until;) {
      video = (
        (await a.client.get(`/api/videos/friends-feed/${a.member.email}`)).json as unknown as Array<{ id: number }>
      )[0]?.id;
      if (video === undefined) await new Promise((r) => setTimeout(r, 200));
    }
    if (video === undefined) throw new Error("b's video never reached a's friends feed");
    await a.client.post(`/api/videos/${video}/like`);
    await a.client.post('/api/videos/views', { videoId: video });
    await a.client.post(`/api/videos/${video}/comment`, { content: 'Bravo !' });
    await a.client.post('/api/messages', { receiverEmail: b.member.email, content: 'Salut' });
    await a.client.post('/api/coins/add', { email: a.member.email, amount: 50 });
    await a.client.post('/api/gifts/send', {
      sender_email: a.member.email,
      receiver_email: b.member.email,
      gift_id: 1,
    });
    await server.deps.progress.waitFor((await server.deps.events.lastPosition())!, 10_000);
  }, 120_000);

  afterAll(async () => {
    vi.restoreAllMocks();
    await server?.stop();
  });

  it('searches an index for every query of the screens, sorted pages in the index order', async () => {
    // what the API reads goes through the reader connection: select and count on it are recorded
    const proto = SqliteReadStore.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
    for (const method of ['select', 'count'] as const) {
      const original = proto[method];
      vi.spyOn(proto, method).mockImplementation(function (this: SqliteReadStore, ...args: unknown[]) {
        const [db, collection, filter, sort, , limit] = args as [unknown, string, Filter, Sort?, number?, number?];
        if (db === (this as unknown as { reader: unknown }).reader)
          asked.push({
            store: this,
            collection,
            filter,
            sort: method === 'select' ? sort : undefined,
            limited: method === 'select' && limit !== undefined,
            counted: method === 'count',
            url: current,
          });
        return original.apply(this, args);
      });
    }
    const video = (
      (await a.client.get(`/api/videos/friends-feed/${a.member.email}`)).json as unknown as Array<{ id: number }>
    )[0].id;
    const screens: Array<[Client, string]> = [
      [a.client, `/api/videos/friends-feed/${a.member.email}`],
      [a.client, '/api/users/with-videos?limit=20'],
      [a.client, `/api/users/profile/${b.member.pseudo}`],
      [a.client, `/api/users/by-pseudo/${b.member.pseudo}`],
      [a.client, `/api/users/stats/${a.member.email}`],
      [a.client, `/api/users/friends/${a.member.email}`],
      [a.client, `/api/users/follows/is-following/${a.member.email}/${b.member.pseudo}`],
      [a.client, `/api/videos/${video}`],
      [a.client, `/api/videos/${video}/comments`],
      [a.client, '/api/favorites'],
      [a.client, '/api/notifications'],
      [a.client, '/api/notifications/unread'],
      [b.client, '/api/notifications'],
      [a.client, '/api/messages/inbox'],
      [b.client, `/api/messages/received/${b.member.email}`],
      [a.client, `/api/messages/conversation/${a.member.email}/${b.member.pseudo}`],
      [a.client, `/api/coins/balance/${a.member.email}`],
      [a.client, `/api/coins/transactions/${a.member.email}`],
      [b.client, `/api/coins/received/${b.member.email}`],
      [b.client, `/api/gifts/received/${b.member.email}`],
      [a.client, '/api/gifts/catalog'],
      [a.client, '/api/analytics?period=7'],
      [a.client, '/api/moderation/mine'],
      [admin, '/api/admin/users'],
      [admin, '/api/admin/reports'],
      [admin, '/api/admin/reports?status=en_attente'],
      [admin, '/api/admin/audit'],
      [admin, '/api/coins/admin/transactions'],
      [admin, '/api/admin/appeals'],
      [admin, '/api/admin/restrictions'],
    ];
    for (const [client, url] of screens) {
      current = url;
      const r = await client.get(url);
      expect(r.status, url).toBeLessThan(400);
    }
    vi.restoreAllMocks();
    expect(asked.length).toBeGreaterThan(20);

    const findings: string[] = [];
    const seen = new Set<string>();
    for (const q of asked) {
      const key = `${q.url}: ${q.counted ? 'count ' : ''}${q.collection} ${JSON.stringify(Object.keys(q.filter))} ${JSON.stringify(q.sort ?? {})}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (SMALL.has(q.collection)) continue;
      const plan = explain(q.store, q.collection, q.filter, { sort: q.sort, count: q.counted });
      if (plan.plan === 'COLLSCAN') findings.push(`${key}: scans the collection (${plan.details.join('; ')})`);
      else if (q.limited && q.sort && (plan.tempSort || plan.sortedHere))
        findings.push(`${key}: a page sorted outside the index (${plan.details.join('; ')})`);
    }
    expect(findings).toEqual([]);
  }, 120_000);
});
