import { z } from 'zod';
import {
  AdminCoinTransaction,
  AdminGift,
  AdminGiftAnswer,
  AdminRightAnswer,
  AdminUsersAnswer,
  AuditPage,
  GiftImageAnswer,
  LedgerAuditAnswer,
  LedgerReconciliation,
  LoginUnlockedAnswer,
  MessageAnswer,
  PasswordResetLinkAnswer,
  ProjectionsHealthAnswer,
  RebuildView,
  REPORT_STATUSES,
  ReportAnsweredAnswer,
  ReportView,
  STATS_ANSWERS,
  type AdminUserRow,
  type AuditView,
  type LedgerAuditEntry,
  type StatsAnswer,
  type StatsKind,
  VideoCard,
} from '@evo/contracts';
import { ApiError, api, uploadWithProgress } from '../api/http';
import { decode } from '../api/decode';

/**
 * Administrator calls (the product API calls, "Admin" and the admin API contract). Every call goes through
 * the shared client (session cookie, French `{ error }` → ApiError) and parses its answer with the
 * contract's schema (api/decode.ts).
 */

const enc = encodeURIComponent;

/** `?a=1&b=2` without the empty values. */
function query(params: Record<string, string | number | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== null && value !== undefined && value !== '') search.set(key, String(value));
  }
  const s = search.toString();
  return s ? `?${s}` : '';
}

// ---------------------------------------------------------------------------
// Reports and video visibility
// ---------------------------------------------------------------------------

export { REPORT_STATUSES };
export type { ReportStatus } from '@evo/contracts';

export type VideoVisibility = 'masquée' | 'publique' | 'supprimée';

/** A report; `status` as sent by the server: anything but the three known values is shown as unknown. */
export type Report = ReportView;

/** GET /api/videos/:id as an administrator reads it: hidden and moderated videos included. */
export async function fetchReportedVideo(id: number, signal?: AbortSignal): Promise<VideoCard> {
  return decode(VideoCard, await api.get(`/api/videos/${id}`, { signal }));
}

/** GET /api/admin/reports */
export async function fetchReports(signal?: AbortSignal): Promise<Report[]> {
  return decode(z.array(ReportView), await api.get('/api/admin/reports', { signal }));
}

/** PUT /api/admin/reports/:id { status, admin_response } → { message, report } */
export async function answerReport(id: number, status: string, adminResponse: string): Promise<ReportAnsweredAnswer> {
  const body = { status, admin_response: adminResponse };
  return decode(ReportAnsweredAnswer, await api.put(`/api/admin/reports/${id}`, body));
}

/** PUT /api/videos/:id/visibility { status } → { message } */
/** `reason`: the sanction message its author gets with a hide or delete (a decision they may contest) */
export async function setVideoVisibility(
  videoId: number,
  status: VideoVisibility,
  reason?: string,
): Promise<MessageAnswer> {
  return decode(
    MessageAnswer,
    await api.put(`/api/videos/${videoId}/visibility`, reason ? { status, reason } : { status }),
  );
}

// ---------------------------------------------------------------------------
// Gift catalogue
// ---------------------------------------------------------------------------

/** A gift as administrators edit it (`price`, in coins, is its `coin_cost`). */
export type { AdminGift };

/** What the add and edit forms send (the product validation rules, "Admin gift add"). */
export interface GiftInput {
  name: string;
  emoji: string;
  price: number;
  image_url: string;
}

/** GET /api/admin/gifts */
export async function fetchAdminGifts(signal?: AbortSignal): Promise<AdminGift[]> {
  return decode(z.array(AdminGift), await api.get('/api/admin/gifts', { signal }));
}

/** POST /api/admin/gifts → 201 { gift } */
export async function createGift(input: GiftInput): Promise<AdminGift> {
  return decode(AdminGiftAnswer, await api.post('/api/admin/gifts', { ...input })).gift;
}

/** PUT /api/admin/gifts/:id → { gift } */
export async function updateGift(id: number, input: GiftInput): Promise<AdminGift> {
  return decode(AdminGiftAnswer, await api.put(`/api/admin/gifts/${id}`, { ...input })).gift;
}

/** DELETE /api/admin/gifts/:id */
export function deleteGift(id: number) {
  return api.delete(`/api/admin/gifts/${id}`);
}

/** POST /api/admin/gifts/image (multipart field `image`) → { image_url } */
export async function uploadGiftImage(file: File, onProgress?: (fraction: number) => void): Promise<string> {
  const form = new FormData();
  form.append('image', file);
  return decode(GiftImageAnswer, await uploadWithProgress('/api/admin/gifts/image', form, { onProgress })).image_url;
}

// ---------------------------------------------------------------------------
// Coin transactions, ledger audit, reconciliation
// ---------------------------------------------------------------------------

/** A line of GET /api/coins/admin/transactions: coins bought, added or withdrawn (newest first). */
export type AdminTransaction = AdminCoinTransaction;

/** GET /api/coins/admin/transactions */
export async function fetchAdminTransactions(signal?: AbortSignal): Promise<AdminTransaction[]> {
  return decode(z.array(AdminCoinTransaction), await api.get('/api/coins/admin/transactions', { signal }));
}

export type LedgerEntry = LedgerAuditEntry;
export type LedgerAudit = LedgerAuditAnswer;

