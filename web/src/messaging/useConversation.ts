import { useQuery } from '@tanstack/react-query';
import { conversationRoutes } from '@evo/contracts';
import { routeQuery } from '../api/queries';
import { sortMessages } from './conversations';

/**
 * The thread between me and `pseudo` (GET /api/messages/conversation/:email/:pseudo), oldest
 * first, from the cache: kept live by the message pushes (messaging/live.ts).
 */
export function useConversation(me: string, pseudo: string) {
  return useQuery({ ...routeQuery(conversationRoutes.conversation, { email: me, pseudo }), select: sortMessages });
}
