// Events in PostgreSQL (EVENTSTORE_URL=postgres://…), the server cut away under load through a TCP
// proxy of the test's own, then back: every write answers 201 or a French 503, an acknowledged
// comment is in the log once, a refused one is there whole or not at all (never twice), and the API
// recovers by itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { PersonalDataEventStore, PostgresEventStore, PostgresKeyStore } from '@evo/infra';
import { freePort } from '@evo/infra/testing/ferretdb';
import { createTestDatabase, postgresAvailability, type TestDatabase } from '@evo/infra/testing/postgres';
import { TcpProxy } from '@evo/infra/testing/tcp-proxy';
import { registerAndLogin, startTestServer, type Member, type TestServer } from '../testing/test-server';
import { MESSAGES } from './errors';

const availability = await postgresAvailability();
if (!availability.ok) console.warn(`[skip] PostgreSQL outage: ${availability.reason}`);

describe.skipIf(!availability.ok)('events in PostgreSQL: the server restarted under load', { timeout: 120_000 }, () => {
  let db: TestDatabase;
  let proxy: TcpProxy;
  let server: TestServer;
  let log: PersonalDataEventStore;
  let alice: Member;
  let videoId: number;

  beforeAll(async () => {
    db = await createTestDatabase('outage');
    const target = new URL(db.url);
    proxy = new TcpProxy(await freePort(), { host: target.hostname, port: Number(target.port || 5432) });
    await proxy.open();
    const viaProxy = new URL(db.url);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    server = await startTestServer({
      EVENTSTORE_URL: viaProxy.toString(),
      SESSION_SECRET: randomBytes(24).toString('hex'),
      // one member's burst of comments is the load here: the per-member limit (20 a minute, tested
      // in member-limits.http.test.ts) would answer 429 in the middle of it
      MEMBER_LIMITS: 'false',
    });
    // read as the processes read it: the comments' texts decrypted with the members' keys (same database)
    log = new PersonalDataEventStore(new PostgresEventStore(db.url), new PostgresKeyStore(db.url), { closeKeys: true });
    alice = await registerAndLogin(server.url);
    const profile = await alice.client.get(`/api/users/profile/${alice.member.pseudo}`);
    videoId = (profile.json.videos as Array<{ id: number }>)[0].id;
  });

  afterAll(async () => {
    await server?.stop();
    await log?.close();
    await proxy?.close();
    await db?.drop();
  });

  it('appends answer 201 or a French 503, never half, none lost, none twice; the API recovers by itself', async () => {
    const answers: Array<{ content: string; status: number; error?: string }> = [];
    let stop = false;
    const loop = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const content = `panne ${n}.${i}`;
        const r = await alice.client.post(`/api/videos/${videoId}/comment`, { content });
        answers.push({ content, status: r.status, error: r.json?.error });
        if (r.status !== 201) await new Promise((res) => setTimeout(res, 20));
      }
    };
    const loops = Array.from({ length: 4 }, (_, n) => loop(n));
    await new Promise((r) => setTimeout(r, 800));
    await proxy.close();
    await new Promise((r) => setTimeout(r, 2000));
    await proxy.open();
    // the loops go on until the API answers again
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const last = answers.slice(-4);
      if (last.length === 4 && last.every((a) => a.status === 201) && answers.some((a) => a.status === 503)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    stop = true;
    await Promise.all(loops);

    const statuses = new Set(answers.map((a) => a.status));
    expect([...statuses].sort()).toEqual([201, 503]);
    for (const a of answers.filter((x) => x.status === 503)) expect(a.error).toBe(MESSAGES.unavailable);
    // recovered: the last answers are 201 again
    expect(answers.slice(-4).every((a) => a.status === 201)).toBe(true);

    // the log, read straight from PostgreSQL (through the members' keys)
    const posted = new Map<string, number>();
    for await (const batch of log.readAll()) {
      for (const e of batch) {
        if (e.type !== 'CommentPosted') continue;
        const content = (e.data as { content: string }).content;
        posted.set(content, (posted.get(content) ?? 0) + 1);
      }
    }
    for (const a of answers) {
      if (a.status === 201) expect(posted.get(a.content), a.content).toBe(1);
      else expect(posted.get(a.content) ?? 0, a.content).toBeLessThanOrEqual(1);
    }
    // and the read side caught up with everything acknowledged
    expect((await fetch(`${server.url}/ready`)).status).toBe(200);
    const list = await alice.client.get(`/api/videos/${videoId}/comments`);
    const shown = JSON.stringify(list.json);
    for (const a of answers.filter((x) => x.status === 201)) expect(shown).toContain(`"${a.content}"`);
  });
});