/** GET /api/admin/ledger/:email?asOf= */
export async function fetchLedgerAudit(email: string, asOf: string | null, signal?: AbortSignal): Promise<LedgerAudit> {
  return decode(LedgerAuditAnswer, await api.get(`/api/admin/ledger/${enc(email)}${query({ asOf })}`, { signal }));
}

export type Reconciliation = LedgerReconciliation;

/** GET /api/admin/ledger/reconcile */
export async function fetchReconciliation(signal?: AbortSignal): Promise<Reconciliation> {
  return decode(LedgerReconciliation, await api.get('/api/admin/ledger/reconcile', { signal }));
}

// ---------------------------------------------------------------------------
// Statistics (each accepts ?asOf=<ISO>)
// ---------------------------------------------------------------------------

export type { StatsAnswer, StatsKind };

const STATS_PATHS: Record<StatsKind, string> = {
  general: '/api/admin/stats',
  users: '/api/admin/stats/users',
  videos: '/api/admin/stats/videos',
  messages: '/api/admin/stats/messages',
  gifts: '/api/admin/stats/gifts',
  coins: '/api/admin/stats/coins',
  advanced: '/api/admin/stats/advanced',
};

/** GET /api/admin/stats[/kind]?asOf=: the statistics object of that kind. */
export async function fetchStats<K extends StatsKind>(
  kind: K,
  asOf: string | null,
  signal?: AbortSignal,
): Promise<StatsAnswer<K>> {
  const schema = STATS_ANSWERS[kind] as z.ZodType<StatsAnswer<K>>;
  return decode(schema, await api.get(`${STATS_PATHS[kind]}${query({ asOf })}`, { signal }));
}

// ---------------------------------------------------------------------------
// Members and administrator rights
// ---------------------------------------------------------------------------

export type AdminUser = AdminUserRow;
export type { AdminRightAnswer };

/** GET /api/admin/users?q=&page=&limit= */
export async function fetchAdminUsers(q: string, page: number, limit: number, signal?: AbortSignal) {
  return decode(AdminUsersAnswer, await api.get(`/api/admin/users${query({ q: q.trim(), page, limit })}`, { signal }));
}

/** POST /api/admin/users/grant | /revoke { email } → { message, user: { id, email, pseudo, role, is_admin } } */
export async function setAdminRight(email: string, grant: boolean): Promise<AdminRightAnswer> {
  return decode(AdminRightAnswer, await api.post(`/api/admin/users/${grant ? 'grant' : 'revoke'}`, { email }));
}

/** POST /api/admin/users/password-reset { email } → a reset link for the administrator to hand over */
export async function issuePasswordResetLink(email: string): Promise<PasswordResetLinkAnswer> {
  return decode(PasswordResetLinkAnswer, await api.post('/api/admin/users/password-reset', { email }));
}

/** POST /api/admin/users/unlock-login { email } → { message, login_failures: 0 }: the member's failed logins cleared */
export async function unlockLogin(email: string): Promise<LoginUnlockedAnswer> {
  return decode(LoginUnlockedAnswer, await api.post('/api/admin/users/unlock-login', { email }));
}

// ---------------------------------------------------------------------------
// Administrator actions log
// ---------------------------------------------------------------------------

/** A line of GET /api/admin/audit (the server's audit projector writes French texts; '' when empty). */
export type AuditItem = AuditView;

/** GET /api/admin/audit?page=&limit= */
export async function fetchAdminAudit(page: number, limit: number, signal?: AbortSignal) {
  return decode(AuditPage, await api.get(`/api/admin/audit${query({ page, limit })}`, { signal }));
}

// ---------------------------------------------------------------------------
// Rebuilding the projections
// ---------------------------------------------------------------------------

/** The GET answer and the 'rebuild:progress' socket payload share this shape. */
export type RebuildState = RebuildView;

/** POST /api/admin/projections/rebuild → 202 { message } */
export async function startRebuild(): Promise<MessageAnswer> {
  return decode(MessageAnswer, await api.post('/api/admin/projections/rebuild'));
}

/**
 * The GET answers 409 when this process does not own the read models (distributed deployment:
 * they are rebuilt with `npm run replay` by the projections service).
 */
export const isRebuildElsewhere = (err: unknown): boolean => err instanceof ApiError && err.status === 409;

/** GET /api/admin/projections/rebuild: 409 outside the embedded role (see `isRebuildElsewhere`). */
export async function fetchRebuild(signal?: AbortSignal): Promise<RebuildState> {
  return decode(RebuildView, await api.get('/api/admin/projections/rebuild', { signal }));
}

/** GET /api/admin/projections/status → caught up, projections stopped on an event, a store that cannot be written */
export async function fetchProjectionsHealth(signal?: AbortSignal): Promise<ProjectionsHealthAnswer> {
  return decode(ProjectionsHealthAnswer, await api.get('/api/admin/projections/status', { signal }));
}

/** POST /api/admin/projections/:name/resume → { message } (409 while it still fails, or outside the embedded role) */
export async function resumeProjection(name: string): Promise<MessageAnswer> {
  return decode(MessageAnswer, await api.post(`/api/admin/projections/${encodeURIComponent(name)}/resume`));
}
