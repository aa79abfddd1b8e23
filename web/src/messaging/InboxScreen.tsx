import { useMemo, useRef } from 'react';
import { conversationRoutes } from '@evo/contracts';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { useCurrentUser } from '../identity/sessionContext';
import { useToast } from '../shell/toast';
import { ProfilePicture } from '../shell/ui/ProfilePicture';
import { formatFullDate, formatMessageTime, isoDate, sameIdentity } from '../social/format';
import { useRouteQuery } from '../api/queries';
import { QueryState } from '../shell/ui/QueryState';
import { ArrowLeftIcon } from '../videos/icons';
import type { Message } from './api';
import { groupConversations, mergeMessages, type ConversationSummary } from './conversations';
import { ConversationView, LOAD_FAILED } from './ConversationView';
import './messaging.css';
import { LoginPrompt } from '../identity/LoginPrompt';

const TITLE = 'Messages';
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
  const inbox = useRouteQuery(conversationRoutes.received, email ? { email } : null);
  const listHeading = useRef<HTMLHeadingElement>(null);

  // the message just sent from "Message privé" (issue 30): its conversation opens at once, even
  // before the inbox's read model has it
  const sent = (useLocation().state as { sent?: Message } | null)?.sent;
  const conversations = useMemo(
    () => (inbox.data && email ? groupConversations(sent ? mergeMessages(inbox.data, [sent]) : inbox.data, email) : []),
    [inbox.data, email, sent],
  );
  const selected = conversations.find((c) => sameIdentity(c.otherPseudo, selectedPseudo)) ?? null;

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

  const onDeleted = () => {
    toast.info('Conversation supprimée');
    backToList();
  };

  const list = !email ? (
    <LoginPrompt />
  ) : (
    <QueryState
      query={{ data: inbox.data && conversations, error: inbox.error, refetch: inbox.refetch }}
      failed={LOAD_FAILED}
      empty={
        <>
          <p>{EMPTY}</p>
          <Link to="/friends" className="btn btn--primary">
            Écrire à un ami
          </Link>
        </>
      }
    >
      {(shown) => (
        <ul className="inbox__list">
          {shown.map((conversation) => {
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
      )}
    </QueryState>
  );

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
