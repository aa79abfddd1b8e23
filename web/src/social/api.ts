import { api } from '../api/http';
import { normalizeVideos, type Video } from '../videos/types';
import { text } from '../api/decode';

/** Follows and users calls (the product API calls, "Follows and users"). */

export interface PublicUser {
  email: string;
  pseudo: string;
  bio: string;
  profile_picture: string | null;
}

export interface SuggestedUser {
  email: string;
  pseudo: string;
  profile_picture: string | null;
  videos: Video[];
}

export interface UserStats {
  following: number;
  followers: number;
  total_likes: number;
}

export interface Friend extends PublicUser {
  followers: number;
  videos_count: number;
  likes: number;
}

export interface Profile {
  user: PublicUser;
  videos: Video[];
}

const count = (value: unknown) => {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : 0;
};

function normalizeUser(raw: unknown): PublicUser {
  const u = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  return {
    email: text(u.email),
    pseudo: text(u.pseudo),
    bio: text(u.bio),
    profile_picture: typeof u.profile_picture === 'string' && u.profile_picture ? u.profile_picture : null,
  };
}

const enc = encodeURIComponent;

/** POST /api/users/follows/follow {followerEmail, followingPseudo} → {message}. */
export function followUser(followerEmail: string, followingPseudo: string) {
  return api.post<{ message?: string }>('/api/users/follows/follow', { followerEmail, followingPseudo });
}

/** POST /api/follows/follow {follower_email, following_email} (follow back from a notification). */
export function followBack(followerEmail: string, followingEmail: string) {
  return api.post<{ message?: string }>('/api/follows/follow', {
    follower_email: followerEmail,
    following_email: followingEmail,
  });
}

/** POST /api/follows/unfollow {followerEmail, followingPseudo}. */
export function unfollowUser(followerEmail: string, followingPseudo: string) {
  return api.post<{ message?: string }>('/api/follows/unfollow', { followerEmail, followingPseudo });
}

/** GET /api/users/with-videos?currentEmail= */
export async function fetchSuggestions(currentEmail: string, signal?: AbortSignal): Promise<SuggestedUser[]> {
  const data = await api.get<unknown>(`/api/users/with-videos?currentEmail=${enc(currentEmail)}`, { signal });
  if (!Array.isArray(data)) return [];
  return data
    .map((raw: unknown) => {
      const user = normalizeUser(raw);
      const videos = normalizeVideos((raw as { videos?: unknown }).videos, user);
      return { email: user.email, pseudo: user.pseudo, profile_picture: user.profile_picture, videos };
    })
    .filter((user) => user.pseudo !== '');
}

/** GET /api/users/profile/:pseudo → {user, videos}. */
export async function fetchProfile(pseudo: string, signal?: AbortSignal): Promise<Profile> {
  const data = await api.get<{ user?: unknown; videos?: unknown }>(`/api/users/profile/${enc(pseudo)}`, { signal });
  const user = normalizeUser(data?.user);
  if (!user.pseudo) throw new Error('Profil incomplet');
  return { user, videos: normalizeVideos(data?.videos, user) };
}

/** GET /api/users/stats/:email → {following, followers, total_likes}. */
export async function fetchStats(email: string, signal?: AbortSignal): Promise<UserStats> {
  const data = await api.get<Record<string, unknown>>(`/api/users/stats/${enc(email)}`, { signal });
  return {
    following: count(data?.following),
    followers: count(data?.followers),
    total_likes: count(data?.total_likes),
  };
}

/** GET /api/users/follows/is-following/:followerEmail/:pseudo → {isFollowing}. */
export async function fetchIsFollowing(followerEmail: string, pseudo: string, signal?: AbortSignal) {
  const data = await api.get<{ isFollowing?: unknown }>(
    `/api/users/follows/is-following/${enc(followerEmail)}/${enc(pseudo)}`,
    { signal },
  );
  return data?.isFollowing === true || data?.isFollowing === 1;
}

/** GET /api/users/friends/:email → the users I follow, with their counters. */
export async function fetchFriends(email: string, signal?: AbortSignal): Promise<Friend[]> {
  const data = await api.get<unknown>(`/api/users/friends/${enc(email)}`, { signal });
  if (!Array.isArray(data)) return [];
  return data
    .map((raw: unknown) => {
      const r = (raw ?? {}) as Record<string, unknown>;
      return {
        ...normalizeUser(r),
        followers: count(r.followers),
        videos_count: count(r.videos_count),
        likes: count(r.likes),
      };
    })
    .filter((friend) => friend.pseudo !== '');
}

/** GET /api/users/by-pseudo/:pseudo → {email, pseudo, bio, profile_picture}. */
export async function fetchUserByPseudo(pseudo: string, signal?: AbortSignal): Promise<PublicUser> {
  return normalizeUser(await api.get<unknown>(`/api/users/by-pseudo/${enc(pseudo)}`, { signal }));
}
