import { useMemo, useRef } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { useCurrentUser } from '../identity/sessionContext';
import { useSocketEvent } from '../shell/socket';
import { useToast } from '../shell/toast';
import { ProfilePicture } from '../shell/ui/ProfilePicture';
import { formatFullDate, formatMessageTime, isoDate, sameIdentity } from '../social/format';
import { useLoad } from '../api/useLoad';
import { ArrowLeftIcon } from '../videos/icons';
import { fetchReceived, type HiddenConversation, type Message } from './api';
import { groupConversations, hideUpTo, mergeMessages, type ConversationSummary } from './conversations';
import { ConversationView, LOAD_FAILED } from './ConversationView';
import './messaging.css';
import { LoginPrompt } from '../identity/LoginPrompt';

const TITLE = 'Messages';
const NOT_LOGGED_IN = 'Utilisateur non connecté';
const EMPTY = 'Aucune conversation pour le moment.';
const PICK = 'Choisis une conversation pour la lire et y répondre.';
const PARAM = 'avec';

/** the product screens, "Messages inbox (/messages)": conversations grouped by the other party; ?avec={pseudo} opens one. */
export default function InboxScreen() {
  const { user } = useCurrentUser();
  const toast = useToast();
  const email = user?.email ?? null;
  const [params, setParams] = useSearchParams();
  const selectedPseudo = params.get(PARAM);
  const inbox = useLoad(email ? `inbox:${email}` : null, (signal) => fetchReceived(email ?? '', signal));
  const { setData } = inbox;
  const listHeading = useRef<HTMLHeadingElement>(null);

  // the message just sent from "Message privé" (issue 30): its conversation opens at once, even
  // before the inbox's read model has it
  const sent = (useLocation().state as { sent?: Message } | null)?.sent;
  const conversations = useMemo(
    () => (inbox.data && email ? groupConversations(sent ? mergeMessages(inbox.data, [sent]) : inbox.data, email) : []),
    [inbox.data, email, sent],
  );
  const selected = conversations.find((c) => sameIdentity(c.otherPseudo, selectedPseudo)) ?? null;

  const addMessages = (incoming: Message[]) => {
    if (incoming.length > 0) setData((current) => mergeMessages(current, incoming));
  };
  useSocketEvent('message:new', ({ message }) => addMessages([message]));
  const hide = (hidden: HiddenConversation[]) => {
    if (!email) return;
    for (const h of hidden) setData((list) => hideUpTo(list, email, h.other_email, h.up_to_message_id));
  };
  // Deleted from another device of mine.
  useSocketEvent('conversation:deleted', (payload) => hide([payload]));
  useSocketEvent('sync', (payload) => {
    if (payload.truncated) inbox.reload();
    else addMessages(payload.messages);
    hide(payload.hidden_conversations);
  });

  const open = (conversation: ConversationSummary | null) => {
    const next = new URLSearchParams(params);
    if (conversation) next.set(PARAM, conversation.otherPseudo);
    else next.delete(PARAM);
    setParams(next);
  };

  const backToList = () => {
    open(null);
    window.setTimeout(() => listHeading.current?.focus(), 0);
  };

  const onDeleted = (otherEmail: string) => {
    setData((current) =>
      current.filter((m) => !sameIdentity(m.sender_email, otherEmail) && !sameIdentity(m.receiver_email, otherEmail)),
    );
    toast.info('Conversation supprimée');
    backToList();
  };

  let list;
  if (!email) {
    list = <LoginPrompt message={NOT_LOGGED_IN} />;
  } else if (inbox.error && !inbox.data) {
    list = (
      <div className="alert alert--danger" role="alert">
        {LOAD_FAILED}
        <button type="button" className="link-button" onClick={inbox.reload}>
          Réessayer
        </button>
      </div>
    );
  } else if (!inbox.data) {
    list = (
      <p className="loading" role="status">
        Chargement...
      </p>
    );
  } else if (conversations.length === 0) {
    list = (
      <div className="inbox__empty">
        <p>{EMPTY}</p>
        <Link to="/friends" className="btn btn--primary">
          Écrire à un ami
        </Link>
      </div>
    );
  } else {
    list = (
      <ul className="inbox__list">
        {conversations.map((conversation) => {
          const current = selected?.otherEmail === conversation.otherEmail;
          return (
            <li key={conversation.otherEmail}>
              <button
                type="button"
                className="inbox__item"
                aria-current={current ? 'true' : undefined}
                onClick={() => open(conversation)}
              >
                <ProfilePicture
                  pseudo={conversation.otherPseudo}
                  profilePicture={conversation.otherPicture}
                  size={48}
                  alt=""
                />
                <span className="inbox__text">
                  <span className="inbox__line">
                    <span className="inbox__pseudo">@{conversation.otherPseudo}</span>
                    {conversation.last.created_at ? (
                      <time
                        className="inbox__time"
                        dateTime={isoDate(conversation.last.created_at)}
                        title={formatFullDate(conversation.last.created_at)}
                      >
                        {formatMessageTime(conversation.last.created_at)}
                      </time>
                    ) : null}
                  </span>
                  <span className="inbox__preview">
                    {conversation.lastIsMine ? 'Toi : ' : ''}
                    {conversation.last.content}
                  </span>
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    );
  }

  return (
    <section className={selected ? 'page page--fill inbox inbox--open' : 'page inbox'} aria-labelledby="inbox-title">
      <title>{selected ? `@${selected.otherPseudo} · ${TITLE} · EVO` : `${TITLE} · EVO`}</title>
      <h1 id="inbox-title" className="inbox__title" ref={listHeading} tabIndex={-1}>
        {TITLE}
      </h1>
      <div className="inbox__layout">
        <nav className="inbox__conversations card" aria-label="Conversations">
          {list}
        </nav>
        <div className="inbox__thread card fill">
          {selected && email ? (
            <ConversationView
              key={selected.otherEmail}
              me={email}
              variant="inbox"
              other={{ pseudo: selected.otherPseudo, email: selected.otherEmail, picture: selected.otherPicture }}
              onSent={(message) => (message ? addMessages([message]) : inbox.reload())}
              onDeleted={onDeleted}
              before={
                <button
                  type="button"
                  className="icon-button inbox__back"
                  aria-label="Retour aux conversations"
                  onClick={backToList}
                >
                  <ArrowLeftIcon />
                </button>
              }
            />
          ) : (
            <p className="inbox__pick">{conversations.length > 0 ? PICK : ''}</p>
          )}
        </div>
      </div>
    </section>
  );
}
