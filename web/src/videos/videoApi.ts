import { api } from '../api/http';
import { normalizeVideo, normalizeVideos, type Video } from './types';

/** Calls of the video cards and the single video page (the product API calls, "Videos"). */

/** GET /api/videos/:id (404 {error:'Vidéo indisponible.'}). */
export async function fetchVideo(id: number, signal?: AbortSignal): Promise<Video> {
  const data = await api.get<unknown>(`/api/videos/${id}`, { signal });
  const wrapped = data && typeof data === 'object' && 'video' in data ? (data as { video: unknown }).video : data;
  const video = normalizeVideo(wrapped);
  if (!video) throw new Error('Réponse vidéo invalide');
  return video;
}

/** GET /api/videos/friends-feed/:email?page=&limit= */
export async function fetchFriendsFeed(email: string, page: number, limit: number, signal?: AbortSignal) {
  const query = new URLSearchParams({ page: String(page), limit: String(limit) });
  const data = await api.get<unknown>(`/api/videos/friends-feed/${encodeURIComponent(email)}?${query}`, { signal });
  return normalizeVideos(Array.isArray(data) ? data : (data as { items?: unknown })?.items);
}

/** DELETE /api/videos/:id, or /api/videos/delete/:id as the profile page does. */
export function deleteVideo(id: number, via: 'videos' | 'delete' = 'videos') {
  return api.delete(via === 'delete' ? `/api/videos/delete/${id}` : `/api/videos/${id}`);
}

/** POST /api/videos/views, once per card display; never redirects, errors are ignored. */
export function recordView(videoId: number, userEmail: string | null): void {
  api.post('/api/videos/views', { videoId, userEmail }, { skipAuthRedirect: true }).catch(() => undefined);
}

export interface LikeResult {
  liked: boolean;
  likes_count: number;
}

/** POST (like) or DELETE (unlike) /api/videos/:id/like → {liked, likes_count}. */
export async function setLike(id: number, like: boolean): Promise<Partial<LikeResult>> {
  const path = `/api/videos/${id}/like`;
  const data = like ? await api.post<Partial<LikeResult>>(path) : await api.delete<Partial<LikeResult>>(path);
  return data ?? {};
}

/** POST /api/favorite/:id → {favorited}. */
export async function toggleFavorite(id: number): Promise<{ favorited?: boolean }> {
  return (await api.post<{ favorited?: boolean }>(`/api/favorite/${id}`)) ?? {};
}

/** POST /api/report/:id {reason?} */
export function reportVideo(id: number, reason?: string) {
  return api.post(`/api/report/${id}`, reason ? { reason } : {});
}

export interface VideoComment {
  id: number;
  parent_id: number | null;
  user_pseudo: string;
  user_profile_picture: string | null;
  content: string;
  created_at: string | null;
}

export function normalizeComment(raw: unknown): VideoComment | null {
  if (!raw || typeof raw !== 'object') return null;
  const c = raw as Record<string, unknown>;
  const id = Number(c.id);
  if (!Number.isFinite(id)) return null;
  const parent = c.parent_id === null || c.parent_id === undefined || c.parent_id === '' ? null : Number(c.parent_id);
  return {
    id,
    parent_id: parent !== null && Number.isFinite(parent) && parent > 0 ? parent : null,
    user_pseudo: typeof c.user_pseudo === 'string' ? c.user_pseudo : '',
    user_profile_picture: typeof c.user_profile_picture === 'string' ? c.user_profile_picture : null,
    content: typeof c.content === 'string' ? c.content : '',
    created_at: typeof c.created_at === 'string' ? c.created_at : null,
  };
}

/** GET /api/videos/:id/comments → {items}. */
export async function fetchComments(videoId: number, signal?: AbortSignal): Promise<VideoComment[]> {
  const data = await api.get<unknown>(`/api/videos/${videoId}/comments`, { signal });
  const items = Array.isArray(data) ? data : (data as { items?: unknown } | undefined)?.items;
  if (!Array.isArray(items)) return [];
  return items.map(normalizeComment).filter((c): c is VideoComment => c !== null);
}

export interface NewComment {
  userEmail: string;
  userPseudo: string;
  content: string;
  parentId: number | null;
}

/** POST /api/videos/:id/comment {userEmail, userPseudo, content, parentId} → 201 {message, item}. */
export async function postComment(videoId: number, comment: NewComment): Promise<{ message?: string }> {
  const data = await api.post<{ message?: unknown } | undefined>(`/api/videos/${videoId}/comment`, { ...comment });
  return { message: typeof data?.message === 'string' ? data.message : undefined };
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
