import type { AdminUsersPage, AuditPage } from '@evo/contracts';
import type { ReadStore } from '@evo/infra';
import { USERS, type UserDoc } from '../identity/users-projector';
import { COIN_WALLETS, type CoinWalletDoc } from '../coins/wallets-projector';
import { ADMIN_AUDIT, type AuditDoc } from './audit-projector';
import { findByIds } from '../runtime/by-ids';
import { CREATOR_COUNTERS, type CreatorCountersDoc } from '../social/video-counters-projector';
import { FOLLOW_COUNTS, type FollowCountsDoc } from '../social/follows-projector';

export const ADMIN_PAGE = { defaultLimit: 20, maxLimit: 100 } as const;

export interface AdminPage {
  /** 1-based */
  page: number;
  limit: number;
}

const count = (v: unknown): number => (typeof v === 'number' ? v : 0);
const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function adminQueries(read: ReadStore) {
  const users = read.collection<UserDoc>(USERS);
  const wallets = read.collection<CoinWalletDoc>(COIN_WALLETS);
  const audit = read.collection<AuditDoc>(ADMIN_AUDIT);
  const creators = read.collection<CreatorCountersDoc>(CREATOR_COUNTERS);
  const followCounts = read.collection<FollowCountsDoc>(FOLLOW_COUNTS);
  return {
    /**
     * Members whose email or pseudo contains `q` (case-insensitive), newest first, with their
     * counters and balance.
     */
    async users(q: string, page: AdminPage): Promise<AdminUsersPage> {
      const needle = q.trim().toLowerCase();
      const filter = needle
        ? { $or: [{ email_lc: { $regex: escapeRegex(needle) } }, { pseudo_lc: { $regex: escapeRegex(needle) } }] }
        : {};
      const [docs, total] = await Promise.all([
        users.find(filter, { sort: { created_at: -1, _id: 1 }, skip: (page.page - 1) * page.limit, limit: page.limit }),
        users.countDocuments(filter),
      ]);
      const ids = docs.map((u) => u._id);
      const [balances, created, followed] = await Promise.all([
        findByIds(wallets, ids, { projection: { coins_balance: 1 } }),
        findByIds(creators, ids, { projection: { videos_count: 1 } }),
        findByIds(followCounts, ids, { projection: { followers_count: 1 } }),
      ]);
      const followersOf = new Map(followed.map((f) => [f._id, f.followers_count]));
      const balanceOf = new Map(balances.map((w) => [w._id, w.coins_balance]));
      const videosOf = new Map(created.map((c) => [c._id, c.videos_count]));
      const items = docs.map((u) => ({
        id: u._id,
        pseudo: u.pseudo,
        email: u.email,
        role: u.role,
        is_admin: u.is_admin === true,
        created_at: u.created_at,
        last_login_at: u.last_login_at ?? null,
        videos: count(videosOf.get(u._id)),
        followers: count(followersOf.get(u._id)),
        balance: balanceOf.get(u._id) ?? 0,
      }));
      return { items, total, page: page.page, limit: page.limit };
    },

    /** members holding the administrator role according to the read models (candidates for a check on their streams) */
    async adminIds(): Promise<string[]> {
      return (await users.find({ is_admin: true }, { projection: { _id: 1 } })).map((u) => u._id);
    },

    /** administrators' actions, newest first */
    async audit(page: AdminPage): Promise<AuditPage> {
      const [docs, total] = await Promise.all([
        audit.find({}, { sort: { pos_key: -1 }, skip: (page.page - 1) * page.limit, limit: page.limit }),
        audit.countDocuments({}),
      ]);
      const items = docs.map((d) => ({
        id: d._id,
        at: d.at,
        admin_email: d.admin_email,
        admin_pseudo: d.admin_pseudo,
        action: d.action,
        target: d.target,
        details: d.details,
      }));
      return { items, total, page: page.page, limit: page.limit };
    },
  };
}

export type AdminQueries = ReturnType<typeof adminQueries>;
