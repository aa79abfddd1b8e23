import { socialRoutes } from '@evo/contracts';
import { useRouteQuery } from '../api/queries';
import type { ShownQuery } from '../shell/ui/QueryState';
import type { Video } from '../videos/types';

/** How many videos the home page shows under the carousel. */
export const HOME_VIDEO_COUNT = 6;

/**
 * The videos shown on the home page: the newest of the members I follow first, then the first
 * video of each suggested member, without repeats.
 */
export function pickHomeVideos(friends: Video[], suggested: Video[], count = HOME_VIDEO_COUNT): Video[] {
  const seen = new Set<number>();
  const picked: Video[] = [];
  for (const video of [...friends, ...suggested]) {
    if (picked.length >= count) break;
    if (seen.has(video.id) || !video.file_path) continue;
    seen.add(video.id);
    picked.push(video);
  }
  return picked;
}

/**
 * The home page's videos for the session member: the friends feed's first page and the suggestions
 * (the product API calls), both from the cache (the suggestions are the /users-with-videos screen's);
 * failed if either failed, as the two are shown together.
 */
export function useHomeVideos(email: string | null): ShownQuery<Video[]> {
  const friends = useRouteQuery(socialRoutes.friendsFeed, email ? { email } : null, {
    search: { page: 1, limit: HOME_VIDEO_COUNT },
  });
  const suggestions = useRouteQuery(socialRoutes.suggestions, email ? {} : null, { search: { currentEmail: email } });
  const data =
    friends.data && suggestions.data
      ? pickHomeVideos(
          friends.data,
          suggestions.data.flatMap((user) => user.videos.slice(0, 1)),
        )
      : undefined;
  return {
    data,
    error: friends.error ?? suggestions.error,
    refetch: () =>
      Promise.all([friends.error ? friends.refetch() : null, suggestions.error ? suggestions.refetch() : null]),
  };
}
