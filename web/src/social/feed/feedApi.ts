import { api } from '../../api/http';
import { normalizeVideos, type Video } from '../../videos/types';
import { fetchFriendsFeed } from '../../videos/videoApi';
import { DISCOVER_PAGE_SIZE, FRIENDS_PAGE_SIZE, inTurns, type FeedPage } from './feedState';

export interface FeedPageAnswer {
  videos: Video[];
  /** the source may have more after this page */
  more: boolean;
}

/**
 * One page of "Pour toi": the friends' videos (GET /api/videos/friends-feed/:email, newest first),
 * then other members' videos (GET /api/users/with-videos, the suggestions: members the viewer does
 * not follow, each with their newest videos), taken in turns so that one member does not fill
 * several screens in a row.
 */
export async function fetchFeedPage(
  email: string,
  { source, page }: FeedPage,
  signal?: AbortSignal,
): Promise<FeedPageAnswer> {
  if (source === 'friends') {
    const videos = await fetchFriendsFeed(email, page, FRIENDS_PAGE_SIZE, signal);
    return { videos, more: videos.length >= FRIENDS_PAGE_SIZE };
  }
  const query = new URLSearchParams({ currentEmail: email, page: String(page), limit: String(DISCOVER_PAGE_SIZE) });
  const data = await api.get<unknown>(`/api/users/with-videos?${query}`, { signal });
  const members = Array.isArray(data) ? data : [];
  const lists = members.map((raw: unknown) => {
    const m = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
    const owner = {
      email: typeof m.email === 'string' ? m.email : undefined,
      pseudo: typeof m.pseudo === 'string' ? m.pseudo : undefined,
      profile_picture: typeof m.profile_picture === 'string' ? m.profile_picture : null,
    };
    return normalizeVideos(m.videos, owner);
  });
  return { videos: inTurns(lists), more: members.length >= DISCOVER_PAGE_SIZE };
}
