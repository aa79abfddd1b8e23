import { z } from 'zod';
import { NOT_YOURS, invalid } from '../shared/errors';
import { cleanUserText } from '../shared/text';
import { VIDEO_MESSAGES } from '../videos/video-decider';

/** One comment: stream `comment-<commentId>` (its CommentPosted). */
export const commentStream = (commentId: number) => `comment-${commentId}`;
/** Older logs: every comment of a video on one stream, `comments-<videoId>` (read, never written). */
export const legacyCommentsStream = (videoId: number) => `comments-${videoId}`;

export const COMMENT_LIMITS = { contentMax: 1000 } as const;

export const COMMENT_MESSAGES = {
  empty: 'Le commentaire ne peut pas être vide.',
  tooLong: `Le commentaire ne doit pas dépasser ${COMMENT_LIMITS.contentMax} caractères.`,
  parentNotFound: 'Le commentaire auquel tu réponds est introuvable.',
  alreadyPosted: 'Ce commentaire existe déjà.',
  videoNotFound: VIDEO_MESSAGES.notFound,
  notAllowed: NOT_YOURS.action,
  posted: 'Commentaire publié.',
} as const;

/** The text of a comment, cleaned (NFKC, no invisible characters, trimmed); refuses an empty or too long one. */
export function checkCommentContent(content: string): string {
  const text = cleanUserText(content);
  if (text.length === 0) throw invalid(COMMENT_MESSAGES.empty);
  if (text.length > COMMENT_LIMITS.contentMax) throw invalid(COMMENT_MESSAGES.tooLong);
  return text;
}

/**
 * `parentId` as clients send it: a number, a numeric string, or empty ('' / null / 0 / absent)
 * for a top-level comment. Anything else names no comment.
 */
export const ParentIdField = z.unknown().transform((v, ctx): number | null => {
  if (v === null || v === undefined) return null;
  const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : undefined;
  if (s === '' || s === '0') return null;
  if (s === undefined || !/^\d{1,15}$/.test(s)) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: COMMENT_MESSAGES.parentNotFound });
    return z.NEVER;
  }
  return Number(s);
});

/** The body of POST /api/videos/:id/comment. The author is always the session user. */
export const CommentBody = z.object({
  /** checked against the session user's email by the handler (anything but their email: 403) */
  userEmail: z.unknown().optional(),
  userPseudo: z.unknown().optional(),
  content: z.string({ required_error: COMMENT_MESSAGES.empty, invalid_type_error: COMMENT_MESSAGES.empty }),
  parentId: ParentIdField,
});
