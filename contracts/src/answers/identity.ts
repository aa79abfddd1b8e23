import { z } from 'zod';
import { getRoute } from '../api-route';

/** Answers of the session routes (`/api/auth/*`). */

/** What a request is told of an email field (the domain's identity messages spread these). */
export const EMAIL_MESSAGES = {
  emailRequired: "L'email est obligatoire.",
  emailInvalid: "L'email n'est pas valide.",
} as const;

/**
 * The two refusals of a member going beyond what is theirs, each text named once (the domain's
 * slices and the coin messages point here):
 * - `action`: the request names someone else as who acts (a body email that is not the session
 *   member's), or acts on what is another's (claiming their gift); the social slice also answers
 *   it to a member asking whom another member follows;
 * - `access`: the request reads or changes another member's data (coins, gifts, a conversation,
 *   notifications).
 */
export const NOT_YOURS = {
  action: 'Action non autorisée.',
  access: 'Accès refusé.',
} as const;

/** POST /api/auth/login: the member who just logged in. */
export const SessionUser = z.object({
  email: z.string(),
  pseudo: z.string(),
  profile_picture: z.string(),
  /** 'admin' or 'member' */
  role: z.string(),
  is_admin: z.boolean(),
});
export type SessionUser = z.infer<typeof SessionUser>;

/** GET /api/auth/me: the session's member, and the address of the platform's administrator. */
export const MeAnswer = SessionUser.extend({ bio: z.string(), admin_email: z.string() });
export type MeAnswer = z.infer<typeof MeAnswer>;

/** POST /api/auth/register → 201 */
export const RegisteredAnswer = z.object({ message: z.string(), email: z.string(), pseudo: z.string() });
export type RegisteredAnswer = z.infer<typeof RegisteredAnswer>;

/** POST /api/auth/password-reset { email } → 202: the same answer whether the email names a member or not. */
export const PasswordResetRequestedAnswer = z.object({ message: z.string() });
export type PasswordResetRequestedAnswer = z.infer<typeof PasswordResetRequestedAnswer>;

/** DELETE /api/users/me { password }: the account is deleted and this browser logged out. */
export const AccountDeletedAnswer = z.object({ message: z.string() });
export type AccountDeletedAnswer = z.infer<typeof AccountDeletedAnswer>;

/** POST /api/auth/password-reset/confirm { token, password }: the member, now logged in. */
export const PasswordResetDoneAnswer = SessionUser.extend({ message: z.string() });
export type PasswordResetDoneAnswer = z.infer<typeof PasswordResetDoneAnswer>;

/**
 * The same call → 503 when the new password is set but this browser's session could not open: the
 * page says so and offers the login, the email filled in (the link has served).
 */
export const PasswordResetNotLoggedInAnswer = z.object({
  error: z.string(),
  password_changed: z.literal(true),
  email: z.string(),
});
export type PasswordResetNotLoggedInAnswer = z.infer<typeof PasswordResetNotLoggedInAnswer>;

/** PUT /api/users/me/profile (multipart: bio, profilePic): the member as they now show. */
export const ProfileEditedAnswer = SessionUser.extend({ bio: z.string(), message: z.string() });
export type ProfileEditedAnswer = z.infer<typeof ProfileEditedAnswer>;

/** The session's member (`/api/auth/me`). */
export const identityRoutes = { me: getRoute('/api/auth/me', MeAnswer) };
