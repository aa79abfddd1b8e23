import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { conversationStream } from '@evo/domain';
import { IdBlocks, SqliteEventStore, type CommandContext } from '@evo/infra';
import { closedAfterEach } from '@evo/projections/testing/test-lifecycle';
import { registerUser } from '../identity/commands';
import { setFollowing } from '../social/commands';
import { sendMessage } from './commands';

const open = closedAfterEach<SqliteEventStore>();
const ctx = (userId?: string): CommandContext => ({ userId, correlationId: randomUUID(), now: new Date() });

describe('sendMessage with message ids by blocks', () => {
  it('sends from two API processes into one conversation: a later message is always above the last', async () => {
    const events = new SqliteEventStore(':memory:');
    open.push(events);
    const member = async (pseudo: string) =>
      (await registerUser(events, { email: `${pseudo}@test.fr`, pseudo, passwordHash: 'h', bio: '' }, undefined, ctx()))
        .userId;
    const a = await member('alice');
    const b = await member('bruno');
    await setFollowing(events, a, b, true, ctx(a));
    await setFollowing(events, b, a, true, ctx(b));
    // two processes, each holding a block of message ids: the first 1..64, the second 65..128
    const first = new IdBlocks(events);
    const second = new IdBlocks(events);
    const send = (ids: IdBlocks, from: string, to: string, content: string) =>
      sendMessage(events, ids, { senderId: from, receiverEmail: `${to}@test.fr`, content }, ctx(from));
    expect((await send(first, a, 'bruno', 'Salut')).message.id).toBe(1);
    expect((await send(second, b, 'alice', 'Coucou')).message.id).toBe(65);
    // the first process's block is all below 65: it draws above the conversation's last message
    const reply = await send(first, a, 'bruno', 'Ça va ?');
    expect(reply.message.id).toBeGreaterThan(65);
    expect((await send(second, b, 'alice', 'Oui')).message.id).toBeGreaterThan(reply.message.id);
    const sent = (await events.readStream(conversationStream(a, b))).map(
      (e) => (e.data as { messageId: number }).messageId,
    );
    expect(sent).toHaveLength(4);
    expect(sent.every((id, i) => i === 0 || id > sent[i - 1])).toBe(true);
  });
});
