import express, { Router } from 'express';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { firstSegmentsOf, sliceGuard } from './slice-guard';

const named = (name: string) => Router().get(`/${name}/:id`, (req, res) => res.json({ by: name, id: req.params.id }));

describe('sliceGuard', () => {
  it('reads the first segments of a router, through routers mounted without a path', () => {
    const r = Router();
    r.get('/Coins/balance/:email', (_req, res) => res.end());
    r.post('/admin/ledger', (_req, res) => res.end());
    r.use(named('gifts'));
    expect(firstSegmentsOf(r)).toEqual(new Set(['coins', 'admin', 'gifts']));
  });

  it('cannot read a router with a middleware for every path, or a first segment that is a pattern', () => {
    expect(firstSegmentsOf(Router().use((_req, _res, next) => next()))).toBeUndefined();
    expect(firstSegmentsOf(Router().get('/:email', (_req, res) => res.end()))).toBeUndefined();
    expect(firstSegmentsOf(Router().get('/{a}b', (_req, res) => res.end()))).toBeUndefined();
    expect(firstSegmentsOf(Router().get(/^\/x/, (_req, res) => res.end()))).toBeUndefined();
    expect(firstSegmentsOf(() => undefined)).toBeUndefined();
  });

  it('answers as the routers mounted without it would, case, queries and unknown paths included', async () => {
    const build = (guard: boolean) => {
      const app = express();
      const api = Router();
      const seen: string[] = [];
      const everyPath = Router().use((req, _res, next) => {
        seen.push(req.path);
        next();
      });
      for (const r of [named('videos'), named('gifts'), everyPath, named('coins')]) api.use(guard ? sliceGuard(r) : r);
      api.use((_req, res) => res.status(404).json({ error: 'introuvable' }));
      app.use('/api', api);
      return { app, seen };
    };
    const paths = [
      '/api/gifts/7',
      '/api/GIFTS/8?x=/videos/1',
      '/api/coins/9',
      '/api/videos/1/',
      '/api/other',
      '/api/gifts',
    ];
    const plain = build(false);
    const guarded = build(true);
    const servers = [plain.app.listen(0, '127.0.0.1'), guarded.app.listen(0, '127.0.0.1')];
    try {
      await Promise.all(servers.map((s) => new Promise((r) => s.once('listening', r))));
      const [a, b] = servers.map((s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`);
      const answer = async (base: string, path: string) => {
        const res = await fetch(base + path);
        return [res.status, await res.json()];
      };
      for (const path of paths) expect(await answer(b, path), path).toEqual(await answer(a, path));
    } finally {
      servers.forEach((s) => s.close());
    }
    // the router with a middleware for every path was entered by every request that reached it
    // (the paths the routers before it did not answer)
    expect(plain.seen).toEqual(['/coins/9', '/other', '/gifts']);
    expect(guarded.seen).toEqual(plain.seen);
  });
});
