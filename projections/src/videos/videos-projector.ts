import { DEFAULT_PROFILE_PICTURE } from '@evo/domain';
import type { Doc } from '@evo/infra';
import type { Projector } from '../runtime/projector';
import { applyOnce } from '../runtime/write-once';
import { memberCopies } from '../runtime/own-copies';

export const VIDEOS = 'videos';
export const VISIBILITY_PUBLIC = 'publique';
export const VISIBILITY_DELETED = 'supprimée';
/** hidden by moderation: shown to its owner and administrators only, with the sanction message */
export const VISIBILITY_HIDDEN = 'masquée';
/**
 * A video's processing: 'échouée' when every try of its job failed on our side (the author may try
 * again or delete it; its card is shown as while it was being processed).
 */
export const PROCESSING = {
  pending: 'en_traitement',
  ready: 'prête',
  rejected: 'rejetée',
  failed: 'échouée',
} as const;

/**
 * Filter of the videos members see in feeds, suggestions and counts: public and not rejected by
 * processing (a video still being processed is shown). Every query of cards uses it.
 */
export const VISIBLE_VIDEO = { status: VISIBILITY_PUBLIC, processing: { $ne: PROCESSING.rejected } } as const;
export const isVisibleVideo = (v: Pick<VideoDoc, 'status' | 'processing'>) =>
  v.status === VISIBILITY_PUBLIC && v.processing !== PROCESSING.rejected;

/** A video as cards show it (the product entities, "Video"). */
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
  /** publique, masquée or supprimée */
  status: string;
  /** en_traitement, prête or rejetée */
  processing: string;
  reject_reason: string | null;
  poster: string | null;
  duration: number | null;
  created_at: string;
}

/** What a deleted member's video keeps until their erasure is done: nothing of theirs. */
const ERASED_VIDEO_FIELDS = {
  status: VISIBILITY_DELETED,
  title: '',
  description: '',
  file_path: '',
  poster: null,
  user_email: '',
  email: '',
  owner_email: '',
  user_pseudo: '',
  user_profile_picture: DEFAULT_PROFILE_PICTURE,
  reject_reason: null,
};

/** the videos' owners (the projector's own copy: it never reads `users`) */
const owners = memberCopies('video_owners', ['email', 'pseudo', 'profile_picture']);

export const videosProjector: Projector = {
  name: 'videos',
  collections: [VIDEOS, owners.collection],
  eventTypes: [
    'VideoUploaded',
    'VideoProcessed',
    'VideoRejected',
    'VideoProcessingFailed',
    'VideoProcessingRetried',
    'VideoDeleted',
    'VideoVisibilityChanged',
    ...owners.eventTypes,
  ],
  indexes: {
    [VIDEOS]: [
      { key: { user_id: 1, created_at: -1 } },
      { key: { status: 1, created_at: -1 } },
      // profile and friends feed: one member's (or each followed member's) visible videos, newest
      // first; _id last so that a profile page is read in its order (ties included)
      { key: { user_id: 1, status: 1, created_at: -1, _id: -1 } },
      // serving a file: which video it belongs to (and so who may download it)
      { key: { file_path: 1 } },
      { key: { poster: 1 } },
      // a start queues again the uploads still waiting for their processing: read without a scan
      { key: { processing: 1 } },
    ],
  },
  async project(event, store) {
    await owners.project(event, store);
    const videos = store.collection<VideoDoc>(VIDEOS);
    switch (event.type) {
      case 'VideoProcessed': {
        const d = event.data;
        await applyOnce(videos, d.videoId, event.position, {
          $set: { processing: PROCESSING.ready, poster: d.posterPath, duration: d.durationSeconds },
        });
        return;
      }
      case 'VideoRejected': {
        const d = event.data;
        await applyOnce(videos, d.videoId, event.position, {
          $set: { processing: PROCESSING.rejected, reject_reason: d.reason },
        });
        return;
      }
      case 'VideoProcessingFailed': {
        const d = event.data;
        await applyOnce(videos, d.videoId, event.position, {
          $set: { processing: PROCESSING.failed, reject_reason: d.reason },
        });
        return;
      }
      case 'VideoProcessingRetried': {
        await applyOnce(videos, event.data.videoId, event.position, {
          $set: { processing: PROCESSING.pending, reject_reason: null },
        });
        return;
      }
      case 'VideoDeleted': {
        const d = event.data;
        await applyOnce(videos, d.videoId, event.position, { $set: { status: VISIBILITY_DELETED } });
        return;
      }
      case 'VideoVisibilityChanged': {
        const d = event.data;
        await applyOnce(videos, d.videoId, event.position, { $set: { status: d.status } });
        return;
      }
      case 'AccountDeleted':
        // the member's videos leave every screen at once, emptied of what was theirs; the bare
        // documents (ids, owner, dates) stay until MemberErased, as the other projectors' own
        // copies of videos do (runtime/own-copies.ts)
        await videos.updateMany({ user_id: event.data.userId }, { $set: ERASED_VIDEO_FIELDS });
        return;
      case 'MemberErased':
        await videos.deleteMany({ user_id: event.data.userId });
        return;
      case 'ProfileUpdated':
        // a new picture shows on the member's cards (a $set of the event's value: redelivery-safe)
        await videos.updateMany(
          { user_id: event.data.userId },
          { $set: { user_profile_picture: event.data.profilePicture } },
        );
        return;
      case 'VideoUploaded': {
        const d = event.data;
        // UserRegistered precedes any video of its user in the log, so the owner is already copied
        const owner = await owners.find(store, d.ownerId);
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
            $setOnInsert: {
              processing: PROCESSING.pending,
              reject_reason: null,
              poster: null,
              duration: null,
            },
          },
          { upsert: true },
        );
        return;
      }
      default:
        return;
    }
  },
};
