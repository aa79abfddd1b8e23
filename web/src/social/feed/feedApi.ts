import { infiniteQueryOptions, type QueryKey } from '@tanstack/react-query';
import { socialRoutes } from '@evo/contracts';
import { fetchRoute } from '../../api/queries';
import {
  DISCOVER_PAGE_SIZE,
  FRIENDS_PAGE_SIZE,
  inTurns,
  listedItems,
  pageAfter,
  type FeedPage,
  type FeedPageAnswer,
  type FeedPages,
} from './feedState';
import { feedKey, type FeedData } from './feedKey';

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
    const videos = await fetchRoute(socialRoutes.friendsFeed, { email }, { page, limit: FRIENDS_PAGE_SIZE }, signal);
    return { videos, more: videos.length >= FRIENDS_PAGE_SIZE };
  }
  const members = await fetchRoute(
    socialRoutes.suggestions,
    {},
    { currentEmail: email, page, limit: DISCOVER_PAGE_SIZE },
    signal,
  );
  return { videos: inTurns(members.map((m) => m.videos)), more: members.length >= DISCOVER_PAGE_SIZE };
}

const FIRST_PAGE: FeedPage = { source: 'friends', page: 1 };

/**
 * The feed's pages in the cache, asked one at a time as the member nears the end. Dropped when the
 * screen goes (each visit starts from the newest videos, as the member expects of a feed).
 */
export const feedQuery = (email: string) =>
  infiniteQueryOptions<FeedPageAnswer, Error, FeedData, QueryKey, FeedPage>({
    queryKey: feedKey(email),
    queryFn: ({ pageParam, signal }) => fetchFeedPage(email, pageParam, signal),
    initialPageParam: FIRST_PAGE,
    getNextPageParam: (last, _all, asked) => pageAfter(asked, last),
    gcTime: 0,
  });

/** What the screen reports to the feed's reducer of what the cache holds. */
export function feedPagesOf(query: { data: FeedData | undefined; isFetching: boolean; isError: boolean }): FeedPages {
  const { data, isFetching, isError } = query;
  const count = data?.pages.length ?? 0;
  const next = data && count > 0 ? pageAfter(data.pageParams[count - 1], data.pages[count - 1]) : FIRST_PAGE;
  const failed = isError && !isFetching;
  return {
    items: data ? listedItems(data.pages, data.pageParams) : [],
    next,
    loading: isFetching,
    failed,
    failedSource: failed ? (next?.source ?? 'friends') : null,
  };
}
