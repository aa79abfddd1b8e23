/**
 * Issue 30, minor "Tone": the member screens say "tu" everywhere (SPEC's quoted strings stay as they
 * are, even when formal), and a failed login blames the server only when the server failed: a
 * wrong email or password reads SPEC's 'Email ou mot de passe incorrect.'. At 1280x800 and 390x844.
 * Screenshots: artifacts/screens/tone-*.png.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import type { Page } from 'playwright-core';

import { browserSkipReason, loggedInPage, newPage, screenshot, fillLogin } from './harness';
import { SIZES, follow, realErrors, serverAndBrowser, sidewaysOverflow, membersOf } from './helpers';

const skip = browserSkipReason();

/** SPEC's quoted strings that are formal: kept word for word */
const SPEC_FORMAL = [
  '✅ Compte créé avec succès ! Vous pouvez vous connecter.',
  'Vous ne suivez encore personne',
  'Vous devez être connecté pour envoyer un cadeau',
  "Vous n'avez pas assez de coins. Rechargez votre coffre !",
  '❌ Solde insuffisant. Rechargez vos coins !',
  'Veuillez vous connecter pour acheter.',
  'Vous devez suivre cet utilisateur pour lui envoyer un MP.',
  'Ce message contient un mot inapproprié. Veuillez reformuler.',
  'Voulez-vous vraiment supprimer cette vidéo ?',
  '❌ Erreur : pseudo introuvable, reconnectez-vous.',
];
/** formal address: the pronouns, and the imperatives and verbs of "vous" (chez, assez, nez are not) */
const FORMAL = /\b(vous|votre|vos)\b|\b(?!chez\b|assez\b|nez\b)\p{L}+ez\b/iu;

/** The formal words `page` shows in its main area (SPEC's formal strings aside). */
async function formalWords(page: Page): Promise<string[]> {
  let text = await page.locator('main').innerText();
  for (const kept of SPEC_FORMAL) text = text.split(kept).join(' ');
  return text
    .split('\n')
    .filter((line) => FORMAL.test(line))
    .map((line) => line.trim());
}

