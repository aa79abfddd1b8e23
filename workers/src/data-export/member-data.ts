import {
  NOTIFICATION_TEXTS,
  TRANSACTION_TYPES,
  notificationIdOf,
  notificationsCausedBy,
  parseUserAccount,
  type RecordedAppEvent,
  type UserAccountKind,
} from '@evo/domain';

/**
 * What EVO holds about one member, gathered from the whole log in one pass (issue 31, "Mes
 * données"): a pure fold, no I/O. Field names are English and stable (documented in the archive's
 * README), dates ISO 8601. Other members appear by pseudo only (never their email); a member's
 * secrets (password hashes, reset links) are not data about them worth giving back and stay out.
 */

/** A media file to copy into the archive: from the file store's folder, to its path in the ZIP. */
export interface MediaFile {
  folder: 'videos' | 'posters' | 'profile_pics';
  name: string;
  /** path inside the archive */
  path: string;
}

type Json = Record<string, unknown>;

interface VideoEntry {
  video_id: number;
  title: string;
  description: string;
  uploaded_at: string;
  mime_type: string;
  size_bytes: number;
  file: string | null;
  poster: string | null;
  processing: Json;
  visibility: string;
  visibility_history: Json[];
  deleted_at: string | null;
  /** store names, resolved to archive paths when the files are found */
  source: { file: string | null; poster: string | null };
}

/** `/uploads/<folder>/<name>` or a bare name: the stored name */
const storedName = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const extOf = (name: string) => (name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : 'bin');

export class MemberDataCollector {
  private readonly pseudos = new Map<string, string>();
  private readonly videoTitles = new Map<number, string>();
  private profile: Json = {};
  private readonly history: Json[] = [];
  private readonly logins: Json[] = [];
  private readonly videos = new Map<number, VideoEntry>();
  private readonly comments: Json[] = [];
  private readonly messages: Array<Json & { other_id: string }> = [];
  private readonly conversationsDeleted: Array<Json & { other_id: string }> = [];
  private readonly likes: Json[] = [];
  private readonly favorites: Json[] = [];
  private readonly following: Array<Json & { member_id: string }> = [];
  private readonly followers: Array<Json & { member_id: string }> = [];
  private readonly reports = new Map<number, Json & { status_history: Json[] }>();
  private readonly notifications: Array<Json & { sender_id: string | null; detail?: string }> = [];
  private readonly notificationFacts: Array<{ kind: 'read' | 'deleted' | 'all_read'; id: string; at: string }> = [];
  private readonly giftsSent: Array<Json & { to_id: string }> = [];
  private readonly giftsReceived = new Map<number, Json & { from_id: string }>();
  private readonly coins: Json[] = [];
  private readonly restrictions: Json[] = [];
  private readonly appeals: Json[] = [];
  private readonly exports: Json[] = [];
  private currentFollowing = new Set<string>();
  private currentFollowers = new Set<string>();

  constructor(readonly memberId: string) {}

