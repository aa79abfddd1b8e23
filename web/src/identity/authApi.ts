import {
  MeAnswer,
  PasswordResetDoneAnswer,
  PasswordResetRequestedAnswer,
  RegisteredAnswer,
  SessionUser,
} from '@evo/contracts';
import { ApiError, api, uploadWithProgress } from '../api/http';
import { decode } from '../api/decode';
import type { CurrentUser } from './session';

export interface MeResult {
  user: CurrentUser | null;
  adminEmail: string | null;
}

/** GET /api/auth/me: 200 → the session user, 401 → logged out. Other failures throw. */
export async function fetchMe(signal?: AbortSignal): Promise<MeResult> {
  try {
    const me = decode(MeAnswer, await api.get('/api/auth/me', { signal, skipAuthRedirect: true }));
    const { email, pseudo, role, is_admin, profile_picture } = me;
    return { user: { email, pseudo, role, is_admin, profile_picture }, adminEmail: me.admin_email || null };
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return { user: null, adminEmail: null };
    throw err;
  }
}

/** POST /api/auth/login → the member now logged in. */
export async function login(email: string, password: string): Promise<SessionUser> {
  return decode(SessionUser, await api.post('/api/auth/login', { email, password }, { skipAuthRedirect: true }));
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
export async function register(
  input: Registration,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<RegisteredAnswer> {
  const form = new FormData();
  form.append('email', input.email);
  form.append('pseudo', input.pseudo);
  form.append('password', input.password);
  form.append('bio', input.bio);
  form.append('video_title', input.videoTitle);
  form.append('profilePic', input.profilePic);
  form.append('video', input.video);
  const options = { onProgress, signal, skipAuthRedirect: true };
  return decode(RegisteredAnswer, await uploadWithProgress('/api/auth/register', form, options));
}

/** POST /api/auth/password-reset: the same French answer whether the email names a member or not. */
export async function askPasswordReset(email: string): Promise<PasswordResetRequestedAnswer> {
  return decode(
    PasswordResetRequestedAnswer,
    await api.post('/api/auth/password-reset', { email }, { skipAuthRedirect: true }),
  );
}

/** POST /api/auth/password-reset/confirm: the new password set through the link; the member is logged in. */
export async function confirmPasswordReset(token: string, password: string): Promise<PasswordResetDoneAnswer> {
  return decode(
    PasswordResetDoneAnswer,
    await api.post('/api/auth/password-reset/confirm', { token, password }, { skipAuthRedirect: true }),
  );
}
