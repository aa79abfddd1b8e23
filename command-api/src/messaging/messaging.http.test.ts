import { describe, it, expect, beforeAll } from 'vitest';
import { MESSAGING_MESSAGES } from '@evo/domain';
import { Client, type Member } from '../testing/test-server';
import { serverFixture } from '../testing/server-fixture';

const t = serverFixture({ members: 3 });
const [alice, bob, carol] = t.members;

/** `a` and `b` follow each other: friends, who may write to each other */
async function befriend(a: Member, b: Member) {
  await t.follow(a.member.email, b.member.email);
  await t.follow(b.member.email, a.member.email);
}

/** two new members who are friends */
async function newFriends() {
  const [a, b] = [await t.member(), await t.member()];
  await befriend(a, b);
  return [a, b];
}

beforeAll(() => befriend(alice, bob));

type Message = {
  id: number;
  sender_email: string;
  receiver_email: string;
  sender_pseudo: string;
  receiver_pseudo: string;
  sender_profile_picture: string;
  receiver_profile_picture: string;
  content: string;
  created_at: string;
};
const send = (c: Client, body: unknown, path = '/api/messages') => c.post(path, body);
const contents = (r: { json: unknown }) => (r.json as Message[]).map((m) => m.content);

describe('POST /api/messages', () => {
  it('sends from a follower, as the session user, on both paths', async () => {
    const r = await send(alice.client, {
      senderEmail: alice.member.email,
      receiverEmail: bob.member.email.toUpperCase(),
      content: '  Salut Bob !  ',
    });
    expect(r.status).toBe(201);
    expect(r.json.message).toBe(MESSAGING_MESSAGES.sent);
    expect(r.json.item).toEqual({
      id: expect.any(Number),
      sender_email: alice.member.email,
      receiver_email: bob.member.email,
      sender_pseudo: alice.member.pseudo,
      receiver_pseudo: bob.member.pseudo,
      sender_profile_picture: expect.stringMatching(/\.png$/),
      receiver_profile_picture: expect.stringMatching(/\.png$/),
      content: 'Salut Bob !',
      created_at: expect.any(String),
    });
    const slash = await send(
      bob.client,
      { receiverEmail: alice.member.email, content: 'Salut Alice' },
      '/api/messages/',
    );
    expect(slash.status).toBe(201);
    await t.settle();
    const thread = await bob.client.get(
      `/api/messages/conversation/${encodeURIComponent(bob.member.email)}/${alice.member.pseudo}`,
    );
    expect(thread.status).toBe(200);
    expect(thread.json).toEqual([r.json.item, slash.json.item]);
  });

  it('checks in the order of the product specification: empty, session, receiver, forbidden word, following', async () => {
    const visitor = new Client(t.server.url);
    const unknown = 'personne@nulle-part.fr';
    // 1. empty or blank, even without a session, an unknown receiver and an insult elsewhere
    await t.expectRefusals([
      [() => send(visitor, { receiverEmail: unknown, content: '' }), 400, 'Le message ne peut pas être vide.'],
      [
        () => send(alice.client, { receiverEmail: bob.member.email, content: '  \n ' }),
        400,
        'Le message ne peut pas être vide.',
      ],
      [() => send(alice.client, { receiverEmail: bob.member.email }), 400, 'Le message ne peut pas être vide.'],
      [
        () => send(alice.client, { receiverEmail: bob.member.email, content: 42 }),
        400,
        'Le message ne peut pas être vide.',
      ],
      [() => send(alice.client, ['x']), 400, 'Le message ne peut pas être vide.'],
      [
        () => send(alice.client, { receiverEmail: bob.member.email, content: 'x'.repeat(2001) }),
        400,
        MESSAGING_MESSAGES.tooLong,
      ],
      // 2. no session, with an unknown receiver and an insult
      [() => send(visitor, { receiverEmail: unknown, content: 'connard' }), 401, 'Utilisateur non connecté.'],
      // the sender is the session user
      [
        () =>
          send(alice.client, { senderEmail: carol.member.email, receiverEmail: bob.member.email, content: 'Coucou' }),
        403,
        'Action non autorisée.',
      ],
      // 3. unknown receiver, with an insult, not followed
      [() => send(alice.client, { receiverEmail: unknown, content: 'connard' }), 404, 'Destinataire introuvable.'],
      [() => send(alice.client, { content: 'Coucou' }), 404, 'Destinataire introuvable.'],
      [() => send(alice.client, { receiverEmail: 7, content: 'Coucou' }), 404, 'Destinataire introuvable.'],
    ]);
    // 4. a forbidden word (any case, with or without accents), to someone not followed
    for (const content of ['Espèce de CONNARD', 'sale ENCULE', 'tête de nœud', 'Tete De Noeud']) {
      await t.expectRefused(
        () => send(alice.client, { receiverEmail: carol.member.email, content }),
        400,
        'Ce message contient un mot inapproprié. Veuillez reformuler.',
      );
    }
    // 5. not following
    await t.expectRefusals([
      [
        () => send(alice.client, { receiverEmail: carol.member.email, content: 'Coucou' }),
        403,
        'Vous devez suivre cet utilisateur pour lui envoyer un MP.',
      ],
      [
        () => send(carol.client, { receiverEmail: alice.member.email, content: 'Coucou' }),
        403,
        'Vous devez suivre cet utilisateur pour lui envoyer un MP.',
      ],
    ]);
    // 2000 characters are fine
    expect((await send(alice.client, { receiverEmail: bob.member.email, content: 'a'.repeat(2000) })).status).toBe(201);
  });

  it('follows the follow state from the event log: unfollowing closes the conversation', async () => {
    await t.follow(carol.member.email, bob.member.email);
    expect((await send(carol.client, { receiverEmail: bob.member.email, content: 'Je te suis !' })).status).toBe(201);
    await t.follow(carol.member.email, bob.member.email, 'Unfollow');
    await t.expectRefused(
      () => send(carol.client, { receiverEmail: bob.member.email, content: 'Encore' }),
      403,
      MESSAGING_MESSAGES.notFollowing,
    );
  });

  it('notifies the receiver', async () => {
    const r = await send(alice.client, { receiverEmail: bob.member.email, content: 'Tu es là ?' });
    await t.settle();
    const list = (await bob.client.get('/api/notifications')).json as unknown as Array<Record<string, unknown>>;
    expect(list[0]).toMatchObject({
      id: r.headers.get('x-evo-position'),
      type: 'message',
      sender_email: alice.member.email,
      video_id: 0,
      seen: 0,
    });
  });
});

