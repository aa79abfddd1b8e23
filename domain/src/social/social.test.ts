import { describe, expect, it } from 'vitest';
import { given } from '../shared/given-when-then';
import { fold } from '../shared/decider';
import { VIDEO_MESSAGES, videoDecider, type VideoState } from '../videos/video-decider';
import type { VideoDeleted, VideoEvent } from '../videos/events';
import type { FavoriteEvent, FollowEvent, LikeEvent } from './events';
import { followDecider } from './follow-decider';
import { likeDecider } from './like-decider';
import { favoritesDecider, isFavorite } from './favorites-decider';
import { decideView, viewDecider } from './views';
import { notificationsCausedBy } from '../notifications/notification-rules';
import {
  NOTIFICATION_WINDOW_MS,
  SOCIAL_MESSAGES,
  VIEW_WINDOW_MS,
  followingStream,
  likeStream,
  viewStream,
} from './rules';
import { videoUploaded } from '../videos/testing';

const uploaded = videoUploaded();
const deleted: VideoDeleted = { type: 'VideoDeleted', data: { videoId: 7, ownerId: 'owner', deletedBy: 'owner' } };
const rejected: VideoEvent = { type: 'VideoRejected', data: { videoId: 7, reason: 'Illisible' } };
const videoOf = (...events: Array<VideoEvent | VideoDeleted>): VideoState => fold(videoDecider, events);
const live = videoOf(uploaded);
const unknown = videoOf();
const gone = videoOf(uploaded, deleted);

const T0 = new Date('2026-03-01T10:00:00.000Z');
const later = (ms: number) => new Date(T0.getTime() + ms);
const HOUR = 3600_000;

describe('follow decider', () => {
  const followed = (at = T0, notify = true): FollowEvent => ({
    type: 'UserFollowed',
    data: { followerId: 'a', followeeId: 'b', notify, at: at.toISOString() },
  });
  const unfollowed: FollowEvent = { type: 'UserUnfollowed', data: { followerId: 'a', followeeId: 'b' } };
  const follow = (now = T0, followeeId = 'b') => ({ type: 'Follow' as const, followerId: 'a', followeeId, now });
  const unfollow = { type: 'Unfollow' as const, followerId: 'a', followeeId: 'b', now: T0 };

  it('follows a member, notifying them', () => {
    given(followDecider).when(follow()).then([followed()]);
  });
  it('following twice appends nothing', () => {
    given(followDecider, [followed()])
      .when(follow(later(1000)))
      .then([]);
  });
  it('nobody follows themselves', () => {
    given(followDecider).when(follow(T0, 'a')).thenThrows(SOCIAL_MESSAGES.selfFollow, 'invalid');
  });
  it('unfollows a followed member', () => {
    given(followDecider, [followed()]).when(unfollow).then([unfollowed]);
  });
  it('unfollowing someone not followed is a no-op', () => {
    given(followDecider).when(unfollow).then([]);
    given(followDecider, [followed(), unfollowed]).when(unfollow).then([]);
  });
  it('follows again after an unfollow: silently within the notification window, notifying after it', () => {
    given(followDecider, [followed(), unfollowed])
      .when(follow(later(HOUR)))
      .then([followed(later(HOUR), false)]);
    // a silent follow does not restart the window: it runs from the last notifying one
    given(followDecider, [followed(), unfollowed, followed(later(HOUR), false), unfollowed])
      .when(follow(later(NOTIFICATION_WINDOW_MS)))
      .then([followed(later(NOTIFICATION_WINDOW_MS))]);
  });
  it('a follow written before the window existed (no notify, no at) lets the next one notify', () => {
    const legacy: FollowEvent = { type: 'UserFollowed', data: { followerId: 'a', followeeId: 'b' } };
    given(followDecider, [legacy, unfollowed])
      .when(follow(later(1000)))
      .then([followed(later(1000))]);
  });
  it('keeps the other follows apart', () => {
    const other: FollowEvent = {
      type: 'UserFollowed',
      data: { followerId: 'a', followeeId: 'c', notify: true, at: T0.toISOString() },
    };
    given(followDecider, [other]).when(follow()).then([followed()]);
    expect([...fold(followDecider, [other, followed(), unfollowed]).following]).toEqual(['c']);
    expect(followingStream('a')).toBe('following-a');
  });
  it('notifies the followee only when the follow says so', () => {
    expect(notificationsCausedBy(followed())).toEqual([
      { type: 'follow', recipientId: 'b', senderId: 'a', videoId: 0 },
    ]);
    expect(notificationsCausedBy(followed(T0, false))).toEqual([]);
  });
});