  add(e: RecordedAppEvent): void {
    const me = this.memberId;
    const at = e.metadata.at;
    // the notifications this fact sent the member (a projection of facts, as the read side makes them)
    for (const n of notificationsCausedBy(e))
      if (n.recipientId === me)
        this.notifications.push({
          id: notificationIdOf(e.position),
          type: n.type,
          sender_id: n.senderId,
          detail: n.detail,
          video_id: n.videoId,
          at,
        });
    switch (e.type) {
      case 'UserRegistered': {
        const d = e.data;
        this.pseudos.set(d.userId, d.pseudo);
        if (d.userId !== me) return;
        this.profile = {
          member_id: d.userId,
          email: d.email,
          pseudo: d.pseudo,
          bio: d.bio,
          profile_picture_name: d.profilePicture,
          registered_at: at,
          is_admin: false,
        };
        this.history.push({ event: 'registered', at });
        return;
      }
      case 'ProfileUpdated':
        if (e.data.userId !== me) return;
        this.profile = { ...this.profile, bio: e.data.bio, profile_picture_name: e.data.profilePicture };
        this.history.push({
          event: 'profile_updated',
          at,
          bio: e.data.bio,
          profile_picture_name: e.data.profilePicture,
        });
        return;
      case 'AdminRoleGranted':
      case 'AdminRoleRevoked':
        if (e.data.userId !== me) return;
        this.profile = { ...this.profile, is_admin: e.type === 'AdminRoleGranted' };
        this.history.push({ event: e.type === 'AdminRoleGranted' ? 'admin_role_granted' : 'admin_role_revoked', at });
        return;
      case 'PasswordChanged':
        if (e.data.userId === me) this.history.push({ event: 'password_changed', at });
        return;
      case 'PasswordResetIssued':
        if (e.data.userId === me)
          this.history.push({
            event: 'password_reset_link_issued',
            at,
            issued_by: e.data.issuedBy === 'admin' ? 'administrator' : 'member',
            expires_at: e.data.expiresAt,
          });
        return;
      case 'PasswordResetUsed':
        if (e.data.userId === me) this.history.push({ event: 'password_reset_link_used', at });
        return;
      case 'LoginLockCleared':
        if (e.data.userId === me) this.history.push({ event: 'failed_logins_cleared', at, failures: e.data.failures });
        return;
      case 'UserLoggedIn':
        if (e.data.userId === me) this.logins.push({ at });
        return;
      case 'VideoUploaded': {
        const d = e.data;
        this.videoTitles.set(d.videoId, d.title);
        if (d.ownerId !== me) return;
        this.videos.set(d.videoId, {
          video_id: d.videoId,
          title: d.title,
          description: d.description,
          uploaded_at: at,
          mime_type: d.mimeType,
          size_bytes: d.sizeBytes,
          file: null,
          poster: null,
          processing: { status: 'pending' },
          visibility: 'publique',
          visibility_history: [],
          deleted_at: null,
          source: { file: storedName(d.filePath), poster: null },
        });
        return;
      }
      case 'VideoProcessed': {
        const v = this.videos.get(e.data.videoId);
        if (!v) return;
        const d = e.data;
        v.processing = {
          status: 'processed',
          at,
          duration_seconds: d.durationSeconds,
          codec: d.codec,
          width: d.width,
          height: d.height,
        };
        v.source.poster = d.posterPath ? storedName(d.posterPath) : null;
        return;
      }
      case 'VideoRejected':
      case 'VideoProcessingFailed': {
        const v = this.videos.get(e.data.videoId);
        if (v) v.processing = { status: e.type === 'VideoRejected' ? 'rejected' : 'failed', at, reason: e.data.reason };
        return;
      }
      case 'VideoVisibilityChanged': {
        const v = this.videos.get(e.data.videoId);
        if (!v) return;
        v.visibility = e.data.status;
        v.visibility_history.push({
          status: e.data.status,
          at,
          by: e.data.changedBy === me ? 'member' : 'administrator',
          reason: e.data.reason ?? null,
        });
        return;
      }
      case 'VideoDeleted': {
        const v = this.videos.get(e.data.videoId);
        if (!v) return;
        v.visibility = 'supprimée';
        v.deleted_at = at;
        v.visibility_history.push({
          status: 'supprimée',
          at,
          by: e.data.deletedBy === me ? 'member' : 'administrator',
          reason: e.data.reason ?? null,
        });
        return;
      }
      case 'CommentPosted':
        if (e.data.authorId === me)
          this.comments.push({
            comment_id: e.data.commentId,
            video_id: e.data.videoId,
            video_title: this.videoTitles.get(e.data.videoId) ?? null,
            is_reply: e.data.parentId !== null,
            parent_comment_id: e.data.parentId,
            content: e.data.content,
            posted_at: at,
          });
        break;
      case 'MessageSent': {
        const d = e.data;
        if (d.senderId !== me && d.receiverId !== me) break;
        const sent = d.senderId === me;
        this.messages.push({
          message_id: d.messageId,
          direction: sent ? 'sent' : 'received',
          other_id: sent ? d.receiverId : d.senderId,
          content: d.content,
          sent_at: at,
        });
        return;
      }
      case 'ConversationDeleted':
        if (e.data.userId === me)
          this.conversationsDeleted.push({ other_id: e.data.otherId, up_to_message_id: e.data.upToMessageId, at });
        return;
      case 'VideoLiked':
      case 'VideoUnliked':
        if (e.data.userId === me)
          this.likes.push(this.videoLine(e.data.videoId, e.type === 'VideoLiked' ? 'liked' : 'unliked', at));
        break;
      case 'VideoFavorited':
      case 'VideoUnfavorited':
        if (e.data.userId === me)
          this.favorites.push(this.videoLine(e.data.videoId, e.type === 'VideoFavorited' ? 'added' : 'removed', at));
        return;
      case 'UserFollowed':
      case 'UserUnfollowed': {
        const { followerId, followeeId } = e.data;
        const action = e.type === 'UserFollowed' ? 'followed' : 'unfollowed';
        /** a line of the member's follows (or followers), and whom they follow (or who follows them) now */
        const record = (lines: Array<Json & { member_id: string }>, now: Set<string>, memberId: string) => {
          lines.push({ member_id: memberId, action, at });
          if (action === 'followed') now.add(memberId);
          else now.delete(memberId);
        };
        if (followerId === me) record(this.following, this.currentFollowing, followeeId);
        if (followeeId === me) record(this.followers, this.currentFollowers, followerId);
        break;
      }
      case 'VideoReported':
        if (e.data.reporterId === me)
          this.reports.set(e.data.reportId, {
            report_id: e.data.reportId,
            video_id: e.data.videoId,
            video_title: this.videoTitles.get(e.data.videoId) ?? null,
            reason: e.data.reason,
            reported_at: at,
            status_history: [],
          });
        break;
      case 'ReportStatusChanged': {
        const r = e.data.reporterId === me ? this.reports.get(e.data.reportId) : undefined;
        if (r && e.data.status !== e.data.previousStatus) r.status_history.push({ status: e.data.status, at });
        break;
      }
      case 'NotificationRead':
      case 'NotificationDeleted':
        if (e.data.userId === me)
          this.notificationFacts.push({
            kind: e.type === 'NotificationRead' ? 'read' : 'deleted',
            id: String(e.data.notificationId),
            at,
          });
        return;
      case 'AllNotificationsRead':
        if (e.data.userId === me)
          this.notificationFacts.push({ kind: 'all_read', id: String(e.data.upToNotificationId), at });
        return;
      case 'CoinsPurchased':
      case 'CoinsAdded':
      case 'CoinsWithdrawn':
      case 'GiftSent':
      case 'GiftReceived':
      case 'GiftClaimed':
      case 'GiftsConverted':
      case 'WalletClosed':
      case 'GiftForfeited':
        if (e.data.userId === me) this.addMovement(e, at);
        break;
      case 'MemberRestricted':
        if (e.data.userId === me)
          this.restrictions.push({
            restriction_no: e.data.restrictionNo,
            scopes: e.data.scopes,
            ends_at: e.data.endsAt,
            reason: e.data.reason,
            at: e.data.at,
            lifted_at: null,
          });
        break;
      case 'MemberRestrictionLifted': {
        const r =
          e.data.userId === me ? this.restrictions.find((x) => x.restriction_no === e.data.restrictionNo) : null;
        if (r) r.lifted_at = e.data.at;
        break;
      }
      case 'DecisionAppealed':
        if (e.data.subjectId === me)
          this.appeals.push({ decision_id: e.data.decisionId, text: e.data.text, at: e.data.at, outcome: null });
        break;
      case 'AppealAnswered': {
        const a = e.data.subjectId === me ? this.appeals.find((x) => x.decision_id === e.data.decisionId) : null;
        if (a) Object.assign(a, { outcome: e.data.outcome, answer: e.data.answer, answered_at: e.data.at });
        break;
      }
      case 'DataExportRequested':
        if (e.data.memberId === me)
          this.exports.push({
            export_id: e.data.exportId,
            requested_at: e.data.at,
            by: e.data.byAdmin ? 'administrator' : 'member',
          });
        break;
      default:
        break;
    }
  }

