import { fetchSuggestions } from '../social/api';
import { fetchFriendsFeed } from '../videos/videoApi';
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

/** GET the friends feed (first page) and the suggestions (the product API calls), both for the session member. */
export async function fetchHomeVideos(email: string, signal?: AbortSignal): Promise<Video[]> {
  const [friends, suggestions] = await Promise.all([
    fetchFriendsFeed(email, 1, HOME_VIDEO_COUNT, signal),
    fetchSuggestions(email, signal),
  ]);
  return pickHomeVideos(
    friends,
    suggestions.flatMap((user) => user.videos.slice(0, 1)),
  );
}
