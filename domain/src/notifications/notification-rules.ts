import type { AppEvent } from '../all-events';
import type { DomainEvent } from '../shared/decider';
import { MODERATION_MESSAGES, REPORT_CLOSED } from '../moderation/rules';
import { APPEAL_MESSAGES, RESTRICTION_MESSAGES } from '../moderation/appeal-rules';
import { DATA_EXPORT_MESSAGES } from '../data-export/rules';
import type { NotificationType } from '@evo/contracts';

/**
 * Notifications are a projection of facts. This module says which facts notify whom; the
 * projection (read side) and the notification commands (which check that a member owns the
 * notification they read or delete) both use it, so they always agree.
 *
 * A notification's id is the log position of the event that caused it. Its recipients must follow
 * from that event's data alone (no lookup), so that the command side can tell who owns notification
 * N by reading the event at position N.
 */
// the types are part of what the server and the web app agree on
export { NOTIFICATION_TYPES, type NotificationType } from '@evo/contracts';

export interface NotificationSpec {
  type: NotificationType;
  recipientId: string;
  /** the member whose action it is; null for a system or administrator action shown without a sender */
  senderId: string | null;
  /** the video concerned, 0 when none */
  videoId: number;
  /** extra text for the message (gift name, report status, ...) */
  detail?: string;
}

type EventOf<T extends AppEvent['type']> = Extract<AppEvent, { type: T }>;
type Rule<T extends AppEvent['type']> = (data: EventOf<T>['data']) => NotificationSpec[];

/**
 * One entry per event type that notifies (with its text in NOTIFICATION_TEXTS); the projection and
 * the commands pick them up.
 */
export const NOTIFICATION_RULES: { [T in AppEvent['type']]?: Rule<T> } = {
  // at most one per (actor, target, kind) in the anti-spam window: the deciders say `notify: false` within it
  UserFollowed: (d) =>
    d.notify === false ? [] : [{ type: 'follow', recipientId: d.followeeId, senderId: d.followerId, videoId: 0 }],
  VideoLiked: (d) =>
    d.notify === false ? [] : [{ type: 'like', recipientId: d.ownerId, senderId: d.userId, videoId: d.videoId }],
  CommentPosted: (d) => [{ type: 'comment', recipientId: d.videoOwnerId, senderId: d.authorId, videoId: d.videoId }],
  MessageSent: (d) => [{ type: 'message', recipientId: d.receiverId, senderId: d.senderId, videoId: 0 }],
  GiftReceived: (d) => [
    { type: 'gift', recipientId: d.userId, senderId: d.senderId, videoId: 0, detail: `${d.emoji} ${d.name}`.trim() },
  ],
  // moderation: a new sanction message reaches the video's author; closing the report tells the reporter
  ReportStatusChanged: (d) => [
    ...(d.adminResponse && d.adminResponse !== d.previousAdminResponse
      ? [
          {
            type: 'report_update' as const,
            recipientId: d.authorId,
            senderId: null,
            videoId: d.videoId,
            detail: d.adminResponse,
          },
        ]
      : []),
    ...(d.status === REPORT_CLOSED && d.previousStatus !== REPORT_CLOSED
      ? [
          {
            type: 'report_update' as const,
            recipientId: d.reporterId,
            senderId: null,
            videoId: d.videoId,
            detail: MODERATION_MESSAGES.reportClosed,
          },
        ]
      : []),
  ],
  // moderation decisions (issue 32): the member learns the decision with its reason, and the answer to their appeal
  VideoVisibilityChanged: (d) =>
    d.decisionNo !== undefined && d.ownerId && d.reason
      ? [{ type: 'report_update', recipientId: d.ownerId, senderId: null, videoId: d.videoId, detail: d.reason }]
      : [],
  VideoDeleted: (d) =>
    d.decisionNo !== undefined && d.reason
      ? [{ type: 'report_update', recipientId: d.ownerId, senderId: null, videoId: d.videoId, detail: d.reason }]
      : [],
  AppealAnswered: (d) => [
    {
      type: 'report_update',
      recipientId: d.subjectId,
      senderId: null,
      videoId: d.videoId ?? 0,
      detail: APPEAL_MESSAGES.decided(d.outcome, d.answer),
    },
  ],
  MemberRestricted: (d) => [
    {
      type: 'report_update',
      recipientId: d.userId,
      senderId: null,
      videoId: 0,
      detail: RESTRICTION_MESSAGES.notice(d.scopes, d.endsAt, d.reason),
    },
  ],
  // "Mes données": the member's own archive is ready (an administrator's, for a request by post, is not announced)
  DataExportReady: (d) =>
    d.byAdmin
      ? []
      : [
          {
            type: 'data_export',
            recipientId: d.memberId,
            senderId: null,
            videoId: 0,
            detail: DATA_EXPORT_MESSAGES.readyNotice(d.expiresAt),
          },
        ],
  // lifted on appeal: the appeal's answer says it
  MemberRestrictionLifted: (d) =>
    d.via === 'admin'
      ? [
          {
            type: 'report_update',
            recipientId: d.userId,
            senderId: null,
            videoId: 0,
            detail: RESTRICTION_MESSAGES.liftedNotice,
          },
        ]
      : [],
};

/** The French text of a notification, from the sender's pseudo. */
export const NOTIFICATION_TEXTS: Record<NotificationType, (senderPseudo: string, detail?: string) => string> = {
  follow: (p) => `${p} s'est abonné(e) à toi`,
  like: (p) => `${p} a aimé ta vidéo`,
  comment: (p) => `${p} a commenté ta vidéo`,
  message: (p) => `${p} t'a envoyé un message`,
  gift: (p, detail) => (detail ? `${p} t'a envoyé un cadeau : ${detail}` : `${p} t'a envoyé un cadeau`),
  // the detail is the whole text: a sanction message to the author, or the closing of a report to its reporter
  report_update: (_p, detail) => detail || 'Ton signalement a été mis à jour.',
  data_export: (_p, detail) => detail || 'Ton archive « Mes données » est prête.',
};

/** The notifications an event causes; nobody is notified of their own action. */
export function notificationsCausedBy(event: DomainEvent): NotificationSpec[] {
  const rule = (NOTIFICATION_RULES as Record<string, ((data: unknown) => NotificationSpec[]) | undefined>)[event.type];
  if (!rule) return [];
  return rule(event.data).filter((n) => n.recipientId !== n.senderId);
}
