import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, INVALID_ANSWER, InvalidAnswerError, errorMessage } from '../api/http';
import { adminRoutes, coinRoutes } from '@evo/contracts';
import { fetchRoute } from '../api/queries';
import { isRebuildElsewhere } from './api';

/** The next fetch answers `body` as JSON. */
const answer = (body: unknown, status = 200) =>
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })),
  );

afterEach(() => vi.unstubAllGlobals());

/** Answers shaped as command-api/src/admin/*.ts and command-api/src/ledger/routes.ts send them. */
describe('admin answers, parsed with the contract', () => {
  it('GET /api/admin/audit: a page of items, empty texts kept as ""', async () => {
    const item = {
      id: '0b6f1c1e-5a7d-4c1b-9e0f-000000000001',
      at: '2026-01-02T10:00:00.000Z',
      admin_email: 'admin@evo.local',
      admin_pseudo: 'admin',
      action: 'Rôle administrateur accordé',
      target: 'alice@test.fr',
      details: '',
    };
    answer({ items: [item], total: 1, page: 1, limit: 20 });
    expect(await fetchRoute(adminRoutes.audit, {}, { page: 1, limit: 20 })).toEqual({
      items: [item],
      total: 1,
      page: 1,
      limit: 20,
    });
  });

  it('GET /api/admin/users: a page of members', async () => {
    const row = {
      id: 'u1',
      pseudo: 'alice',
      email: 'alice@test.fr',
      role: 'member',
      is_admin: false,
      created_at: '2026-01-01T10:00:00.000Z',
      last_login_at: null,
      videos: 1,
      followers: 2,
      balance: 25,
      login_failures: 0,
    };
    answer({ items: [row], total: 1, page: 1, limit: 20 });
    expect((await fetchRoute(adminRoutes.users, {}, { q: '', page: 1, limit: 20 })).items).toEqual([row]);
  });

  it('an answer out of contract fails the load with the French message the screens show', async () => {
    // an amount sent as text: the server and the app disagree
    answer([{ id: 7, user_email: 'bob@test.fr', amount: '-30', method: 'retrait', created_at: 'x', type: 'retrait' }]);
    const failure = await fetchRoute(coinRoutes.adminTransactions, {}).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(InvalidAnswerError);
    expect(errorMessage(failure)).toBe(INVALID_ANSWER);
  });

  it('GET /api/admin/projections/rebuild: the four shapes of rebuildView, and 409 elsewhere', async () => {
    const progress = { done: 0, rate: 0, etaSeconds: 0, fraction: 0 };
    const shapes = [
      { status: 'idle', ...progress },
      { status: 'running', startedAt: '2026-01-02T10:00:00.000Z', ...progress, done: 120, fraction: 0.25 },
      {
        status: 'done',
        startedAt: '2026-01-02T10:00:00.000Z',
        finishedAt: '2026-01-02T10:00:01.000Z',
        events: 480,
        seconds: 0.8,
        ...progress,
        done: 480,
        fraction: 1,
      },
      { status: 'failed', startedAt: '2026-01-02T10:00:00.000Z', error: 'boom', ...progress },
    ];
    for (const shape of shapes) {
      answer(shape);
      expect(await fetchRoute(adminRoutes.rebuild, {})).toEqual(shape);
    }
    answer({ status: 'weird', ...progress });
    await expect(fetchRoute(adminRoutes.rebuild, {})).rejects.toBeInstanceOf(InvalidAnswerError);

    expect(isRebuildElsewhere(new ApiError('Dans ce mode de déploiement…', 409, { error: 'x' }))).toBe(true);
    expect(isRebuildElsewhere(new ApiError('Erreur 500', 500))).toBe(false);
    expect(isRebuildElsewhere(new Error('x'))).toBe(false);
  });
});
