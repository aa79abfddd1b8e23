/**
 * Password reset links ("Mot de passe oublié ?"): a link carries a random secret; the member's
 * stream keeps only its SHA-256 (`tokenHash`), when it expires, and whether it served. One link
 * serves once; a new password (by a link or otherwise) closes every link issued before it.
 */

/** How long a reset link stays usable (the default of PASSWORD_RESET_TTL_MINUTES). */
export const RESET_LINK_TTL_MINUTES = 60;
/** links remembered per member (the oldest forgotten first: they expired long ago) */
export const RESET_LINKS_KEPT = 20;

/** "1 heure", "30 minutes", "2 heures": how long a link lasts, in the member's words */
export function resetLinkLifetime(minutes: number): string {
  if (minutes >= 60 && minutes % 60 === 0) {
    const hours = minutes / 60;
    return `${hours} heure${hours > 1 ? 's' : ''}`;
  }
  const rounded = Math.max(1, Math.round(minutes));
  return `${rounded} minute${rounded > 1 ? 's' : ''}`;
}

export const RESET_MESSAGES = {
  /** the one answer to a request, whether the email names a member or not */
  requested: (minutes: number) =>
    `Si un compte existe pour cette adresse, tu vas recevoir un lien pour choisir un nouveau mot de passe. Il est valable ${resetLinkLifetime(minutes)} et ne sert qu'une fois.`,
  invalid: "Ce lien de réinitialisation n'est pas valide. Demande un nouveau lien.",
  expired: 'Ce lien de réinitialisation a expiré. Demande un nouveau lien.',
  used: 'Ce lien de réinitialisation a déjà servi. Demande un nouveau lien.',
  closed: "Ce lien n'est plus valable : le mot de passe a été changé depuis. Demande un nouveau lien.",
  tooMany: 'Trop de demandes de réinitialisation. Réessaie plus tard.',
  done: '✅ Mot de passe modifié. Tu es connecté.',
  /** the password changed and every session ended, but this browser's could not open */
  doneNotLoggedIn: 'Mot de passe modifié, mais la connexion a échoué. Connecte-toi avec ton nouveau mot de passe.',
  mailSubject: 'EVO : choisis un nouveau mot de passe',
  issuedByAdmin: (email: string, minutes: number) =>
    `Lien de réinitialisation créé pour ${email}. Transmets-le au membre : il est valable ${resetLinkLifetime(minutes)} et ne sert qu'une fois.`,
} as const;

/** The email's text: the link, how long it lasts, and what to do when one did not ask. */
export function resetMailText(pseudo: string, link: string, minutes: number): string {
  return [
    `Bonjour ${pseudo},`,
    '',
    'Pour choisir un nouveau mot de passe EVO, ouvre ce lien :',
    link,
    '',
    `Il est valable ${resetLinkLifetime(minutes)} et ne sert qu'une fois.`,
    "Si tu n'as rien demandé, ignore ce message : ton mot de passe reste le même.",
  ].join('\n');
}

/** A link as the member's stream remembers it. */
export interface ResetLink {
  tokenHash: string;
  /** ISO time */
  expiresAt: string;
  /** open: usable until it expires; used: it served; closed: a later new password ended it */
  status: 'open' | 'used' | 'closed';
}
