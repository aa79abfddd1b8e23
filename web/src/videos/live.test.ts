import { describe, expect, it } from 'vitest';
import {
  conversationRoutes,
  socialRoutes,
  type CommentsAnswer,
  type CommentView,
  type ProfileAnswer,
  type SuggestedUser,
  type ViewerVideo,
} from '@evo/contracts';
import { createQueryClient, routeKey } from '../api/queries';
import { feedPagesOf } from '../social/feed/feedApi';
import { feedKey as pourToi, type FeedData } from '../social/feed/feedKey';
import { videoPushes } from './live';
import type { Video } from './types';
import { testVideo } from './testVideo';

const video = (id: number, counts: Partial<Video> = {}): ViewerVideo =>
  testVideo(id, {
    user_email: 'b@x.fr',
    email: 'b@x.fr',
    owner_email: 'b@x.fr',
    user_pseudo: 'bob',
    likes_count: 1,
    comments_count: 1,
    views_count: 5,
    duration: 3,
    created_at: '2026-01-01T00:00:00.000Z',
    ...counts,
  });

const comment = (id: number): CommentView => ({
  id,
  parent_id: null,
  user_pseudo: 'emma',
  user_profile_picture: '',
  content: `c${id}`,
  created_at: '2026-01-01T00:00:00.000Z',
});

const pageKey = (id: number) => routeKey(socialRoutes.video, { id });
const commentsKey = (id: number) => routeKey(conversationRoutes.comments, { id });
const profileKey = routeKey(socialRoutes.profile, { pseudo: 'bob' });
const suggestionsKey = routeKey(socialRoutes.suggestions, {}, { currentEmail: 'a@x.fr' });
const feedKey = routeKey(socialRoutes.friendsFeed, { email: 'a@x.fr' }, { page: 1, limit: 6 });
const pourToiKey = pourToi('a@x.fr');

function cacheWithVideos() {
  const client = createQueryClient();
  client.setQueryData(pageKey(7), video(7));
  client.setQueryData(pageKey(8), video(8));
  client.setQueryData<ProfileAnswer>(profileKey, {
    user: { pseudo: 'bob', email: 'b@x.fr', bio: '', profile_picture: '' },
    videos: [video(7), video(9)],
    next_page: null,
  });
  client.setQueryData<SuggestedUser[]>(suggestionsKey, [
    { email: 'b@x.fr', pseudo: 'bob', profile_picture: '', videos: [video(9), video(7)] },
  ]);
  client.setQueryData<ViewerVideo[]>(feedKey, [video(7)]);
  client.setQueryData<FeedData>(pourToiKey, {
    pages: [
      { videos: [video(3)], more: false },
      { videos: [video(7), video(9)], more: false },
    ],
    pageParams: [
      { source: 'friends', page: 1 },
      { source: 'discover', page: 1 },
    ],
  });
  return client;
}

describe('video pushes in the cache', () => {
  it("'comment:new' adds the comment to the video's loaded thread once, and sets its count wherever the video is", () => {
    const client = cacheWithVideos();
    client.setQueryData<CommentsAnswer>(commentsKey(7), { items: [comment(1)] });
    const pushes = videoPushes(client);
    pushes['comment:new']?.({ videoId: 7, comment: comment(2), comments_count: 2, position: '10' });
    pushes['comment:new']?.({ videoId: 7, comment: comment(2), comments_count: 2, position: '10' });

    expect(client.getQueryData<CommentsAnswer>(commentsKey(7))?.items.map((c) => c.id)).toEqual([1, 2]);
    expect(client.getQueryData<Video>(pageKey(7))?.comments_count).toBe(2);
    expect(client.getQueryData<ProfileAnswer>(profileKey)?.videos.map((v) => v.comments_count)).toEqual([2, 1]);
    const suggested = client.getQueryData<SuggestedUser[]>(suggestionsKey)?.[0].videos;
    expect(suggested?.map((v) => [v.id, v.comments_count])).toEqual([
      [9, 1],
      [7, 2],
    ]);
    expect(client.getQueryData<ViewerVideo[]>(feedKey)?.[0].comments_count).toBe(2);
    // another video is left as it was
    expect(client.getQueryData<Video>(pageKey(8))?.comments_count).toBe(1);
  });

  it("'comment:new' for a thread not loaded yet makes no partial thread (its GET will tell)", () => {
    const client = cacheWithVideos();
    videoPushes(client)['comment:new']?.({ videoId: 7, comment: comment(2), comments_count: 4, position: '10' });
    expect(client.getQueryData(commentsKey(7))).toBeUndefined();
    expect(client.getQueryData<Video>(pageKey(7))?.comments_count).toBe(4);
  });

  it("'video:counters' sets the likes and views of that video only, never below 0", () => {
    const client = cacheWithVideos();
    const profileBefore = client.getQueryData<ProfileAnswer>(profileKey);
    videoPushes(client)['video:counters']?.({ videoId: 7, likes_count: 12, views_count: -3 });
    expect(client.getQueryData<Video>(pageKey(7))).toMatchObject({ likes_count: 12, views_count: 0 });
    expect(client.getQueryData<Video>(pageKey(8))).toMatchObject({ likes_count: 1, views_count: 5 });
    const profile = client.getQueryData<ProfileAnswer>(profileKey);
    expect(profile?.videos.map((v) => v.likes_count)).toEqual([12, 1]);
    // the card of another video keeps its object (its screen does not render again)
    expect(profile?.videos[1]).toBe(profileBefore?.videos[1]);
    expect(client.getQueryData<ViewerVideo[]>(feedKey)?.[0].likes_count).toBe(12);
    // "Pour toi": the slide of that video follows, the other pages keep their objects
    const feed = client.getQueryData<FeedData>(pourToiKey);
    const slides = feedPagesOf({ data: feed, isFetching: false, isError: false }).items;
    expect(slides.map((item) => [item.video.id, item.source, item.video.likes_count])).toEqual([
      [3, 'friends', 1],
      [7, 'discover', 12],
      [9, 'discover', 1],
    ]);

    videoPushes(client)['video:counters']?.({ videoId: 9, likes_count: 3, views_count: 4 });
    expect(client.getQueryData<ProfileAnswer>(profileKey)?.videos[0]).toBe(profile?.videos[0]);
  });
});
