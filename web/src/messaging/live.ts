import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { conversationRoutes } from '@evo/contracts';
import { refreshRoute, routeKey, updateRoute } from '../api/queries';
import { useSocketEvents, type PushHandlers } from '../shell/socket';
import { sameIdentity } from '../social/format';
import type { HiddenConversation, Message } from './api';
import { hideUpTo, isBetween, mergeMessages } from './conversations';

/**
 * The member's messages in the cache: the inbox (every message of theirs, grouped on screen) and
 * each thread loaded (`/api/messages/conversation/:email/:pseudo`). A message sent, pushed
 * ('message:new') or caught up ('sync') goes into the inbox and into its thread; a conversation
 * deleted on another device of the member ('conversation:deleted', sync.hidden_conversations)
 * leaves both up to that message. Answers not loaded yet are left alone: their GET will tell.
 */

/** Every thread of the member in the cache (the key's `pseudo` left out matches them all). */
const threadsOf = (me: string) => ({ email: me }) as { email: string; pseudo: string };

/** The other party of a thread loaded for `pseudo`: their pseudo, and their email once a message names it. */
function threadParty(thread: Message[], me: string, pseudo: string) {
  const first = thread.find((m) => sameIdentity(m.sender_email, me) || sameIdentity(m.receiver_email, me));
  const email = first ? (sameIdentity(first.sender_email, me) ? first.receiver_email : first.sender_email) : null;
  return { email, pseudo };
}

/** Adds messages (sent, pushed or caught up) to the member's inbox and to the threads they belong to. */
export function addMessages(client: QueryClient, me: string, incoming: Message[]): void {
  if (incoming.length === 0) return;
  updateRoute(client, conversationRoutes.received, { email: me }, (list) => mergeMessages(list, incoming));
  const threads = client.getQueriesData<Message[]>({
    queryKey: routeKey(conversationRoutes.conversation, threadsOf(me)),
  });
  for (const [key, thread] of threads) {
    if (thread === undefined) continue;
    const { pseudo } = key[1] as { pseudo: string };
    const other = threadParty(thread, me, pseudo);
    const mine = incoming.filter((m) => isBetween(m, me, other));
    if (mine.length > 0) client.setQueryData<Message[]>(key, mergeMessages(thread, mine));
  }
}

/** Leaves the conversations hidden for the member (up to a message id) out of the inbox and the threads. */
export function hideConversations(client: QueryClient, me: string, hidden: HiddenConversation[]): void {
  const hide = (list: Message[]) =>
    hidden.reduce((kept, h) => hideUpTo(kept, me, h.other_email, h.up_to_message_id), list);
  if (hidden.length === 0) return;
  updateRoute(client, conversationRoutes.received, { email: me }, hide);
  updateRoute(client, conversationRoutes.conversation, threadsOf(me), hide);
}

/** After the member deleted a conversation here: none of its messages stays in the inbox or its thread. */
export function forgetConversation(client: QueryClient, me: string, otherEmail: string): void {
  const forget = (list: Message[]) =>
    list.filter((m) => !sameIdentity(m.sender_email, otherEmail) && !sameIdentity(m.receiver_email, otherEmail));
  updateRoute(client, conversationRoutes.received, { email: me }, forget);
  updateRoute(client, conversationRoutes.conversation, threadsOf(me), forget);
}

/**
 * What the message pushes change in the cache. A 'sync' that could not hold everything missed
 * (truncated) asks the inbox and the threads again instead.
 */
export const messagingPushes = (client: QueryClient, me: string): PushHandlers => ({
  'message:new': ({ message }) => addMessages(client, me, [message]),
  'conversation:deleted': (hidden) => hideConversations(client, me, [hidden]),
  sync: (payload) => {
    if (payload.truncated) {
      void refreshRoute(client, conversationRoutes.received, { email: me });
      void refreshRoute(client, conversationRoutes.conversation, threadsOf(me));
    } else addMessages(client, me, payload.messages);
    hideConversations(client, me, payload.hidden_conversations);
  },
});

/** Mounted once, by the shell, for the logged-in member. */
export function useMessagingLive(email: string): void {
  useSocketEvents(messagingPushes(useQueryClient(), email));
}
