import { describe, it } from 'vitest';
import { given } from '../shared/given-when-then';
import { videoDecider, VIDEO_MESSAGES } from './video-decider';
import type { VideoEvent } from './events';

const uploaded: VideoEvent = {
  type: 'VideoUploaded',
  data: { videoId: 7, ownerId: 'u1', title: 'T', description: '', filePath: '/uploads/videos/x.mp4', mimeType: 'video/mp4', sizeBytes: 10 },
};
const processed = { videoId: 7, durationSeconds: 4, sizeBytes: 10, codec: 'h264', width: 360, height: 640, posterPath: '/uploads/posters/7.jpg' };

describe('video decider', () => {
  it('uploads a new video', () => {
    given(videoDecider).when({ type: 'UploadVideo', ...uploaded.data }).then([uploaded]);
  });
  it('refuses the same id twice', () => {
    given(videoDecider, [uploaded]).when({ type: 'UploadVideo', ...uploaded.data }).thenThrows(VIDEO_MESSAGES.exists, 409);
  });
  it('records processing once; a second outcome is ignored', () => {
    given(videoDecider, [uploaded]).when({ type: 'RecordProcessing', ...processed }).then([{ type: 'VideoProcessed', data: processed }]);
    given(videoDecider, [uploaded, { type: 'VideoProcessed', data: processed }]).when({ type: 'RecordProcessing', ...processed }).then([]);
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
    given(videoDecider).when({ type: 'RecordProcessing', ...processed }).thenThrows(VIDEO_MESSAGES.notFound, 404);
  });
});
