import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { errorMessage } from '../api/http';
import { useCurrentUser } from '../identity/sessionContext';
import { FormError } from '../shell/ui/Form';
import { ProfilePicture } from '../shell/ui/ProfilePicture';
import { catalogueForPath, userPath } from '../social/format';
import { GiftIcon } from '../videos/icons';
import { sendMessage } from './api';
import { Composer } from './Composer';
import { RestrictionNotice } from '../moderation/RestrictionNotice';
import { refreshAfterRefusal, useRestriction } from '../moderation/useMyModeration';
import { MUST_FOLLOW } from './ConversationView';
import { useMessagePermission } from './useMessagePermission';
import { useRecipient } from './useRecipient';
import './messaging.css';
import { LoginPrompt } from '../identity/LoginPrompt';
import { Loading } from '../shell/Loading';

const EMPTY_MESSAGE = 'Le message ne peut pas être vide.';
const NOT_LOGGED_IN = 'Utilisateur non connecté.';
const NO_RECIPIENT = 'Destinataire introuvable.';
const SEND_FAILED = "Erreur lors de l'envoi du message.";

/** the product screens, "Send private message (/send-message/{pseudo})". */
export default function SendMessageScreen() {
  const params = useParams();
  const pseudo = (params.pseudo ?? '').trim();
  const { user } = useCurrentUser();
  const navigate = useNavigate();
  const recipient = useRecipient(pseudo);
  const me = user?.email ?? null;
  const target = recipient.user;
  const { mustFollow, checking: checkingFollow } = useMessagePermission(me, target?.pseudo ?? null);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<{ message: string; detail?: string } | null>(null);

  // the product validation rules, "Private message": checks in this order.
  // a restriction from writing messages (issue 32): shown before the member tries
  const restricted = useRestriction('message');
  const send = async (draft: string) => {
    const content = draft.trim();
    if (!content) {
      setError({ message: EMPTY_MESSAGE });
      return false;
    }
    if (!me) {
      setError({ message: NOT_LOGGED_IN });
      return false;
    }
    if (!target?.email) {
      setError({ message: NO_RECIPIENT });
      return false;
    }
    if (mustFollow) {
      setError({ message: MUST_FOLLOW });
      return false;
    }
    setSending(true);
    setError(null);
    try {
      const sent = await sendMessage({ senderEmail: me, receiverEmail: target.email, content });
      // the product's /messages, with the new conversation open rather than the bare inbox (issue 30);
      // its thread shows the message sent, so no toast comes over it
      navigate(`/messages?avec=${encodeURIComponent(target.pseudo)}`, { state: { sent } });
      return true;
    } catch (err) {
      // Server refusals (inappropriate word, not following…) are shown as they come.
      setError({ message: SEND_FAILED, detail: errorMessage(err) });
      refreshAfterRefusal(err);
      return false;
    } finally {
      setSending(false);
    }
  };

  return (
    <section className="page send-message" aria-labelledby="send-message-title">
      <title>{pseudo ? `Message à @${pseudo} · EVO` : 'Message privé · EVO'}</title>
      <h1 id="send-message-title">Message privé</h1>
      {recipient.problem ? (
        <div className="alert alert--danger" role="alert">
          {recipient.problem}
        </div>
      ) : !target ? (
        <Loading />
      ) : (
        <>
          <article className="card send-message__profile" aria-label={`Profil de @${target.pseudo}`}>
            <ProfilePicture pseudo={target.pseudo} profilePicture={target.profile_picture} size={72} alt="" />
            <div className="send-message__who">
              <h2>
                <Link to={userPath(target.pseudo)}>@{target.pseudo}</Link>
              </h2>
              <p className={target.bio ? '' : 'send-message__nobio'}>{target.bio || 'Aucune bio'}</p>
            </div>
          </article>
          <div className="card send-message__form">
            {!me ? <LoginPrompt message={NOT_LOGGED_IN} /> : null}
            {error ? <FormError message={error.message} detail={error.detail} /> : null}
            <Composer
              label={`Ton message à @${target.pseudo}`}
              placeholder={`Écrire à @${target.pseudo}…`}
              rows={4}
              onSend={send}
              sending={sending}
              disabled={restricted !== null || mustFollow || checkingFollow || !me}
              disabledReason={
                restricted !== null ? (
                  <RestrictionNotice message={restricted} />
                ) : mustFollow ? (
                  <>
                    {MUST_FOLLOW} <Link to={userPath(target.pseudo)}>Suivre @{target.pseudo}</Link>
                  </>
                ) : undefined
              }
              extraActions={
                <Link
                  to={catalogueForPath(target.pseudo)}
                  className="icon-button send-message__gift"
                  aria-label={`Envoyer un cadeau à @${target.pseudo}`}
                >
                  <GiftIcon />
                </Link>
              }
            />
          </div>
        </>
      )}
    </section>
  );
}
