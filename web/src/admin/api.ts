import { ApiError, api, uploadWithProgress } from '../api/http';
import { numOr, scalarText } from '../api/decode';

/**
 * Administrator calls (the product API calls, "Admin" and the admin API contract). Every call goes through
 * the shared client (session cookie, French `{ error }` → ApiError). Answers are normalised here
 * so that screens never deal with missing fields or numbers sent as strings.
 */

const enc = encodeURIComponent;

type Row = Record<string, unknown>;

const asRow = (value: unknown): Row => (value && typeof value === 'object' ? (value as Row) : {});
const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const text = scalarText;
const optionalText = (value: unknown): string | null => {
  const t = text(value).trim();
  return t === '' ? null : t;
};
/** A finite number, or `fallback` (0) when the server sent nothing usable. */
export const num = (value: unknown, fallback = 0): number => numOr(value, fallback);
const optionalNum = (value: unknown): number | null =>
  value === null || value === undefined || value === '' || !Number.isFinite(Number(value)) ? null : Number(value);

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

export type ReportStatus = 'en_attente' | 'en_cours' | 'ferme';
export const REPORT_STATUSES: readonly ReportStatus[] = ['en_attente', 'en_cours', 'ferme'];

export type VideoVisibility = 'masquée' | 'publique' | 'supprimée';

export interface Report {
  id: number;
  video_id: number;
  video_title: string;
  video_status: string | null;
  /** as sent by the server; anything but the three known values is shown as unknown */
  status: string;
  created_at: string;
  signalant: string | null;
  auteur: string | null;
  reason: string | null;
  admin_response: string | null;
}

function normalizeReport(raw: unknown): Report {
  const r = asRow(raw);
  return {
    id: num(r.id),
    video_id: num(r.video_id),
    video_title: text(r.video_title),
    video_status: optionalText(r.video_status),
    status: text(r.status),
    created_at: text(r.created_at),
    signalant: optionalText(r.signalant),
    auteur: optionalText(r.auteur),
    reason: optionalText(r.reason),
    admin_response: optionalText(r.admin_response),
  };
}

/** GET /api/admin/reports */
export async function fetchReports(signal?: AbortSignal): Promise<Report[]> {
  return asList(await api.get('/api/admin/reports', { signal })).map(normalizeReport);
}

/** PUT /api/admin/reports/:id { status, admin_response } → { message, report } */
export function answerReport(id: number, status: string, adminResponse: string) {
  return api.put<{ message?: string }>(`/api/admin/reports/${id}`, { status, admin_response: adminResponse });
}

/** PUT /api/videos/:id/visibility { status } → { message } */
export function setVideoVisibility(videoId: number, status: VideoVisibility) {
  return api.put<{ message?: string }>(`/api/videos/${videoId}/visibility`, { status });
}

// ---------------------------------------------------------------------------
// Gift catalogue
// ---------------------------------------------------------------------------

export interface AdminGift {
  id: number;
  name: string;
  emoji: string;
  /** in coins */
  price: number;
  image_url: string;
}

/** What the add and edit forms send (the product validation rules, "Admin gift add"). */
export interface GiftInput {
  name: string;
  emoji: string;
  price: number;
  image_url: string;
}

export function normalizeGift(raw: unknown): AdminGift {
  const g = asRow(raw);
  return {
    id: num(g.id),
    name: text(g.name),
    emoji: text(g.emoji),
    price: num(g.price ?? g.coin_cost),
    image_url: text(g.image_url),
  };
}

const giftOf = (answer: unknown): AdminGift | null => {
  const gift = asRow(answer).gift;
  return gift && typeof gift === 'object' ? normalizeGift(gift) : null;
};

/** GET /api/admin/gifts */
export async function fetchAdminGifts(signal?: AbortSignal): Promise<AdminGift[]> {
  return asList(await api.get('/api/admin/gifts', { signal })).map(normalizeGift);
}

/** POST /api/admin/gifts → 201 { gift } */
export async function createGift(input: GiftInput): Promise<AdminGift | null> {
  return giftOf(await api.post('/api/admin/gifts', { ...input }));
}

