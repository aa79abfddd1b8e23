import type { InfiniteData, QueryKey } from '@tanstack/react-query';
import type { FeedPage, FeedPageAnswer } from './feedState';

/**
 * The cache key of a member's "Pour toi": its pages come from two routes in turn, so it is keyed by
 * the screen ('/feed') rather than by one route. Apart from feedApi.ts, so that the pushes that
 * change it (videos/live.ts, in the first page's code) do not bring the feed's code along.
 */
export const feedKey = (email?: string): QueryKey => (email === undefined ? ['/feed'] : ['/feed', { email }]);

export type FeedData = InfiniteData<FeedPageAnswer, FeedPage>;
