import { useCallback } from 'react';
import { useSocketEvent } from '../shell/socket';
import { sameIdentity } from '../social/format';
import { useLoad } from '../api/useLoad';
import { fetchConversation, type HiddenConversation, type Message } from './api';
import { hideUpTo, isBetween, mergeMessages, sortMessages } from './conversations';

/**
 * The thread between me and `pseudo` (GET /api/messages/conversation/:email/:pseudo),
 * kept live with 'message:new' and the reconnection 'sync'.
 */
export function useConversation(me: string | null, pseudo: string, otherEmail: string | null) {
  const loaded = useLoad(me && pseudo ? `conversation:${me}:${pseudo}` : null, async (signal) =>
    sortMessages(await fetchConversation(me ?? '', pseudo, signal)),
  );
  const { setData, reload } = loaded;

  const add = useCallback(
    (incoming: Message[]) => {
      if (!me) return;
      const mine = incoming.filter((m) => isBetween(m, me, { email: otherEmail, pseudo }));
      if (mine.length > 0) setData((current) => mergeMessages(current, mine));
    },
    [me, otherEmail, pseudo, setData],
  );

  useSocketEvent('message:new', ({ message }) => add([message]));
  const hide = (hidden: HiddenConversation[]) => {
    if (!me || !otherEmail) return;
    for (const h of hidden) {
      if (sameIdentity(h.other_email, otherEmail))
        setData((list) => hideUpTo(list, me, otherEmail, h.up_to_message_id));
    }
  };
  useSocketEvent('conversation:deleted', (payload) => hide([payload]));
  useSocketEvent('sync', (payload) => {
    if (payload.truncated) reload();
    else add(payload.messages);
    hide(payload.hidden_conversations);
  });

  return { ...loaded, add };
}
