import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { ApiError, errorMessage } from '../api/http';
import { loginPathFor } from '../identity/returnPath';
import { useCurrentUser } from '../identity/sessionContext';
import { formatFullDate, formatRelative, isoDate, userPath } from '../social/format';
import { useToast } from '../shell/toast';
import { ProfilePicture } from '../shell/ui/ProfilePicture';
import type { CommentsState } from './useComments';
import { postComment, threadComments, type VideoComment } from './videoApi';
import { RestrictionNotice } from '../moderation/RestrictionNotice';

/** a comment kept for its replies, its author's account deleted */
const DELETED_COMMENT = 'Commentaire supprimé avec le compte de son auteur.';
import { refreshAfterRefusal, useRestriction } from '../moderation/useMyModeration';

const PSEUDO_MISSING = '❌ Erreur : pseudo introuvable, reconnectez-vous.';
const SEND_FAILED = '❌ Erreur envoi commentaire';
const NO_COMMENTS = 'Aucun commentaire pour le moment.';
const POSTED = 'Commentaire publié.';

interface CommentsPanelProps {
  id: string;
  videoId: number;
  comments: CommentsState;
  /** After a successful send: the owner closes the panel and reloads the comments. */
  onPosted: () => void;
}

interface ReplyTarget {
  id: number;
  pseudo: string;
}

/** Threaded comments, one level deep, with Répondre; the form only for logged-in members. */
export function CommentsPanel({ id, videoId, comments, onPosted }: CommentsPanelProps) {
  const { user } = useCurrentUser();
  const location = useLocation();
  const toast = useToast();
  const [draft, setDraft] = useState('');
  const [replyTo, setReplyTo] = useState<ReplyTarget | null>(null);
  const [sending, setSending] = useState(false);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const inputId = useId();
  const threads = comments.data ? threadComments(comments.data) : [];
  // a restriction from commenting (issue 32): shown before the member tries; a refusal while they
  // were typing (a restriction taken meanwhile) is shown in the server's words until it is loaded
  const restricted = useRestriction('comment');
  const [refusal, setRefusal] = useState<string | null>(null);
  useEffect(() => setRefusal(null), [restricted]);
  const blocked = restricted ?? refusal;

  const startReply = (comment: VideoComment, rootId: number) => {
    setReplyTo({ id: rootId, pseudo: comment.user_pseudo });
    inputRef.current?.focus();
  };

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    const content = draft.trim();
    if (!content || sending || !user || blocked) return;
    if (!user.pseudo.trim()) {
      toast.error(PSEUDO_MISSING);
      return;
    }
    setSending(true);
    try {
      const answer = await postComment(videoId, {
        userEmail: user.email,
        userPseudo: user.pseudo,
        content,
        parentId: replyTo?.id ?? null,
      });
      setDraft('');
      setReplyTo(null);
      toast.success(answer.message ?? POSTED);
      onPosted();
    } catch (err) {
      toast.error(SEND_FAILED, { detail: errorMessage(err) });
      if (err instanceof ApiError && err.status === 403) setRefusal(errorMessage(err) ?? null);
      refreshAfterRefusal(err);
    } finally {
      setSending(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    } else if (event.key === 'Escape' && replyTo) {
      event.preventDefault();
      setReplyTo(null);
    }
  };

  const renderComment = (comment: VideoComment, rootId: number, isReply: boolean) => (
    <article
      className={isReply ? 'comment comment--reply' : 'comment'}
      aria-label={comment.author_deleted ? DELETED_COMMENT : `Commentaire de @${comment.user_pseudo}`}
    >
      <ProfilePicture pseudo={comment.user_pseudo} profilePicture={comment.user_profile_picture} size={32} alt="" />
      <div className="comment__body">
        <p className="comment__meta">
          {comment.author_deleted ? (
            <span className="comment__author comment__author--deleted">{comment.user_pseudo}</span>
          ) : comment.user_pseudo ? (
            <Link to={userPath(comment.user_pseudo)} className="comment__author">
              @{comment.user_pseudo}
            </Link>
          ) : (
            <span className="comment__author">@inconnu</span>
          )}
          {comment.created_at ? (
            <time dateTime={isoDate(comment.created_at)} title={formatFullDate(comment.created_at)}>
              {formatRelative(comment.created_at)}
            </time>
          ) : null}
        </p>
        {comment.author_deleted ? (
          // kept because others answered it: its author deleted their account, and their text with it
          <p className="comment__content comment__content--deleted">{DELETED_COMMENT}</p>
        ) : (
          <p className="comment__content">{comment.content}</p>
        )}
        {user && !comment.author_deleted ? (
          <button
            type="button"
            className="link-button comment__reply"
            aria-label={`Répondre à @${comment.user_pseudo}`}
            onClick={() => startReply(comment, rootId)}
          >
            Répondre
          </button>
        ) : null}
      </div>
    </article>
  );

  return (
    <div id={id} className="comments" role="region" aria-label="Commentaires" aria-busy={comments.loading}>
      {comments.loading && !comments.data ? (
        <p className="comments__status" role="status">
          Chargement...
        </p>
      ) : null}
      {comments.data && threads.length === 0 ? <p className="comments__status">{NO_COMMENTS}</p> : null}
      {threads.length > 0 ? (
        <ul className="stack-list comments__list">
          {threads.map(({ comment, replies }) => (
            <li key={comment.id}>
              {renderComment(comment, comment.id, false)}
              {replies.length > 0 ? (
                <ul className="stack-list comments__replies" aria-label={`Réponses à @${comment.user_pseudo}`}>
                  {replies.map((reply) => (
                    <li key={reply.id}>{renderComment(reply, comment.id, true)}</li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}

      {user ? (
        <form className="comments__form" onSubmit={submit} aria-busy={sending}>
          <RestrictionNotice message={blocked} />
          {replyTo ? (
            <p className="comments__replying">
              <span>Réponse à @{replyTo.pseudo}</span>
              <button type="button" className="link-button" onClick={() => setReplyTo(null)}>
                Annuler la réponse
              </button>
            </p>
          ) : null}
          <label htmlFor={inputId} className="sr-only">
            {replyTo ? `Ta réponse à @${replyTo.pseudo}` : 'Ton commentaire'}
          </label>
          <div className="comments__row">
            <textarea
              ref={inputRef}
              className="text-input"
              id={inputId}
              rows={1}
              maxLength={1000}
              placeholder={replyTo ? 'Ta réponse…' : 'Ton commentaire…'}
              value={draft}
              disabled={blocked !== null}
              onChange={(event) => setDraft(event.target.value)}
              onKeyDown={onKeyDown}
            />
            <button
              type="submit"
              className="btn btn--primary btn--small"
              disabled={sending || !draft.trim() || blocked !== null}
            >
              Envoyer
            </button>
          </div>
        </form>
      ) : (
        <p className="comments__login">
          <Link to={loginPathFor(location)}>Connecte-toi</Link> pour commenter.
        </p>
      )}
    </div>
  );
}
