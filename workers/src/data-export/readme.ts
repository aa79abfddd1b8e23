import { frenchDateTime } from '@evo/domain';

/** The archive's LISEZMOI.txt: what each file holds, in French (the member reads it). */
export const ARCHIVE_README = (exportedAt: Date, ttlDays: number): string =>
  `Tes données sur EVO
===================

Archive préparée le ${frenchDateTime(exportedAt)} (heure de Paris), à partir du journal
complet d'EVO : tout ce qui a été enregistré à ton sujet depuis ton inscription, y compris ce
que tu as supprimé depuis (une vidéo, une conversation, un abonnement retiré).
Le lien de téléchargement reste valable ${ttlDays} jours ; l'archive est ensuite effacée.

Les fichiers JSON sont en UTF-8. Les noms des champs sont en anglais et ne changent pas d'une
archive à l'autre ; les dates sont au format ISO 8601 (UTC, par exemple 2026-11-29T10:00:00.000Z).
Les autres membres sont désignés par leur pseudo, jamais par leur adresse e-mail.

profile.json        ton profil : e-mail, pseudo, bio, photo (member_id, email, pseudo, bio,
                    profile_picture : chemin de la photo dans l'archive, registered_at, is_admin)
                    et son historique (history : inscription, modifications du profil,
                    changements de mot de passe, liens de réinitialisation ; jamais le mot de
                    passe ni son empreinte)
logins.json         tes connexions (logins : at). Les sessions elles-mêmes ne sont pas dans le
                    journal : un cookie de session expire 7 jours après sa dernière utilisation.
videos.json         tes vidéos : titre, description, date d'envoi, type et taille du fichier,
                    traitement (durée, codec, dimensions, ou motif de refus), visibilité et son
                    historique (by : member ou administrator, reason), file et poster : chemins
                    des fichiers dans l'archive (null si le fichier n'est plus stocké)
comments.json       tes commentaires et réponses (is_reply, parent_comment_id, content, posted_at)
messages.json       tes messages privés envoyés et reçus (direction : sent ou received,
                    other_member, content, sent_at) et les conversations que tu as supprimées
                    de ta messagerie (conversations_deleted)
likes.json          tes « j'aime » et leurs retraits (action : liked ou unliked)
favorites.json      tes favoris (action : added ou removed)
follows.json        les membres que tu suis et qui te suivent aujourd'hui (following, followers)
                    et tout l'historique des abonnements (following_history, followers_history)
reports.json        tes signalements (reason, reported_at) et l'évolution de leur statut
notifications.json  les notifications que tu as reçues (type, sender, message, video_id, at,
                    read, deleted)
gifts.json          les cadeaux envoyés (sent : gift, coins, to) et reçus (received : from, coins,
                    fee : commission, credited : coins crédités, claimed_at)
coins.json          chaque mouvement de coins (type : achat, ajout, retrait, cadeau_envoye,
                    cadeau_recu, recuperation, conversion ; amount : variation de tes coins
                    utilisables ; account_changes : variation par compte ; balance_after : tes
                    soldes juste après, dont spendable, withdrawable et gifts_unclaimed)
moderation.json     les restrictions décidées à ton sujet et tes contestations
data-exports.json   tes demandes d'archive (by : member, ou administrator pour une demande
                    reçue par courrier)
media/              tes fichiers : photo de profil (media/profile/), vidéos (media/videos/<id>)
                    et leurs affiches (media/posters/<id>)
`;