/** PUT /api/admin/gifts/:id → { gift } */
export async function updateGift(id: number, input: GiftInput): Promise<AdminGift | null> {
  return giftOf(await api.put(`/api/admin/gifts/${id}`, { ...input }));
}

/** DELETE /api/admin/gifts/:id */
export function deleteGift(id: number) {
  return api.delete(`/api/admin/gifts/${id}`);
}

/** POST /api/admin/gifts/image (multipart field `image`) → { image_url } */
export async function uploadGiftImage(file: File, onProgress?: (fraction: number) => void): Promise<string> {
  const form = new FormData();
  form.append('image', file);
  const answer = await uploadWithProgress('/api/admin/gifts/image', form, { onProgress });
  return text(asRow(answer).image_url);
}

// ---------------------------------------------------------------------------
// Coin transactions, ledger audit, reconciliation
// ---------------------------------------------------------------------------

/** A line of GET /api/coins/admin/transactions: coins bought, added or withdrawn (newest first). */
export interface AdminTransaction {
  id: number;
  user_email: string;
  /** signed: + coins in, − coins out */
  amount: number;
  /** the payment provider for a purchase ('sandbox'), 'ajout', 'retrait' */
  method: string;
  created_at: string;
  type: string;
}

export function normalizeTransaction(raw: unknown): AdminTransaction {
  const t = asRow(raw);
  return {
    id: num(t.id),
    user_email: text(t.user_email),
    amount: num(t.amount),
    method: text(t.method),
    created_at: text(t.created_at),
    type: text(t.type),
  };
}

/** GET /api/coins/admin/transactions */
export async function fetchAdminTransactions(signal?: AbortSignal): Promise<AdminTransaction[]> {
  return asList(await api.get('/api/coins/admin/transactions', { signal })).map(normalizeTransaction);
}

export interface LedgerEntry {
  event_id: string;
  position: string;
  at: string;
  event_type: string;
  type: string;
  tx_id: number;
  actor: string | null;
  correlation_id: string;
  causation_id: string | null;
  debit: string;
  credit: string;
  amount: number;
  account: string;
  delta: number;
  balance_after: number;
}

export interface LedgerAudit {
  user: { id: string; email: string; pseudo: string };
  as_of: string | null;
  coins_balance: number;
  gifts_unclaimed: number;
  consistent: boolean;
  entries: LedgerEntry[];
}

function normalizeEntry(raw: unknown): LedgerEntry {
  const e = asRow(raw);
  return {
    event_id: text(e.event_id),
    position: text(e.position),
    at: text(e.at),
    event_type: text(e.event_type),
    type: text(e.type),
    tx_id: num(e.tx_id),
    actor: optionalText(e.actor),
    correlation_id: text(e.correlation_id),
    causation_id: optionalText(e.causation_id),
    debit: text(e.debit),
    credit: text(e.credit),
    amount: num(e.amount),
    account: text(e.account),
    delta: num(e.delta),
    balance_after: num(e.balance_after),
  };
}

/** GET /api/admin/ledger/:email?asOf= */
export async function fetchLedgerAudit(email: string, asOf: string | null, signal?: AbortSignal): Promise<LedgerAudit> {
  const a = asRow(await api.get(`/api/admin/ledger/${enc(email)}${query({ asOf })}`, { signal }));
  const user = asRow(a.user);
  return {
    user: { id: text(user.id), email: text(user.email) || email, pseudo: text(user.pseudo) },
    as_of: optionalText(a.as_of),
    coins_balance: num(a.coins_balance),
    gifts_unclaimed: num(a.gifts_unclaimed),
    consistent: a.consistent !== false,
    entries: asList(a.entries).map(normalizeEntry),
  };
}

export interface LedgerViolation {
  position: string;
  event_id: string;
  type: string;
  rule: string;
  message: string;
}

export interface Reconciliation {
  ok: boolean;
  events: number;
  movements: number;
  violations: number;
  first_violation: LedgerViolation | null;
}

