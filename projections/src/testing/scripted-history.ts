import { randomUUID } from 'node:crypto';
import {
  REPORT_SEQUENCE,
  decideView,
  favoritesDecider,
  favoritesStream,
  followDecider,
  followingStream,
  likeDecider,
  likeStream,
  reportClaimDecider,
  reportClaimStream,
  reservationDecider,
  reservationStream,
  userDecider,
  userStream,
  videoDecider,
  videoStream,
  viewsStream,
} from '@evo/domain';
import { IdBlocks, handleCommand, loadState, toNewEvents, type EventStore, type IdAllocator } from '@evo/infra';
import { writeCommentsAndMessagesHistory } from './comments-messaging-history';
import { writeAdminHistory } from './admin-history';
import { commandAt, registerMember } from './member-commands';

const ctx = (userId?: string, at = new Date('2026-03-01T10:00:00Z')) => commandAt(userId, at);

/**
 * A small but varied history written through the real deciders and command loop: members,
 * claims, logins, admin grants and revocations, uploads, processing and rejections; then the
 * social facts (see `writeSocialHistory`), comments and messages, then the administrators' and coin
 * facts (see `writeAdminHistory`). Its numeric ids come from `ids` (by default an allocator of its
 * own, as another process would have).
 */
export async function writeScriptedHistory(
  events: EventStore,
  members = 5,
  prefix = 'membre',
  ids: IdAllocator = new IdBlocks(events),
): Promise<{ userIds: string[]; videoIds: number[] }> {
  const userIds: string[] = [];
  const videoIds: number[] = [];
  /** each member's first video */
  const firstVideos: number[] = [];
  for (let i = 0; i < members; i++) {
    const userId = randomUUID();
    const at = new Date(Date.UTC(2026, 2, 1 + i, 9));
    for (const [kind, value] of [
      ['pseudo', `${prefix}${i}`],
      ['email', `${prefix}${i}@test.fr`],
    ] as const) {
      await handleCommand(
        events,
        reservationStream(kind, value),
        reservationDecider,
        { type: 'Reserve', kind, value, userId, now: at, ownerRegistered: false },
        ctx(userId, at),
      );
    }
    await registerMember(
      events,
      {
        userId,
        email: `${prefix}${i}@test.fr`,
        pseudo: `${prefix[0].toUpperCase()}${prefix.slice(1)}${i}`,
        bio: `Bio ${i} é`,
        profilePicture: 'default.png',
      },
      ctx(userId, at),
    );
    userIds.push(userId);
    for (let v = 0; v <= i % 3; v++) {
      const videoId = await ids.next('video', ctx(userId, at));
      const data = {
        videoId,
        ownerId: userId,
        title: `Vidéo ${i}.${v}`,
        description: '',
        filePath: `/uploads/videos/${videoId}.mp4`,
        mimeType: 'video/mp4',
        sizeBytes: 1000,
      };
      await handleCommand(
        events,
        videoStream(videoId),
        videoDecider,
        { type: 'UploadVideo', ...data },
        ctx(userId, new Date(at.getTime() + v * 60_000)),
      );
      videoIds.push(videoId);
      if (v === 0) firstVideos.push(videoId);
      const outcome =
        v === 1
          ? ({ type: 'RejectVideo', videoId, reason: 'Illisible' } as const)
          : ({
              type: 'RecordProcessing',
              videoId,
              durationSeconds: 4 + v,
              sizeBytes: 1000,
              codec: 'h264',
              width: 360,
              height: 640,
              posterPath: `/uploads/posters/${videoId}.jpg`,
            } as const);
      await handleCommand(events, videoStream(videoId), videoDecider, outcome, ctx());
    }
    for (let l = 0; l < i; l++)
      await handleCommand(
        events,
        userStream(userId),
        userDecider,
        { type: 'RecordLogin', userId },
        ctx(userId, new Date(at.getTime() + l * 3_600_000)),
      );
  }
  await handleCommand(events, userStream(userIds[0]), userDecider, { type: 'GrantAdmin', userId: userIds[0] }, ctx());
  await handleCommand(events, userStream(userIds[1]), userDecider, { type: 'GrantAdmin', userId: userIds[1] }, ctx());
  await handleCommand(events, userStream(userIds[1]), userDecider, { type: 'RevokeAdmin', userId: userIds[1] }, ctx());
  const written: MembersWritten = { events, ids, userIds, videoIds, firstVideos };
  await writeSocialHistory(written);
  await writeCommentsAndMessagesHistory(written);
  await writeAdminHistory(written);
  return { userIds, videoIds };
}