describe('like decider', () => {
  const liked = (at = T0, notify = true): LikeEvent => ({
    type: 'VideoLiked',
    data: { videoId: 7, userId: 'u', ownerId: 'owner', notify, at: at.toISOString() },
  });
  const unliked: LikeEvent = { type: 'VideoUnliked', data: { videoId: 7, userId: 'u', ownerId: 'owner' } };
  const like = (now = T0, video = live) => ({ type: 'Like' as const, videoId: 7, userId: 'u', video, now });
  const unlike = (video = live) => ({ type: 'Unlike' as const, videoId: 7, userId: 'u', video, now: T0 });

  it('likes a video, with its owner, notifying them', () => {
    given(likeDecider).when(like()).then([liked()]);
    expect(likeStream(7, 'u')).toBe('like-7-u');
  });
  it('one like per member and video: a second like is a no-op', () => {
    given(likeDecider, [liked()])
      .when(like(later(1000)))
      .then([]);
  });
  it('unlikes, and unliking twice is a no-op', () => {
    given(likeDecider, [liked()]).when(unlike()).then([unliked]);
    given(likeDecider, [liked(), unliked]).when(unlike()).then([]);
    given(likeDecider).when(unlike()).then([]);
  });
  it('likes again after an unlike: silently within the notification window, notifying after it', () => {
    given(likeDecider, [liked(), unliked])
      .when(like(later(5 * 60_000)))
      .then([liked(later(5 * 60_000), false)]);
    given(likeDecider, [liked(), unliked, liked(later(HOUR), false), unliked])
      .when(like(later(NOTIFICATION_WINDOW_MS - 1)))
      .then([liked(later(NOTIFICATION_WINDOW_MS - 1), false)]);
    given(likeDecider, [liked(), unliked])
      .when(like(later(NOTIFICATION_WINDOW_MS)))
      .then([liked(later(NOTIFICATION_WINDOW_MS))]);
    expect(notificationsCausedBy(liked(T0, false))).toEqual([]);
    expect(notificationsCausedBy(liked())).toEqual([{ type: 'like', recipientId: 'owner', senderId: 'u', videoId: 7 }]);
  });
  it('an unknown, deleted or rejected video cannot be liked', () => {
    for (const video of [unknown, gone, videoOf(uploaded, rejected)]) {
      given(likeDecider).when(like(T0, video)).thenThrows(VIDEO_MESSAGES.notFound, 'not_found');
    }
    given(likeDecider, [liked()]).when(unlike(gone)).thenThrows(VIDEO_MESSAGES.notFound, 'not_found');
  });
});

describe('favorites decider', () => {
  const fav: FavoriteEvent = { type: 'VideoFavorited', data: { videoId: 7, userId: 'u' } };
  const unfav: FavoriteEvent = { type: 'VideoUnfavorited', data: { videoId: 7, userId: 'u' } };
  const toggle = (video: VideoState = live) => ({ type: 'ToggleFavorite' as const, userId: 'u', videoId: 7, video });

  it('toggles a video into the favourites, then out, then in again', () => {
    given(favoritesDecider).when(toggle()).then([fav]);
    given(favoritesDecider, [fav]).when(toggle()).then([unfav]);
    given(favoritesDecider, [fav, unfav]).when(toggle()).then([fav]);
  });
  it('answers whether it is now a favourite', () => {
    expect(isFavorite(fold(favoritesDecider, [fav]), 7)).toBe(true);
    expect(isFavorite(fold(favoritesDecider, [fav, unfav]), 7)).toBe(false);
  });
  it('keeps each video apart', () => {
    const other: FavoriteEvent = { type: 'VideoFavorited', data: { videoId: 8, userId: 'u' } };
    given(favoritesDecider, [other]).when(toggle()).then([fav]);
  });
  it('refuses an unknown or deleted video', () => {
    given(favoritesDecider).when(toggle(unknown)).thenThrows(VIDEO_MESSAGES.notFound, 'not_found');
    given(favoritesDecider, [fav]).when(toggle(gone)).thenThrows(VIDEO_MESSAGES.notFound, 'not_found');
  });
});

describe('views', () => {
  const viewed = (at: Date, viewerId = 'u') => ({
    type: 'VideoViewed' as const,
    data: { videoId: 7, viewerId, at: at.toISOString() },
  });
  const view = (now: Date, viewerId = 'u', video = live) => ({ type: 'ViewVideo' as const, viewerId, video, now });
  it('a display of an available video counts', () => {
    given(viewDecider)
      .when(view(T0))
      .then([viewed(T0)]);
    expect(viewStream(7, 'u')).toBe('view-7-u');
    expect(decideView(live, 'u')).toEqual([{ type: 'VideoViewed', data: { videoId: 7, viewerId: 'u' } }]);
  });
  it("a member's displays of one video count once per window, then again", () => {
    given(viewDecider, [viewed(T0)])
      .when(view(later(1000)))
      .then([]);
    given(viewDecider, [viewed(T0)])
      .when(view(later(VIEW_WINDOW_MS - 1)))
      .then([]);
    given(viewDecider, [viewed(T0)])
      .when(view(later(VIEW_WINDOW_MS)))
      .then([viewed(later(VIEW_WINDOW_MS))]);
  });
  it("the owner's own displays never count (issue 29 item 10)", () => {
    given(viewDecider).when(view(T0, 'owner')).then([]);
    given(viewDecider)
      .when(view(later(VIEW_WINDOW_MS), 'owner'))
      .then([]);
  });
  it('an unknown or deleted video is not found', () => {
    given(viewDecider)
      .when(view(T0, 'u', unknown))
      .thenThrows(VIDEO_MESSAGES.notFound, 'not_found');
    given(viewDecider, [viewed(T0)])
      .when(view(later(VIEW_WINDOW_MS), 'u', gone))
      .thenThrows(VIDEO_MESSAGES.notFound, 'not_found');
    expect(() => decideView(gone, 'u')).toThrow(VIDEO_MESSAGES.notFound);
  });
});
