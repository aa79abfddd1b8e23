import { ApiError, api, uploadWithProgress } from '../api/http';
import { normalizeUser, type CurrentUser } from './session';

export interface MeResult {
  user: CurrentUser | null;
  adminEmail: string | null;
}

/** GET /api/auth/me: 200 → the session user, 401 → logged out. Other failures throw. */
export async function fetchMe(signal?: AbortSignal): Promise<MeResult> {
  try {
    const data = await api.get<Record<string, unknown>>('/api/auth/me', { signal, skipAuthRedirect: true });
    const adminEmail = typeof data?.admin_email === 'string' && data.admin_email ? data.admin_email : null;
    return { user: normalizeUser(data), adminEmail };
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return { user: null, adminEmail: null };
    throw err;
  }
}

/** POST /api/auth/login. The answer may lack an email: the caller treats that as bad credentials. */
export function login(email: string, password: string): Promise<unknown> {
  return api.post('/api/auth/login', { email, password }, { skipAuthRedirect: true });
}

export function logout(): Promise<unknown> {
  return api.post('/api/auth/logout', undefined, { skipAuthRedirect: true });
}

export interface Registration {
  email: string;
  pseudo: string;
  password: string;
  bio: string;
  videoTitle: string;
  profilePic: File;
  video: File;
}

/** POST /api/auth/register (multipart), with upload progress. */
export function register(
  input: Registration,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<unknown> {
  const form = new FormData();
  form.append('email', input.email);
  form.append('pseudo', input.pseudo);
  form.append('password', input.password);
  form.append('bio', input.bio);
  form.append('video_title', input.videoTitle);
  form.append('profilePic', input.profilePic);
  form.append('video', input.video);
  return uploadWithProgress('/api/auth/register', form, { onProgress, signal, skipAuthRedirect: true });
}
