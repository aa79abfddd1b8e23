import { CommentPostedAnswer, FavoriteAnswer, LikeAnswer, MessageAnswer, type CommentView } from '@evo/contracts';
import { api } from '../api/http';
import { decode } from '../api/decode';

/** Calls of the video cards and the single video page (the product API calls, "Videos"). */

/** DELETE /api/videos/:id, or /api/videos/delete/:id as the profile page does. */
export function deleteVideo(id: number, via: 'videos' | 'delete' = 'videos') {
  return api.delete(via === 'delete' ? `/api/videos/delete/${id}` : `/api/videos/${id}`);
}

/** POST /api/videos/:id/processing/retry: a video whose processing failed at every try, processed again. */
export async function retryProcessing(id: number) {
  return decode(MessageAnswer, await api.post(`/api/videos/${id}/processing/retry`));
}

/** POST /api/videos/views, once per card display; never redirects, errors are ignored. */
export function recordView(videoId: number, userEmail: string | null): void {
  api.post('/api/videos/views', { videoId, userEmail }, { skipAuthRedirect: true }).catch(() => undefined);
}

/** POST (like) or DELETE (unlike) /api/videos/:id/like → {liked, likes_count}. */
export async function setLike(id: number, like: boolean): Promise<LikeAnswer> {
  const path = `/api/videos/${id}/like`;
  return decode(LikeAnswer, like ? await api.post(path) : await api.delete(path));
}

/** POST /api/favorite/:id → {favorited, message}. */
export async function toggleFavorite(id: number): Promise<FavoriteAnswer> {
  return decode(FavoriteAnswer, await api.post(`/api/favorite/${id}`));
}

/** POST /api/report/:id {reason?} */
export async function reportVideo(id: number, reason?: string): Promise<MessageAnswer> {
  return decode(MessageAnswer, await api.post(`/api/report/${id}`, reason ? { reason } : {}));
}

/** A comment (a picture is '' when its author has none). */
export type VideoComment = CommentView;

export interface NewComment {
  userEmail: string;
  userPseudo: string;
  content: string;
  parentId: number | null;
}

/** POST /api/videos/:id/comment {userEmail, userPseudo, content, parentId} → 201 {message, item}. */
export async function postComment(videoId: number, comment: NewComment): Promise<CommentPostedAnswer> {
  return decode(CommentPostedAnswer, await api.post(`/api/videos/${videoId}/comment`, { ...comment }));
}

export interface CommentThread {
  comment: VideoComment;
  replies: VideoComment[];
}

/**
 * One level of threading: top-level comments with their replies. A reply to a reply
 * goes under its top-level comment; a reply whose parent is unknown is shown top-level.
 */
export function threadComments(comments: VideoComment[]): CommentThread[] {
  const byId = new Map(comments.map((c) => [c.id, c]));
  const rootOf = (comment: VideoComment): VideoComment => {
    let current = comment;
    const seen = new Set<number>();
    while (current.parent_id !== null && byId.has(current.parent_id) && !seen.has(current.id)) {
      seen.add(current.id);
      current = byId.get(current.parent_id)!;
    }
    return current;
  };
  const threads = new Map<number, CommentThread>();
  for (const comment of comments) {
    const root = rootOf(comment);
    if (root.id === comment.id) {
      if (!threads.has(comment.id)) threads.set(comment.id, { comment, replies: [] });
    }
  }
  for (const comment of comments) {
    const root = rootOf(comment);
    if (root.id !== comment.id) threads.get(root.id)?.replies.push(comment);
  }
  return [...threads.values()];
}