  /** A line of the member's likes or favourites: the video, its title as it stood, what they did. */
  private videoLine(videoId: number, action: string, at: string): Json {
    return { video_id: videoId, video_title: this.videoTitles.get(videoId) ?? null, action, at };
  }

  private addMovement(e: Extract<RecordedAppEvent, { data: { postings: unknown } }>, at: string): void {
    const changes: Record<UserAccountKind, number> = { balance: 0, bonus: 0, earnings: 0, gifts: 0 };
    for (const p of e.data.postings) {
      const credit = parseUserAccount(p.credit);
      const debit = parseUserAccount(p.debit);
      if (credit?.userId === this.memberId) changes[credit.kind] += p.amount;
      if (debit?.userId === this.memberId) changes[debit.kind] -= p.amount;
    }
    const after = e.data.after;
    const spendable = after.balance + (after.bonus ?? 0) + (after.earnings ?? 0);
    const d = e.data as Record<string, unknown>;
    this.coins.push({
      // a closing has no transaction id of its own
      transaction_id: 'txId' in e.data ? e.data.txId : ((d.giftId as number | undefined) ?? null),
      type: TRANSACTION_TYPES[e.type],
      at,
      /** change of the coins the member may spend (balance + bonus + earnings) */
      amount: changes.balance + changes.bonus + changes.earnings,
      account_changes: changes,
      balance_after: {
        spendable,
        bought: after.balance,
        bonus: after.bonus ?? 0,
        withdrawable: after.earnings ?? 0,
        gifts_unclaimed: after.gifts,
      },
      ...(e.type === 'CoinsPurchased'
        ? { pack_id: e.data.packId, price_cents: e.data.priceCents, payment_ref: e.data.paymentRef }
        : {}),
      ...(e.type === 'CoinsWithdrawn' ? { value_cents: e.data.valueCents ?? null } : {}),
    });
    if (e.type === 'GiftSent')
      this.giftsSent.push({
        gift_id: e.data.giftId,
        gift: e.data.name,
        emoji: e.data.emoji,
        coins: e.data.coinCost,
        to_id: e.data.receiverId,
        sent_at: at,
      });
    if (e.type === 'GiftReceived')
      this.giftsReceived.set(e.data.giftId, {
        gift_id: e.data.giftId,
        gift: e.data.name,
        emoji: e.data.emoji,
        coins: e.data.coinCost,
        fee: e.data.fee,
        credited: e.data.amount,
        from_id: e.data.senderId,
        sent_at: e.data.sentAt,
        received_at: at,
        claimed_at: null,
      });
    if (e.type === 'GiftClaimed') {
      const g = this.giftsReceived.get(e.data.giftId);
      if (g) g.claimed_at = at;
    }
    if (e.type === 'GiftsConverted')
      for (const id of e.data.giftIds) {
        const g = this.giftsReceived.get(id);
        if (g) g.claimed_at = at;
      }
  }

