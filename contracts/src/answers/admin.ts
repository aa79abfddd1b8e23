import { z, type ZodTypeAny } from 'zod';
import { getRoute, type GetRoute } from '../api-route';
import { RebuildView } from '../views';

/** Answers of the administrators' routes (`/api/admin/*`, video visibility). */

/** A page of a list: `page` from 1, `total` items in all. */
export const pageOf = <T extends ZodTypeAny>(item: T) =>
  z.object({ items: z.array(item), total: z.number(), page: z.number(), limit: z.number() });
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  limit: number;
}

export const REPORT_STATUSES = ['en_attente', 'en_cours', 'ferme'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** A report, GET /api/admin/reports (the product entities, "Report", with the video's visibility). */
export const ReportView = z.object({
  id: z.number(),
  video_id: z.number(),
  video_title: z.string(),
  /** publique, masquée or supprimée; null when the video is unknown */
  video_status: z.string().nullable(),
  /** en_attente, en_cours or ferme (`REPORT_STATUSES`) */
  status: z.string(),
  created_at: z.string(),
  /** the reporter's pseudo, 'inconnu' when unknown */
  signalant: z.string(),
  /** the video author's pseudo, 'inconnu' when unknown */
  auteur: z.string(),
  reason: z.string(),
  admin_response: z.string().nullable(),
});
export type ReportView = z.infer<typeof ReportView>;

/** PUT /api/admin/reports/:id: the report as listed, or only its new state when the read models lag. */
export const ReportAnsweredAnswer = z.object({
  message: z.string(),
  report: z.union([ReportView, ReportView.pick({ id: true, status: true, admin_response: true })]),
});
export type ReportAnsweredAnswer = z.infer<typeof ReportAnsweredAnswer>;

/** A gift of the catalogue as the administrators edit it (`price` and `coin_cost`: the same coins). */
export const AdminGift = z.object({
  id: z.number(),
  name: z.string(),
  emoji: z.string(),
  price: z.number(),
  image_url: z.string(),
  coin_cost: z.number(),
});
export type AdminGift = z.infer<typeof AdminGift>;

/** POST /api/admin/gifts → 201, PUT /api/admin/gifts/:id */
export const AdminGiftAnswer = z.object({ gift: AdminGift });
export type AdminGiftAnswer = z.infer<typeof AdminGiftAnswer>;

/** POST /api/admin/gifts/image → 201 */
export const GiftImageAnswer = z.object({ image_url: z.string() });
export type GiftImageAnswer = z.infer<typeof GiftImageAnswer>;

/** A member as the administrators' list shows them. */
export const AdminUserView = z.object({
  id: z.string(),
  pseudo: z.string(),
  email: z.string(),
  role: z.string(),
  is_admin: z.boolean(),
  created_at: z.string(),
  last_login_at: z.string().nullable(),
  /** visible videos */
  videos: z.number(),
  followers: z.number(),
  /** spendable coins */
  balance: z.number(),
});
export type AdminUserView = z.infer<typeof AdminUserView>;

/** The members' page as the read models hold it. */
export const AdminUsersPage = pageOf(AdminUserView);
export type AdminUsersPage = z.infer<typeof AdminUsersPage>;

/** A member in the administrators' list, with their failed logins of the last 15 minutes. */
export const AdminUserRow = AdminUserView.extend({ login_failures: z.number() });
export type AdminUserRow = z.infer<typeof AdminUserRow>;
/** GET /api/admin/users?q=&page=&limit= */
export const AdminUsersAnswer = pageOf(AdminUserRow);
export type AdminUsersAnswer = z.infer<typeof AdminUsersAnswer>;

/** POST /api/admin/users/unlock-login { email } */
export const LoginUnlockedAnswer = z.object({ message: z.string(), login_failures: z.number() });
export type LoginUnlockedAnswer = z.infer<typeof LoginUnlockedAnswer>;

/** POST /api/admin/users/password-reset { email }: a reset link for the administrator to hand over. */
export const PasswordResetLinkAnswer = z.object({ message: z.string(), link: z.string(), expires_at: z.string() });
export type PasswordResetLinkAnswer = z.infer<typeof PasswordResetLinkAnswer>;

/** POST /api/admin/users/grant | /revoke: the member's role after the change. */
export const AdminRightAnswer = z.object({
  /** French: '✅ x est maintenant administrateur.' */
  message: z.string(),
  user: z
    .object({ id: z.string(), email: z.string(), pseudo: z.string(), role: z.string(), is_admin: z.boolean() })
    .nullable(),
});
export type AdminRightAnswer = z.infer<typeof AdminRightAnswer>;

/** A line of the administrators' actions log (the audit projector writes French texts). */
export const AuditView = z.object({
  /** the event id */
  id: z.string(),
  at: z.string(),
  /** '' when the actor is not a member (a command-line tool) */
  admin_email: z.string(),
  /** the member's pseudo, or the actor itself when it is not a member */
  admin_pseudo: z.string(),
  /** short French label: 'Cadeau ajouté', 'Rôle administrateur accordé'... */
  action: z.string(),
  /** 'vidéo #12', 'cadeau #3', a member's email...; '' when none */
  target: z.string(),
  /** French text, '' when none */
  details: z.string(),
});
export type AuditView = z.infer<typeof AuditView>;

/** GET /api/admin/audit?page=&limit= */
export const AuditPage = pageOf(AuditView);
export type AuditPage = z.infer<typeof AuditPage>;

/** The statistics (the product entities, "Stats objects"), each GET /api/admin/stats[/kind]?asOf= */
export const GeneralStats = z.object({
  users: z.number(),
  videos: z.number(),
  gifts: z.number(),
  coins: z.number(),
  messages: z.number(),
});
export type GeneralStats = z.infer<typeof GeneralStats>;

export const AdvancedStats = z.object({
  top_creator: z.object({ user_email: z.string(), video_count: z.number() }).nullable(),
  top_video: z.object({ title: z.string(), views: z.number() }).nullable(),
  total_reports: z.number(),
  public_videos: z.number(),
  deleted_videos: z.number(),
  avg_videos_per_day: z.number(),
});
export type AdvancedStats = z.infer<typeof AdvancedStats>;

export const UsersStats = z.object({
  total_users: z.number(),
  validated_users: z.number(),
  new_users_30d: z.number(),
  recent_logins_7d: z.number(),
});
export type UsersStats = z.infer<typeof UsersStats>;

export const VideosStats = z.object({
  total_videos: z.number(),
  public_videos: z.number(),
  hidden_videos: z.number(),
  deleted_videos: z.number(),
  /** rejected by processing (unreadable): in the total, in none of the three others */
  rejected_videos: z.number(),
});
export type VideosStats = z.infer<typeof VideosStats>;

export const MessagesStats = z.object({ total_messages: z.number(), private_messages: z.number() });
export type MessagesStats = z.infer<typeof MessagesStats>;

export const GiftsStats = z.object({ gifts_sent: z.number(), gifts_catalog: z.number() });
export type GiftsStats = z.infer<typeof GiftsStats>;

export const CoinsStats = z.object({
  coins_bought: z.number(),
  coins_added: z.number(),
  coins_in_balances: z.number(),
  coins_in_unclaimed_gifts: z.number(),
  coins_in_transit: z.number(),
  coins_withdrawn: z.number(),
  fees: z.number(),
  purchases: z.number(),
});
export type CoinsStats = z.infer<typeof CoinsStats>;

/** The statistics by kind: `general` is GET /api/admin/stats, the others /api/admin/stats/<kind>. */
export const STATS_ANSWERS = {
  general: GeneralStats,
  users: UsersStats,
  videos: VideosStats,
  messages: MessagesStats,
  gifts: GiftsStats,
  coins: CoinsStats,
  advanced: AdvancedStats,
} as const;
export type StatsKind = keyof typeof STATS_ANSWERS;
export type StatsAnswer<K extends StatsKind> = z.infer<(typeof STATS_ANSWERS)[K]>;

/** A projector stopped on an event it could not apply (the others go on); `position` as a string. */
export const StoppedProjectionView = z.object({
  name: z.string(),
  position: z.string(),
  type: z.string(),
  error: z.string(),
  at: z.string(),
});
export type StoppedProjectionView = z.infer<typeof StoppedProjectionView>;

/** GET /api/admin/projections/status: how the read side is doing. */
export const ProjectionsHealthAnswer = z.object({
  caught_up: z.boolean(),
  /** the read models cannot be written (disk full, database away): retried until it passes */
  store_error: z.string().nullable(),
  stopped: z.array(StoppedProjectionView),
});
export type ProjectionsHealthAnswer = z.infer<typeof ProjectionsHealthAnswer>;

/** The administrators' routes the web app reads. */
export const adminRoutes = {
  reports: getRoute('/api/admin/reports', z.array(ReportView)),
  gifts: getRoute('/api/admin/gifts', z.array(AdminGift)),
  users: getRoute('/api/admin/users', AdminUsersAnswer),
  audit: getRoute('/api/admin/audit', AuditPage),
  rebuild: getRoute('/api/admin/projections/rebuild', RebuildView),
  projectionsStatus: getRoute('/api/admin/projections/status', ProjectionsHealthAnswer),
};

/** The statistics routes by kind (`?asOf=<ISO>`). */
export const statsRoutes = {
  general: getRoute('/api/admin/stats', GeneralStats),
  users: getRoute('/api/admin/stats/users', UsersStats),
  videos: getRoute('/api/admin/stats/videos', VideosStats),
  messages: getRoute('/api/admin/stats/messages', MessagesStats),
  gifts: getRoute('/api/admin/stats/gifts', GiftsStats),
  coins: getRoute('/api/admin/stats/coins', CoinsStats),
  advanced: getRoute('/api/admin/stats/advanced', AdvancedStats),
} satisfies { [K in StatsKind]: GetRoute<StatsAnswer<K>> };