/** GET /api/admin/ledger/reconcile */
export async function fetchReconciliation(signal?: AbortSignal): Promise<Reconciliation> {
  const r = asRow(await api.get('/api/admin/ledger/reconcile', { signal }));
  const v = r.first_violation && typeof r.first_violation === 'object' ? asRow(r.first_violation) : null;
  return {
    ok: r.ok === true,
    events: num(r.events),
    movements: num(r.movements),
    violations: num(r.violations, v ? 1 : 0),
    first_violation: v
      ? {
          position: text(v.position),
          event_id: text(v.event_id),
          type: text(v.type),
          rule: text(v.rule),
          message: text(v.message),
        }
      : null,
  };
}

// ---------------------------------------------------------------------------
// Statistics (each accepts ?asOf=<ISO>)
// ---------------------------------------------------------------------------

export type StatsKind = 'general' | 'users' | 'videos' | 'messages' | 'gifts' | 'coins' | 'advanced';

const STATS_PATHS: Record<StatsKind, string> = {
  general: '/api/admin/stats',
  users: '/api/admin/stats/users',
  videos: '/api/admin/stats/videos',
  messages: '/api/admin/stats/messages',
  gifts: '/api/admin/stats/gifts',
  coins: '/api/admin/stats/coins',
  advanced: '/api/admin/stats/advanced',
};

/** The raw stats object: each page reads its own fields (with `num`). */
export type StatsObject = Record<string, unknown>;

/** GET /api/admin/stats[/kind]?asOf= */
export async function fetchStats(kind: StatsKind, asOf: string | null, signal?: AbortSignal): Promise<StatsObject> {
  return asRow(await api.get(`${STATS_PATHS[kind]}${query({ asOf })}`, { signal }));
}

export interface AdvancedStats {
  top_creator: { user_email: string; video_count: number } | null;
  top_video: { title: string; views: number } | null;
  total_reports: number | null;
  public_videos: number | null;
  deleted_videos: number | null;
  avg_videos_per_day: number | null;
}

/** Missing fields stay null ("empty data", the product error catalogue). */
export function readAdvancedStats(raw: StatsObject | undefined): AdvancedStats {
  const s = raw ?? {};
  const creator = s.top_creator && typeof s.top_creator === 'object' ? asRow(s.top_creator) : null;
  const video = s.top_video && typeof s.top_video === 'object' ? asRow(s.top_video) : null;
  return {
    top_creator: creator ? { user_email: text(creator.user_email), video_count: num(creator.video_count) } : null,
    top_video: video ? { title: text(video.title), views: num(video.views) } : null,
    total_reports: optionalNum(s.total_reports),
    public_videos: optionalNum(s.public_videos),
    deleted_videos: optionalNum(s.deleted_videos),
    avg_videos_per_day: optionalNum(s.avg_videos_per_day),
  };
}

// ---------------------------------------------------------------------------
// Members and administrator rights
// ---------------------------------------------------------------------------

export interface AdminUser {
  id: string;
  pseudo: string;
  email: string;
  role: string | null;
  is_admin: boolean;
  created_at: string;
  last_login_at: string | null;
  videos: number;
  followers: number;
  balance: number;
}

export interface Paged<T> {
  items: T[];
  total: number;
  page: number;
  limit: number;
}

export function normalizeAdminUser(raw: unknown): AdminUser {
  const u = asRow(raw);
  return {
    id: text(u.id),
    pseudo: text(u.pseudo),
    email: text(u.email),
    role: optionalText(u.role),
    is_admin: u.is_admin === true || u.is_admin === 1 || u.role === 'admin',
    created_at: text(u.created_at),
    last_login_at: optionalText(u.last_login_at),
    videos: num(u.videos),
    followers: num(u.followers),
    balance: num(u.balance),
  };
}

function paged<T>(raw: unknown, normalize: (row: unknown) => T, page: number, limit: number): Paged<T> {
  const p = asRow(raw);
  const items = asList(p.items).map(normalize);
  return { items, total: num(p.total, items.length), page: num(p.page, page), limit: num(p.limit, limit) };
}

/** GET /api/admin/users?q=&page=&limit= */
export async function fetchAdminUsers(q: string, page: number, limit: number, signal?: AbortSignal) {
  const raw = await api.get(`/api/admin/users${query({ q: q.trim(), page, limit })}`, { signal });
  return paged(raw, normalizeAdminUser, page, limit);
}

