import type { Decider } from '../shared/decider';
import { invalid } from '../shared/errors';
import type { CommentPosted } from './events';
import { requireAvailableVideo, type VideoState } from '../videos/video-decider';
import { COMMENT_MESSAGES, checkCommentContent } from './rules';

export type CommentCommand = {
  type: 'PostComment';
  commentId: number;
  videoId: number;
  authorId: string;
  /** the comment answered, as the member chose it (it may itself be a reply); null for top-level */
  parentId: number | null;
  content: string;
  /** the video, folded from its `video-<id>` stream by the handler (videoDecider) */
  video: VideoState;
};

/**
 * The comments of one video: each comment's top-level parent (null for a top-level comment).
 * `evolve` extends the map in place, so folding a long stream stays linear: a state is consumed
 * by the next `evolve`, never kept.
 */
export type CommentsState = { parents: Map<number, number | null> };

/**
 * Comments are threaded one level deep: a reply to a reply attaches to its top-level comment.
 * Checks, in order: the text (empty, too long), the video (unknown, deleted, hidden or rejected:
 * 404, the rule of every interaction with a video), the comment answered (a comment of this video).
 */
export const commentDecider: Decider<CommentCommand, CommentPosted, CommentsState> = {
  initialState: () => ({ parents: new Map() }),
  evolve(state, event) {
    state.parents.set(event.data.commentId, event.data.parentId);
    return { parents: state.parents };
  },
  decide(command, state) {
    const content = checkCommentContent(command.content);
    const video = requireAvailableVideo(command.video);
    let parentId: number | null = null;
    if (command.parentId !== null) {
      if (!state.parents.has(command.parentId)) throw invalid(COMMENT_MESSAGES.parentNotFound);
      parentId = state.parents.get(command.parentId) ?? command.parentId;
    }
    return [
      {
        type: 'CommentPosted',
        data: {
          commentId: command.commentId,
          videoId: command.videoId,
          videoOwnerId: video.ownerId,
          authorId: command.authorId,
          parentId,
          content,
        },
      },
    ];
  },
};
