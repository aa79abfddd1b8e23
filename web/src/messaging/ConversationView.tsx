import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { errorMessage } from '../api/http';
import { userPath } from '../social/format';
import { useConfirm } from '../shell/confirm';
import { useToast } from '../shell/toast';
import { FormError } from '../shell/ui/Form';
import { ProfilePicture } from '../shell/ui/ProfilePicture';
import { TrashIcon } from '../videos/icons';
import { QueryState } from '../shell/ui/QueryState';
import { deleteConversation, sendMessage } from './api';
import { Composer } from './Composer';
import { MessageThread } from './MessageThread';
import { addMessages, forgetConversation } from './live';
import { useConversation } from './useConversation';
import { useMessagePermission } from './useMessagePermission';
import { setOpenConversation } from '../notifications/store';
import { RestrictionNotice } from '../moderation/RestrictionNotice';
import { refreshAfterRefusal, useRestriction } from '../moderation/useMyModeration';
import './messaging.css';

export const LOAD_FAILED = 'Erreur chargement messages';
const SEND_FAILED = 'Erreur envoi message';
const DELETE_FAILED = 'Suppression impossible';
const DELETE_CONFIRM = 'Supprimer la conversation ?';
const REPLY_SENT = '✅ Réponse envoyée !';
export const MUST_FOLLOW = 'Vous devez suivre cet utilisateur pour lui envoyer un MP.';
const SENT_VISIBLE_MS = 2000;

export interface ConversationParty {
  pseudo: string;
  email: string | null;
  picture: string | null;
}

interface ConversationViewProps {
  me: string;
  other: ConversationParty;
  /** 'inbox': inside /messages (delete button, reply status); 'page': /messages/{pseudo}. */
  variant: 'inbox' | 'page';
  /** Shown before the header (e.g. the inbox's back button on phones). */
  before?: ReactNode;
  /** After the conversation was deleted (it is already out of the cache). */
  onDeleted?: () => void;
  headingLevel?: 1 | 2;
}

/** A conversation: header, live thread, reply box with emoji button. */
export function ConversationView({ me, other, variant, before, onDeleted, headingLevel = 2 }: ConversationViewProps) {
  const toast = useToast();
  const confirm = useConfirm();
  const client = useQueryClient();
  const thread = useConversation(me, other.pseudo);
  const { mustFollow, checking: checkingFollow } = useMessagePermission(me, other.pseudo);
  const [sending, setSending] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [sendError, setSendError] = useState<{ detail?: string } | null>(null);
  const [sent, setSent] = useState(false);
  const sentTimer = useRef<number | null>(null);
  const Heading = `h${headingLevel}` as const;
  const headingId = useId();

  useEffect(
    () => () => {
      if (sentTimer.current !== null) window.clearTimeout(sentTimer.current);
    },
    [],
  );

  // the messages of this conversation are read here: the bell does not count them (issue 30)
  useEffect(() => {
    setOpenConversation(other.email);
    return () => setOpenConversation(null);
  }, [other.email]);

  // a restriction from writing messages (issue 32): shown before the member tries
  const restricted = useRestriction('message');
  const send = async (draft: string) => {
    const content = draft.trim();
    if (!content || !other.email) return false; // blank replies are ignored
    setSending(true);
    setSendError(null);
    try {
      const stored = await sendMessage(
        { senderEmail: me, receiverEmail: other.email, content },
        variant === 'page' ? '/api/messages/' : '/api/messages',
      );
      addMessages(client, me, [stored]);
      if (sentTimer.current !== null) window.clearTimeout(sentTimer.current);
      setSent(true);
      sentTimer.current = window.setTimeout(() => setSent(false), SENT_VISIBLE_MS);
      return true;
    } catch (err) {
      setSendError({ detail: errorMessage(err) });
      refreshAfterRefusal(err);
      return false;
    } finally {
      setSending(false);
    }
  };

  const remove = async () => {
    if (!other.email || deleting) return;
    if (!(await confirm(DELETE_CONFIRM, { confirmLabel: 'Supprimer', danger: true }))) return;
    setDeleting(true);
    try {
      await deleteConversation(me, other.email);
      forgetConversation(client, me, other.email);
      onDeleted?.();
    } catch (err) {
      toast.error(DELETE_FAILED, { detail: errorMessage(err) });
    } finally {
      setDeleting(false);
    }
  };

  return (
    <section className="conversation fill" aria-labelledby={headingId}>
      <header className="conversation__head">
        {before}
        <Link to={userPath(other.pseudo)} className="conversation__who" aria-hidden="true" tabIndex={-1}>
          <ProfilePicture pseudo={other.pseudo} profilePicture={other.picture} size={40} alt="" />
        </Link>
        <Heading id={headingId} className="conversation__title">
          <Link to={userPath(other.pseudo)}>@{other.pseudo}</Link>
        </Heading>
        {variant === 'inbox' ? (
          <button
            type="button"
            className="btn btn--ghost btn--small conversation__delete"
            onClick={() => void remove()}
            disabled={deleting || !other.email}
          >
            <TrashIcon size={18} />
            Supprimer la conversation
          </button>
        ) : null}
      </header>

      <QueryState query={thread} failed={LOAD_FAILED} loadingClassName="thread thread--loading fill__scroll">
        {(messages) => <MessageThread messages={messages} me={me} otherPseudo={other.pseudo} />}
      </QueryState>

      <div className="conversation__status" role="status">
        {sent ? REPLY_SENT : ''}
      </div>
      {sendError ? <FormError message={SEND_FAILED} detail={sendError.detail} /> : null}
      <Composer
        label={`Ta réponse à @${other.pseudo}`}
        placeholder="Écrire un message…"
        onSend={send}
        sending={sending}
        disabled={restricted !== null || mustFollow || checkingFollow || !other.email}
        disabledReason={
          restricted !== null ? (
            <RestrictionNotice message={restricted} />
          ) : mustFollow ? (
            <>
              {MUST_FOLLOW} <Link to={userPath(other.pseudo)}>Voir le profil</Link>
            </>
          ) : undefined
        }
      />
    </section>
  );
}
