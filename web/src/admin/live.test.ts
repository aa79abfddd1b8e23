import { afterEach, describe, expect, it, vi } from 'vitest';
import { adminRoutes } from '@evo/contracts';
import { createQueryClient, routeKey } from '../api/queries';
import type { RebuildState } from './api';
import { fetchRebuild, newerRebuild } from './hooks';
import { adminPushes } from './live';

const running = (done: number, startedAt = '2026-01-02T10:00:00.000Z'): RebuildState => ({
  status: 'running',
  startedAt,
  done,
  rate: 100,
  etaSeconds: 3,
  fraction: done / 1000,
});

afterEach(() => vi.unstubAllGlobals());

describe('the rebuild in the cache', () => {
  const key = routeKey(adminRoutes.rebuild, {});

  it("'rebuild:progress' is the state shown, even before the card first asked", () => {
    const client = createQueryClient();
    const pushes = adminPushes(client);
    pushes['rebuild:progress']?.(running(200));
    expect(client.getQueryData(key)).toEqual(running(200));
    pushes['rebuild:progress']?.(running(400));
    expect(client.getQueryData<RebuildState>(key)?.done).toBe(400);
  });

  it('a GET behind the pushes of the same run does not take the progress back; its end, or a new run, does', () => {
    expect(newerRebuild(running(400), running(300))).toEqual(running(400));
    expect(newerRebuild(running(400), running(500))).toEqual(running(500));
    const done: RebuildState = {
      status: 'done',
      startedAt: '2026-01-02T10:00:00.000Z',
      finishedAt: '2026-01-02T10:00:05.000Z',
      events: 1000,
      seconds: 5,
      done: 1000,
      rate: 200,
      etaSeconds: 0,
      fraction: 1,
    };
    expect(newerRebuild(running(400), done)).toBe(done);
    const next = running(10, '2026-01-02T11:00:00.000Z');
    expect(newerRebuild(running(400), next)).toBe(next);
    expect(newerRebuild(undefined, running(0))).toEqual(running(0));
  });

  it('a GET answered after a push of the same run keeps the push’s progress (the cache read when it answers)', async () => {
    const client = createQueryClient();
    let answerGet!: (r: Response) => void;
    vi.stubGlobal('fetch', () => new Promise<Response>((resolve) => (answerGet = resolve)));
    client.setQueryData(key, running(100));
    const pending = fetchRebuild(client);
    // the push comes while the GET is on its way, then the GET answers with older progress
    adminPushes(client)['rebuild:progress']?.(running(400));
    answerGet(new Response(JSON.stringify(running(300)), { headers: { 'Content-Type': 'application/json' } }));
    expect(await pending).toEqual(running(400));
  });
});
