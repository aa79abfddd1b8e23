import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/http';
import {
  isRebuildElsewhere,
  normalizeAdminUser,
  normalizeAuditItem,
  normalizeRebuild,
  normalizeTransaction,
} from './api';

/** Answers shaped as command-api/src/admin/*.ts and command-api/src/ledger/routes.ts send them. */
describe('admin answers as the server sends them', () => {
  it('GET /api/admin/audit items: string id and details, empty texts are missing', () => {
    const item = {
      id: '0b6f1c1e-5a7d-4c1b-9e0f-000000000001',
      at: '2026-01-02T10:00:00.000Z',
      admin_email: 'admin@evo.local',
      admin_pseudo: 'admin',
      action: 'Cadeau ajouté',
      target: 'cadeau #9',
      details: '⭐ Étoile — 3 coins',
    };
    expect(normalizeAuditItem(item)).toEqual(item);
    const granted = normalizeAuditItem({
      id: 'e2',
      at: '2026-01-02T10:00:00.000Z',
      admin_email: 'admin@evo.local',
      admin_pseudo: 'admin',
      action: 'Rôle administrateur accordé',
      target: 'alice@test.fr',
      details: '',
    });
    expect(granted.details).toBeNull();
    expect(granted.target).toBe('alice@test.fr');
  });

  it('GET /api/coins/admin/transactions lines', () => {
    expect(
      normalizeTransaction({
        id: 7,
        user_email: 'bob@test.fr',
        amount: -30,
        method: 'retrait',
        created_at: '2026-01-02T10:00:00.000Z',
        type: 'retrait',
      }),
    ).toEqual({
      id: 7,
      user_email: 'bob@test.fr',
      amount: -30,
      method: 'retrait',
      created_at: '2026-01-02T10:00:00.000Z',
      type: 'retrait',
    });
  });

  it('GET /api/admin/users items', () => {
    const row = {
      id: 'u1',
      pseudo: 'alice',
      email: 'alice@test.fr',
      role: 'user',
      is_admin: false,
      created_at: '2026-01-01T10:00:00.000Z',
      last_login_at: null,
      videos: 1,
      followers: 2,
      balance: 25,
    };
    expect(normalizeAdminUser(row)).toEqual(row);
    expect(normalizeAdminUser({ ...row, role: 'admin', is_admin: true }).is_admin).toBe(true);
  });

  it('GET /api/admin/projections/rebuild: the shapes of rebuildView, and 409 elsewhere', () => {
    expect(normalizeRebuild({ status: 'idle', done: 0, rate: 0, etaSeconds: 0, fraction: 0 })).toEqual({
      status: 'idle',
      done: 0,
      rate: 0,
      etaSeconds: 0,
      fraction: 0,
      events: null,
      seconds: null,
      error: null,
    });
    expect(
      normalizeRebuild({
        status: 'running',
        startedAt: '2026-01-02T10:00:00.000Z',
        done: 120,
        rate: 600.5,
        etaSeconds: 1.2,
        fraction: 0.25,
      }),
    ).toMatchObject({ status: 'running', done: 120, rate: 600.5, etaSeconds: 1.2, fraction: 0.25 });
    expect(
      normalizeRebuild({
        status: 'done',
        startedAt: '2026-01-02T10:00:00.000Z',
        finishedAt: '2026-01-02T10:00:01.000Z',
        events: 480,
        seconds: 0.8,
        done: 480,
        rate: 600,
        etaSeconds: 0,
        fraction: 1,
      }),
    ).toMatchObject({ status: 'done', done: 480, events: 480, seconds: 0.8, fraction: 1 });
    expect(
      normalizeRebuild({
        status: 'failed',
        startedAt: 'x',
        error: 'boom',
        done: 0,
        rate: 0,
        etaSeconds: 0,
        fraction: 0,
      }),
    ).toMatchObject({ status: 'failed', error: 'boom', fraction: 0 });

    expect(isRebuildElsewhere(new ApiError('Dans ce mode de déploiement…', 409, { error: 'x' }))).toBe(true);
    expect(isRebuildElsewhere(new ApiError('Erreur 500', 500))).toBe(false);
    expect(isRebuildElsewhere(new Error('x'))).toBe(false);
  });
});
