import type { ReadStore } from '@evo/infra';
import { USERS, type UserDoc } from '../identity/users-projector';
import { PROCESSING, VIDEOS, isVisibleVideo, type VideoDoc } from './videos-projector';

/** Uploads recorded whose processing has no outcome yet: a start queues their job again. */
export function videosAwaitingProcessing(read: ReadStore): Promise<VideoDoc[]> {
  return read.collection<VideoDoc>(VIDEOS).find({ processing: PROCESSING.pending });
}

/** Who may download the files of a video: served under /uploads/videos and /uploads/posters. */
export function mediaQueries(read: ReadStore) {
  const videos = read.collection<VideoDoc>(VIDEOS);
  const users = read.collection<UserDoc>(USERS);
  return {
    /** the video whose file (or poster) is `/uploads/<folder>/<name>`, null when none */
    videoOfFile: (folder: 'videos' | 'posters', name: string) =>
      videos.findOne(
        folder === 'videos' ? { file_path: `/uploads/videos/${name}` } : { poster: `/uploads/posters/${name}` },
      ),
    /**
     * May `viewerId` (undefined: no session) download the files of `video`? Anyone when members see
     * it (public, not rejected); otherwise only its owner and administrators.
     */
    async maySee(video: VideoDoc, viewerId: string | undefined): Promise<boolean> {
      if (isVisibleVideo(video)) return true;
      if (!viewerId) return false;
      if (video.user_id === viewerId) return true;
      return (await users.findOne({ _id: viewerId }))?.is_admin === true;
    },
  };
}
