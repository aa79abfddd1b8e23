import { z } from 'zod';

/*
 * Account deletion (issue 31). A member deletes their account with their password asked again:
 * `AccountDeleted` on `user-<id>` (no personal data), after which every read model forgets them and
 * their sessions end. The erasure process then closes their wallet (ledger: `WalletClosed`),
 * removes their files, destroys their key (their events' personal fields become unreadable) and
 * records `MemberErased`.
 *
 * The ledger rule (the wallet decider's `CloseWallet`): coins a member may withdraw (their earnings)
 * must be withdrawn first: the deletion is refused while there are some, naming the amount. The
 * others (bought, bonus, received gifts not claimed) are forfeited to `platform:forfeits`, in balanced
 * postings on the member's wallet stream, and the wallet then refuses every movement. A gift sent to a
 * closed wallet is forfeited the same way when it arrives (`GiftForfeited`). The movements stay in
 * the log and the audit, the member named only by their id.
 */

/** Days after a deletion before its email and pseudo may be registered again. */
export const ACCOUNT_DELETION_GRACE_DAYS = 30;
export const ACCOUNT_DELETION_GRACE_MS = ACCOUNT_DELETION_GRACE_DAYS * 24 * 60 * 60 * 1000;

/** What the screens show instead of a deleted member (a reply left under their removed comment). */
export const DELETED_MEMBER_LABEL = 'Membre supprimé';

export const DELETION_MESSAGES = {
  passwordRequired: 'Entre ton mot de passe pour confirmer la suppression.',
  wrongPassword: "Mot de passe incorrect : ton compte n'a pas été supprimé.",
  withdrawFirst: (coins: number) =>
    `Tu as encore ${coins} coins retirables : retire-les depuis ton coffre (Retrait) avant de supprimer ton compte.`,
  adminAccount:
    "Un compte administrateur ne peut pas être supprimé : demande d'abord à un autre administrateur de te retirer ce rôle.",
  alreadyDeleted: 'Ce compte est déjà supprimé.',
  deleted: 'Ton compte a été supprimé. Tes données sont en cours d’effacement.',
} as const;

/** The request: the password typed again (never checked here: the handler verifies its hash). */
export const DeleteAccountBody = z.object({
  password: z
    .string({
      required_error: DELETION_MESSAGES.passwordRequired,
      invalid_type_error: DELETION_MESSAGES.passwordRequired,
    })
    .min(1, DELETION_MESSAGES.passwordRequired)
    .max(200, DELETION_MESSAGES.wrongPassword),
});

/** May a value a deleted member claimed (email, pseudo) be taken again at `now`? */
export const deletedClaimReleased = (deletedAt: string, now: Date): boolean =>
  now.getTime() - Date.parse(deletedAt) >= ACCOUNT_DELETION_GRACE_MS;
