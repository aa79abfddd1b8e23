import { z } from 'zod/v4';
import type { DomainEvent } from '../shared/decider';

/** A comment: stream `comment-<commentId>` (older logs: `comments-<videoId>`, every comment of a video). */
export const CommentPostedSchema = z.object({
  commentId: z.number().int().positive(),
  videoId: z.number().int().positive(),
  videoOwnerId: z.string().min(1),
  authorId: z.string().min(1),
  /** always a top-level comment's id or null: a reply to a reply attaches to its top-level comment */
  parentId: z.number().int().positive().nullable(),
  content: z.string().min(1),
});

export type CommentPosted = DomainEvent<'CommentPosted', z.infer<typeof CommentPostedSchema>>;
export type CommentEvent = CommentPosted;

export const commentEventSchemas = { CommentPosted: CommentPostedSchema } as const;
