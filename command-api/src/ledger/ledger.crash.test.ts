import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect } from 'vitest';
import { SqliteReadStore, SqliteEventStore } from '@evo/infra';
import type { RecordedEvent } from '@evo/domain';
import { allProjectors, rebuildReadModels } from '@evo/projections';
import { dumpReadModels } from '@evo/projections/testing/read-model-dump';
import { reconcileLedger } from './reconcile';
import { Client, freePort, registerAndLogin, spawnEmbeddedServer, startTestServer } from '../testing/test-server';

const COSTS: Record<number, number> = { 1: 1, 2: 5, 3: 10 };

describe('crash during a gift load', () => {
  it('keeps every acknowledged movement exactly once after kill -9 and a restart', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'evo-crash-'));
    try {
      const { child, url, output } = await spawnEmbeddedServer(dataDir, await freePort());
      const senders = await Promise.all(Array.from({ length: 4 }, () => registerAndLogin(url)));
      const receivers = await Promise.all(Array.from({ length: 3 }, () => registerAndLogin(url)));
      for (const s of senders)
        expect((await s.client.post('/api/coins/add', { email: s.member.email, amount: 5000 })).status).toBe(200);

      // the load: acknowledged answers are kept; the process is killed in the middle of it
      const acked: Array<{ id: number; sender: number; cost: number; key?: string; body: unknown }> = [];
      let killed = false;
      let sent = 0;
      const loop = async (s: number, lane: number) => {
        for (let i = 0; !killed; i++) {
          const giftId = 1 + ((i + lane) % 3);
          const key = i % 5 === 0 ? `crash-${s}-${lane}-${i}` : undefined;
          const to = receivers[(i + lane) % receivers.length];
          try {
            sent++;
            const r = await senders[s].client.post(
              '/api/gifts/send',
              { sender_email: senders[s].member.email, receiver_email: to.member.email, gift_id: giftId },
              key ? { 'Idempotency-Key': key } : {},
            );
            if (r.status === 200)
              acked.push({ id: Number(r.json.id), sender: s, cost: COSTS[giftId], key, body: r.json });
            else if (!killed) throw new Error(`unexpected ${r.status} ${r.text}`);
          } catch (e) {
            if (!killed) throw e;
          }
        }
      };
      const loops = senders.flatMap((_, s) => [0, 1, 2, 3].map((lane) => loop(s, lane)));
      while (acked.length < 150) {
        if (child.exitCode !== null) throw new Error(output());
        await new Promise((r) => setTimeout(r, 5));
      }
      child.kill('SIGKILL');
      killed = true;
      await Promise.allSettled(loops);
      await new Promise<void>((r) =>
        child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', () => r()),
      );
      expect(child.signalCode).toBe('SIGKILL');

      // what the log holds right after the crash (gifts possibly still in transit)
      const raw = new SqliteEventStore(path.join(dataDir, 'events.sqlite'));
      const before = await reconcileLedger(raw);
      await raw.close();
      expect(before.first_violation).toBeNull();
      if (process.env.LEDGER_CRASH_STATS)
        console.warn({ acked: acked.length, sent, inTransitAtCrash: before.pending_gifts });

      // restart on the same data
      const server = await startTestServer({}, dataDir);
      try {
        const last = async () => (await server.deps.events.lastPosition())!;
        for (let i = 0; i < 5; i++) {
          await server.settle(30_000);
          const p = await last();
          expect(await server.giftCredits!.waitFor(p, 20_000)).toBe(true);
          expect(await server.deps.progress.waitFor(p, 20_000)).toBe(true);
          if ((await last()) === p) break;
        }

        const log: RecordedEvent[] = [];
        for await (const b of server.deps.events.readAll()) log.push(...b);
        const count = (type: string) => {
          const m = new Map<number, number>();
          for (const e of log)
            if (e.type === type)
              m.set((e.data as { giftId: number }).giftId, (m.get((e.data as { giftId: number }).giftId) ?? 0) + 1);
          return m;
        };
        const sentIds = count('GiftSent');
        const receivedIds = count('GiftReceived');
        expect(acked.length).toBeGreaterThanOrEqual(150);
        for (const a of acked) {
          expect(sentIds.get(a.id), `gift ${a.id}`).toBe(1);
          expect(receivedIds.get(a.id), `gift ${a.id} credited`).toBe(1);
        }
        // nothing twice, acknowledged or not, and every gift sent is credited
        for (const [id, n] of sentIds) {
          expect(n).toBe(1);
          expect(receivedIds.get(id), `gift ${id}`).toBe(1);
        }
        expect([...receivedIds.values()].every((n) => n === 1)).toBe(true);

        const report = await reconcileLedger(server.deps.events);
        expect(report).toMatchObject({ ok: true, first_violation: null, pending_gifts: { count: 0, coins: 0 } });

        // balances: what each sender's GiftSent events took, never below 0
        const users = new Map<string, string>();
        for (const e of log)
          if (e.type === 'UserRegistered')
            users.set((e.data as { email: string }).email, (e.data as { userId: string }).userId);
        const emailOf = (userId: string) => [...users].find(([, id]) => id === userId)![0];
        for (let s = 0; s < senders.length; s++) {
          const me = senders[s].member;
          const c = new Client(server.url);
          await c.post('/api/auth/login', { email: me.email, password: me.password });
          const mine = log.filter(
            (e) => e.type === 'GiftSent' && (e.data as { userId: string }).userId === users.get(me.email),
          );
          const spent = mine.reduce((t, e) => t + (e.data as { coinCost: number }).coinCost, 0);
          expect(spent).toBeGreaterThanOrEqual(acked.filter((a) => a.sender === s).reduce((t, a) => t + a.cost, 0));
          const b = (await c.get(`/api/coins/balance/${me.email}`)).json as { coins_balance: number };
          expect(b.coins_balance).toBe(5000 - spent);
          expect(b.coins_balance).toBeGreaterThanOrEqual(0);

          // an acknowledged keyed send retried after the restart answers the same and moves nothing
          const keyed = acked.find((a) => a.sender === s && a.key);
          if (!keyed) continue;
          const gift = mine.find((e) => (e.data as { giftId: number }).giftId === keyed.id)!.data as {
            receiverId: string;
            catalogGiftId: number;
          };
          const body = {
            sender_email: me.email,
            receiver_email: emailOf(gift.receiverId),
            gift_id: gift.catalogGiftId,
          };
          const p = await last();
          const retry = await c.post('/api/gifts/send', body, { 'Idempotency-Key': keyed.key! });
          expect(retry.json).toEqual(keyed.body);
          const other = await c.post(
            '/api/gifts/send',
            { ...body, gift_id: (gift.catalogGiftId % 3) + 1 },
            { 'Idempotency-Key': keyed.key! },
          );
          expect(other.status).toBe(409);
          expect(await last()).toBe(p);
        }

        // the read models built at restart (and live since) equal a rebuild from the log
        await server.settle(30_000);
        const p = await last();
        expect(await server.deps.progress.waitFor(p, 20_000)).toBe(true);
        const rebuilt = SqliteReadStore.temporary();
        await rebuildReadModels({ events: server.deps.events, read: rebuilt, projectors: allProjectors });
        const live = await dumpReadModels(server.deps.read);
        expect(Object.keys(live)).toEqual(
          expect.arrayContaining(['coin_wallets', 'coin_movements', 'gifts_received', 'gift_catalog']),
        );
        expect(live).toEqual(await dumpReadModels(rebuilt));
      } finally {
        await server.stop();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