/** The members and videos the scripted history wrote first, which its later parts act on. */
export interface MembersWritten {
  events: EventStore;
  ids: IdAllocator;
  userIds: string[];
  videoIds: number[];
  /** each member's first video */
  firstVideos: number[];
}

/**
 * Follows (twice, unfollow, follow again), likes (again, unlike, like again), views, favourite
 * toggles, reports, and deletions by an owner and by an administrator (userIds[0]) of videos that
 * were liked, viewed, favourited and reported. Member 2's videos are never deleted.
 */
async function writeSocialHistory({ events, ids, userIds, firstVideos }: MembersWritten): Promise<void> {
  const n = userIds.length;
  if (n < 2) return;
  const at = (minutes: number) => new Date(Date.UTC(2026, 3, 1, 8) + minutes * 60_000);
  let minute = 0;
  const c = (userId: string) => ctx(userId, at(minute++));
  const follow = (a: number, b: number, type: 'Follow' | 'Unfollow' = 'Follow') => {
    const cx = c(userIds[a]);
    return handleCommand(
      events,
      followingStream(userIds[a]),
      followDecider,
      { type, followerId: userIds[a], followeeId: userIds[b], now: cx.now },
      cx,
    );
  };
  const video = async (videoId: number) => (await loadState(events, videoStream(videoId), videoDecider)).state;
  const like = async (u: number, videoId: number, type: 'Like' | 'Unlike' = 'Like') => {
    const cx = c(userIds[u]);
    return handleCommand(
      events,
      likeStream(videoId, userIds[u]),
      likeDecider,
      { type, videoId, userId: userIds[u], video: await video(videoId), now: cx.now },
      cx,
    );
  };
  const view = async (u: number, videoId: number) => {
    const stream = viewsStream(videoId);
    await events.append(
      stream,
      toNewEvents(decideView(await video(videoId), userIds[u]), stream, c(userIds[u])),
      'any',
    );
  };
  const favorite = async (u: number, videoId: number) =>
    handleCommand(
      events,
      favoritesStream(userIds[u]),
      favoritesDecider,
      { type: 'ToggleFavorite', userId: userIds[u], videoId, video: await video(videoId) },
      c(userIds[u]),
    );
  const report = async (u: number, videoId: number, reason: string) => {
    const reportId = await ids.next(REPORT_SEQUENCE, c(userIds[u]));
    const command = {
      type: 'ReportVideo' as const,
      reportId,
      videoId,
      reporterId: userIds[u],
      reason,
      video: await video(videoId),
    };
    await handleCommand(events, reportClaimStream(videoId, userIds[u]), reportClaimDecider, command, c(userIds[u]));
  };
  const remove = async (u: number, videoId: number, requesterIsAdmin = false) => {
    const cx = c(userIds[u]);
    return handleCommand(
      events,
      videoStream(videoId),
      videoDecider,
      { type: 'DeleteVideo', videoId, requesterId: userIds[u], requesterIsAdmin, now: cx.now },
      cx,
    );
  };

  for (let i = 0; i < n; i++) {
    const next = (i + 1) % n;
    await follow(i, next);
    await follow(i, next); // no-op
    if (n > 2) await follow(i, (i + 2) % n);
    await like(i, firstVideos[next]);
    await like(i, firstVideos[next]); // no-op
    await view(i, firstVideos[next]);
    await view(i, firstVideos[next]);
    await favorite(i, firstVideos[next]);
    await report(i, firstVideos[next], i % 2 === 0 ? 'Contenu choquant' : 'Non spécifié');
  }
  await follow(0, 1, 'Unfollow');
  await follow(0, 1, 'Unfollow'); // no-op
  await follow(0, 1);
  const other = firstVideos[n > 2 ? 2 : 1];
  await like(0, other, 'Unlike');
  await like(0, other);
  await like(0, other, 'Unlike');
  await favorite(0, other);
  await favorite(0, other);
  await view(0, other);
  // owner deletes a liked, viewed, favourited and reported video; an administrator deletes another
  await remove(1, firstVideos[1]);
  if (n >= 5) await remove(0, firstVideos[4], true);
  if (n > 3) await follow(3, 4 % n, 'Unfollow');
}
