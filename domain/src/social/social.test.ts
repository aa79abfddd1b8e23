import { describe, expect, it } from 'vitest';
import { given } from '../shared/given-when-then';
import { fold } from '../shared/decider';
import { VIDEO_MESSAGES, videoDecider, type VideoState } from '../videos/video-decider';
import type { VideoEvent } from '../videos/events';
import type { FavoriteEvent, FollowEvent, LikeEvent, VideoDeleted, VideoReported } from './events';
import { followDecider } from './follow-decider';
import { likeDecider } from './like-decider';
import { favoritesDecider, isFavorite } from './favorites-decider';
import { openReportId, reportClaimDecider } from './report-claim-decider';
import { decideView } from './views';
import { DEFAULT_REPORT_REASON, SOCIAL_MESSAGES, followingStream, likeStream, reportClaimStream, reportReasonField } from './rules';

const uploaded: VideoEvent = {
  type: 'VideoUploaded',
  data: { videoId: 7, ownerId: 'owner', title: 'T', description: '', filePath: '/uploads/videos/x.mp4', mimeType: 'video/mp4', sizeBytes: 10 },
};
const deleted: VideoDeleted = { type: 'VideoDeleted', data: { videoId: 7, ownerId: 'owner', deletedBy: 'owner' } };
const rejected: VideoEvent = { type: 'VideoRejected', data: { videoId: 7, reason: 'Illisible' } };
const videoOf = (...events: Array<VideoEvent | VideoDeleted>): VideoState => fold(videoDecider, events);
const live = videoOf(uploaded);
const unknown = videoOf();
const gone = videoOf(uploaded, deleted);

describe('follow decider', () => {
  const followed: FollowEvent = { type: 'UserFollowed', data: { followerId: 'a', followeeId: 'b' } };
  const unfollowed: FollowEvent = { type: 'UserUnfollowed', data: { followerId: 'a', followeeId: 'b' } };

  it('follows a member', () => {
    given(followDecider).when({ type: 'Follow', followerId: 'a', followeeId: 'b' }).then([followed]);
  });
  it('following twice appends nothing', () => {
    given(followDecider, [followed]).when({ type: 'Follow', followerId: 'a', followeeId: 'b' }).then([]);
  });
  it('nobody follows themselves', () => {
    given(followDecider).when({ type: 'Follow', followerId: 'a', followeeId: 'a' }).thenThrows(SOCIAL_MESSAGES.selfFollow, 400);
  });
  it('unfollows a followed member', () => {
    given(followDecider, [followed]).when({ type: 'Unfollow', followerId: 'a', followeeId: 'b' }).then([unfollowed]);
  });
  it('unfollowing someone not followed is a no-op', () => {
    given(followDecider).when({ type: 'Unfollow', followerId: 'a', followeeId: 'b' }).then([]);
    given(followDecider, [followed, unfollowed]).when({ type: 'Unfollow', followerId: 'a', followeeId: 'b' }).then([]);
  });
  it('follows again after an unfollow', () => {
    given(followDecider, [followed, unfollowed]).when({ type: 'Follow', followerId: 'a', followeeId: 'b' }).then([followed]);
  });
  it('keeps the other follows apart', () => {
    const other: FollowEvent = { type: 'UserFollowed', data: { followerId: 'a', followeeId: 'c' } };
    given(followDecider, [other]).when({ type: 'Follow', followerId: 'a', followeeId: 'b' }).then([followed]);
    expect([...fold(followDecider, [other, followed, unfollowed]).following]).toEqual(['c']);
    expect(followingStream('a')).toBe('following-a');
  });
});

