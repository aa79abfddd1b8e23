/**
 * "Modifier le profil" (issue 30, Major 7): a member changes their picture and bio as events
 * (ProfileUpdated); the pseudo is not editable, so every link keeps working. The new picture shows
 * on their profile, their video cards, their comments and the others' inboxes.
 */
import { describe, it, expect } from 'vitest';
import { LIMITS, MESSAGES } from '@evo/domain';
import { AUTH_MESSAGES } from '../http/session';
import { Client, PNG_1PX } from '../testing/test-server';
import { serverFixture } from '../testing/server-fixture';

const t = serverFixture();

function form(fields: { bio?: string; picture?: Buffer; pictureType?: string; pseudo?: string }): FormData {
  const f = new FormData();
  if (fields.bio !== undefined) f.append('bio', fields.bio);
  if (fields.pseudo !== undefined) f.append('pseudo', fields.pseudo);
  if (fields.picture)
    f.append(
      'profilePic',
      new Blob([new Uint8Array(fields.picture)], { type: fields.pictureType ?? 'image/png' }),
      'moi.png',
    );
  return f;
}

describe('editing one’s profile', () => {
  it('changes the bio and the picture; the pseudo and its links stay', async () => {
    const me = await t.member();
    const friend = await t.member();
    const videoId = (
      (await me.client.get(`/api/users/profile/${me.member.pseudo}`)).json.videos as Array<{ id: number }>
    )[0].id;
    expect((await me.client.post(`/api/videos/${videoId}/comment`, { content: 'Mon commentaire' })).status).toBe(201);
    expect((await friend.client.post('/api/users/follows/follow', { followingPseudo: me.member.pseudo })).status).toBe(
      200,
    );
    expect(
      (await friend.client.post('/api/messages', { receiverEmail: me.member.email, content: 'Salut !' })).status,
    ).toBe(201);

    const bioOnly = await me.client.put(
      '/api/users/me/profile',
      form({ bio: '  Nouvelle bio, avec des accents : éàü  ' }),
    );
    expect(bioOnly.status).toBe(200);
    expect(bioOnly.json).toMatchObject({
      message: MESSAGES.profileSaved,
      pseudo: me.member.pseudo,
      bio: 'Nouvelle bio, avec des accents : éàü',
    });
    const oldPicture = bioOnly.json.profile_picture as string;

    const withPicture = await me.client.put('/api/users/me/profile', form({ picture: PNG_1PX, pseudo: 'autrepseudo' }));
    expect(withPicture.status).toBe(200);
    const picture = withPicture.json.profile_picture as string;
    expect(picture).not.toBe(oldPicture);
    // an absent bio is kept; a pseudo sent is ignored: the pseudo is not editable
    expect(withPicture.json).toMatchObject({ bio: 'Nouvelle bio, avec des accents : éàü', pseudo: me.member.pseudo });
    // the picture is served
    expect((await me.client.get(`/uploads/profile_pics/${picture}`)).status).toBe(200);

    await t.settle();
    const profile = (await friend.client.get(`/api/users/profile/${me.member.pseudo}`)).json as {
      user: { bio: string; profile_picture: string };
      videos: Array<{ user_profile_picture: string }>;
    };
    expect(profile.user).toMatchObject({ bio: 'Nouvelle bio, avec des accents : éàü', profile_picture: picture });
    expect(profile.videos[0].user_profile_picture).toBe(picture);
    const comments = (await friend.client.get(`/api/videos/${videoId}/comments`)).json as {
      items: Array<{ user_pseudo: string; user_profile_picture: string }>;
    };
    expect(comments.items.find((c) => c.user_pseudo === me.member.pseudo)?.user_profile_picture).toBe(picture);
    const inbox = (await friend.client.get('/api/messages/inbox')).json as unknown as Array<{
      other_pseudo: string;
      other_profile_picture: string;
    }>;
    expect(inbox.find((c) => c.other_pseudo === me.member.pseudo)?.other_profile_picture).toBe(picture);
    expect((await me.client.get('/api/auth/me')).json).toMatchObject({
      profile_picture: picture,
      pseudo: me.member.pseudo,
    });
    // the old link still names the member
    expect((await friend.client.get(`/api/users/by-pseudo/${me.member.pseudo}`)).status).toBe(200);

    // the log holds the facts
    const facts = (await t.server.deps.events.readStream(`user-${await t.userId(me.member.email)}`)).filter(
      (e) => e.type === 'ProfileUpdated',
    );
    expect(facts.map((e) => e.data)).toEqual([
      expect.objectContaining({ bio: 'Nouvelle bio, avec des accents : éàü', profilePicture: oldPicture }),
      expect.objectContaining({ bio: 'Nouvelle bio, avec des accents : éàü', profilePicture: picture }),
    ]);
  });

  it('may empty the bio; saving the same appends nothing', async () => {
    const me = await t.member();
    expect((await me.client.put('/api/users/me/profile', form({ bio: '' }))).json.bio).toBe('');
    const again = await me.client.put('/api/users/me/profile', form({ bio: '   ' }));
    expect(again.status).toBe(200);
    expect(again.json.message).toBe(MESSAGES.profileUnchanged);
  });

  it('refuses in French what is not allowed, and changes nothing', async () => {
    const me = await t.member();
    await t.expectRefusals([
      [
        () => me.client.put('/api/users/me/profile', form({ bio: 'x'.repeat(LIMITS.bioMax + 1) })),
        400,
        MESSAGES.bioTooLong,
      ],
      [
        () =>
          me.client.put(
            '/api/users/me/profile',
            form({ picture: Buffer.from('pas une image'), pictureType: 'image/png' }),
          ),
        400,
      ],
      [
        () => new Client(t.server.url).put('/api/users/me/profile', form({ bio: 'Intrus' })),
        401,
        AUTH_MESSAGES.unauthenticated,
      ],
    ]);
  });
});