describe.skipIf(!!skip)('one address for members, and a login error that says what went wrong', () => {
  const live = serverAndBrowser();
  const [alice, bob] = membersOf(live, 2);

  beforeAll(async () => {
    await follow(alice, bob);
    await follow(bob, alice);
    // the server's notification texts, as bob reads them: a like, a comment, a follow, a message
    expect((await alice.client.post(`/api/videos/${bob.videoId}/like`, {})).status).toBeLessThan(300);
    const comment = {
      userEmail: alice.member.email,
      userPseudo: alice.member.pseudo,
      content: 'Bravo !',
      parentId: null,
    };
    expect((await alice.client.post(`/api/videos/${bob.videoId}/comment`, comment)).status).toBeLessThan(300);
    const message = { senderEmail: alice.member.email, receiverEmail: bob.member.email, content: 'Salut !' };
    expect((await alice.client.post('/api/messages', message)).status).toBeLessThan(300);
  });

  for (const size of SIZES) {
    it(`a wrong password is the member's mistake; only no answer or a failure speaks of the server (${size.name})`, async () => {
      const context = await live.browser.newContext({ viewport: size.viewport, locale: 'fr-FR' });
      const { page, errors } = await newPage(context);
      await page.goto(`${live.server.url}/login`);
      await fillLogin(page, { email: alice.member.email, password: 'pas-le-bon-mot-de-passe' });
      const alert = page.locator('.form-error');
      await alert.getByText('Email ou mot de passe incorrect.').waitFor();
      expect(await alert.innerText()).not.toMatch(/serveur/i);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `tone-login-wrong-password-${size.name}`, { fullPage: false });

      // no answer at all: the server (or the network) is named, with what to do
      await page.route('**/api/auth/login', (route) => route.abort('connectionrefused'));
      await page.getByRole('button', { name: 'Se connecter' }).click();
      await alert.getByText("❌ Impossible de se connecter. Vérifie tes identifiants ou l'état du serveur.").waitFor();
      await alert.getByText('Le serveur ne répond pas : vérifie ta connexion à Internet, puis réessaie.').waitFor();
      await screenshot(page, `tone-login-no-answer-${size.name}`, { fullPage: false });
      // a server failure: the same, with the server's own words
      await page.unroute('**/api/auth/login');
      await page.route('**/api/auth/login', (route) =>
        route.fulfill({
          status: 503,
          json: { error: 'Service momentanément indisponible, réessaie dans quelques instants.' },
        }),
      );
      await page.getByRole('button', { name: 'Se connecter' }).click();
      await alert.getByText('Service momentanément indisponible, réessaie dans quelques instants.').waitFor();
      await alert.getByText("❌ Impossible de se connecter. Vérifie tes identifiants ou l'état du serveur.").waitFor();
      expect(realErrors(errors, 'ERR_CONNECTION_REFUSED')).toEqual([]);
      await context.close();
    }, 60_000);

    it(`visitors and members read "tu" on every screen, server answers and notifications included (${size.name})`, async () => {
      const found: Record<string, string[]> = {};
      const check = async (page: Page, path: string, ready: () => Promise<unknown>) => {
        await page.goto(`${live.server.url}${path}`);
        await ready();
        const words = await formalWords(page);
        if (words.length) found[path] = words;
      };

      const visitor = await live.browser.newContext({ viewport: size.viewport, locale: 'fr-FR' });
      const { page: v } = await newPage(visitor);
      await check(v, '/', () => v.getByText('Connecte-toi pour voir les vidéos de tes amis').waitFor());
      await screenshot(v, `tone-home-visitor-${size.name}`, { fullPage: false });
      await check(v, '/login', () => v.getByRole('button', { name: 'Se connecter' }).waitFor());
      await check(v, '/register', () =>
        v
          .getByRole('button', { name: /Créer|inscri/i })
          .first()
          .waitFor(),
      );
      await check(v, '/mot-de-passe-oublie', () => v.locator('main form').waitFor());
      await check(v, `/video/${bob.videoId}`, () => v.getByText(/Posté par/).waitFor());
      await check(v, '/page-qui-n-existe-pas', () => v.getByText("La page que tu cherches n'existe pas").waitFor());
      await visitor.close();

      const { context, page, errors } = await loggedInPage(live.browser, live.server.url, bob.member, size.viewport);
      await check(page, '/notifications', () => page.getByText('a aimé ta vidéo').first().waitFor());
      const notices = await page.locator('main').innerText();
      expect(notices).toContain('a commenté ta vidéo');
      expect(notices).toContain("t'a envoyé un message");
      expect(notices).toContain("s'est abonné(e) à toi");
      await screenshot(page, `tone-notifications-${size.name}`, { fullPage: false });
      await check(page, '/friends-list', () => page.getByText('Tu suis 1 personne.').waitFor());
      await check(page, '/messages', () => page.getByText('Toi : ').or(page.getByText('Salut !')).first().waitFor());
      await check(page, '/coffre', () => page.getByText('Ton coffre de coins et de cadeaux').waitFor());
      await check(page, '/coins/transactions', () => page.locator('.coins-summary').waitFor());
      await check(page, '/packs', () =>
        page
          .getByRole('button', { name: /Acheter le pack/ })
          .first()
          .waitFor(),
      );
      await check(page, '/cadeaux-recues', () => page.locator('main h1').waitFor());
      await check(page, '/moderation', () => page.getByText('Aucune décision de modération ne te concerne.').waitFor());
      await check(page, '/upload/video', () => page.locator('main form').waitFor());
      await check(page, '/test', () => page.getByText('Vérifie que ta caméra fonctionne').waitFor());
      await screenshot(page, `tone-camera-test-${size.name}`, { fullPage: false });
      expect(found).toEqual({});

      // the server's refusals read "tu" too
      const selfFollow = await bob.client.post('/api/users/follows/follow', {
        followerEmail: bob.member.email,
        followingPseudo: bob.member.pseudo,
      });
      expect(selfFollow.json.error).toBe('Tu ne peux pas te suivre toi-même.');
      expect(realErrors(errors)).toEqual([]);
      await context.close();
    }, 120_000);
  }
});