describe('like decider', () => {
  const liked: LikeEvent = { type: 'VideoLiked', data: { videoId: 7, userId: 'u', ownerId: 'owner' } };
  const unliked: LikeEvent = { type: 'VideoUnliked', data: { videoId: 7, userId: 'u', ownerId: 'owner' } };

  it('likes a video, with its owner', () => {
    given(likeDecider).when({ type: 'Like', videoId: 7, userId: 'u', video: live }).then([liked]);
    expect(likeStream(7, 'u')).toBe('like-7-u');
  });
  it('one like per member and video: a second like is a no-op', () => {
    given(likeDecider, [liked]).when({ type: 'Like', videoId: 7, userId: 'u', video: live }).then([]);
  });
  it('unlikes, and unliking twice is a no-op', () => {
    given(likeDecider, [liked]).when({ type: 'Unlike', videoId: 7, userId: 'u', video: live }).then([unliked]);
    given(likeDecider, [liked, unliked]).when({ type: 'Unlike', videoId: 7, userId: 'u', video: live }).then([]);
    given(likeDecider).when({ type: 'Unlike', videoId: 7, userId: 'u', video: live }).then([]);
  });
  it('likes again after an unlike', () => {
    given(likeDecider, [liked, unliked]).when({ type: 'Like', videoId: 7, userId: 'u', video: live }).then([liked]);
  });
  it('an unknown, deleted or rejected video cannot be liked', () => {
    for (const video of [unknown, gone, videoOf(uploaded, rejected)]) {
      given(likeDecider).when({ type: 'Like', videoId: 7, userId: 'u', video }).thenThrows(VIDEO_MESSAGES.notFound, 404);
    }
    given(likeDecider, [liked]).when({ type: 'Unlike', videoId: 7, userId: 'u', video: gone }).thenThrows(VIDEO_MESSAGES.notFound, 404);
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
    given(favoritesDecider).when(toggle(unknown)).thenThrows(VIDEO_MESSAGES.notFound, 404);
    given(favoritesDecider, [fav]).when(toggle(gone)).thenThrows(VIDEO_MESSAGES.notFound, 404);
  });
});

describe('report claim decider', () => {
  const reported: VideoReported = { type: 'VideoReported', data: { reportId: 3, videoId: 7, reporterId: 'u', reason: 'Spam' } };
  const report = (reportId: number, extra: Partial<{ video: VideoState; closedReportIds: number[]; reason: string }> = {}) => ({
    type: 'ReportVideo' as const,
    reportId,
    videoId: 7,
    reporterId: 'u',
    reason: 'Spam',
    video: live,
    ...extra,
  });

  it('reports a video with its numeric id and reason', () => {
    given(reportClaimDecider).when(report(3)).then([reported]);
    expect(reportClaimStream(7, 'u')).toBe('report-claim-7-u');
  });
  it('refuses a second report while the first is open', () => {
    given(reportClaimDecider, [reported]).when(report(4)).thenThrows(SOCIAL_MESSAGES.alreadyReported, 409);
  });
  it('accepts a new report once the previous one is known to be closed', () => {
    given(reportClaimDecider, [reported])
      .when(report(4, { closedReportIds: [3] }))
      .then([{ type: 'VideoReported', data: { ...reported.data, reportId: 4 } }]);
    expect(openReportId(fold(reportClaimDecider, [reported]))).toBe(3);
    expect(openReportId(fold(reportClaimDecider, [reported]), [3])).toBeNull();
  });
  it('refuses an unknown or deleted video', () => {
    given(reportClaimDecider).when(report(3, { video: unknown })).thenThrows(VIDEO_MESSAGES.notFound, 404);
    given(reportClaimDecider).when(report(3, { video: gone })).thenThrows(VIDEO_MESSAGES.notFound, 404);
  });
  it('normalises the reason: trimmed, at most 500 characters, "Non spécifié" when empty', () => {
    expect(reportReasonField.parse('  Contenu choquant  ')).toBe('Contenu choquant');
    expect(reportReasonField.parse('   ')).toBe(DEFAULT_REPORT_REASON);
    expect(reportReasonField.parse(undefined)).toBe(DEFAULT_REPORT_REASON);
    expect(reportReasonField.parse(null)).toBe(DEFAULT_REPORT_REASON);
    expect(reportReasonField.parse('x'.repeat(500))).toHaveLength(500);
    expect(reportReasonField.safeParse('x'.repeat(501)).error?.issues[0].message).toBe(SOCIAL_MESSAGES.reasonTooLong);
    expect(reportReasonField.safeParse(5).error?.issues[0].message).toBe(SOCIAL_MESSAGES.reasonInvalid);
  });
});

describe('views', () => {
  it('every display of an available video counts', () => {
    expect(decideView(live, 'u')).toEqual([{ type: 'VideoViewed', data: { videoId: 7, viewerId: 'u' } }]);
  });
  it('an unknown or deleted video is not found', () => {
    expect(() => decideView(unknown, 'u')).toThrow(VIDEO_MESSAGES.notFound);
    expect(() => decideView(gone, 'u')).toThrow(VIDEO_MESSAGES.notFound);
  });
});
