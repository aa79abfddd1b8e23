import { searchKey } from '@evo/domain';
import type { SearchMember, SearchVideo } from '@evo/contracts';
import type { Doc } from '@evo/infra';
import type { Projector } from '../runtime/projector';
import { MEMBER_GONE_EVENTS, goneMember } from '../runtime/member-gone';
import { applyOnce } from '../runtime/write-once';
import { PROCESSING, VISIBILITY_DELETED, VISIBILITY_PUBLIC } from '../videos/videos-projector';

export const SEARCH_MEMBERS = 'search_members';
export const SEARCH_VIDEOS = 'search_videos';

/** A member as the search finds them: by their pseudo's key. */
export interface SearchMemberDoc extends Doc, SearchMember {
  _id: string;
  /** searchKey(pseudo) */
  pseudo_key: string;
}

/** A video as the search finds it: by its title's key, with who may see it (`status`: publique, masquée, supprimée). */
export interface SearchVideoDoc extends Doc, SearchVideo {
  _id: number;
  /** searchKey(title) */
  title_key: string;
  owner_id: string;
  /** en_traitement, prête, rejetée, échouée */
  processing: string;
  created_at: string;
}

/**
 * The search's read model (members by pseudo, videos by title), shaped for its two queries: each
 * document carries the accent- and case-free key it is found by. Written from the events alone
 * (the owner's pseudo from this projector's own members), so it needs no other read model.
 */
export const searchProjector: Projector = {
  name: 'search',
  collections: [SEARCH_MEMBERS, SEARCH_VIDEOS],
  eventTypes: [
    'UserRegistered',
    'ProfileUpdated',
    'VideoUploaded',
    'VideoProcessed',
    'VideoRejected',
    'VideoProcessingFailed',
    'VideoProcessingRetried',
    'VideoDeleted',
    'VideoVisibilityChanged',
    ...MEMBER_GONE_EVENTS,
  ],
  indexes: {
    [SEARCH_MEMBERS]: [{ key: { pseudo_key: 1 } }],
    [SEARCH_VIDEOS]: [{ key: { status: 1, created_at: -1 } }, { key: { owner_id: 1 } }],
  },
  async project(event, store) {
    const members = store.collection<SearchMemberDoc>(SEARCH_MEMBERS);
    const videos = store.collection<SearchVideoDoc>(SEARCH_VIDEOS);
    const setVideo = (videoId: number, fields: Partial<SearchVideoDoc>) =>
      applyOnce(videos, videoId, event.position, { $set: fields });
    const gone = goneMember(event);
    if (gone) {
      // search forgets a deleted member and their videos
      await members.deleteOne({ _id: gone });
      await videos.deleteMany({ owner_id: gone });
      return;
    }
    switch (event.type) {
      case 'UserRegistered': {
        const d = event.data;
        await applyOnce(
          members,
          d.userId,
          event.position,
          {
            $set: { pseudo: d.pseudo, pseudo_key: searchKey(d.pseudo), profile_picture: d.profilePicture, bio: d.bio },
          },
          { upsert: true },
        );
        return;
      }
      case 'ProfileUpdated':
        await applyOnce(members, event.data.userId, event.position, {
          $set: { profile_picture: event.data.profilePicture, bio: event.data.bio },
        });
        return;
      case 'VideoUploaded': {
        const d = event.data;
        const owner = await members.findOne({ _id: d.ownerId }, { projection: { pseudo: 1 } });
        await applyOnce(
          videos,
          d.videoId,
          event.position,
          {
            $set: {
              id: d.videoId,
              title: d.title,
              title_key: searchKey(d.title),
              owner_id: d.ownerId,
              user_pseudo: owner?.pseudo ?? '',
              status: VISIBILITY_PUBLIC,
              created_at: event.metadata.at,
            },
            // processing may be recorded before a redelivered upload: never reset it
            $setOnInsert: { processing: PROCESSING.pending, poster: null },
          },
          { upsert: true },
        );
        return;
      }
      case 'VideoProcessed':
        await setVideo(event.data.videoId, { processing: PROCESSING.ready, poster: event.data.posterPath });
        return;
      case 'VideoRejected':
        await setVideo(event.data.videoId, { processing: PROCESSING.rejected });
        return;
      case 'VideoProcessingFailed':
        await setVideo(event.data.videoId, { processing: PROCESSING.failed });
        return;
      case 'VideoProcessingRetried':
        await setVideo(event.data.videoId, { processing: PROCESSING.pending });
        return;
      case 'VideoDeleted':
        await setVideo(event.data.videoId, { status: VISIBILITY_DELETED });
        return;
      case 'VideoVisibilityChanged':
        await setVideo(event.data.videoId, { status: event.data.status });
        return;
      default:
        return;
    }
  },
};
