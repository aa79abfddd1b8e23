import { useEffect, useRef } from 'react';
import { formatFullDate, formatMessageTime, isoDate, sameIdentity } from '../social/format';
import type { Message } from './api';
import './messaging.css';

/** The messages of a conversation, oldest first; mine on the right. New ones are announced. */
export function MessageThread({
  messages,
  me,
  otherPseudo,
  empty = 'Aucun message pour le moment. Écris le premier !',
}: {
  messages: Message[];
  me: string;
  otherPseudo: string;
  empty?: string;
}) {
  const listRef = useRef<HTMLOListElement>(null);
  const lastId = messages.length > 0 ? messages[messages.length - 1].id : null;

  // Keep the latest message in view.
  useEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [lastId]);

  return (
    <ol
      ref={listRef}
      className="thread fill__scroll"
      role="log"
      aria-live="polite"
      aria-label={`Messages avec @${otherPseudo}`}
      tabIndex={0}
    >
      {messages.length === 0 ? <li className="thread__empty">{empty}</li> : null}
      {messages.map((message) => {
        const mine = sameIdentity(message.sender_email, me);
        return (
          <li key={message.id} className={mine ? 'bubble bubble--mine' : 'bubble'}>
            <span className="sr-only">{mine ? 'Toi : ' : `@${message.sender_pseudo || otherPseudo} : `}</span>
            <p className="bubble__text">{message.content}</p>
            {message.created_at ? (
              <time
                className="bubble__time"
                dateTime={isoDate(message.created_at)}
                title={formatFullDate(message.created_at)}
              >
                {formatMessageTime(message.created_at)}
              </time>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
