/**
 * The search (issue 30, Major 7): members by pseudo and videos by title, accents and case aside,
 * from its read model; others' hidden, deleted or rejected videos are never found, one's own hidden
 * ones are. Members only.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { SEARCH_LIMITS, SEARCH_MESSAGES } from '@evo/domain';
import { AUTH_MESSAGES } from '../http/session';
import { Client, type Member } from '../testing/test-server';
import { serverFixture } from '../testing/server-fixture';
import { loginAdmin } from '../admin/test-helpers';

const tag = Date.now().toString(36);
const t = serverFixture({
  members: [
    { pseudo: `Élodie_${tag}`, video_title: `Crêpes à la Fête ${tag}` },
    { pseudo: `bruno_${tag}`, video_title: `Recette des CREPES ${tag}` },
  ],
});
const [elodie, bruno] = t.members;
beforeAll(() => t.settle());

type Answer = {
  query: string;
  members: Array<{ pseudo: string; profile_picture: string; bio: string }>;
  videos: Array<{ id: number; title: string; user_pseudo: string; status: string }>;
};
const search = async (who: Member, q: string) =>
  (await who.client.get(`/api/search?q=${encodeURIComponent(q)}`)).json as unknown as Answer;

describe('search', () => {
  it('finds members by pseudo and videos by title, accents and case aside', async () => {
    const byPseudo = await search(bruno, `ELODIE_${tag}`);
    expect(byPseudo.members).toEqual([
      { pseudo: `Élodie_${tag}`, profile_picture: expect.any(String), bio: 'Une bio' },
    ]);
    const partial = await search(bruno, `lodi`);
    expect(partial.members.map((m) => m.pseudo)).toContain(`Élodie_${tag}`);

    const crepes = await search(elodie, `crepes`);
    expect(crepes.videos.map((v) => [v.title, v.user_pseudo]).sort()).toEqual(
      [
        [`Crêpes à la Fête ${tag}`, `Élodie_${tag}`],
        [`Recette des CREPES ${tag}`, `bruno_${tag}`],
      ].sort(),
    );
    expect((await search(elodie, 'fête')).videos.map((v) => v.title)).toEqual([`Crêpes à la Fête ${tag}`]);
    expect((await search(elodie, 'FETE')).videos.map((v) => v.title)).toEqual([`Crêpes à la Fête ${tag}`]);
    // nothing to find, or too short: empty, never an error
    expect(await search(elodie, 'zzzzqqq')).toEqual({ query: 'zzzzqqq', members: [], videos: [] });
    expect((await search(elodie, 'c')).videos).toEqual([]);
    // a pattern's characters are text
    expect((await search(elodie, '.*')).members).toEqual([]);
  });

  it("keeps others' hidden and deleted videos out, and shows one's own hidden video to its author", async () => {
    const admin = await loginAdmin(t.server);
    const video = (await search(bruno, `recette des crepes ${tag}`)).videos[0];
    expect(video.user_pseudo).toBe(`bruno_${tag}`);
    const hidden = await admin.put(`/api/videos/${video.id}/visibility`, { status: 'masquée' });
    expect(hidden.status).toBe(200);
    await t.settle();
    expect((await search(elodie, `recette des crepes ${tag}`)).videos).toEqual([]);
    expect((await search(bruno, `recette des crepes ${tag}`)).videos).toEqual([
      expect.objectContaining({ id: video.id, status: 'masquée' }),
    ]);
    expect((await bruno.client.delete(`/api/videos/${video.id}`)).status).toBe(200);
    await t.settle();
    expect((await search(bruno, `recette des crepes ${tag}`)).videos).toEqual([]);
  });

  it('follows a new picture or bio', async () => {
    const f = new FormData();
    f.append('bio', 'Pâtissière');
    expect((await elodie.client.put('/api/users/me/profile', f)).status).toBe(200);
    await t.settle();
    expect((await search(bruno, `élodie_${tag}`)).members[0].bio).toBe('Pâtissière');
  });

  it('answers members only, and refuses a too long query in French', async () => {
    const visitor = await new Client(t.server.url).get('/api/search?q=crepes');
    expect(visitor.status).toBe(401);
    expect(visitor.json.error).toBe(AUTH_MESSAGES.unauthenticated);
    const long = await elodie.client.get(`/api/search?q=${'a'.repeat(SEARCH_LIMITS.queryMax + 1)}`);
    expect(long.status).toBe(400);
    expect(long.json.error).toBe(SEARCH_MESSAGES.queryTooLong);
    const twice = await elodie.client.get('/api/search?q=a&q=b');
    expect(twice.status).toBe(400);
  });
});
