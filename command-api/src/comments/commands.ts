import {
  COMMENT_MESSAGES,
  checkCommentContent,
  commentDecider,
  commentStream,
  forbidden,
  legacyCommentsStream,
  legacyVideoComments,
  requireAvailableVideo,
  videoDecider,
  videoStream,
  type CommentPosted,
  type LogPosition,
  type PostedComment,
} from '@evo/domain';
import { handleCommand, loadState, type CommandContext, type EventStore, type IdAllocator } from '@evo/infra';
import { claimsOtherUser, sessionMember } from '../identity/members';
import { assertNotRestricted } from '../moderation/decision-commands';
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

/**
 * The comment answered, from its own stream (`comment-<id>`), or from its video's stream when an
 * older log kept it there; null when there is none.
 */
async function commentAnswered(events: EventStore, parentId: number, videoId: number): Promise<PostedComment | null> {
  const { state } = await loadState(events, commentStream(parentId), commentDecider);
  if (state.comment) return state.comment;
  const legacy = await events.readStream(legacyCommentsStream(videoId));
  return legacy.length > 0
    ? (legacyVideoComments(legacy as unknown as CommentPosted[], videoId).get(parentId) ?? null)
    : null;
}

/**
 * Post a comment as the session user. Checks, in order: the claimed email (403), the text (400),
 * the video from its stream (404), the comment answered (400). Every refusal happens before a
 * comment id is drawn, so a refused comment appends nothing. The comment gets a stream of its
 * own: comments on one video never contend on a stream.
 */
export async function postComment(
  events: EventStore,
  ids: IdAllocator,
  input: PostCommentInput,
  ctx: CommandContext,
): Promise<{ comment: CommentView; event: CommentPosted; position: LogPosition | undefined }> {
  const author = await sessionMember(events, input.authorId);
  if (claimsOtherUser(input.claimedEmail, author.email)) throw forbidden(COMMENT_MESSAGES.notAllowed);
  // a restriction taken by moderation (issue 32), from the member's stream and the clock
  await assertNotRestricted(events, input.authorId, 'comment', ctx.now);
  checkCommentContent(input.content);
  const { state: video } = await loadState(events, videoStream(input.videoId), videoDecider);
  requireAvailableVideo(video);
  const parent = input.parentId === null ? null : await commentAnswered(events, input.parentId, input.videoId);
  const command = (commentId: number) =>
    ({
      type: 'PostComment',
      commentId,
      videoId: input.videoId,
      authorId: input.authorId,
      parentId: input.parentId,
      content: input.content,
      video,
      parent,
    }) as const;
  // every rule checked before an id is drawn (0 is never a real id)
  commentDecider.decide(command(0), commentDecider.initialState());
  const commentId = await ids.next('comment', ctx);
  const r = await handleCommand(events, commentStream(commentId), commentDecider, command(commentId), ctx);
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
