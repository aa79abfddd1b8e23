import { fetchSuggestions } from '../api';
import type { Video } from '../../videos/types';
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
  const members = await fetchSuggestions(email, signal, { page, limit: DISCOVER_PAGE_SIZE });
  const lists = members.map((m) => m.videos);
  return { videos: inTurns(lists), more: members.length >= DISCOVER_PAGE_SIZE };
}
