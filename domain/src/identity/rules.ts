import { z } from 'zod';
import { EMAIL_MESSAGES } from '@evo/contracts';
import { cleanedText } from '../shared/text';
import { pseudoSkeleton } from './skeleton';
import { RESET_MESSAGES } from './password-reset';

/** Case-insensitive uniqueness: emails and pseudos are compared trimmed and lower-cased. */
export const normalize = (v: string) => v.trim().toLowerCase();
export const userStream = (userId: string) => `user-${userId}`;
/**
 * Uniqueness claims: `email-<normalised>`, `pseudo-<normalised>` (the exact pseudo, case aside),
 * and `pseudoskeleton-<skeleton>`: the pseudo's confusables skeleton, so that two pseudos that
 * look alike (Cyrillic `lеa`, `Iea`) claim the same stream and only one is ever registered.
 * These names hold personal data: the log stores them under a keyed hash (see
 * `personalStreamKind`), never as they are.
 */
export type ReservationKind = 'email' | 'pseudo' | 'pseudoSkeleton';
export const reservationStream = (kind: ReservationKind, value: string) =>
  kind === 'pseudoSkeleton' ? `pseudoskeleton-${pseudoSkeleton(value)}` : `${kind}-${normalize(value)}`;

export const DEFAULT_PROFILE_PICTURE = 'default.png';
export const ADMIN_ROLE = 'admin';
export const MEMBER_ROLE = 'user';

export const LIMITS = {
  emailMax: 254,
  pseudoMin: 3,
  pseudoMax: 30,
  passwordMin: 8,
  passwordMax: 200,
  bioMax: 500,
  titleMax: 150,
  descriptionMax: 2000,
} as const;

export const MESSAGES = {
  ...EMAIL_MESSAGES,
  emailTooLong: `L'email ne doit pas dépasser ${LIMITS.emailMax} caractères.`,
  pseudoRequired: 'Le pseudo est obligatoire.',
  pseudoInvalid: `Le pseudo doit faire de ${LIMITS.pseudoMin} à ${LIMITS.pseudoMax} caractères : lettres, chiffres, points, tirets ou soulignés.`,
  passwordRequired: 'Le mot de passe est obligatoire.',
  passwordTooShort: `Le mot de passe doit contenir au moins ${LIMITS.passwordMin} caractères.`,
  passwordTooLong: `Le mot de passe ne doit pas dépasser ${LIMITS.passwordMax} caractères.`,
  bioRequired: 'La bio est obligatoire.',
  bioTooLong: `La bio ne doit pas dépasser ${LIMITS.bioMax} caractères.`,
  titleRequired: 'Le titre de la vidéo est obligatoire.',
  titleTooLong: `Le titre ne doit pas dépasser ${LIMITS.titleMax} caractères.`,
  descriptionTooLong: `La description ne doit pas dépasser ${LIMITS.descriptionMax} caractères.`,
  emailTaken: 'Cet email est déjà utilisé.',
  pseudoTaken: 'Ce pseudo est déjà pris.',
  pseudoLookalike: 'Ce pseudo ressemble trop à un pseudo déjà pris.',
  alreadyRegistered: 'Ce compte existe déjà.',
  badCredentials: 'Email ou mot de passe incorrect.',
  unknownUser: 'Utilisateur introuvable.',
  alreadyAdmin: 'Cet utilisateur est déjà administrateur.',
  notAdmin: "Cet utilisateur n'est pas administrateur.",
  lastAdmin: 'Impossible de retirer le dernier administrateur.',
  profileSaved: '✅ Profil mis à jour.',
  profileUnchanged: 'Rien à enregistrer : ton profil est déjà ainsi.',
} as const;

const required = (msg: string) => z.string({ required_error: msg, invalid_type_error: msg });

export const emailField = required(MESSAGES.emailRequired)
  .trim()
  .min(1, MESSAGES.emailRequired)
  .max(LIMITS.emailMax, MESSAGES.emailTooLong)
  .email(MESSAGES.emailInvalid);
export const pseudoField = cleanedText(
  required(MESSAGES.pseudoRequired)
    .trim()
    .min(1, MESSAGES.pseudoRequired)
    .regex(new RegExp(`^[\\p{L}\\p{N}_.-]{${LIMITS.pseudoMin},${LIMITS.pseudoMax}}$`, 'u'), MESSAGES.pseudoInvalid),
);
export const passwordField = required(MESSAGES.passwordRequired)
  .min(1, MESSAGES.passwordRequired)
  .min(LIMITS.passwordMin, MESSAGES.passwordTooShort)
  .max(LIMITS.passwordMax, MESSAGES.passwordTooLong);
export const bioField = cleanedText(
  required(MESSAGES.bioRequired).trim().min(1, MESSAGES.bioRequired).max(LIMITS.bioMax, MESSAGES.bioTooLong),
);
export const videoTitleField = cleanedText(
  required(MESSAGES.titleRequired).trim().min(1, MESSAGES.titleRequired).max(LIMITS.titleMax, MESSAGES.titleTooLong),
);
export const descriptionField = cleanedText(
  z
    .string({ invalid_type_error: MESSAGES.descriptionTooLong })
    .trim()
    .max(LIMITS.descriptionMax, MESSAGES.descriptionTooLong)
    .default(''),
);

export const RegisterBody = z.object({
  email: emailField,
  pseudo: pseudoField,
  password: passwordField,
  bio: bioField,
  video_title: videoTitleField,
});
export const LoginBody = z.object({
  email: required(MESSAGES.emailRequired)
    .trim()
    .min(1, MESSAGES.emailRequired)
    .max(LIMITS.emailMax, MESSAGES.badCredentials),
  password: required(MESSAGES.passwordRequired)
    .min(1, MESSAGES.passwordRequired)
    .max(LIMITS.passwordMax, MESSAGES.badCredentials),
});

/** "Mot de passe oublié ?": the email asked for (any email of the right shape: the answer is the same). */
export const PasswordResetRequestBody = z.object({ email: emailField });
/** A reset link used: its token (from the link) and the new password (the registration's rule). */
export const PasswordResetBody = z.object({
  token: z
    .string({ required_error: RESET_MESSAGES.invalid, invalid_type_error: RESET_MESSAGES.invalid })
    .max(200, RESET_MESSAGES.invalid),
  password: passwordField,
});

/**
 * "Modifier le profil": a bio (may be emptied: screens then say 'Aucune bio') and, as a file, a
 * picture; an absent field keeps what is there. The pseudo is not edited: links and mentions name it.
 */
export const ProfileEditBody = z.object({
  bio: cleanedText(
    z.string({ invalid_type_error: MESSAGES.bioTooLong }).trim().max(LIMITS.bioMax, MESSAGES.bioTooLong),
  ).optional(),
});
