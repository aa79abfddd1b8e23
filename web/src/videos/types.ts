import { num } from '../api/decode';

/**
 * A video as the social screens use it (the product entities, "Video"). Server answers are
 * normalised once with `normalizeVideo`: the owner email may come as user_email,
 * email or owner_email, and counters may come as strings.
 */
export interface Video {
  id: number;
  title: string;
  description: string;
  /** e.g. '/uploads/videos/x.mp4', same origin */
  file_path: string;
  user_email: string;
  user_pseudo: string;
  user_profile_picture: string | null;
  likes_count: number;
  comments_count: number;
  views_count: number;
  poster: string | null;
  /** seconds */
  duration: number | null;
  liked_by_me: boolean | null;
  favorited_by_me: boolean | null;
  created_at: string | null;
  /** 'en_traitement', 'prête' or 'rejetée' (the owner also sees rejected ones, with the reason) */
  processing: string | null;
  reject_reason: string | null;
  /** visibility: 'publique', or 'masquée' / 'supprimée' as its author (hidden only) and administrators see it */
  status: string | null;
  /** the sanction message of a video hidden by moderation (sent to its author and administrators only) */
  moderation_message: string | null;
}

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const bool = (value: unknown): boolean | null =>
  value === true || value === 1 || value === '1'
    ? true
    : value === false || value === 0 || value === '0'
      ? false
      : null;

/** Owner defaults, e.g. the profile's user when the list omits them. */
export interface VideoOwner {
  email?: string;
  pseudo?: string;
  profile_picture?: string | null;
}

export function normalizeVideo(raw: unknown, owner: VideoOwner = {}): Video | null {
  if (!raw || typeof raw !== 'object') return null;
  const v = raw as Record<string, unknown>;
  const id = num(v.id);
  if (id <= 0) return null;
  const duration = num(v.duration);
  return {
    id,
    title: str(v.title) ?? '',
    description: str(v.description) ?? '',
    file_path: str(v.file_path) ?? str(v.filePath) ?? '',
    user_email: str(v.user_email) ?? str(v.email) ?? str(v.owner_email) ?? owner.email ?? '',
    user_pseudo: str(v.user_pseudo) ?? str(v.pseudo) ?? owner.pseudo ?? '',
    user_profile_picture: str(v.user_profile_picture) ?? str(v.profile_picture) ?? owner.profile_picture ?? null,
    likes_count: num(v.likes_count),
    comments_count: num(v.comments_count),
    views_count: num(v.views_count),
    poster: str(v.poster) || null,
    duration: duration > 0 ? duration : null,
    liked_by_me: bool(v.liked_by_me),
    favorited_by_me: bool(v.favorited_by_me),
    created_at: str(v.created_at),
    processing: str(v.processing),
    reject_reason: str(v.reject_reason),
    status: str(v.status),
    moderation_message: str(v.moderation_message),
  };
}

export function normalizeVideos(raw: unknown, owner?: VideoOwner): Video[] {
  if (!Array.isArray(raw)) return [];
  return raw.map((item) => normalizeVideo(item, owner)).filter((video): video is Video => video !== null);
}

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
