import { describe, it, expect, beforeAll } from 'vitest';
import { COMMENT_MESSAGES, legacyCommentsStream } from '@evo/domain';
import { systemContext, toNewEvents } from '@evo/infra';
import { Client } from '../testing/test-server';
import { serverFixture } from '../testing/server-fixture';

const t = serverFixture({ members: 2 });
const [owner, fan] = t.members;
let videoId: number;

beforeAll(async () => {
  videoId = await t.firstVideoId(owner.client, owner.member.pseudo);
});

const comment = (c: Client, id: number | string, body: unknown) => c.post(`/api/videos/${id}/comment`, body);
type Item = {
  id: number;
  parent_id: number | null;
  user_pseudo: string;
  user_profile_picture: string;
  content: string;
  created_at: string;
};

describe('POST /api/videos/:id/comment and GET /api/videos/:id/comments', () => {
  it('posts as the session user, threads replies one level deep, counts them on the video', async () => {
    const v = await t.firstVideoId(fan.client, fan.member.pseudo);
    const top = await comment(owner.client, v, {
      userEmail: owner.member.email.toUpperCase(),
      userPseudo: 'peu importe',
      content: '  Superbe ! ',
      parentId: '',
    });
    expect(top.status).toBe(201);
    expect(top.json.message).toBe(COMMENT_MESSAGES.posted);
    const topItem = top.json.item as Item;
    expect(topItem).toEqual({
      id: expect.any(Number),
      parent_id: null,
      user_pseudo: owner.member.pseudo,
      user_profile_picture: expect.stringMatching(/\.png$/),
      content: 'Superbe !',
      created_at: expect.any(String),
    });
    expect(top.headers.get('x-evo-position')).toMatch(/^\d+$/);
    const second = (await comment(fan.client, v, { content: 'Merci !', parentId: topItem.id })).json.item as Item;
    const third = (await comment(owner.client, v, { content: 'Réponse à la réponse', parentId: String(second.id) }))
      .json.item as Item;
    expect(second.parent_id).toBe(topItem.id);
    expect(third.parent_id).toBe(topItem.id);
    const later = (await comment(fan.client, v, { content: 'Un autre fil', parentId: null })).json.item as Item;

    // the fan's comments, read by the owner
    await t.settle();
    const list = await owner.client.get(`/api/videos/${v}/comments`);
    expect(list.status).toBe(200);
    expect(list.json.items).toEqual([topItem, second, third, later]);
    const profile = await fan.client.get(`/api/users/profile/${fan.member.pseudo}`);
    expect(
      (profile.json.videos as Array<{ id: number; comments_count: number }>).find((x) => x.id === v)?.comments_count,
    ).toBe(4);
  });

  it('notifies the video owner, not when they comment their own video', async () => {
    const before = await owner.client.get('/api/notifications');
    await comment(owner.client, videoId, { content: 'Mon propre commentaire' });
    const r = await comment(fan.client, videoId, { content: 'Bravo' });
    await t.settle();
    const after = (await owner.client.get('/api/notifications')).json as unknown as Array<Record<string, unknown>>;
    const fresh = after.slice(0, after.length - (before.json as unknown as unknown[]).length);
    expect(fresh).toEqual([
      {
        id: r.headers.get('x-evo-position'),
        type: 'comment',
        sender_email: fan.member.email,
        sender_pseudo: fan.member.pseudo,
        message: `${fan.member.pseudo} a commenté ta vidéo`,
        video_id: videoId,
        seen: 0,
        created_at: expect.any(String),
      },
    ]);
  });

  it('refuses, in French and appending nothing, every bad comment', async () => {
    const c = fan.client;
    await t.expectRefusals([
      [() => comment(new Client(t.server.url), videoId, { content: 'x' }), 401, 'Tu dois être connecté(e).'],
      [() => comment(c, videoId, { userEmail: owner.member.email, content: 'x' }), 403, 'Action non autorisée.'],
      [() => comment(c, videoId, { userEmail: 42, content: 'x' }), 403, 'Action non autorisée.'],
      [() => comment(c, videoId, { content: '' }), 400, 'Le commentaire ne peut pas être vide.'],
      [() => comment(c, videoId, { content: ' \n\t ' }), 400, 'Le commentaire ne peut pas être vide.'],
      [() => comment(c, videoId, {}), 400, 'Le commentaire ne peut pas être vide.'],
      [() => comment(c, videoId, ['x']), 400, 'Le commentaire ne peut pas être vide.'],
      [() => comment(c, videoId, { content: 'x'.repeat(1001) }), 400, COMMENT_MESSAGES.tooLong],
      [() => comment(c, 999_999, { content: 'x' }), 404, 'Vidéo introuvable.'],
      [() => comment(c, 'abc', { content: 'x' }), 404, 'Vidéo introuvable.'],
      [() => comment(c, videoId, { content: 'x', parentId: 999_999 }), 400, COMMENT_MESSAGES.parentNotFound],
      [() => comment(c, videoId, { content: 'x', parentId: 'abc' }), 400, COMMENT_MESSAGES.parentNotFound],
      [() => c.post(`/api/videos/${videoId}/comment`, '{"content":'), 400, 'Corps de requête JSON invalide.'],
    ]);
    // a comment of another video is no parent here
    const other = await t.firstVideoId(c, fan.member.pseudo);
    const elsewhere = (await comment(c, other, { content: 'Ailleurs' })).json.item as Item;
    await t.expectRefused(
      () => comment(c, videoId, { content: 'x', parentId: elsewhere.id }),
      400,
      COMMENT_MESSAGES.parentNotFound,
    );
    expect((await comment(c, videoId, { content: 'é'.repeat(1000) })).status).toBe(201);
  });

  it('answers 404 for the comments of an unknown or deleted video', async () => {
    expect((await fan.client.get('/api/videos/999999/comments')).json).toEqual({ error: 'Vidéo introuvable.' });
    expect((await fan.client.get('/api/videos/abc/comments')).status).toBe(404);
    // a visitor reads a public video's comments (issue 30: shared links), see videos/visitors.http.test.ts
    const m = await t.member();
    const v = await t.firstVideoId(m.client, m.member.pseudo);
    expect((await comment(fan.client, v, { content: 'Avant' })).status).toBe(201);
    await t.deleteVideo(m.member.email, v);
    await t.settle();
    await t.expectRefused(() => comment(fan.client, v, { content: 'Après' }), 404, 'Vidéo introuvable.');
    expect((await fan.client.get(`/api/videos/${v}/comments`)).status).toBe(404);
  });
});

describe('comments an older log kept on their video’s stream', () => {
  it('answers a comment of comments-<videoId>, and counts the new one on the video', async () => {
    // what the code before one stream per comment wrote
    const legacyId = 900_001;
    await t.server.deps.events.append(
      legacyCommentsStream(videoId),
      toNewEvents(
        [
          {
            type: 'CommentPosted',
            data: {
              commentId: legacyId,
              videoId,
              videoOwnerId: await t.userId(owner.member.email),
              authorId: await t.userId(fan.member.email),
              parentId: null,
              content: 'Un ancien commentaire',
            },
          },
        ],
        legacyCommentsStream(videoId),
        systemContext(),
      ),
      'any',
    );
    const reply = await comment(owner.client, videoId, { content: 'Une réponse', parentId: legacyId });
    expect(reply.status, reply.text).toBe(201);
    expect((reply.json.item as Item).parent_id).toBe(legacyId);
    const list = (await owner.client.get(`/api/videos/${videoId}/comments`)).json.items as Item[];
    expect(list.map((c) => [c.content, c.parent_id])).toEqual(
      expect.arrayContaining([
        ['Un ancien commentaire', null],
        ['Une réponse', legacyId],
      ]),
    );
  });
});
