import {
  COMMENT_MESSAGES,
  checkCommentContent,
  commentDecider,
  commentsStream,
  forbidden,
  requireAvailableVideo,
  videoDecider,
  videoStream,
  type CommentPosted,
  type LogPosition,
} from '@evo/domain';
import { handleCommand, loadState, type CommandContext, type EventStore, type IdAllocator } from '@evo/infra';
import { claimsOtherUser, sessionMember } from '../identity/members';
import type { CommentView } from '@evo/contracts';

export interface PostCommentInput {
  videoId: number;
  /** the session user */
  authorId: string;
  /** the email the client says it writes as (body userEmail): must be the session user's when given */
  claimedEmail?: unknown;
  /** the comment answered, as sent (may itself be a reply); null for top-level */
  parentId: number | null;
  content: string;
}

/** The comment as the API answers it: the contract's view of a comment. */
export type PostedComment = CommentView;

/**
 * Post a comment as the session user. Checks, in order: the claimed email (403), the text (400),
 * the video from its stream (404), the comment answered (400). Every refusal happens before a
 * comment id is drawn, so a refused comment appends nothing.
 */
export async function postComment(
  events: EventStore,
  ids: IdAllocator,
  input: PostCommentInput,
  ctx: CommandContext,
): Promise<{ comment: PostedComment; event: CommentPosted; position: LogPosition | undefined }> {
  const author = await sessionMember(events, input.authorId);
  if (claimsOtherUser(input.claimedEmail, author.email)) throw forbidden(COMMENT_MESSAGES.notAllowed);
  checkCommentContent(input.content);
  const { state: video } = await loadState(events, videoStream(input.videoId), videoDecider);
  requireAvailableVideo(video);
  const command = (commentId: number) =>
    ({
      type: 'PostComment',
      commentId,
      videoId: input.videoId,
      authorId: input.authorId,
      parentId: input.parentId,
      content: input.content,
      video,
    }) as const;
  if (input.parentId !== null) {
    // a reply: check the comment answered before drawing an id (0 is never a real id)
    const { state } = await loadState(events, commentsStream(input.videoId), commentDecider);
    commentDecider.decide(command(0), state);
  }
  const commentId = await ids.next('comment', ctx);
  const r = await handleCommand(events, commentsStream(input.videoId), commentDecider, command(commentId), ctx);
  const event = r.events[0];
  return {
    event,
    position: r.position,
    comment: {
      id: event.data.commentId,
      parent_id: event.data.parentId,
      user_pseudo: author.pseudo,
      user_profile_picture: author.profilePicture,
      content: event.data.content,
      created_at: ctx.now.toISOString(),
    },
  };
}
