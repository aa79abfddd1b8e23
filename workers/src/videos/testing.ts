import type { DomainEvent } from '@evo/domain';

/** Video `videoId` uploaded by member u1: a 10-byte MP4 at /uploads/videos/<id>.mp4. */
export const uploaded = (videoId: number): DomainEvent => ({
  type: 'VideoUploaded',
  data: {
    videoId,
    ownerId: 'u1',
    title: 't',
    description: '',
    filePath: `/uploads/videos/${videoId}.mp4`,
    mimeType: 'video/mp4',
    sizeBytes: 10,
  },
});
