/**
 * Suggestions, video cards, the single video page, profiles and the friends list against the real
 * server: counters pushed live while a card is on screen (other members act through the API), the
 * card's menu by keyboard, comments on a card, following, deleting one's own video, and the
 * refusals and failures a member can meet (a failing request is routed to a failure, one at a time).
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { Client, demoVideo, registerAndLogin } from '@evo/command-api/testing/test-server';
import { browserSkipReason, loggedInPage, newPage, screenshot } from './harness';
import {
  DESKTOP,
  MOBILE,
  adminClient,
  fitsAPhone,
  follow,
  realErrors,
  sidewaysOverflow,
  toast,
  watchSocketIo,
  type Member,
  serverAndBrowser,
  membersOf,
} from './helpers';

const skip = browserSkipReason();

describe.skipIf(!!skip)('suggestions, cards, video page, profiles and friends against the real server', () => {
  const live = serverAndBrowser();
  let admin: Client;
  const [me, bob, carol, emma, gabriel] = membersOf(live, [
    { bio: 'Danseuse le week-end.' },
    { video_title: 'Descente du col du Galibier' },
    { bio: 'Recettes express en 30 secondes.' },
    { video_title: 'Lumières de Fourvière' },
    { video_title: 'Premier essai' },
  ]);
  const videos: Record<string, number> = {};

  const video = async (id: number) => (await me.client.get(`/api/videos/${id}`)).json as Record<string, unknown>;
  const isFollowing = async (a: Member, b: Member) =>
    (await a.client.get(`/api/users/follows/is-following/${a.member.email}/${b.member.pseudo}`)).json.isFollowing;

  beforeAll(async () => {
    for (const m of [me, bob, carol, emma, gabriel]) videos[m.member.pseudo] = m.videoId;
    // carol has no video left
    expect((await carol.client.delete(`/api/videos/${videos[carol.member.pseudo]}`)).status).toBe(200);
    await follow(me, bob);
    await follow(me, carol);
    admin = await adminClient(live.server.url);
  }, 180_000);

  it('suggestions: one card per member not followed, a view each, live counters, like, a failed follow keeps the card', async () => {
    const emmaVideo = videos[emma.member.pseudo];
    const viewsBefore = Number((await video(emmaVideo)).views_count);
    const { context, page, errors } = await loggedInPage(live.browser, live.server.url, me.member, DESKTOP);
    await page.goto(`${live.server.url}/users-with-videos`);
    await page.getByRole('heading', { level: 1, name: 'Suggestions pour toi' }).waitFor();
    const cards = page.locator('.card-grid > li');
    await expect.poll(() => cards.count()).toBe(2);
    for (const followed of [bob, carol, me])
      expect(await page.getByRole('link', { name: `Profil de @${followed.member.pseudo}` }).count()).toBe(0);
    expect(await page.getByRole('link', { name: `Profil de @${emma.member.pseudo}` }).getAttribute('href')).toBe(
      `/user/${emma.member.pseudo}`,
    );
    const player = (await page.locator('.video-card__open').first().boundingBox())!;
    expect(player.height).toBeLessThanOrEqual(400);
    // each card on screen counts one view
    await expect
      .poll(async () => Number((await video(emmaVideo)).views_count), { timeout: 10_000 })
      .toBe(viewsBefore + 1);
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'cards-suggestions', { fullPage: false });

    // someone else likes emma's video: her card's counter follows live
    const card = cards.filter({ hasText: `@${emma.member.pseudo}` });
    const likes = Number((await video(emmaVideo)).likes_count);
    await card.getByRole('button', { name: `J'aime (${likes})` }).waitFor();
    expect((await bob.client.post(`/api/videos/${emmaVideo}/like`)).status).toBeLessThan(300);
    await card.getByRole('button', { name: `J'aime (${likes + 1})` }).waitFor({ timeout: 15_000 });

    // my like, then taking it back, as the server records them
    const like = card.getByRole('button', { name: /^J'aime/ });
    expect(await like.getAttribute('aria-pressed')).toBe('false');
    await like.click();
    await card.getByRole('button', { name: `J'aime (${likes + 2})` }).waitFor();
    expect(await like.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(async () => Number((await video(emmaVideo)).likes_count)).toBe(likes + 2);
    await like.click();
    await card.getByRole('button', { name: `J'aime (${likes + 1})` }).waitFor();
    expect(await like.getAttribute('aria-pressed')).toBe('false');
    await expect.poll(async () => Number((await video(emmaVideo)).likes_count)).toBe(likes + 1);

    // the server fails the follow (routed to a 500): said, with the server's text; the card stays
    await page.route('**/api/users/follows/follow', (route) =>
      route.fulfill({ status: 500, json: { error: 'Erreur serveur, réessayez plus tard.' } }),
    );
    await page.getByRole('button', { name: `Suivre @${gabriel.member.pseudo}` }).click();
    await toast(page, '❌ Erreur lors du follow').waitFor();
    await page.getByText('Erreur serveur, réessayez plus tard.').first().waitFor();
    expect(await cards.count()).toBe(2);
    expect(await isFollowing(me, gabriel)).toBe(false);
    await page.unrouteAll();
    expect(realErrors(errors)).toEqual([]);
    await context.close();
  }, 120_000);

  it('after a lost connection, a card on screen asks for its counters again and follows them live', async () => {
    const gabrielVideo = videos[gabriel.member.pseudo];
    const viewer = await registerAndLogin(live.server.url);
    const { context, page, errors } = await loggedInPage(live.browser, live.server.url, viewer.member, DESKTOP);
    // Socket.IO's connect packets ('40'), over long-polling or the WebSocket, and the connections lost
    let connects = 0;
    /** the rooms asked for ('video:watch'), by connection */
    const watches: number[] = [];
    const socket = watchSocketIo(page, (payload) => {
      for (const packet of payload.split('\x1e')) {
        if (packet.startsWith('40')) connects += 1;
        if (packet.startsWith('42["video:watch"')) watches[connects] = (watches[connects] ?? 0) + 1;
      }
    });
    await page.goto(`${live.server.url}/user/${gabriel.member.pseudo}`);
    const card = page.locator('.card-grid > li', { hasText: 'Premier essai' });
    const likes = Number((await video(gabrielVideo)).likes_count);
    await card.getByRole('button', { name: `J'aime (${likes})` }).waitFor();
    await expect.poll(() => connects).toBe(1);
    await expect.poll(() => watches[1] ?? 0).toBeGreaterThan(0);
    await page.waitForLoadState('networkidle');

    await context.setOffline(true);
    await expect.poll(() => socket.lost, { timeout: 30_000 }).toBeGreaterThan(0);
    await context.setOffline(false);
    await expect.poll(() => connects, { timeout: 30_000 }).toBe(2);
    // the card asks for its room again on the new connection
    await expect.poll(() => watches[2] ?? 0).toBeGreaterThan(0);
    await page.waitForLoadState('networkidle');
    // liked after the reconnection: only a card that joined its video's room again sees it
    expect((await emma.client.post(`/api/videos/${gabrielVideo}/like`)).status).toBeLessThan(300);
    await card.getByRole('button', { name: `J'aime (${likes + 1})` }).waitFor({ timeout: 15_000 });
    expect(realErrors(errors).filter((e) => !/ERR_INTERNET_DISCONNECTED|WebSocket/.test(e))).toEqual([]);
    await context.close();
  }, 90_000);

  it("a card's menu: keyboard, Escape and a click outside close it; share, favourite and report reach the server", async () => {
    const { context, page, errors } = await loggedInPage(live.browser, live.server.url, me.member, DESKTOP);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const emmaVideo = videos[emma.member.pseudo];
    await page.goto(`${live.server.url}/users-with-videos`);
    const card = page.locator('.card-grid > li', { hasText: `@${emma.member.pseudo}` });
    const menuButton = card.getByRole('button', { name: "Plus d'actions sur la vidéo" });
    await menuButton.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await menu.waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Partager');
    expect(await menu.getByRole('menuitem', { name: 'Supprimer' }).count()).toBe(0);
    await screenshot(page, 'cards-menu', { fullPage: false });
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Favori');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      "Plus d'actions sur la vidéo",
    );
    await menuButton.click();
    await menu.waitFor();
    await page.getByRole('heading', { level: 1 }).click();
    await menu.waitFor({ state: 'detached' });

    await menuButton.click();
    await page.getByRole('menuitem', { name: 'Partager' }).click();
    await toast(page, 'Lien copié !').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${live.server.url}/video/${emmaVideo}`);
    await menuButton.click();
    await page.getByRole('menuitem', { name: 'Favori' }).click();
    await toast(page, 'Ajouté aux favoris').waitFor();
    await expect
      .poll(async () => JSON.stringify((await me.client.get('/api/favorites')).json))
      .toContain(`"id":${emmaVideo}`);
    await menuButton.click();
    await page.getByRole('menuitem', { name: 'Signaler' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Signaler' }).click();
    await toast(page, 'Signalement envoyé').waitFor();
    await expect
      .poll(async () =>
        ((await admin.get('/api/admin/reports')).json as unknown as Array<{ video_id: number }>).some(
          (r) => r.video_id === emmaVideo,
        ),
      )
      .toBe(true);
    expect(realErrors(errors)).toEqual([]);
    await context.close();
  }, 90_000);

  it('no suggestion left, or none loadable, is said so', async () => {
    const lonely = await registerAndLogin(live.server.url);
    // every member with a video is followed (the suggestions left: none)
    const suggested = async () =>
      (await lonely.client.get(`/api/users/with-videos?currentEmail=${encodeURIComponent(lonely.member.email)}`))
        .json as unknown as Array<{ pseudo: string }>;
    for (const other of await suggested()) await follow(lonely, other);
    expect(await suggested()).toEqual([]);
    const { context, page } = await loggedInPage(live.browser, live.server.url, lonely.member, DESKTOP);
    await page.goto(`${live.server.url}/users-with-videos`);
    await page.getByText('Aucune suggestion disponible.').waitFor();
    await page.route('**/api/users/with-videos**', (route) => route.fulfill({ status: 500, json: { error: 'Panne' } }));
    await page.reload();
    await page.getByRole('alert').getByText('Impossible de charger le feed', { exact: true }).waitFor();
    await context.close();
  }, 60_000);

  it("comments on a card: a blank one is not sent, a reply closes the panel with the focus on its button; another member's comment arrives live; a failure keeps the text", async () => {
    const bobVideo = videos[bob.member.pseudo];
    expect(
      (
        await bob.client.post(`/api/videos/${bobVideo}/comment`, {
          userEmail: bob.member.email,
          userPseudo: bob.member.pseudo,
          content: 'Il faisait 3 °C en haut.',
        })
      ).status,
    ).toBe(201);
    const { context, page, errors } = await loggedInPage(live.browser, live.server.url, me.member, DESKTOP);
    const posted: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith(`/api/videos/${bobVideo}/comment`))
        posted.push(String((r.postDataJSON() as { content: string }).content));
    });
    await page.goto(`${live.server.url}/user/${bob.member.pseudo}`);
    const card = page.locator('.card-grid > li', { hasText: 'Descente du col du Galibier' });
    const toggle = card.getByRole('button', { name: /^Commentaires/ });
    await toggle.click();
    const panel = card.getByRole('region', { name: 'Commentaires' });
    await panel.getByText('Il faisait 3 °C en haut.').waitFor();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await panel.getByRole('button', { name: `Répondre à @${bob.member.pseudo}` }).click();
    await panel.getByText(`Réponse à @${bob.member.pseudo}`, { exact: true }).waitFor();
    await page.keyboard.press('Enter'); // blank: not sent
    await panel.getByRole('textbox').fill('Quelle vue !');
    await panel.getByRole('button', { name: 'Envoyer', exact: true }).click();
    await panel.waitFor({ state: 'detached' });
    await card.getByRole('button', { name: 'Commentaires (2)' }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Commentaires (2)');
    await toast(page, 'Commentaire publié.').waitFor();
    expect(posted).toEqual(['Quelle vue !']);

    // reopened: a fresh draft, my reply under bob's comment
    await toggle.click();
    const replies = panel.getByRole('list', { name: `Réponses à @${bob.member.pseudo}` });
    await replies.getByText('Quelle vue !').waitFor();
    expect(await panel.getByRole('textbox').inputValue()).toBe('');
    await page.waitForLoadState('networkidle');
    // emma comments meanwhile: it shows in the open panel, the counter follows
    expect(
      (
        await emma.client.post(`/api/videos/${bobVideo}/comment`, {
          userEmail: emma.member.email,
          userPseudo: emma.member.pseudo,
          content: 'Superbe !',
        })
      ).status,
    ).toBe(201);
    await panel.getByText('Superbe !').waitFor({ timeout: 15_000 });
    await card.getByRole('button', { name: 'Commentaires (3)' }).waitFor();
    await screenshot(page, 'cards-comments-live', { fullPage: false });

    // the server fails (routed to a 500): said, and the text stays to try again
    await page.route(`**/api/videos/${bobVideo}/comment`, (route) =>
      route.fulfill({ status: 500, json: { error: 'Base indisponible' } }),
    );
    await panel.getByRole('textbox').fill('Test');
    await panel.getByRole('button', { name: 'Envoyer', exact: true }).click();
    await toast(page, '❌ Erreur envoi commentaire').waitFor();
    expect(await panel.getByRole('textbox').inputValue()).toBe('Test');
    await page.unrouteAll();
    expect(realErrors(errors)).toEqual([]);
    await context.close();
  }, 90_000);

  it('the video page: author, actions without Supprimer for others, Retour; my own video is deleted after a confirmation; an unknown one is unavailable', async () => {
    const { context, page, errors } = await loggedInPage(live.browser, live.server.url, me.member, DESKTOP);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const bobVideo = videos[bob.member.pseudo];
    await page.goto(`${live.server.url}/user/${bob.member.pseudo}`);
    await page.getByRole('link', { name: /^Ouvrir la vidéo : Descente du col du Galibier/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Descente du col du Galibier' }).waitFor();
    await page.getByText('Posté par').waitFor();
    expect(
      await page
        .locator('.video-page__author')
        .getByRole('link', { name: `@${bob.member.pseudo}`, exact: true })
        .getAttribute('href'),
    ).toBe(`/user/${bob.member.pseudo}`);
    const bar = page.getByRole('group', { name: 'Actions sur la vidéo' });
    expect(await bar.getByRole('button', { name: 'Supprimer' }).count()).toBe(0);
    await bar.getByRole('button', { name: 'Favori' }).click();
    // on the page, the toast has no emoji
    await expect
      .poll(() => toast(page, 'Ajouté aux favoris').locator('.toast__message').textContent())
      .toBe('Ajouté aux favoris');
    await bar.getByRole('button', { name: 'Partager' }).click();
    await toast(page, 'Lien copié !').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${live.server.url}/video/${bobVideo}`);
    await page.getByRole('button', { name: 'Retour' }).click();
    await page.waitForURL((u) => u.pathname === `/user/${bob.member.pseudo}`);

    // my own video
    const form = new FormData();
    form.append('title', 'À effacer');
    form.append('description', '');
    form.append('video', new Blob([new Uint8Array(await demoVideo())], { type: 'video/mp4' }), 'clip.mp4');
    const uploaded = await me.client.post('/api/videos/upload', form);
    expect(uploaded.status, uploaded.text).toBe(201);
    const mine = Number((uploaded.json.video as { id: number }).id);
    await page.goto(`${live.server.url}/video/${mine}`);
    await page.getByRole('heading', { level: 1, name: 'À effacer' }).waitFor();
    await page.getByRole('group', { name: 'Actions sur la vidéo' }).getByRole('button', { name: 'Supprimer' }).click();
    await page.getByRole('dialog').getByText('Supprimer cette vidéo ?').waitFor();
    await screenshot(page, 'video-page-delete-confirm', { fullPage: false });
    await page.getByRole('dialog').getByRole('button', { name: 'Supprimer' }).click();
    await toast(page, 'Vidéo supprimée').waitFor();
    await page.waitForURL((u) => u.pathname === `/user/${me.member.pseudo}`);
    await live.server.settle();
    expect((await bob.client.get(`/api/videos/${mine}`)).status).toBe(404);

    await page.goto(`${live.server.url}/video/987654`);
    await page.getByRole('heading', { level: 1, name: 'Vidéo indisponible' }).waitFor();
    expect(realErrors(errors)).toEqual([]);
    await context.close();
  }, 90_000);

  it('profiles: mine with its counters and no follow button; another with its links, a follow that waits for the server then shows Abonné; empty and unknown ones', async () => {
    const { context, page, errors } = await loggedInPage(live.browser, live.server.url, me.member, DESKTOP);
    await page.goto(`${live.server.url}/user/${me.member.pseudo}`);
    await page.getByRole('heading', { level: 1, name: `@${me.member.pseudo}` }).waitFor();
    await page.getByRole('heading', { name: 'Mes vidéos' }).waitFor();
    await page.getByText('Danseuse le week-end.').waitFor();
    const counter = (label: string) =>
      page.locator('.profile__counters div', { hasText: label }).locator('dd').textContent();
    await expect.poll(() => counter('Suivis')).toBe('2');
    expect(await page.getByRole('button', { name: '+ Suivre' }).count()).toBe(0);
    expect(Math.round((await page.locator('.profile__card .avatar').boundingBox())!.width)).toBe(150);
    await page.goto(`${live.server.url}/profile`);
    await page.getByRole('heading', { level: 1, name: `@${me.member.pseudo}` }).waitFor();

    // gabriel, whom I do not follow
    await page.goto(`${live.server.url}/user/${gabriel.member.pseudo}`);
    await page.getByRole('heading', { level: 1, name: `@${gabriel.member.pseudo}` }).waitFor();
    await page.getByRole('heading', { name: `Vidéos de @${gabriel.member.pseudo}` }).waitFor();
    expect(await page.getByRole('link', { name: 'Message privé' }).getAttribute('href')).toBe(
      `/send-message/${gabriel.member.pseudo}`,
    );
    expect(await page.getByRole('link', { name: 'Envoyer un cadeau' }).getAttribute('href')).toBe(
      `/catalogue?receiver=${gabriel.member.pseudo}`,
    );
    const followButton = page.getByRole('button', { name: '+ Suivre' });
    await expect.poll(() => followButton.isEnabled()).toBe(true);
    const followers = Number((await me.client.get(`/api/users/stats/${gabriel.member.email}`)).json.followers);
    await expect.poll(() => counter('Abonnés')).toBe(String(followers));
    await screenshot(page, 'profile-other', { fullPage: false });
    // the follow is held until the button is seen disabled, then goes to the server
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/users/follows/follow', async (route) => {
      await held;
      await route.continue();
    });
    await followButton.click();
    await expect.poll(() => followButton.isDisabled()).toBe(true);
    expect(await followButton.getAttribute('aria-busy')).toBe('true');
    release();
    const followed = page.getByRole('button', { name: 'Abonné' });
    await followed.waitFor();
    // issue 30: "Abonné" is the way to unfollow (e2e/profile-unfollow.e2e.test.ts), no longer disabled
    await expect.poll(() => followed.isEnabled()).toBe(true);
    await expect.poll(() => counter('Abonnés')).toBe(String(followers + 1));
    // asked by the test's own client of the member (another session than the page's)
    await live.server.settle();
    expect(await isFollowing(me, gabriel)).toBe(true);
    await page.unrouteAll();

    // carol: followed, without videos
    await page.goto(`${live.server.url}/user/${carol.member.pseudo}`);
    await page.getByText('Aucune vidéo pour le moment').waitFor();
    await page.getByRole('button', { name: 'Abonné' }).waitFor();
    // nobody
    await page.goto(`${live.server.url}/user/personne${Date.now()}`);
    await page.getByRole('alert').getByText('Profil introuvable ou erreur serveur').waitFor();
    expect(realErrors(errors)).toEqual([]);
    await context.close();

    await fitsAPhone(
      live,
      me.member,
      `/user/${bob.member.pseudo}`,
      (p) => p.locator('.card-grid > li').first(),
      'profile-mobile',
    );
  }, 90_000);

  it('a profile shows its videos a page at a time: "Voir plus de vidéos" asks the server for the next one', async () => {
    // emma gets two more videos; the profile's pages are narrowed to 2 so that three make two pages
    for (const title of ['Traboules de la Croix-Rousse', 'Marché de la Croix-Rousse']) {
      const form = new FormData();
      form.append('title', title);
      form.append('video', new Blob([await demoVideo()], { type: 'video/mp4' }), 'x.mp4');
      expect((await emma.client.post('/api/videos/upload', form)).status).toBe(201);
    }
    for (const viewport of [DESKTOP, MOBILE]) {
      const { context, page, errors } = await loggedInPage(live.browser, live.server.url, me.member, viewport);
      const asked: string[] = [];
      await page.route('**/api/users/profile/**', async (route) => {
        const url = new URL(route.request().url());
        url.searchParams.set('limit', '2');
        asked.push(url.search);
        await route.continue({ url: url.toString() });
      });
      await page.goto(`${live.server.url}/user/${emma.member.pseudo}`);
      const cards = page.locator('.profile__videos .card-grid > li');
      const more = page.getByRole('button', { name: 'Voir plus de vidéos' });
      await more.waitFor();
      expect(await cards.count()).toBe(2);
      await expect.poll(() => cards.first().textContent()).toContain('Marché de la Croix-Rousse');
      await more.scrollIntoViewIfNeeded();
      await screenshot(page, `profile-more-${viewport.width}`, { fullPage: false });
      // the button is above the bottom bar, and nothing scrolls sideways
      const box = (await more.boundingBox())!;
      const bar = await page.locator('.bottombar').boundingBox();
      if (bar) expect(box.y + box.height).toBeLessThanOrEqual(bar.y);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      // what the click asks for, and nothing else; the first page may have been asked more than
      // once before it (a CI run on a busy machine saw it twice), which is not what this checks
      const beforeClick = asked.length;
      expect(new Set(asked)).toEqual(new Set(['?limit=2']));
      await more.click();
      await expect.poll(() => cards.count()).toBe(3);
      await expect.poll(() => cards.last().textContent()).toContain('Lumières de Fourvière');
      expect(await more.count()).toBe(0);
      expect(asked.slice(beforeClick)).toEqual(['?page=2&limit=2']);
      expect(realErrors(errors)).toEqual([]);
      await context.close();
    }
  }, 120_000);

  it('the friends feed asks for its next page near the end of the first; when it cannot load it says so and retries; a visitor is told to log in', async () => {
    const viewer = await registerAndLogin(live.server.url);
    await follow(viewer, bob);
    // bob has 11 videos: one more than a page of the friends feed
    for (let i = 0; i < 10; i++) {
      const form = new FormData();
      form.append('title', `Souvenir n°${i + 1}`);
      form.append('description', '');
      form.append('video', new Blob([new Uint8Array(await demoVideo())], { type: 'video/mp4' }), 'clip.mp4');
      const uploaded = await bob.client.post('/api/videos/upload', form);
      expect(uploaded.status, uploaded.text).toBe(201);
    }
    const { context, page, errors } = await loggedInPage(live.browser, live.server.url, viewer.member, DESKTOP);
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/videos/friends-feed/')) asked.push(new URL(r.url()).searchParams.get('page') ?? '');
    });
    await page.goto(`${live.server.url}/feed`);
    const active = page.locator('.feed-slide--active');
    await active.waitFor();
    expect(await active.getByRole('heading', { level: 2 }).textContent()).toBe('Souvenir n°10');
    expect(asked).toEqual(['1']);
    for (let i = 0; i < 8 && !asked.includes('2'); i++) {
      const shown = await active.getByRole('heading', { level: 2 }).textContent();
      await page.keyboard.press('ArrowDown');
      await expect.poll(() => active.getByRole('heading', { level: 2 }).textContent()).not.toBe(shown);
    }
    await expect.poll(() => asked).toContain('2');
    expect(realErrors(errors)).toEqual([]);
    await context.close();

    // the friends feed fails (routed to a 500): said, and "Réessayer" asks again
    const phone = await loggedInPage(live.browser, live.server.url, viewer.member, MOBILE);
    await phone.page.route('**/api/videos/friends-feed/**', (route) =>
      route.fulfill({ status: 500, json: { error: 'Erreur serveur.' } }),
    );
    await phone.page.goto(`${live.server.url}/feed`);
    await phone.page.getByText('Impossible de charger le feed amis').waitFor();
    await screenshot(phone.page, 'feed-failed-mobile', { fullPage: false });
    await phone.page.unrouteAll();
    await phone.page.getByRole('button', { name: 'Réessayer' }).click();
    await phone.page.locator('.feed-slide--active').waitFor();
    await phone.context.close();

    const visitor = await live.browser.newContext({ viewport: MOBILE, locale: 'fr-FR' });
    const { page: anonymous } = await newPage(visitor);
    await anonymous.goto(`${live.server.url}/feed`);
    await anonymous.getByText('Utilisateur non connecté', { exact: true }).waitFor();
    await visitor.close();
  }, 120_000);

  it('friends on a phone: who I follow, with their bio; unfollowing asks first; nobody followed is said so', async () => {
    const { context, page, errors } = await loggedInPage(live.browser, live.server.url, me.member, MOBILE);
    await page.goto(`${live.server.url}/friends`);
    await page.getByRole('heading', { level: 1, name: 'Mes amis' }).waitFor();
    const rows = page.locator('.friend');
    const following = Number((await me.client.get(`/api/users/stats/${me.member.email}`)).json.following);
    expect(following).toBeGreaterThanOrEqual(2); // bob and carol at least
    await expect.poll(() => rows.count()).toBe(following);
    await rows
      .filter({ hasText: `@${carol.member.pseudo}` })
      .getByText('Recettes express en 30 secondes.')
      .waitFor();
    const bobRow = rows.filter({ hasText: `@${bob.member.pseudo}` });
    expect(
      await bobRow.getByRole('link', { name: `Voir le profil de @${bob.member.pseudo}` }).getAttribute('href'),
    ).toBe(`/user/${bob.member.pseudo}`);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'friends-mobile', { fullPage: false });
    await bobRow.getByRole('button', { name: `Se désabonner de @${bob.member.pseudo}` }).click();
    await page.getByRole('dialog').getByText('Se désabonner de cet utilisateur ?').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Se désabonner' }).click();
    await bobRow.waitFor({ state: 'detached' });
    expect(await rows.count()).toBe(following - 1);
    expect(await isFollowing(me, bob)).toBe(false);
    expect(realErrors(errors)).toEqual([]);
    await context.close();

    const nobody = await registerAndLogin(live.server.url);
    const other = await loggedInPage(live.browser, live.server.url, nobody.member, MOBILE);
    await other.page.goto(`${live.server.url}/friends-list`);
    await other.page.getByText('Vous ne suivez encore personne').waitFor();
    await other.context.close();
  }, 90_000);
});