  /** The member was found in the log (registered). */
  get found(): boolean {
    return this.profile.member_id !== undefined;
  }

  /** The media files the archive should hold (those still stored are copied; see `files`). */
  media(): MediaFile[] {
    const out: MediaFile[] = [];
    const pic = this.profile.profile_picture_name;
    if (typeof pic === 'string') out.push({ folder: 'profile_pics', name: pic, path: `media/profile/${pic}` });
    for (const v of this.videos.values()) {
      if (v.source.file)
        out.push({ folder: 'videos', name: v.source.file, path: `media/videos/${v.video_id}.${extOf(v.source.file)}` });
      if (v.source.poster)
        out.push({
          folder: 'posters',
          name: v.source.poster,
          path: `media/posters/${v.video_id}.${extOf(v.source.poster)}`,
        });
    }
    return out;
  }

  /**
   * The JSON files of the archive, by name. `stored`: the archive paths of the media files found
   * in the file store (the others are named null: removed, or never stored).
   */
  files(stored: ReadonlySet<string>, exportedAt: Date): Record<string, unknown> {
    const pseudo = (id: string | null) => (id === null ? null : (this.pseudos.get(id) ?? null));
    const media = new Map(this.media().map((m) => [`${m.folder}/${m.name}`, m.path]));
    const pathIf = (folder: string, name: string | null) => {
      const p = name ? media.get(`${folder}/${name}`) : undefined;
      return p && stored.has(p) ? p : null;
    };
    const readIds = new Set(this.notificationFacts.filter((f) => f.kind === 'read').map((f) => f.id));
    const deletedIds = new Set(this.notificationFacts.filter((f) => f.kind === 'deleted').map((f) => f.id));
    const allReadUpTo = this.notificationFacts
      .filter((f) => f.kind === 'all_read')
      .reduce((m, f) => (BigInt(f.id) > m ? BigInt(f.id) : m), 0n);
    const pic = typeof this.profile.profile_picture_name === 'string' ? this.profile.profile_picture_name : null;
    return {
      'profile.json': {
        ...this.profile,
        profile_picture: pathIf('profile_pics', pic),
        history: this.history,
        exported_at: exportedAt.toISOString(),
      },
      'logins.json': { logins: this.logins },
      'videos.json': [...this.videos.values()].map(({ source, ...v }) => ({
        ...v,
        file: pathIf('videos', source.file),
        poster: pathIf('posters', source.poster),
      })),
      'comments.json': this.comments,
      'messages.json': {
        messages: this.messages.map(({ other_id, ...m }) => ({ ...m, other_member: pseudo(other_id) })),
        conversations_deleted: this.conversationsDeleted.map(({ other_id, ...c }) => ({
          ...c,
          other_member: pseudo(other_id),
        })),
      },
      'likes.json': this.likes,
      'favorites.json': this.favorites,
      'follows.json': {
        following: [...this.currentFollowing].map(pseudo),
        followers: [...this.currentFollowers].map(pseudo),
        following_history: this.following.map(({ member_id, ...f }) => ({ ...f, member: pseudo(member_id) })),
        followers_history: this.followers.map(({ member_id, ...f }) => ({ ...f, member: pseudo(member_id) })),
      },
      'reports.json': [...this.reports.values()],
      'notifications.json': this.notifications.map(({ sender_id, detail, ...n }) => ({
        ...n,
        sender: pseudo(sender_id),
        message: NOTIFICATION_TEXTS[n.type as keyof typeof NOTIFICATION_TEXTS](pseudo(sender_id) ?? 'EVO', detail),
        read: readIds.has(n.id as string) || BigInt(n.id as string) <= allReadUpTo,
        deleted: deletedIds.has(n.id as string),
      })),
      'gifts.json': {
        sent: this.giftsSent.map(({ to_id, ...g }) => ({ ...g, to: pseudo(to_id) })),
        received: [...this.giftsReceived.values()].map(({ from_id, ...g }) => ({ ...g, from: pseudo(from_id) })),
      },
      'coins.json': this.coins,
      'moderation.json': { restrictions: this.restrictions, appeals: this.appeals },
      'data-exports.json': this.exports,
    };
  }
}
