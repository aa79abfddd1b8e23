import {
  AdminCoinTransaction,
  AdminGift,
  AdminGiftAnswer,
  AdminRightAnswer,
  GiftImageAnswer,
  LedgerAuditAnswer,
  LedgerReconciliation,
  LoginUnlockedAnswer,
  MessageAnswer,
  PasswordResetLinkAnswer,
  RebuildView,
  REPORT_STATUSES,
  ReportAnsweredAnswer,
  ReportView,
  type AdminUserRow,
  type AuditView,
  type LedgerAuditEntry,
  type StatsAnswer,
  type StatsKind,
} from '@evo/contracts';
import { ApiError, api, uploadWithProgress } from '../api/http';
import { decode } from '../api/decode';

/**
 * Administrator calls (the product API calls, "Admin" and the admin API contract). Every call goes through
 * the shared client (session cookie, French `{ error }` → ApiError) and parses its answer with the
 * contract's schema (api/decode.ts).
 */

// ---------------------------------------------------------------------------
// Reports and video visibility
// ---------------------------------------------------------------------------

export { REPORT_STATUSES };
export type { ReportStatus } from '@evo/contracts';

export type VideoVisibility = 'masquée' | 'publique' | 'supprimée';

/** A report; `status` as sent by the server: anything but the three known values is shown as unknown. */
export type Report = ReportView;

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

export type LedgerEntry = LedgerAuditEntry;
export type LedgerAudit = LedgerAuditAnswer;

export type Reconciliation = LedgerReconciliation;

// ---------------------------------------------------------------------------
// Statistics (each accepts ?asOf=<ISO>)
// ---------------------------------------------------------------------------

export type { StatsAnswer, StatsKind };

// ---------------------------------------------------------------------------
// Members and administrator rights
// ---------------------------------------------------------------------------

export type AdminUser = AdminUserRow;
export type { AdminRightAnswer };

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

/** POST /api/admin/projections/:name/resume → { message } (409 while it still fails, or outside the embedded role) */
export async function resumeProjection(name: string): Promise<MessageAnswer> {
  return decode(MessageAnswer, await api.post(`/api/admin/projections/${encodeURIComponent(name)}/resume`));
}
