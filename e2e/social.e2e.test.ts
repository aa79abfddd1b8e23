import { describe, it, expect, beforeAll } from 'vitest';
import type { Page } from 'playwright-core';
import type { Registration } from '@evo/command-api/testing/test-server';
import { browserSkipReason, newPage, screenshot } from './harness';
import { login, realErrors, serverAndBrowser, registerAtOnce } from './helpers';

const skip = browserSkipReason();

const badge = (page: Page) =>
  page
    .locator('.bell .badge')
    .textContent({ timeout: 500 })
    .catch(() => null);
const counter = (page: Page, label: string) =>
  page.locator('.profile__counters div', { hasText: label }).locator('dd').textContent();
describe.skipIf(!!skip)('social journeys with two members in two browsers', () => {
  const live = serverAndBrowser();
  let a: Registration;
  let b: Registration;
  let pa: Page;
  let pb: Page;
  let errors: string[][] = [];

  beforeAll(async () => {
    [a, b] = (await registerAtOnce(live.server.url, 2)).map((r) => r.member);
    const ca = await live.browser.newContext({ viewport: { width: 1100, height: 900 } });
    const cb = await live.browser.newContext({ viewport: { width: 1100, height: 900 } });
    const na = await newPage(ca);
    const nb = await newPage(cb);
    pa = na.page;
    pb = nb.page;
    await login(pa, live.server.url, a);
    await login(pb, live.server.url, b);
    errors = [na.errors, nb.errors];
  }, 180_000);

  it('A cannot message B before following; A follows B from the suggestions and B’s bell updates live', async () => {
    await pa.goto(`${live.server.url}/send-message/${b.pseudo}`);
    const box = pa.getByLabel(`Ton message à @${b.pseudo}`);
    await box.waitFor();
    expect(await box.isDisabled()).toBe(true);

    await pb.goto(`${live.server.url}/`);
    expect(await badge(pb)).toBeNull();
    await pa.goto(`${live.server.url}/users-with-videos`);
    await pa.getByRole('button', { name: `Suivre @${b.pseudo}` }).click();
    await expect.poll(() => pa.getByText(`✅ Tu suis maintenant ${b.pseudo}`).isVisible()).toBe(true);
    await expect.poll(() => pa.getByRole('button', { name: `Suivre @${b.pseudo}` }).count()).toBe(0);
    await expect.poll(() => badge(pb), { timeout: 10_000 }).toBe('1');
    await screenshot(pb, 'e2e-social-bell-live');
  }, 60_000);

  it('A comments B’s video, B replies: one level only', async () => {
    await pa.goto(`${live.server.url}/user/${b.pseudo}`);
    await pa
      .getByRole('button', { name: /^Commentaires/ })
      .first()
      .click();
    await pa.getByLabel('Ton commentaire').fill('Superbe vidéo !');
    await pa.getByRole('button', { name: 'Envoyer', exact: true }).click();
    await expect.poll(() => badge(pb), { timeout: 10_000 }).toBe('2');

    await pb.goto(`${live.server.url}/user/${b.pseudo}`);
    await pb
      .getByRole('button', { name: /^Commentaires/ })
      .first()
      .click();
    /** B replies to `to`; the panel closes after sending: reopened, it counts `comments` */
    const reply = async (to: string, text: string, comments: number) => {
      await pb.getByRole('button', { name: `Répondre à @${to}` }).click();
      await pb.getByLabel(`Ta réponse à @${to}`).fill(text);
      await pb.getByRole('button', { name: 'Envoyer', exact: true }).click();
      await pb
        .getByRole('button', { name: new RegExp(`^Commentaires \\(${comments}\\)`) })
        .first()
        .click();
    };
    await reply(a.pseudo, 'Merci beaucoup !', 2);
    const replies = pb.getByRole('list', { name: `Réponses à @${a.pseudo}` });
    await expect.poll(() => replies.getByText('Merci beaucoup !').isVisible()).toBe(true);
    // a reply to the reply attaches to the top-level comment
    await reply(b.pseudo, 'Et une autre réponse', 3);
    await expect.poll(() => replies.getByRole('article').count()).toBe(2);
    await screenshot(pb, 'e2e-social-comments');
  }, 60_000);

  it('B likes A’s video and A’s Goûts grows', async () => {
    await pa.goto(`${live.server.url}/user/${a.pseudo}`);
    await expect.poll(() => counter(pa, 'Goûts')).toBe('0');
    await pb.goto(`${live.server.url}/user/${a.pseudo}`);
    await pb
      .getByRole('button', { name: /^J'aime \(0\)/ })
      .first()
      .click();
    await expect.poll(() => pb.getByRole('button', { name: /^J'aime \(1\)/ }).count()).toBe(1);
    await pa.reload();
    await expect.poll(() => counter(pa, 'Goûts')).toBe('1');
  }, 60_000);

  it('an insult is refused with the exact text; a normal message arrives live in B’s open conversation', async () => {
    await pb.goto(`${live.server.url}/messages/${a.pseudo}`);
    await pb.getByLabel(`Ta réponse à @${a.pseudo}`).waitFor();
    await pa.goto(`${live.server.url}/send-message/${b.pseudo}`);
    const box = pa.getByLabel(`Ton message à @${b.pseudo}`);
    await expect.poll(() => box.isEnabled()).toBe(true);
    await box.fill('Espèce de connard');
    await pa.getByRole('button', { name: 'Envoyer', exact: true }).click();
    await expect
      .poll(() => pa.getByText('Ce message contient un mot inapproprié. Veuillez reformuler.').isVisible())
      .toBe(true);
    await box.fill('Salut B, ta vidéo est géniale');
    await pa.getByRole('button', { name: 'Envoyer', exact: true }).click();
    await pa.waitForURL((u) => u.pathname === '/messages');
    await expect.poll(() => pb.getByText('Salut B, ta vidéo est géniale').isVisible(), { timeout: 10_000 }).toBe(true);
    await screenshot(pb, 'e2e-social-conversation-live');
  }, 60_000);

  it('A deletes their own video after the confirmation', async () => {
    await pa.goto(`${live.server.url}/user/${a.pseudo}`);
    const cards = pa.locator('.video-card');
    await expect.poll(() => cards.count()).toBe(1);
    await pa.getByRole('button', { name: "Plus d'actions sur la vidéo" }).first().click();
    await pa.getByRole('menuitem', { name: 'Supprimer' }).click();
    const dialog = pa.getByRole('dialog');
    await expect.poll(() => dialog.getByText('Voulez-vous vraiment supprimer cette vidéo ?').isVisible()).toBe(true);
    await dialog
      .getByRole('button', { name: /Supprimer|Confirmer|OK/ })
      .last()
      .click();
    await expect.poll(() => cards.count()).toBe(0);
    await expect.poll(() => pa.getByText('Aucune vidéo pour le moment').isVisible()).toBe(true);
    expect(realErrors(errors.flat())).toEqual([]);
  }, 60_000);
});
