import type { VideoCard } from '@evo/contracts';

/**
 * A video as the screens use it (the product entities, "Video"): the contract's card, as the
 * lists, the profile and the video page answer it. `liked_by_me` and `favorited_by_me` come with
 * the feeds and the video page; `moderation_message` with a hidden video, to its author and
 * administrators.
 */
export type Video = VideoCard;

/** Same-origin URL of an uploaded file ('/uploads/…' kept, bare names put under /uploads/videos). */
export function mediaUrl(path: string | null | undefined, folder = 'videos'): string | null {
  const value = path?.trim();
  if (!value) return null;
  if (value.startsWith('/') || /^(https?:|blob:|data:)/.test(value)) return value;
  if (value.startsWith('uploads/')) return `/${value}`;
  return `/uploads/${folder}/${encodeURIComponent(value)}`;
}

export const videoPath = (id: number) => `/video/${id}`;
export const videoTitle = (video: Pick<Video, 'title'>) => video.title.trim() || 'Sans titre';
