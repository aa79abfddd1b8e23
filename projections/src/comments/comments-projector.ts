import { positionToString } from '@evo/domain';
import type { Doc } from '@evo/infra';
import type { Projector } from '../runtime/projector';
import { applyOnce } from '../runtime/write-once';
import { USERS, type UserDoc } from '../identity/users-projector';
import { VIDEOS, type VideoDoc } from '../videos/videos-projector';
import type { CommentView } from '@evo/contracts';

/** What the API and the pushes answer (the contract the web app compiles against too). */
export type { CommentView };

export const COMMENTS = 'comments';
/** guard of this projector's writes to `videos` documents (comments_count) */
export const COMMENTS_VIDEO_GUARD = 'comments';

/** A comment as the comments panel shows it (the product entities, "Comment"), author denormalised. */
export interface CommentDoc extends Doc {
  _id: number;
  id: number;
  video_id: number;
  /** the top-level comment answered; null for a top-level comment */
  parent_id: number | null;
  user_id: string;
  user_email: string;
  user_pseudo: string;
  user_profile_picture: string;
  content: string;
  created_at: string;
}

export const toCommentView = (c: CommentDoc): CommentView => ({
  id: c.id,
  parent_id: c.parent_id,
  user_pseudo: c.user_pseudo,
  user_profile_picture: c.user_profile_picture,
  content: c.content,
  created_at: c.created_at,
});

/**
 * Comments per video, and the videos' `comments_count`. Pushes `comment:new` to the video's room
 * (`video:<id>`) for panels that are open. The owner's notification is the notifications projector's.
 */
export const commentsProjector: Projector = {
  name: 'comments',
  collections: [COMMENTS],
  eventTypes: ['CommentPosted', 'ProfileUpdated'],
  indexes: { [COMMENTS]: [{ key: { video_id: 1, id: 1 } }, { key: { user_id: 1 } }] },
  async project(event, store, ctx) {
    if (event.type === 'ProfileUpdated') {
      // the author's new picture beside their comments (a $set of the event's value: redelivery-safe)
      await store
        .collection<CommentDoc>(COMMENTS)
        .updateMany({ user_id: event.data.userId }, { $set: { user_profile_picture: event.data.profilePicture } });
      return;
    }
    if (event.type !== 'CommentPosted') return;
    const d = event.data;
    const author = await store
      .collection<UserDoc>(USERS)
      .findOne({ _id: d.authorId }, { projection: { email: 1, pseudo: 1, profile_picture: 1 } });
    const doc = {
      id: d.commentId,
      video_id: d.videoId,
      parent_id: d.parentId,
      user_id: d.authorId,
      user_email: author?.email ?? '',
      user_pseudo: author?.pseudo ?? '',
      user_profile_picture: author?.profile_picture ?? '',
      content: d.content,
      created_at: event.metadata.at,
    };
    await applyOnce(
      store.collection<CommentDoc>(COMMENTS),
      d.commentId,
      event.position,
      { $set: doc },
      { upsert: true },
    );
    const counted = await applyOnce(
      store.collection<VideoDoc>(VIDEOS),
      d.videoId,
      event.position,
      { $inc: { comments_count: 1 } },
      { guard: COMMENTS_VIDEO_GUARD },
    );
    if (counted && ctx.live) {
      const video = await store
        .collection<VideoDoc>(VIDEOS)
        .findOne({ _id: d.videoId }, { projection: { comments_count: 1 } });
      ctx.push(`video:${d.videoId}`, 'comment:new', {
        videoId: d.videoId,
        comment: toCommentView({ _id: d.commentId, ...doc }),
        comments_count: video?.comments_count ?? 0,
        position: positionToString(event.position),
      });
    }
  },
};
