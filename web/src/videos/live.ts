import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { conversationRoutes, socialRoutes, type CommentView } from '@evo/contracts';
import { updateRoute } from '../api/queries';
import { feedKey, type FeedData } from '../social/feed/feedKey';
import { useSocketEvents, type PushHandlers } from '../shell/socket';
import type { Video } from './types';

/** What a push or the member's own like or favourite changes of a video. */
export type VideoCounters = Partial<
  Pick<Video, 'likes_count' | 'views_count' | 'comments_count' | 'liked_by_me' | 'favorited_by_me'>
>;

const patched = <V extends Video>(videos: V[], id: number, counters: VideoCounters): V[] =>
  videos.some((v) => v.id === id) ? videos.map((v) => (v.id === id ? { ...v, ...counters } : v)) : videos;

/**
 * Changes a video's counters (or the member's like and favourite) wherever the cache holds it: its
 * page, the profiles' and the suggestions' cards, the friends' feed (home and "Pour toi"). An answer
 * not loaded is left alone.
 */
export function updateVideoCounters(client: QueryClient, id: number, counters: VideoCounters): void {
  updateRoute(client, socialRoutes.video, { id }, (video) => ({ ...video, ...counters }));
  updateRoute(client, socialRoutes.profile, undefined, (profile) => {
    const videos = patched(profile.videos, id, counters);
    return videos === profile.videos ? profile : { ...profile, videos };
  });
  updateRoute(client, socialRoutes.suggestions, undefined, (users) =>
    users.map((user) => {
      const videos = patched(user.videos, id, counters);
      return videos === user.videos ? user : { ...user, videos };
    }),
  );
  updateRoute(client, socialRoutes.friendsFeed, undefined, (videos) => patched(videos, id, counters));
  client.setQueriesData<FeedData>({ queryKey: feedKey() }, (feed) =>
    feed === undefined
      ? feed
      : {
          ...feed,
          pages: feed.pages.map((page) => {
            const videos = patched(page.videos, id, counters);
            return videos === page.videos ? page : { ...page, videos };
          }),
        },
  );
}

/** A new comment at the end of a video's loaded thread (oldest first), once. */
export function addComment(client: QueryClient, videoId: number, comment: CommentView): void {
  updateRoute(client, conversationRoutes.comments, { id: videoId }, (answer) =>
    answer.items.some((c) => c.id === comment.id) ? answer : { ...answer, items: [...answer.items, comment] },
  );
}

/**
 * What the video pushes (to the room of a video on screen, see useSocketRoom) change in the cache:
 * 'comment:new' adds the comment to the thread and sets the video's comment count,
 * 'video:counters' its likes and views. Counters never go below 0.
 */
export const videoPushes = (client: QueryClient): PushHandlers => ({
  'comment:new': ({ videoId, comment, comments_count }) => {
    addComment(client, videoId, comment);
    updateVideoCounters(client, videoId, { comments_count: Math.max(0, comments_count) });
  },
  'video:counters': ({ videoId, likes_count, views_count }) => {
    const counters: VideoCounters = {};
    if (typeof likes_count === 'number') counters.likes_count = Math.max(0, likes_count);
    if (typeof views_count === 'number') counters.views_count = Math.max(0, views_count);
    updateVideoCounters(client, Number(videoId), counters);
  },
});

/** Mounted once, by the shell, for the logged-in member. */
export function VideosLive() {
  useSocketEvents(videoPushes(useQueryClient()));
  return null;
}