describe('reading messages', () => {
  it('lists every message of the session user, and one inbox entry per other party', async () => {
    const [dave, erin] = await newFriends();
    await t.follow(alice.member.email, dave.member.email);
    await send(dave.client, { receiverEmail: erin.member.email, content: 'Un' });
    await send(erin.client, { receiverEmail: dave.member.email, content: 'Deux' });
    await send(alice.client, { receiverEmail: dave.member.email, content: 'De Alice' });
    await t.settle();
    const all = await dave.client.get(`/api/messages/received/${encodeURIComponent(dave.member.email)}`);
    expect(all.status).toBe(200);
    expect(contents(all)).toEqual(['Un', 'Deux', 'De Alice']);
    expect((all.json as unknown as Message[])[1]).toMatchObject({
      sender_email: erin.member.email,
      receiver_email: dave.member.email,
    });
    const inbox = await dave.client.get('/api/messages/inbox');
    expect(
      (inbox.json as unknown as Array<{ other_pseudo: string; last_message: Message }>).map((e) => [
        e.other_pseudo,
        e.last_message.content,
      ]),
    ).toEqual([
      [alice.member.pseudo, 'De Alice'],
      [erin.member.pseudo, 'Deux'],
    ]);
    expect(inbox.json).toMatchObject([
      { other_email: alice.member.email, other_profile_picture: expect.stringMatching(/\.png$/) },
      { other_email: erin.member.email },
    ]);
  });

  it('lets only the two parties read a conversation', async () => {
    const mine = encodeURIComponent(alice.member.email);
    const theirs = encodeURIComponent(bob.member.email);
    for (const path of [
      `/api/messages/received/${theirs}`,
      `/api/messages/conversation/${theirs}/${alice.member.pseudo}`,
    ]) {
      const r = await carol.client.get(path);
      expect(r.status).toBe(403);
      expect(r.json.error).toBe('Accès refusé.');
      expect((await new Client(t.server.url).get(path)).status).toBe(401);
    }
    expect((await new Client(t.server.url).get('/api/messages/inbox')).status).toBe(401);
    // carol reading "her" conversation with alice sees none of alice and bob's messages
    const r = await carol.client.get(
      `/api/messages/conversation/${encodeURIComponent(carol.member.email)}/${alice.member.pseudo}`,
    );
    expect(r.json).toEqual([]);
    const unknown = await alice.client.get(`/api/messages/conversation/${mine}/personne-ici`);
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toBe(MESSAGING_MESSAGES.userNotFound);
  });
});

