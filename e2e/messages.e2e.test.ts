/**
 * Private messages as a member uses them, against the real server: the inbox grouped by the other
 * member, the emoji picker, refusals the server answers, messages and deletions pushed live (sent
 * by the other members through the API), the conversation page and the "Message privé" page, at
 * 1280x800 and 390x844.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { browserSkipReason, loggedInPage, screenshot } from './harness';
import {
  DESKTOP,
  MOBILE,
  follow,
  realErrors,
  sidewaysOverflow,
  type Member,
  serverAndBrowser,
  membersOf,
} from './helpers';

const skip = browserSkipReason();
const INAPPROPRIATE = 'Ce message contient un mot inapproprié. Veuillez reformuler.';
const MUST_FOLLOW = 'Vous devez suivre cet utilisateur pour lui envoyer un MP.';

describe.skipIf(!!skip)('private messages against the real server', () => {
  const live = serverAndBrowser();
  const [me, bob, carol, emma] = membersOf(live, 4);

  const send = async (from: Member, to: Member, content: string) => {
    const r = await from.client.post('/api/messages', {
      senderEmail: from.member.email,
      receiverEmail: to.member.email,
      content,
    });
    expect(r.status, r.text).toBe(201);
  };
  /** what the server holds of a conversation, as `who` reads it */
  const conversation = async (who: Member, other: Member) =>
    (
      (await who.client.get(`/api/messages/conversation/${who.member.email}/${other.member.pseudo}`))
        .json as unknown as Array<{ content: string }>
    ).map((m) => m.content);

  beforeAll(async () => {
    // I follow bob and carol, not emma; all three follow me (so that they may write to me)
    for (const [a, b] of [
      [me, bob],
      [me, carol],
      [bob, me],
      [carol, me],
      [emma, me],
    ] as const)
      await follow(a, b);
    // oldest first: bob's conversation, then carol's, then emma's
    await send(bob, me, 'Salut, tu viens rouler samedi ?');
    await send(me, bob, 'Carrément ! Départ 9 h devant la boulangerie ?');
    await send(bob, me, 'Parfait. Prends de quoi réparer une crevaison.');
    await send(carol, me, 'Tu as testé ma tarte tatin ?');
    await send(emma, me, 'Merci pour le like sur mes photos !');
  }, 180_000);

  it('the inbox groups by member, newest first; a reply with an emoji of a chosen skin tone is sent, a blank one is not, an insult is refused', async () => {
    const { context, page, errors } = await loggedInPage(live.browser, live.server.url, me.member, DESKTOP);
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && /\/api\/messages\/?$/.test(new URL(r.url()).pathname))
        posts.push(String((r.postDataJSON() as { content: string }).content));
    });
    await page.goto(`${live.server.url}/messages`);
    await page.getByRole('heading', { level: 1, name: 'Messages' }).waitFor();
    const pseudos = page.locator('.inbox__pseudo');
    await expect
      .poll(() => pseudos.allTextContents())
      .toEqual([`@${emma.member.pseudo}`, `@${carol.member.pseudo}`, `@${bob.member.pseudo}`]);
    // the last message of each, mine marked as such
    expect(await page.locator('.inbox__preview').allTextContents()).toEqual([
      'Merci pour le like sur mes photos !',
      'Tu as testé ma tarte tatin ?',
      'Parfait. Prends de quoi réparer une crevaison.',
    ]);

    await page.locator('.inbox__item', { hasText: `@${bob.member.pseudo}` }).click();
    await page.waitForURL((u) => u.searchParams.get('avec') === bob.member.pseudo);
    const thread = page.getByRole('log', { name: `Messages avec @${bob.member.pseudo}` });
    await thread.getByText('Prends de quoi réparer').waitFor();
    const box = page.getByRole('textbox', { name: `Ta réponse à @${bob.member.pseudo}` });
    const sendButton = page.getByRole('button', { name: 'Envoyer', exact: true });
    // a blank reply is not sent (the next one is the first request)
    await box.fill('   ');
    await sendButton.click();

    // the emoji picker: focus inside, six skin tones, variations by keyboard and right click
    await box.fill('À samedi ');
    await page.getByRole('button', { name: 'Insérer un émoji' }).click();
    const picker = page.getByRole('group', { name: 'Choisir un émoji' });
    await picker.waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Visage souriant');
    expect(await picker.getByRole('radio').count()).toBe(6);
    await picker.getByRole('radio', { name: 'Peau mate' }).click();
    expect(await picker.getByRole('radio', { name: 'Peau mate' }).getAttribute('aria-checked')).toBe('true');
    await picker.getByRole('button', { name: 'Pouce levé', exact: true }).focus();
    await page.keyboard.press('Shift+Enter');
    const variants = picker.getByRole('group', { name: 'Variantes : Pouce levé' });
    await variants.waitFor();
    expect(await variants.getByRole('button', { name: /^Pouce levé,/ }).count()).toBe(6);
    await screenshot(page, 'messages-emoji-variations', { fullPage: false });
    await page.keyboard.press('Escape');
    await variants.waitFor({ state: 'detached' });
    expect(await picker.isVisible()).toBe(true);
    await picker.getByRole('button', { name: 'Cœur', exact: true }).click({ button: 'right' });
    const hearts = picker.getByRole('group', { name: 'Variantes : Cœur' });
    await hearts.waitFor();
    expect(await hearts.getByRole('button', { name: /^Cœur, / }).count()).toBe(6);
    await page.keyboard.press('Escape');
    await hearts.waitFor({ state: 'detached' });
    await picker.getByRole('button', { name: 'Pouce levé', exact: true }).focus();
    await page.keyboard.press('Enter');
    await picker.waitFor({ state: 'detached' });
    const reply = 'À samedi 👍\u{1F3FD}';
    expect(await box.inputValue()).toBe(reply);
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('TEXTAREA');

    await sendButton.click();
    await thread.getByText(reply).waitFor();
    await page.getByText('✅ Réponse envoyée !').first().waitFor();
    expect(posts).toEqual([reply]);
    await expect.poll(() => conversation(bob, me)).toContain(reply);
    await screenshot(page, 'messages-inbox-thread', { fullPage: false });

    // the server's refusal, as it comes
    await box.fill('Espèce de connard');
    await page.keyboard.press('Enter');
    await page.getByText('Erreur envoi message').waitFor();
    await page.getByText(INAPPROPRIATE).waitFor();
    expect(await conversation(bob, me)).not.toContain('Espèce de connard');
    expect(realErrors(errors)).toEqual([]);
    await context.close();
  }, 120_000);

  it('messages and deletions arrive live in the inbox; deleting a conversation asks first; an unfollowed member cannot be answered', async () => {
    const { context, page, errors } = await loggedInPage(live.browser, live.server.url, me.member, DESKTOP);
    await page.goto(`${live.server.url}/messages?avec=${bob.member.pseudo}`);
    const thread = page.getByRole('log', { name: `Messages avec @${bob.member.pseudo}` });
    await thread.getByText('Prends de quoi réparer').waitFor();
    await page.waitForLoadState('networkidle');

    // bob writes: the open thread and the list's preview show it
    await send(bob, me, 'Je prends la pompe !');
    await thread.getByText('Je prends la pompe !').waitFor({ timeout: 15_000 });
    await page.locator('.inbox__preview', { hasText: 'Je prends la pompe !' }).waitFor();
    await expect.poll(() => page.locator('.inbox__pseudo').first().textContent()).toBe(`@${bob.member.pseudo}`);

    // deleting the conversation: a confirmation, then it leaves the list (for me only)
    await page.getByRole('button', { name: 'Supprimer la conversation' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Supprimer la conversation ?').waitFor();
    await dialog.getByRole('button', { name: 'Supprimer' }).click();
    await page.locator('.inbox__pseudo', { hasText: `@${bob.member.pseudo}` }).waitFor({ state: 'detached' });
    // the API client is another session of mine (another device): it sees the deletion once projected
    await expect.poll(() => conversation(me, bob)).toEqual([]);
    expect(await conversation(bob, me)).toContain('Je prends la pompe !');

    // deleted from another device of mine: it leaves the open list too
    expect((await me.client.delete(`/api/messages/${me.member.email}/${carol.member.email}`)).status).toBe(200);
    await page
      .locator('.inbox__pseudo', { hasText: `@${carol.member.pseudo}` })
      .waitFor({ state: 'detached', timeout: 15_000 });

    // emma, whom I do not follow: the reply box is disabled, with the reason
    await page.locator('.inbox__item', { hasText: `@${emma.member.pseudo}` }).click();
    await page.getByText(MUST_FOLLOW).waitFor();
    expect(await page.getByRole('textbox', { name: `Ta réponse à @${emma.member.pseudo}` }).isDisabled()).toBe(true);
    await screenshot(page, 'messages-must-follow', { fullPage: false });
    expect(realErrors(errors)).toEqual([]);
    await context.close();
  }, 120_000);

  it('on a phone: the list, then the thread with a back button; the conversation page shows only its own live messages', async () => {
    await send(carol, me, 'Et la recette du clafoutis ?');
    const { context, page, errors } = await loggedInPage(live.browser, live.server.url, me.member, MOBILE);
    await page.goto(`${live.server.url}/messages`);
    await page.locator('.inbox__item', { hasText: `@${carol.member.pseudo}` }).waitFor();
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'messages-inbox-mobile', { fullPage: false });
    await page.locator('.inbox__item', { hasText: `@${carol.member.pseudo}` }).click();
    await page
      .getByRole('log', { name: `Messages avec @${carol.member.pseudo}` })
      .getByText('clafoutis')
      .waitFor();
    // one pane at a time on a phone: the list is out of sight while a thread is open
    expect(await page.locator('.inbox__item').first().isVisible()).toBe(false);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'messages-inbox-thread-mobile', { fullPage: false });
    await page.getByRole('button', { name: 'Retour aux conversations' }).click();
    await page.locator('.inbox__item').first().waitFor();
    expect(new URL(page.url()).searchParams.get('avec')).toBeNull();

    // the conversation page (emptied for me by the deletion above): only this conversation's pushes;
    // bubbles at most 70 % of the thread's width
    await page.goto(`${live.server.url}/messages/${bob.member.pseudo}`);
    const thread = page.getByRole('log', { name: `Messages avec @${bob.member.pseudo}` });
    const box = page.getByRole('textbox', { name: `Ta réponse à @${bob.member.pseudo}` });
    await expect.poll(() => box.isEnabled()).toBe(true);
    await page.waitForLoadState('networkidle');
    await box.fill('On se retrouve au col ? Je serai là vers dix heures avec tout le matériel.');
    await page.getByRole('button', { name: 'Envoyer', exact: true }).click();
    await thread.getByText('On se retrouve au col ?').waitFor();
    const layout = await page.evaluate(() => {
      const log = document.querySelector('.thread')!;
      const bubbles = [...document.querySelectorAll('.bubble')];
      return { width: log.clientWidth, widest: Math.max(...bubbles.map((b) => b.getBoundingClientRect().width)) };
    });
    expect(layout.widest, JSON.stringify(layout)).toBeGreaterThan(0);
    expect(layout.widest, JSON.stringify(layout)).toBeLessThanOrEqual(layout.width * 0.7 + 1);
    await send(carol, me, 'Message pour une autre conversation');
    await send(bob, me, 'Oui, 10 h au sommet.');
    // pushes come in order: once bob's second message shows, carol's has been received and left out
    await thread.getByText('Oui, 10 h au sommet.').waitFor({ timeout: 15_000 });
    expect(await thread.getByText('Message pour une autre conversation').count()).toBe(0);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'messages-conversation-mobile', { fullPage: false });

    // /conversation/:pseudo opens it too; unknown ones say so
    await page.goto(`${live.server.url}/conversation/${carol.member.pseudo}`);
    await page
      .getByRole('log', { name: `Messages avec @${carol.member.pseudo}` })
      .getByText('Message pour une autre conversation')
      .waitFor();
    await page.goto(`${live.server.url}/conversation/12345`);
    await page.getByText('Conversation introuvable.').waitFor();
    await page.goto(`${live.server.url}/messages/personne-${Date.now()}`);
    await page.getByText('Utilisateur introuvable ou incomplet.').waitFor();
    expect(realErrors(errors)).toEqual([]);
    await context.close();
  }, 120_000);

  it('"Message privé": the member\'s card, an empty message and an insult refused, then sent; unknown or unreachable members', async () => {
    const { context, page, errors } = await loggedInPage(live.browser, live.server.url, me.member, DESKTOP);
    await page.goto(`${live.server.url}/send-message/${bob.member.pseudo}`);
    await page.getByRole('heading', { level: 1, name: 'Message privé' }).waitFor();
    await page.getByText(bob.member.bio).first().waitFor();
    expect(
      await page.getByRole('link', { name: `Envoyer un cadeau à @${bob.member.pseudo}` }).getAttribute('href'),
    ).toBe(`/catalogue?receiver=${bob.member.pseudo}`);
    const box = page.getByRole('textbox', { name: `Ton message à @${bob.member.pseudo}` });
    await expect.poll(() => box.isEnabled()).toBe(true);
    const sendButton = page.getByRole('button', { name: 'Envoyer', exact: true });
    await sendButton.click();
    await page.getByText('Le message ne peut pas être vide.').waitFor();
    await box.fill('Tu es un connard');
    await sendButton.click();
    await page.getByText("Erreur lors de l'envoi du message.").waitFor();
    await page.getByText(INAPPROPRIATE).waitFor();
    await screenshot(page, 'messages-send-refused', { fullPage: false });
    await box.fill('Bravo pour la descente du Galibier !');
    await sendButton.click();
    await page.waitForURL((u) => u.pathname === '/messages');
    // read by bob's client
    await live.server.settle();
    expect(await conversation(bob, me)).toContain('Bravo pour la descente du Galibier !');

    await page.goto(`${live.server.url}/send-message/personne-${Date.now()}`);
    await page.getByText('Utilisateur introuvable ou incomplet.').waitFor();
    // the look-up of the member fails (network): said in French
    await page.route('**/api/users/by-pseudo/**', (route) => route.abort('failed'));
    await page.goto(`${live.server.url}/send-message/${bob.member.pseudo}`);
    await page.getByText("Impossible de récupérer l'utilisateur.").waitFor();
    await page.unrouteAll();
    // the inbox cannot load: said in French, with a way to try again
    await page.route('**/api/messages/received/**', (route) =>
      route.fulfill({ status: 500, json: { error: 'Erreur serveur.' } }),
    );
    await page.goto(`${live.server.url}/messages`);
    await page.getByText('Erreur chargement messages').waitFor();
    await page.unrouteAll();
    await page.getByRole('button', { name: 'Réessayer' }).click();
    await page.locator('.inbox__item').first().waitFor();
    expect(realErrors(errors).filter((e) => !e.includes('ERR_FAILED'))).toEqual([]);
    await context.close();

    // on a phone, the picker fits
    const phone = await loggedInPage(live.browser, live.server.url, me.member, MOBILE);
    await phone.page.goto(`${live.server.url}/send-message/${carol.member.pseudo}`);
    await phone.page.getByText(carol.member.bio).first().waitFor();
    await phone.page.getByRole('button', { name: 'Insérer un émoji' }).click();
    const picker = phone.page.getByRole('group', { name: 'Choisir un émoji' });
    await picker.waitFor();
    const box2 = (await picker.boundingBox())!;
    expect(box2.x).toBeGreaterThanOrEqual(0);
    expect(box2.x + box2.width).toBeLessThanOrEqual(MOBILE.width);
    expect(await sidewaysOverflow(phone.page)).toBeLessThanOrEqual(0);
    await screenshot(phone.page, 'messages-send-emoji-mobile', { fullPage: false });
    await phone.context.close();
  }, 120_000);
});
