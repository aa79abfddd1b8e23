import { DEFAULT_PROFILE_PICTURE, DELETED_MEMBER_LABEL, positionToString, type LogPosition } from '@evo/domain';
import type { Doc, ReadStore } from '@evo/infra';
import { goneMember, tally } from '../runtime/member-gone';
import type { Projector } from '../runtime/projector';
import { applyOnce } from '../runtime/write-once';
import { memberCopies, shownAs } from '../runtime/own-copies';
import type { CommentView } from '@evo/contracts';

/** What the API and the pushes answer (the contract the web app compiles against too). */
export type { CommentView };

export const COMMENTS = 'comments';
/** one document per commented video: its comments count, and its owner (whose deletion takes the comments) */
export const COMMENT_COUNTS = 'comment_counts';
/** the comments' authors as they stood when each commented (the projector's own copy) */
const authors = memberCopies('comment_authors', ['email', 'pseudo', 'profile_picture']);

export interface CommentCountDoc extends Doc {
  /** the video's id */
  _id: number;
  owner_id: string;
  comments_count: number;
}

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
  /** a deleted member's comment kept as a placeholder: replies of others depend on it */
  author_deleted?: boolean;
}

export const toCommentView = (c: CommentDoc): CommentView => ({
  id: c.id,
  parent_id: c.parent_id,
  user_pseudo: c.user_pseudo,
  user_profile_picture: c.user_profile_picture,
  content: c.content,
  created_at: c.created_at,
  ...(c.author_deleted ? { author_deleted: true } : {}),
});

/**
 * A deleted member's comments go, and the videos they commented count them no more; a top-level
 * comment others replied to stays as a placeholder ('Membre supprimé', no text), so that the
 * thread keeps its replies. Every comment of the member's own videos goes with the videos.
 */
async function forgetComments(store: ReadStore, memberId: string, position: LogPosition): Promise<void> {
  const comments = store.collection<CommentDoc>(COMMENTS);
  const theirs = await comments.find(
    { user_id: memberId },
    { projection: { _id: 1, video_id: 1, parent_id: 1, author_deleted: 1 } },
  );
  const answered = new Set(
    (
      await comments.find(
        { parent_id: { $in: theirs.filter((c) => c.parent_id === null).map((c) => c._id) } },
        { projection: { parent_id: 1, user_id: 1 } },
      )
    )
      .filter((r) => r.user_id !== memberId)
      .map((r) => r.parent_id),
  );
  const kept = theirs.filter((c) => answered.has(c._id));
  const removed = theirs.filter((c) => !answered.has(c._id));
  const counts = store.collection<CommentCountDoc>(COMMENT_COUNTS);
  for (const [videoId, n] of tally(removed.map((c) => c.video_id)))
    await applyOnce(counts, videoId, position, { $inc: { comments_count: -n } });
  if (kept.length > 0)
    await comments.updateMany(
      { _id: { $in: kept.map((c) => c._id) } },
      {
        $set: {
          user_id: '',
          user_email: '',
          user_pseudo: DELETED_MEMBER_LABEL,
          user_profile_picture: DEFAULT_PROFILE_PICTURE,
          content: '',
          author_deleted: true,
        },
      },
    );
  if (removed.length > 0) await comments.deleteMany({ _id: { $in: removed.map((c) => c._id) } });
  const own = (await counts.find({ owner_id: memberId }, { projection: { _id: 1 } })).map((v) => v._id);
  if (own.length > 0) {
    await comments.deleteMany({ video_id: { $in: own } });
    await counts.deleteMany({ _id: { $in: own } });
  }
}

/**
 * Comments per video, and each video's `comments_count` (in `comment_counts`). Pushes `comment:new` to the video's room
 * (`video:<id>`) for panels that are open. The owner's notification is the notifications projector's.
 */
export const commentsProjector: Projector = {
  name: 'comments',
  collections: [COMMENTS, COMMENT_COUNTS, authors.collection],
  eventTypes: ['CommentPosted', ...authors.eventTypes],
  indexes: {
    [COMMENTS]: [{ key: { video_id: 1, id: 1 } }, { key: { user_id: 1 } }, { key: { parent_id: 1 } }],
    [COMMENT_COUNTS]: [{ key: { owner_id: 1 } }],
  },
  async project(event, store, ctx) {
    await authors.project(event, store);
    const gone = goneMember(event);
    if (gone) return forgetComments(store, gone, event.position);
    if (event.type === 'ProfileUpdated') {
      // the author's new picture beside their comments (a $set of the event's value: redelivery-safe)
      await store
        .collection<CommentDoc>(COMMENTS)
        .updateMany({ user_id: event.data.userId }, { $set: { user_profile_picture: event.data.profilePicture } });
      return;
    }
    if (event.type !== 'CommentPosted') return;
    const d = event.data;
    const author = await authors.find(store, d.authorId);
    const doc = {
      id: d.commentId,
      video_id: d.videoId,
      parent_id: d.parentId,
      user_id: d.authorId,
      ...shownAs('user', author, ['email', 'pseudo', 'profile_picture']),
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
    const counts = store.collection<CommentCountDoc>(COMMENT_COUNTS);
    const counted = await applyOnce(
      counts,
      d.videoId,
      event.position,
      { $set: { owner_id: d.videoOwnerId }, $inc: { comments_count: 1 } },
      { upsert: true },
    );
    if (counted && ctx.live) {
      const video = await counts.findOne({ _id: d.videoId }, { projection: { comments_count: 1 } });
      ctx.push(`video:${d.videoId}`, 'comment:new', {
        videoId: d.videoId,
        comment: toCommentView({ _id: d.commentId, ...doc }),
        comments_count: video?.comments_count ?? 0,
        position: positionToString(event.position),
      });
    }
  },
};