describe('DELETE /api/messages/:email/:otherEmail', () => {
  it('hides the conversation for the requester only; later messages show again', async () => {
    const [fred, gina] = await newFriends();
    await send(fred.client, { receiverEmail: gina.member.email, content: 'Un' });
    await send(gina.client, { receiverEmail: fred.member.email, content: 'Deux' });
    const path = `/api/messages/${encodeURIComponent(fred.member.email)}/${encodeURIComponent(gina.member.email)}`;
    const d = await fred.client.delete(path);
    expect(d.status).toBe(200);
    expect(d.json.message).toBe(MESSAGING_MESSAGES.conversationDeleted);
    const fredThread = `/api/messages/conversation/${encodeURIComponent(fred.member.email)}/${gina.member.pseudo}`;
    const ginaThread = `/api/messages/conversation/${encodeURIComponent(gina.member.email)}/${fred.member.pseudo}`;
    expect((await fred.client.get(fredThread)).json).toEqual([]);
    expect((await fred.client.get('/api/messages/inbox')).json).toEqual([]);
    await t.settle();
    expect(contents(await gina.client.get(ginaThread))).toEqual(['Un', 'Deux']);
    // deleting again changes nothing and appends nothing
    const before = await t.lastPosition();
    expect((await fred.client.delete(path)).status).toBe(200);
    expect(await t.lastPosition()).toBe(before);

    await send(gina.client, { receiverEmail: fred.member.email, content: 'Trois' });
    await t.settle();
    expect(contents(await fred.client.get(fredThread))).toEqual(['Trois']);
    expect(contents(await fred.client.get(`/api/messages/received/${encodeURIComponent(fred.member.email)}`))).toEqual([
      'Trois',
    ]);
    expect(contents(await gina.client.get(ginaThread))).toEqual(['Un', 'Deux', 'Trois']);
  });

  it('refuses another member’s path, an unknown party and an empty conversation', async () => {
    const path = (a: string, b: string) => `/api/messages/${encodeURIComponent(a)}/${encodeURIComponent(b)}`;
    await t.expectRefusals([
      [() => carol.client.delete(path(alice.member.email, bob.member.email)), 403, 'Accès refusé.'],
      [
        () => alice.client.delete(path(alice.member.email, 'personne@nulle-part.fr')),
        404,
        MESSAGING_MESSAGES.userNotFound,
      ],
      [
        () => carol.client.delete(path(carol.member.email, alice.member.email)),
        404,
        MESSAGING_MESSAGES.conversationNotFound,
      ],
      [() => new Client(t.server.url).delete(path(alice.member.email, bob.member.email)), 401],
    ]);
  });
});
