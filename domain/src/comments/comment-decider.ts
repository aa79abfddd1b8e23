import type { Decider } from '../shared/decider';
import { conflict, invalid } from '../shared/errors';
import type { CommentPosted } from './events';
import { requireAvailableVideo, type VideoState } from '../videos/video-decider';
import { COMMENT_MESSAGES, checkCommentContent } from './rules';

/** What a comment's own stream says of it: enough to answer it (its video, its thread). */
export interface PostedComment {
  commentId: number;
  videoId: number;
  /** its top-level comment; null for a top-level comment */
  parentId: number | null;
}

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
  /**
   * the comment answered, folded from its own stream by the handler (`comment-<parentId>`, or a
   * video's stream of older logs); null when there is none, or for a top-level comment
   */
  parent: PostedComment | null;
};

/** One comment's stream (`comment-<id>`): the comment once posted. */
export type CommentState = { comment: PostedComment | null };

/**
 * One stream per comment: a popular video's comments never queue behind each other on one stream
 * (issue 29 item 3). The rules a comment needs live where they are decided from: the video's
 * (available) from its stream, the comment answered from its own stream, both folded by the
 * handler and passed in the command. Comments are threaded one level deep: a reply to a reply
 * attaches to its top-level comment. Checks, in order: the text (empty, too long), the video
 * (unknown, deleted, hidden or rejected: 404, the rule of every interaction with a video), the
 * comment answered (a comment of this video).
 */
export const commentDecider: Decider<CommentCommand, CommentPosted, CommentState> = {
  initialState: () => ({ comment: null }),

  evolve(_state, event) {
    const { commentId, videoId, parentId } = event.data;
    return { comment: { commentId, videoId, parentId } };
  },

  decide(command, state) {
    const content = checkCommentContent(command.content);
    const video = requireAvailableVideo(command.video);
    let parentId: number | null = null;
    if (command.parentId !== null) {
      const parent = command.parent;
      if (!parent || parent.commentId !== command.parentId || parent.videoId !== command.videoId)
        throw invalid(COMMENT_MESSAGES.parentNotFound);
      parentId = parent.parentId ?? parent.commentId;
    }
    // ids are drawn once (IdBlocks): a comment's stream is only ever written once
    if (state.comment) throw conflict(COMMENT_MESSAGES.alreadyPosted);
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

/**
 * Older logs kept every comment of a video on one stream (`comments-<videoId>`): the comments it
 * holds, each with its top-level comment, to answer a comment posted there.
 */
export function legacyVideoComments(events: readonly CommentPosted[], videoId: number): Map<number, PostedComment> {
  const out = new Map<number, PostedComment>();
  for (const e of events)
    if (e.type === 'CommentPosted' && e.data.videoId === videoId)
      out.set(e.data.commentId, { commentId: e.data.commentId, videoId, parentId: e.data.parentId });
  return out;
}