export interface AdminRightAnswer {
  /** the server's French message ('✅ x est maintenant administrateur.') */
  message: string | null;
  /** the member's role after the change */
  user: { email: string; role: string | null; is_admin: boolean } | null;
}

/** POST /api/admin/users/grant | /revoke { email } → { message, user: { id, email, pseudo, role, is_admin } } */
export async function setAdminRight(email: string, grant: boolean): Promise<AdminRightAnswer> {
  const a = asRow(await api.post(`/api/admin/users/${grant ? 'grant' : 'revoke'}`, { email }));
  const user = a.user && typeof a.user === 'object' ? normalizeAdminUser(a.user) : null;
  return {
    message: optionalText(a.message),
    user: user ? { email: user.email, role: user.role, is_admin: user.is_admin } : null,
  };
}

// ---------------------------------------------------------------------------
// Administrator actions log
// ---------------------------------------------------------------------------

/** A line of GET /api/admin/audit (the server's audit projector writes French texts). */
export interface AuditItem {
  /** the event id */
  id: string;
  at: string;
  /** '' when the actor is not a member (a command-line tool) */
  admin_email: string;
  /** the member's pseudo, or the actor itself when it is not a member */
  admin_pseudo: string | null;
  /** short French label: 'Cadeau ajouté', 'Rôle administrateur accordé'... */
  action: string;
  /** 'vidéo #12', 'cadeau #3', a member's email...; null when empty */
  target: string | null;
  /** French text, null when empty */
  details: string | null;
}

export function normalizeAuditItem(raw: unknown): AuditItem {
  const a = asRow(raw);
  return {
    id: text(a.id),
    at: text(a.at),
    admin_email: text(a.admin_email),
    admin_pseudo: optionalText(a.admin_pseudo),
    action: text(a.action),
    target: optionalText(a.target),
    details: optionalText(a.details),
  };
}

/** GET /api/admin/audit?page=&limit= */
export async function fetchAdminAudit(page: number, limit: number, signal?: AbortSignal) {
  return paged(await api.get(`/api/admin/audit${query({ page, limit })}`, { signal }), normalizeAuditItem, page, limit);
}

// ---------------------------------------------------------------------------
// Rebuilding the projections
// ---------------------------------------------------------------------------

export type RebuildStatus = 'idle' | 'running' | 'done' | 'failed';

export interface RebuildState {
  status: RebuildStatus;
  done: number;
  rate: number;
  etaSeconds: number;
  fraction: number;
  events: number | null;
  seconds: number | null;
  error: string | null;
}

const REBUILD_STATUSES: readonly RebuildStatus[] = ['idle', 'running', 'done', 'failed'];

/** The GET answer and the 'rebuild:progress' socket payload share this shape. */
export function normalizeRebuild(raw: unknown): RebuildState {
  const r = asRow(raw);
  const status = REBUILD_STATUSES.find((s) => s === r.status) ?? 'idle';
  return {
    status,
    done: num(r.done),
    rate: num(r.rate),
    etaSeconds: num(r.etaSeconds),
    fraction: Math.max(0, Math.min(1, num(r.fraction, status === 'done' ? 1 : 0))),
    events: optionalNum(r.events),
    seconds: optionalNum(r.seconds),
    error: optionalText(r.error),
  };
}

/** POST /api/admin/projections/rebuild → 202 { message } */
export function startRebuild() {
  return api.post<{ message?: string }>('/api/admin/projections/rebuild');
}

/**
 * The GET answers 409 when this process does not own the read models (distributed deployment:
 * they are rebuilt with `npm run replay` by the projections service).
 */
export const isRebuildElsewhere = (err: unknown): boolean => err instanceof ApiError && err.status === 409;

/** GET /api/admin/projections/rebuild: 409 outside the embedded role (see `isRebuildElsewhere`). */
export async function fetchRebuild(signal?: AbortSignal): Promise<RebuildState> {
  return normalizeRebuild(await api.get('/api/admin/projections/rebuild', { signal }));
}
