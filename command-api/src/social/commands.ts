import {
  ADMIN_ROLE,
  favoritesDecider,
  favoritesStream,
  followDecider,
  followingStream,
  isFavorite,
  likeDecider,
  likeStream,
  videoDecider,
  videoStream,
  viewDecider,
  viewStream,
  type LogPosition,
  type VideoState,
} from '@evo/domain';
import { handleCommand, loadState, type CommandContext, type EventStore } from '@evo/infra';
import { loadMember } from '../identity/members';

export const loadVideo = async (events: EventStore, videoId: number): Promise<VideoState> =>
  (await loadState(events, videoStream(videoId), videoDecider)).state;

/** Follow (idempotent) or unfollow (no-op when not following). */
export async function setFollowing(
  events: EventStore,
  followerId: string,
  followeeId: string,
  follow: boolean,
  ctx: CommandContext,
) {
  const type = follow ? ('Follow' as const) : ('Unfollow' as const);
  return handleCommand(
    events,
    followingStream(followerId),
    followDecider,
    { type, followerId, followeeId, now: ctx.now },
    ctx,
  );
}

/** Like (a second like is a no-op) or unlike; the video must be available. */
export async function setLike(events: EventStore, userId: string, videoId: number, like: boolean, ctx: CommandContext) {
  const video = await loadVideo(events, videoId);
  const type = like ? ('Like' as const) : ('Unlike' as const);
  return handleCommand(
    events,
    likeStream(videoId, userId),
    likeDecider,
    { type, videoId, userId, video, now: ctx.now },
    ctx,
  );
}

/** One card display: counts once per member, video and VIEW_WINDOW_MS (`view-<videoId>-<viewerId>`). */
export async function recordView(
  events: EventStore,
  viewerId: string,
  videoId: number,
  ctx: CommandContext,
): Promise<LogPosition | undefined> {
  const video = await loadVideo(events, videoId);
  return (
    await handleCommand(
      events,
      viewStream(videoId, viewerId),
      viewDecider,
      { type: 'ViewVideo', viewerId, video, now: ctx.now },
      ctx,
    )
  ).position;
}

export async function toggleFavorite(events: EventStore, userId: string, videoId: number, ctx: CommandContext) {
  const video = await loadVideo(events, videoId);
  const r = await handleCommand(
    events,
    favoritesStream(userId),
    favoritesDecider,
    { type: 'ToggleFavorite', userId, videoId, video },
    ctx,
  );
  return { favorited: isFavorite(r.state, videoId), position: r.position };
}

/** Soft delete by the owner or an administrator (the role from the requester's own stream). */
export async function deleteVideo(events: EventStore, requesterId: string, videoId: number, ctx: CommandContext) {
  const requester = await loadMember(events, requesterId);
  const requesterIsAdmin = requester?.role === ADMIN_ROLE;
  return handleCommand(
    events,
    videoStream(videoId),
    videoDecider,
    { type: 'DeleteVideo', videoId, requesterId, requesterIsAdmin, now: ctx.now },
    ctx,
  );
}
