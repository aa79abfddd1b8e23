import { describe, expect, it } from 'vitest';
import { given } from '../shared/given-when-then';
import { isVideoAvailable, videoDecider, VIDEO_MESSAGES } from './video-decider';
import { fold } from '../shared/decider';
import type { VideoEvent } from './events';
import { videoUploaded } from './testing';

const uploaded = videoUploaded(7, 'u1');
const processed = {
  videoId: 7,
  durationSeconds: 4,
  sizeBytes: 10,
  codec: 'h264',
  width: 360,
  height: 640,
  posterPath: '/uploads/posters/7.jpg',
};

describe('video decider: processing that failed on our side', () => {
  const failed: VideoEvent = {
    type: 'VideoProcessingFailed',
    data: { videoId: 7, reason: VIDEO_MESSAGES.processingFailed, attempts: 5 },
  };
  const retry = (requesterId = 'u1', requesterIsAdmin = false) =>
    ({ type: 'RetryProcessing', videoId: 7, requesterId, requesterIsAdmin }) as const;
  it('records that every try failed, once, and only for a video still waiting for its processing', () => {
    given(videoDecider, [uploaded])
      .when({ type: 'FailProcessing', ...failed.data })
      .then([failed]);
    given(videoDecider, [uploaded, failed])
      .when({ type: 'FailProcessing', ...failed.data })
      .then([]);
    given(videoDecider, [uploaded, { type: 'VideoProcessed', data: processed }])
      .when({ type: 'FailProcessing', ...failed.data })
      .then([]);
  });
  it('lets its author (or an administrator) try again, which puts it back in processing', () => {
    const retried: VideoEvent = { type: 'VideoProcessingRetried', data: { videoId: 7, requestedBy: 'u1' } };
    given(videoDecider, [uploaded, failed]).when(retry()).then([retried]);
    given(videoDecider, [uploaded, failed])
      .when(retry('admin', true))
      .then([{ type: 'VideoProcessingRetried', data: { videoId: 7, requestedBy: 'admin' } }]);
    expect(fold(videoDecider, [uploaded, failed, retried])).toMatchObject({ status: 'uploaded' });
    given(videoDecider, [uploaded, failed]).when(retry('u2')).thenThrows(VIDEO_MESSAGES.notOwnerRetry, 'forbidden');
    given(videoDecider, [uploaded]).when(retry()).thenThrows(VIDEO_MESSAGES.notFailed, 'conflict');
    given(videoDecider, [
      uploaded,
      failed,
      { type: 'VideoDeleted', data: { videoId: 7, ownerId: 'u1', deletedBy: 'u1' } },
    ])
      .when(retry())
      .thenThrows(VIDEO_MESSAGES.notFound, 'not_found');
    given(videoDecider).when(retry()).thenThrows(VIDEO_MESSAGES.notFound, 'not_found');
  });
  it('still takes the outcome of a job that ran again after the failure', () => {
    given(videoDecider, [uploaded, failed])
      .when({ type: 'RecordProcessing', ...processed })
      .then([{ type: 'VideoProcessed', data: processed }]);
  });
});

describe('video decider', () => {
  it('uploads a new video', () => {
    given(videoDecider)
      .when({ type: 'UploadVideo', ...uploaded.data })
      .then([uploaded]);
  });
  it('refuses the same id twice', () => {
    given(videoDecider, [uploaded])
      .when({ type: 'UploadVideo', ...uploaded.data })
      .thenThrows(VIDEO_MESSAGES.exists, 'conflict');
  });
  it('records processing once; a second outcome is ignored', () => {
    given(videoDecider, [uploaded])
      .when({ type: 'RecordProcessing', ...processed })
      .then([{ type: 'VideoProcessed', data: processed }]);
    given(videoDecider, [uploaded, { type: 'VideoProcessed', data: processed }])
      .when({ type: 'RecordProcessing', ...processed })
      .then([]);
    given(videoDecider, [uploaded, { type: 'VideoProcessed', data: processed }])
      .when({ type: 'RejectVideo', videoId: 7, reason: 'x' })
      .then([]);
  });
  it('rejects an unreadable upload', () => {
    given(videoDecider, [uploaded])
      .when({ type: 'RejectVideo', videoId: 7, reason: VIDEO_MESSAGES.unreadable })
      .then([{ type: 'VideoRejected', data: { videoId: 7, reason: VIDEO_MESSAGES.unreadable } }]);
  });
  it('cannot process an unknown video', () => {
    given(videoDecider)
      .when({ type: 'RecordProcessing', ...processed })
      .thenThrows(VIDEO_MESSAGES.notFound, 'not_found');
  });
});

describe('video deletion', () => {
  const now = new Date('2026-11-29T10:00:00Z');
  const del = (requesterId: string, requesterIsAdmin = false) => ({
    type: 'DeleteVideo' as const,
    videoId: 7,
    requesterId,
    requesterIsAdmin,
    now,
  });
  const deleted = (by: string) => ({
    type: 'VideoDeleted' as const,
    data: { videoId: 7, ownerId: 'u1', deletedBy: by },
  });

  it('its owner deletes it', () => {
    given(videoDecider, [uploaded])
      .when(del('u1'))
      .then([deleted('u1')]);
  });
  it('an administrator deletes anyone’s video', () => {
    given(videoDecider, [uploaded, { type: 'VideoProcessed', data: processed }])
      .when(del('admin', true))
      .then([
        {
          type: 'VideoDeleted',
          data: {
            ...deleted('admin').data,
            // a decision: its author is told why and may contest it (issue 32)
            decisionNo: 1,
            previousStatus: 'publique',
            reason: 'Votre vidéo a été effacée : non-respect des consignes communautaires',
            at: now.toISOString(),
          },
        },
      ]);
  });
  it('another member may not', () => {
    given(videoDecider, [uploaded]).when(del('u2')).thenThrows(VIDEO_MESSAGES.notOwner, 'forbidden');
  });
  it('a deleted or unknown video is not found', () => {
    given(videoDecider, [uploaded, deleted('u1')])
      .when(del('u1'))
      .thenThrows(VIDEO_MESSAGES.notFound, 'not_found');
    given(videoDecider, [uploaded, deleted('u1')])
      .when(del('admin', true))
      .thenThrows(VIDEO_MESSAGES.notFound, 'not_found');
    given(videoDecider).when(del('u1')).thenThrows(VIDEO_MESSAGES.notFound, 'not_found');
  });
  it('a rejected video can still be deleted by its owner', () => {
    given(videoDecider, [uploaded, { type: 'VideoRejected', data: { videoId: 7, reason: 'x' } }])
      .when(del('u1'))
      .then([deleted('u1')]);
  });
  it('is available to members until deleted or rejected', () => {
    expect(isVideoAvailable(fold(videoDecider, [uploaded]))).toBe(true);
    expect(isVideoAvailable(fold(videoDecider, [uploaded, { type: 'VideoProcessed', data: processed }]))).toBe(true);
    expect(isVideoAvailable(fold(videoDecider, [uploaded, deleted('u1')]))).toBe(false);
    expect(
      isVideoAvailable(fold(videoDecider, [uploaded, { type: 'VideoRejected', data: { videoId: 7, reason: 'x' } }])),
    ).toBe(false);
    expect(isVideoAvailable(fold(videoDecider, []))).toBe(false);
  });
});
