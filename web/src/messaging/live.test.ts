import { describe, expect, it } from 'vitest';
import { conversationRoutes, type SyncPayload } from '@evo/contracts';
import { createQueryClient, routeKey } from '../api/queries';
import type { Message } from './api';
import { addMessages, forgetConversation, messagingPushes } from './live';
import { testMessage } from './testing';

/** a message at 10:<minute> (its id's minute unless told) */
const msg = (id: number, from: string, to: string, minute = id): Message =>
  testMessage(id, from, to, `2026-01-01T10:${String(minute).padStart(2, '0')}:00.000Z`);

const ME = 'alice@x.fr';
const inboxKey = routeKey(conversationRoutes.received, { email: ME });
const threadKey = (pseudo: string) => routeKey(conversationRoutes.conversation, { email: ME, pseudo });

/** A cache with alice's inbox and her threads with bob and carol loaded. */
function loaded() {
  const client = createQueryClient();
  client.setQueryData(inboxKey, [msg(1, 'bob', 'alice'), msg(2, 'alice', 'carol'), msg(3, 'alice', 'bob')]);
  client.setQueryData(threadKey('bob'), [msg(1, 'bob', 'alice'), msg(3, 'alice', 'bob')]);
  client.setQueryData(threadKey('carol'), [msg(2, 'alice', 'carol')]);
  const ids = (key: readonly unknown[]) => client.getQueryData<Message[]>(key)?.map((m) => m.id);
  return { client, ids, pushes: messagingPushes(client, ME) };
}

const sync = (fields: Partial<SyncPayload>): SyncPayload => ({
  notifications: [],
  deleted_notification_ids: [],
  messages: [],
  hidden_conversations: [],
  unread: 0,
  position: '9',
  truncated: false,
  ...fields,
});

describe('message pushes in the cache', () => {
  it("'message:new' goes into the inbox and into its own thread only, oldest first, once", () => {
    const { ids, pushes } = loaded();
    pushes['message:new']?.({ message: msg(4, 'bob', 'alice'), position: '4' });
    pushes['message:new']?.({ message: msg(4, 'bob', 'alice'), position: '4' });
    expect(ids(inboxKey)).toEqual([1, 2, 3, 4]);
    expect(ids(threadKey('bob'))).toEqual([1, 3, 4]);
    expect(ids(threadKey('carol'))).toEqual([2]);
  });

  it('a message with someone whose thread is open but still empty goes into it (matched by pseudo)', () => {
    const { client, ids, pushes } = loaded();
    client.setQueryData(threadKey('dan'), []);
    pushes['message:new']?.({ message: msg(5, 'dan', 'alice'), position: '5' });
    expect(ids(threadKey('dan'))).toEqual([5]);
    expect(ids(threadKey('bob'))).toEqual([1, 3]);
  });

  it('answers not loaded yet are left alone (their GET will tell)', () => {
    const client = createQueryClient();
    addMessages(client, ME, [msg(1, 'bob', 'alice')]);
    expect(client.getQueryData(inboxKey)).toBeUndefined();
    expect(client.getQueryData(threadKey('bob'))).toBeUndefined();
  });

  it("'conversation:deleted' hides that conversation up to the message, in the inbox and its thread", () => {
    const { client, ids, pushes } = loaded();
    client.setQueryData(threadKey('bob'), [msg(1, 'bob', 'alice'), msg(3, 'alice', 'bob'), msg(6, 'bob', 'alice')]);
    client.setQueryData(inboxKey, [msg(1, 'bob', 'alice'), msg(2, 'alice', 'carol'), msg(6, 'bob', 'alice')]);
    pushes['conversation:deleted']?.({ other_email: 'bob@x.fr', up_to_message_id: 3, position: '7' });
    expect(ids(inboxKey)).toEqual([2, 6]);
    expect(ids(threadKey('bob'))).toEqual([6]);
    expect(ids(threadKey('carol'))).toEqual([2]);
  });

  it("'sync' adds what was missed and hides what was deleted elsewhere", () => {
    const { ids, pushes } = loaded();
    pushes.sync?.(
      sync({
        messages: [msg(8, 'carol', 'alice')],
        hidden_conversations: [{ other_email: 'bob@x.fr', up_to_message_id: 3 }],
      }),
    );
    expect(ids(inboxKey)).toEqual([2, 8]);
    expect(ids(threadKey('carol'))).toEqual([2, 8]);
    expect(ids(threadKey('bob'))).toEqual([]);
  });

  it("a truncated 'sync' asks the inbox and every thread of the member again", () => {
    const { client, pushes } = loaded();
    client.setQueryData(routeKey(conversationRoutes.received, { email: 'zoe@x.fr' }), []);
    pushes.sync?.(sync({ truncated: true }));
    const stale = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated;
    expect(stale(inboxKey)).toBe(true);
    expect(stale(threadKey('bob'))).toBe(true);
    expect(stale(threadKey('carol'))).toBe(true);
    expect(stale(routeKey(conversationRoutes.received, { email: 'zoe@x.fr' }))).toBe(false);
  });

  it('a conversation deleted here leaves the inbox and its thread whole', () => {
    const { client, ids } = loaded();
    forgetConversation(client, ME, 'BOB@x.fr');
    expect(ids(inboxKey)).toEqual([2]);
    expect(ids(threadKey('bob'))).toEqual([]);
    expect(ids(threadKey('carol'))).toEqual([2]);
  });
});
