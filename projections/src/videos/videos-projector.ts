import type { Doc } from '@evo/infra';
import type { Projector } from '../runtime/projector';
import { applyOnce } from '../runtime/apply-once';
import { USERS, type UserDoc } from '../identity/users-projector';

export const VIDEOS = 'videos';
export const VISIBILITY_PUBLIC = 'publique';
export const PROCESSING = { pending: 'en_traitement', ready: 'prête', rejected: 'rejetée' } as const;

/** A video as cards show it (SPEC.md section 3 "Video"). */
export interface VideoDoc extends Doc {
  _id: number;
  id: number;
  title: string;
  description: string;
  file_path: string;
  user_id: string;
  user_email: string;
  email: string;
  owner_email: string;
  user_pseudo: string;
  user_profile_picture: string;
  likes_count: number;
  comments_count: number;
  views_count: number;
  /** publique, masquée or supprimée */
  status: string;
  /** en_traitement, prête or rejetée */
  processing: string;
  reject_reason: string | null;
  poster: string | null;
  duration: number | null;
  created_at: string;
}

export const videosProjector: Projector = {
  name: 'videos',
  collections: [VIDEOS],
  indexes: {
    [VIDEOS]: [{ key: { user_id: 1, created_at: -1 } }, { key: { status: 1, created_at: -1 } }],
  },
  async project(event, store, ctx) {
    const videos = store.collection<VideoDoc>(VIDEOS);
    if (event.type === 'VideoProcessed') {
      const d = event.data;
      await applyOnce(videos, d.videoId, event.position, {
        $set: { processing: PROCESSING.ready, poster: d.posterPath, duration: d.durationSeconds },
      });
      return;
    }
    if (event.type === 'VideoRejected') {
      const d = event.data;
      await applyOnce(videos, d.videoId, event.position, { $set: { processing: PROCESSING.rejected, reject_reason: d.reason } });
      const video = await videos.findOne({ _id: d.videoId });
      if (video) ctx.push(`user:${video.user_id}`, 'video:rejected', { videoId: d.videoId, reason: d.reason });
      return;
    }
    if (event.type !== 'VideoUploaded') return;
    const d = event.data;
    // UserRegistered precedes any video of its user in the log, so the owner is already projected
    const owner = await store.collection<UserDoc>(USERS).findOne({ _id: d.ownerId });
    await applyOnce(
      videos,
      d.videoId,
      event.position,
      {
        $set: {
          id: d.videoId,
          title: d.title,
          description: d.description,
          file_path: d.filePath,
          user_id: d.ownerId,
          user_email: owner?.email ?? '',
          email: owner?.email ?? '',
          owner_email: owner?.email ?? '',
          user_pseudo: owner?.pseudo ?? '',
          user_profile_picture: owner?.profile_picture ?? '',
          status: VISIBILITY_PUBLIC,
          created_at: event.metadata.at,
        },
        // processing may be recorded before a redelivered upload: never reset it
        $setOnInsert: { likes_count: 0, comments_count: 0, views_count: 0, processing: PROCESSING.pending, reject_reason: null, poster: null, duration: null },
      },
      { upsert: true },
    );
  },
};
