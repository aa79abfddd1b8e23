import type { VideoUploaded } from './events';

/** Test fixture: video 7 of member 'owner', as uploaded (the specs of several slices start from it). */
export const videoUploaded = (videoId = 7, ownerId = 'owner'): VideoUploaded => ({
  type: 'VideoUploaded',
  data: {
    videoId,
    ownerId,
    title: 'T',
    description: '',
    filePath: '/uploads/videos/x.mp4',
    mimeType: 'video/mp4',
    sizeBytes: 10,
  },
});
