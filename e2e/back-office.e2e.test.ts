/**
 * More of the back-office against the real server (admin.e2e.test.ts has the main journeys): what a
 * fresh server shows, the gate for members and visitors, the dashboard, report cards, the gift
 * catalogue in local and API modes, stats pages loading and failing, paging of members and of the
 * audit log, the tools, and a name on every control. A failing server is a single request routed to
 * a failure; everything else is the real API.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import type { Page } from 'playwright-core';
import { APP_ROUTE_PATHS } from '@evo/contracts';
import { SANCTION_MESSAGES } from '@evo/domain';
import { Client, PNG_1PX, registerAndLogin } from '@evo/command-api/testing/test-server';
import { browserSkipReason, loggedInPage, newPage, screenshot } from './harness';
import {
  ADMIN,
  DESKTOP,
  adminClient,
  fitsAPhone,
  MOBILE,
  firstVideoId,
  realErrors,
  sidewaysOverflow,
  toast,
  type Member,
  serverAndBrowser,
} from './helpers';

const skip = browserSkipReason();
const ADMIN_ONLY = 'Accès réservé aux administrateurs.';
// the back-office logs a failed load to the console (nothing else is shown for some): tests that
// provoke one name it to realErrors
const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });
const stat = (page: Page, label: string) =>
  page
    .locator('.admin-stat', { has: page.getByText(label, { exact: true }) })
    .locator('.admin-stat__value')
    .textContent();
interface Report {
  id: number;
  video_id: number;
  reason: string | null;
  status: string;
  admin_response: string | null;
}
interface Gift {
  id: number;
  name: string;
  coin_cost: number;
  image_url?: string;
}

describe.skipIf(!!skip)('back-office screens against the real server, continued', () => {
  const live = serverAndBrowser();
  let admin: Client;

  const reports = async () => (await admin.get('/api/admin/reports')).json as unknown as Report[];
  const catalogue = async () => (await new Client(live.server.url).get('/api/gifts/catalog')).json as unknown as Gift[];
  const asAdmin = (viewport = DESKTOP) => loggedInPage(live.browser, live.server.url, ADMIN, viewport);

  let members: { author: Member; reporter: Member; other: Member } | undefined;
  /** the members, created after the fresh-server checks */
  async function people() {
    if (!members) {
      const [author, reporter, other] = await Promise.all([
        registerAndLogin(live.server.url, { video_title: 'Descente du col du Galibier' }),
        registerAndLogin(live.server.url),
        registerAndLogin(live.server.url),
      ]);
      members = { author, reporter, other };
    }
    return members;
  }
  const videoOf = (m: Member) => firstVideoId(m.client, m.member.pseudo);

  beforeAll(async () => {
    admin = await adminClient(live.server.url);
  }, 180_000);

  it('a fresh server: no report, no transaction, N/A for the advanced figures; failed loads show nothing made up', async () => {
    const { context, page, errors } = await asAdmin();
    await page.goto(`${live.server.url}/admin/reports`);
    await page.getByText("Aucun signalement pour l'instant", { exact: true }).waitFor();
    await screenshot(page, 'back-office-reports-empty', { fullPage: false });
    await page.goto(`${live.server.url}/admin/transactions`);
    await page.getByText('Aucune transaction trouvée.', { exact: true }).waitFor();
    await page.goto(`${live.server.url}/admin/stats/advanced`);
    await heading(page, 'Statistiques avancées').waitFor();
    await expect.poll(() => stat(page, 'Meilleur créateur')).toBe('N/A');
    expect(await stat(page, 'Vidéo la plus vue')).toBe('N/A');

    // the reports cannot load (routed to a 500): no "empty" claim, no alert (the console only)
    await page.route('**/api/admin/reports', (route) =>
      route.fulfill({ status: 500, json: { error: 'Erreur serveur.' } }),
    );
    const failed = page.waitForResponse((r) => r.url().endsWith('/api/admin/reports'));
    await page.goto(`${live.server.url}/admin/reports`);
    await heading(page, 'Signalements à traiter').waitFor();
    await failed;
    await page.waitForLoadState('networkidle');
    expect(await page.getByText("Aucun signalement pour l'instant").count()).toBe(0);
    expect(await page.getByRole('alert').filter({ hasText: /\S/ }).count()).toBe(0);
    // the advanced figures cannot load: N/A, no failure text
    await page.route('**/api/admin/stats/advanced**', (route) =>
      route.fulfill({ status: 500, json: { error: 'Erreur serveur.' } }),
    );
    await page.goto(`${live.server.url}/admin/stats/advanced`);
    await expect.poll(() => page.locator('.admin-stat__value', { hasText: 'N/A' }).count()).toBeGreaterThan(1);
    expect(await page.locator('.form-error').count()).toBe(0);
    await page.unrouteAll();
    // both failures are said in the console only (the product's error catalogue)
    expect(
      realErrors(errors, 'Chargement des signalements impossible', 'Statistiques (advanced) indisponibles'),
    ).toEqual([]);
    await context.close();
  }, 90_000);

  it('a member, and a visitor, are told the back-office is for administrators, and no admin call is made', async () => {
    const { other } = await people();
    const { context, page } = await loggedInPage(live.browser, live.server.url, other.member, DESKTOP);
    const adminCalls: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/admin/')) adminCalls.push(r.url());
    });
    for (const path of ['/admin', '/admin/reports', '/admin/gifts', '/admin/stats/coins']) {
      await page.goto(`${live.server.url}${path}`);
      await page.getByText(ADMIN_ONLY, { exact: true }).waitFor();
    }
    await page.waitForLoadState('networkidle');
    expect(adminCalls).toEqual([]);
    await screenshot(page, 'back-office-denied-member', { fullPage: false });
    await context.close();

    const visitor = await live.browser.newContext({ viewport: MOBILE, locale: 'fr-FR' });
    const { page: anonymous } = await newPage(visitor);
    await anonymous.goto(`${live.server.url}/admin/users`);
    await anonymous.getByText(ADMIN_ONLY, { exact: true }).waitFor();
    await anonymous.getByRole('link', { name: 'Se connecter' }).first().waitFor();
    await visitor.close();
  }, 90_000);

  it('the dashboard: its nine sections (appeals and restrictions since issue 32), the figures the server counts; without them when they cannot load; on a phone', async () => {
    const { context, page, errors } = await asAdmin();
    await page.goto(`${live.server.url}/admin`);
    await heading(page, 'Administration').waitFor();
    const nav = page.getByRole('navigation', { name: "Rubriques de l'administration" });
    expect(await nav.getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual([
      '/admin/stats',
      '/admin/reports',
      '/admin/appeals',
      '/admin/restrictions',
      '/admin/gifts',
      '/admin/transactions',
      '/admin/users',
      '/admin/tools',
      '/admin/audit',
    ]);
    const users = (await admin.get('/api/admin/stats')).json.users;
    await expect.poll(() => stat(page, 'Utilisateurs')).toBe(String(users));
    await context.close();

    const phone = await asAdmin(MOBILE);
    await phone.page.route('**/api/admin/stats', (route) =>
      route.fulfill({ status: 500, json: { error: 'Erreur serveur.' } }),
    );
    const failed = phone.page.waitForResponse((r) => r.url().endsWith('/api/admin/stats'));
    await phone.page.goto(`${live.server.url}/admin`);
    await phone.page.getByRole('link', { name: /Signalements/ }).waitFor();
    await failed;
    await phone.page.waitForLoadState('networkidle');
    expect(await phone.page.locator('.admin-stat').count()).toBe(0);
    expect(await sidewaysOverflow(phone.page)).toBeLessThanOrEqual(0);
    await screenshot(phone.page, 'back-office-dashboard-mobile', { fullPage: false });
    await phone.context.close();
    expect(realErrors(errors)).toEqual([]);
  }, 90_000);

  it('report cards: status badges, the reason or "Non spécifié", the sanctions offered, a French date; delete, reply without a message; failures change nothing', async () => {
    const { author, reporter, other } = await people();
    const authorVideo = await videoOf(author);
    const otherVideo = await videoOf(other);
    expect((await reporter.client.post(`/api/report/${authorVideo}`, { reason: 'Contenu choquant' })).status).toBe(201);
    expect((await reporter.client.post(`/api/report/${otherVideo}`, {})).status).toBe(201);
    await expect.poll(async () => (await reports()).length, { timeout: 10_000 }).toBe(2);
    const first = (await reports()).find((r) => r.video_id === authorVideo)!;
    const second = (await reports()).find((r) => r.video_id === otherVideo)!;
    expect(
      (await admin.put(`/api/admin/reports/${second.id}`, { status: 'en_cours', admin_response: SANCTION_MESSAGES[2] }))
        .status,
    ).toBe(200);

    const { context, page, errors } = await asAdmin();
    await page.goto(`${live.server.url}/admin/reports`);
    const card = (videoTitle: string) => page.locator('.reports > li', { hasText: videoTitle });
    const authorCard = card('Descente du col du Galibier');
    const otherCard = card(other.member.video_title);
    await authorCard.waitFor();
    expect(await authorCard.locator('.status-badge').getAttribute('class')).toBe('status-badge status-badge--warning');
    expect(await authorCard.locator('.status-badge').textContent()).toBe('En attente');
    await expect.poll(() => otherCard.locator('.status-badge').textContent()).toBe('En cours');
    expect(await otherCard.locator('.status-badge').getAttribute('class')).toBe('status-badge status-badge--primary');
    expect(await otherCard.getByText('Non spécifié').count()).toBe(1);
    expect(await otherCard.getByLabel("Message à l'auteur").inputValue()).toBe(SANCTION_MESSAGES[2]);
    expect(
      await authorCard
        .getByLabel("Message à l'auteur")
        .locator('option')
        .evaluateAll((options) => options.map((o) => o.textContent)),
    ).toEqual(['Aucun message', ...SANCTION_MESSAGES]);
    expect(await authorCard.locator('dd').first().textContent()).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
    await screenshot(page, 'back-office-reports', { fullPage: false });

    // the keyboard goes from the video link to its inline preview (issue 30), then to the first control
    await authorCard.getByRole('link').first().focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Voir la vidéo ici');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('SELECT');

    // a reply without a message
    await authorCard.getByLabel('Statut').selectOption('en_cours');
    await authorCard.getByRole('button', { name: 'Envoyer la réponse' }).click();
    await expect
      .poll(async () => (await reports()).find((r) => r.id === first.id))
      .toMatchObject({ status: 'en_cours', admin_response: null });
    await expect.poll(() => authorCard.locator('.status-badge').textContent()).toBe('En cours');

    // the server fails (routed to a 500): no toast, no reload, nothing changed
    for (const close of await page.getByRole('button', { name: 'Fermer le message' }).all())
      await close.click({ timeout: 2_000 }).catch(() => undefined); // it may have gone by itself
    await page.locator('.toast').first().waitFor({ state: 'detached' });
    let loads = 0;
    page.on('request', (r) => {
      if (r.method() === 'GET' && r.url().endsWith('/api/admin/reports')) loads += 1;
    });
    await page.route(`**/api/admin/reports/${second.id}`, (route) =>
      route.fulfill({ status: 500, json: { error: 'Erreur serveur.' } }),
    );
    await page.route(`**/api/videos/${otherVideo}/visibility`, (route) =>
      route.fulfill({ status: 500, json: { error: 'Erreur serveur.' } }),
    );
    const replied = page.waitForResponse((r) => r.url().endsWith(`/api/admin/reports/${second.id}`));
    await otherCard.getByLabel('Statut').selectOption('ferme');
    await otherCard.getByRole('button', { name: 'Envoyer la réponse' }).click();
    await replied;
    const hidden = page.waitForResponse((r) => r.url().endsWith(`/api/videos/${otherVideo}/visibility`));
    await otherCard.getByRole('button', { name: 'Masquer' }).click();
    await hidden;
    await page.waitForLoadState('networkidle');
    expect(await page.locator('.toast').count()).toBe(0);
    expect(loads).toBe(0);
    // said in the console only (the product's error catalogue)
    for (const logged of ['Envoi de la réponse impossible', 'Mise à jour de la visibilité impossible'])
      expect(errors.some((e) => e.includes(logged))).toBe(true);
    expect((await reports()).find((r) => r.id === second.id)?.status).toBe('en_cours');
    await page.unrouteAll();

    // "Supprimer": the video is gone for everyone
    await otherCard.getByRole('button', { name: 'Supprimer' }).click();
    await toast(page, 'Vidéo mise à jour : supprimée').waitFor();
    await live.server.settle();
    expect((await author.client.get(`/api/videos/${otherVideo}`)).status).toBe(404);
    expect(realErrors(errors, 'Envoi de la réponse impossible', 'Mise à jour de la visibilité impossible')).toEqual([]);
    await context.close();

    await fitsAPhone(
      live,
      ADMIN,
      '/admin/reports',
      (p) => p.locator('.reports > li').first(),
      'back-office-reports-mobile',
    );
  }, 120_000);

  it('transactions: the look-up form opens a member’s coin audit, as it was at a date; an unknown member is said so; the table scrolls in its box on a phone', async () => {
    const { author } = await people();
    expect((await author.client.post('/api/coins/add', { email: author.member.email, amount: 40 })).status).toBe(200);
    expect((await author.client.post('/api/coins/purchase', { email: author.member.email, packId: 1 })).status).toBe(
      200,
    );
    const { context, page, errors } = await asAdmin(MOBILE);
    await page.goto(`${live.server.url}/admin/transactions`);
    await page.locator('.admin-table tbody tr').first().waitFor();
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    const scroller = page.getByRole('region', { name: 'Transactions de coins' });
    expect(await scroller.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await page.getByLabel('Email du membre').fill(author.member.email);
    await page.getByRole('button', { name: 'Voir l’audit' }).click();
    await page.waitForURL((u) => u.pathname === `/admin/transactions/${encodeURIComponent(author.member.email)}`);
    const rows = page.locator('.admin-table--ledger tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'back-office-ledger-audit-mobile', { fullPage: false });
    // before anything happened: no movement; then back to now
    await page.getByLabel('Données au').fill('2020-01-01T00:00');
    await page.waitForURL((u) => u.searchParams.has('asOf'));
    await expect.poll(() => rows.count()).toBe(0);
    await page.getByRole('button', { name: 'Revenir à maintenant' }).click();
    await expect.poll(() => rows.count()).toBe(2);

    await page.goto(`${live.server.url}/admin/transactions/${encodeURIComponent('inconnu@example.com')}`);
    await page.getByText("Impossible de charger l'audit des coins de ce membre.").waitFor();
    await page.getByText('Utilisateur introuvable.').waitFor();
    expect(realErrors(errors, "Chargement de l'audit des coins impossible")).toEqual([]);
    await context.close();
  }, 90_000);

  it('the gift catalogue in local mode: search, add, edit one at a time, delete after a confirmation, nothing sent, kept on reload', async () => {
    const { context, page, errors } = await asAdmin();
    const writes: string[] = [];
    page.on('request', (r) => {
      if (r.method() !== 'GET' && new URL(r.url()).pathname.startsWith('/api/admin/gifts')) writes.push(r.url());
    });
    await page.goto(`${live.server.url}/admin/gifts`);
    await heading(page, 'Gestion des cadeaux').waitFor();
    const mode = page.getByLabel('Mode local (sans BDD)');
    expect(await mode.isChecked()).toBe(true);
    const cards = page.locator('.gift-grid > li .gift-card');
    const total = (await catalogue()).length;
    await expect.poll(() => cards.count()).toBe(total);
    await page.getByText(`Total : ${total} · Affichés : ${total}`).waitFor();
    expect(await page.getByRole('link', { name: 'Packs de coins' }).getAttribute('href')).toBe('/packs');

    const search = page.getByLabel('Rechercher un cadeau');
    await search.fill('lico');
    await page.getByText(`Total : ${total} · Affichés : 1`).waitFor();
    await cards.getByText('Licorne').waitFor();
    await search.fill('250');
    await page.getByText(`Total : ${total} · Affichés : 1`).waitFor();
    await cards.getByText('Fusée').waitFor();
    await search.fill('');

    const addForm = page.locator('form.gift-add');
    await addForm.getByLabel('Nom').fill('   ');
    await addForm.getByRole('button', { name: 'Ajouter (local)' }).click();
    await toast(page, 'Nom requis').waitFor();
    expect(await addForm.getByLabel('Nom').getAttribute('aria-invalid')).toBe('true');
    // the next number, the name trimmed, the form emptied
    const highest = Math.max(...(await catalogue()).map((g) => g.id));
    await addForm.getByLabel('Nom').fill('  Étoile  ');
    await addForm.getByLabel('Emoji').fill('⭐');
    await addForm.getByLabel('Prix (coins)').fill('3');
    await addForm.getByRole('button', { name: 'Ajouter (local)' }).click();
    await page.getByText(`Total : ${total + 1} · Affichés : ${total + 1}`).waitFor();
    await cards
      .filter({ hasText: 'Étoile' })
      .getByText(`n° ${highest + 1}`)
      .waitFor();
    expect(await addForm.getByLabel('Nom').inputValue()).toBe('');
    // no price: 0
    await addForm.getByLabel('Nom').fill('Bulle');
    await addForm.getByLabel('Prix (coins)').fill('');
    await addForm.getByRole('button', { name: 'Ajouter (local)' }).click();
    await cards.filter({ hasText: 'Bulle' }).getByText('0 coin', { exact: true }).waitFor();

    // one gift edited at a time; a name is required; Annuler leaves it as it was
    await cards.filter({ hasText: 'Rose' }).getByRole('button', { name: 'Modifier Rose' }).click();
    const editForm = page.locator('.gift-card__form');
    expect(await editForm.count()).toBe(1);
    await cards.filter({ hasText: 'Cœur' }).getByRole('button', { name: 'Modifier Cœur' }).click();
    expect(await editForm.count()).toBe(1);
    await editForm.getByLabel('Nom').fill('');
    await editForm.getByRole('button', { name: 'Enregistrer' }).click();
    await editForm.getByText('Nom requis').waitFor();
    await editForm.getByLabel('Nom').fill('Cœur rouge');
    await editForm.getByLabel('Prix (coins)').fill('6');
    await editForm.getByRole('button', { name: 'Enregistrer' }).click();
    await editForm.waitFor({ state: 'detached' });
    await cards.filter({ hasText: 'Cœur rouge' }).getByText('6 coins').waitFor();
    await cards.filter({ hasText: 'Croissant' }).getByRole('button', { name: 'Modifier Croissant' }).click();
    await editForm.getByLabel('Nom').fill('Pain au chocolat');
    await editForm.getByRole('button', { name: 'Annuler' }).click();
    await editForm.waitFor({ state: 'detached' });
    await cards.filter({ hasText: 'Croissant' }).waitFor();

    // deleting asks first
    const dialog = page.getByRole('dialog');
    await cards.filter({ hasText: 'Licorne' }).getByRole('button', { name: 'Supprimer Licorne' }).click();
    await dialog.getByText('Supprimer ce cadeau ?').waitFor();
    await dialog.getByRole('button', { name: 'Annuler', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await cards.filter({ hasText: 'Licorne' }).count()).toBe(1);
    await cards.filter({ hasText: 'Licorne' }).getByRole('button', { name: 'Supprimer Licorne' }).click();
    await dialog.getByRole('button', { name: 'Supprimer', exact: true }).click();
    await page.getByText(`Total : ${total + 1} · Affichés : ${total + 1}`).waitFor();
    expect(await cards.filter({ hasText: 'Licorne' }).count()).toBe(0);

    // kept for the session, never sent: the server's catalogue is unchanged
    await page.reload();
    await page.getByText(`Total : ${total + 1} · Affichés : ${total + 1}`).waitFor();
    await cards.filter({ hasText: 'Étoile' }).waitFor();
    expect(writes).toEqual([]);
    expect((await catalogue()).map((g) => g.name)).toContain('Licorne');
    expect((await catalogue()).map((g) => g.name)).not.toContain('Étoile');
    await screenshot(page, 'back-office-gifts-local', { fullPage: false });

    // by keyboard: Space on the mode, Enter in the form
    await mode.focus();
    await page.keyboard.press('Space');
    expect(await mode.isChecked()).toBe(false);
    await page.keyboard.press('Space');
    expect(await mode.isChecked()).toBe(true);
    await addForm.getByLabel('Nom').focus();
    await page.keyboard.type('Clavier');
    await page.keyboard.press('Enter');
    await cards.filter({ hasText: 'Clavier' }).waitFor();
    expect(writes).toEqual([]);
    expect(realErrors(errors)).toEqual([]);
    await context.close();
  }, 120_000);

  it('the gift catalogue through the API: an uploaded image, edit and delete reach the server; failures are said and keep the form; a failed load can be retried', async () => {
    const { context, page, errors } = await asAdmin();
    await page.goto(`${live.server.url}/admin/gifts`);
    const mode = page.getByLabel('Mode local (sans BDD)');
    await mode.uncheck();
    const cards = page.locator('.gift-grid > li .gift-card');
    const total = (await catalogue()).length;
    await page.getByText(`Total : ${total} · Affichés : ${total}`).waitFor();
    const addForm = page.locator('form.gift-add');
    await addForm.getByLabel('Nom').fill('Diamant');
    await addForm.getByLabel('Emoji').fill('💎');
    await addForm.getByLabel('Prix (coins)').fill('1000');
    await addForm.getByLabel('… ou envoyer un fichier image').setInputFiles({
      name: 'etoile.png',
      mimeType: 'image/png',
      buffer: PNG_1PX,
    });
    await toast(page, 'Image envoyée.').waitFor();
    const imageUrl = await addForm.getByLabel('Image (URL ou chemin)').inputValue();
    expect(imageUrl).toMatch(/^\/uploads\/gifts\/.+\.png$/);
    expect((await fetch(`${live.server.url}${imageUrl}`)).status).toBe(200);
    await addForm.getByRole('button', { name: 'Ajouter', exact: true }).click();
    await toast(page, 'Cadeau « Diamant » ajouté.').waitFor();
    await expect
      .poll(async () => (await catalogue()).find((g) => g.name === 'Diamant'))
      .toMatchObject({ coin_cost: 1000, image_url: imageUrl });
    await page.getByText(`Total : ${total + 1} · Affichés : ${total + 1}`).waitFor();
    await cards.filter({ hasText: 'Diamant' }).locator('.gift-card__image').waitFor();
    // the image path is searchable
    await page.getByLabel('Rechercher un cadeau').fill(imageUrl.split('/').pop()!);
    await page.getByText(`Total : ${total + 1} · Affichés : 1`).waitFor();
    await page.getByLabel('Rechercher un cadeau').fill('');

    const editForm = page.locator('.gift-card__form');
    await cards.filter({ hasText: 'Ballon' }).getByRole('button', { name: 'Modifier Ballon' }).click();
    await editForm.getByLabel('Prix (coins)').fill('30');
    await editForm.getByRole('button', { name: 'Enregistrer' }).click();
    await editForm.waitFor({ state: 'detached' });
    await cards.filter({ hasText: 'Ballon' }).getByText('30 coins').waitFor();
    await expect.poll(async () => (await catalogue()).find((g) => g.name === 'Ballon')?.coin_cost).toBe(30);
    await cards.filter({ hasText: 'Trophée' }).getByRole('button', { name: 'Supprimer Trophée' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Supprimer', exact: true }).click();
    await expect.poll(async () => (await catalogue()).map((g) => g.name)).not.toContain('Trophée');
    await page.getByText(`Total : ${total} · Affichés : ${total}`).waitFor();

    // the server fails each write (routed to a 500)
    await page.route('**/api/admin/gifts**', (route) =>
      route.request().method() === 'GET'
        ? route.continue()
        : route.fulfill({ status: 500, json: { error: 'Base de données indisponible.' } }),
    );
    await addForm.getByLabel('Nom').fill('Comète');
    await addForm.getByRole('button', { name: 'Ajouter', exact: true }).click();
    await toast(page, 'Erreur API (POST). Reste en mode local si besoin.').waitFor();
    expect(await addForm.getByLabel('Nom').inputValue()).toBe('Comète');
    await cards.filter({ hasText: 'Rose' }).getByRole('button', { name: 'Modifier Rose' }).click();
    await editForm.getByRole('button', { name: 'Enregistrer' }).click();
    await toast(page, 'Erreur API (PUT). Reste en mode local si besoin.').waitFor();
    expect(await editForm.count()).toBe(1);
    await editForm.getByRole('button', { name: 'Annuler' }).click();
    await cards.filter({ hasText: 'Cœur' }).getByRole('button', { name: 'Supprimer Cœur' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Supprimer', exact: true }).click();
    await toast(page, 'Erreur API (DELETE). Reste en mode local si besoin.').waitFor();
    expect((await catalogue()).map((g) => g.name)).toContain('Cœur');
    await screenshot(page, 'back-office-gifts-api-errors', { fullPage: false });
    await page.unrouteAll();
    expect(realErrors(errors, 'Cadeaux : POST refusé', 'Cadeaux : PUT refusé', 'Cadeaux : DELETE refusé')).toEqual([]);
    await context.close();

    // on a phone, the list cannot load (routed to a 503), then "Recharger" brings it
    const phone = await asAdmin(MOBILE);
    await phone.page.route('**/api/admin/gifts', (route) =>
      route.fulfill({ status: 503, json: { error: 'Service indisponible.' } }),
    );
    await phone.page.goto(`${live.server.url}/admin/gifts`);
    await phone.page.getByLabel('Mode local (sans BDD)').uncheck();
    await phone.page.locator('.gift-grid').getByText('Erreur: Service indisponible.', { exact: true }).waitFor();
    expect(await sidewaysOverflow(phone.page)).toBeLessThanOrEqual(0);
    await phone.page.unrouteAll();
    await phone.page.getByRole('button', { name: 'Recharger' }).click();
    await phone.page.locator('.gift-card').first().waitFor();
    expect(await sidewaysOverflow(phone.page)).toBeLessThanOrEqual(0);
    await screenshot(phone.page, 'back-office-gifts-mobile', { fullPage: false });
    await phone.context.close();
  }, 120_000);

  it('statistics: the hub, each page while loading and when it cannot load, the date kept in the address', async () => {
    const { context, page, errors } = await asAdmin();
    await page.goto(`${live.server.url}/admin/stats`);
    await heading(page, 'Statistiques').waitFor();
    // the hub links to every statistics page the router answers (the contract's route list), in its order
    expect(
      await page
        .getByRole('navigation', { name: 'Pages de statistiques' })
        .getByRole('link')
        .evaluateAll((links) => links.map((a) => a.getAttribute('href'))),
    ).toEqual(APP_ROUTE_PATHS.filter((r) => r.startsWith('/admin/stats/')));
    const pages: Array<[string, string, string, string]> = [
      ['general', '/api/admin/stats', 'Statistiques générales', 'Impossible de charger les stats générales'],
      ['users', '/api/admin/stats/users', 'Statistiques utilisateurs', 'Impossible de charger les stats utilisateurs'],
      ['videos', '/api/admin/stats/videos', 'Statistiques vidéos', 'Impossible de charger les stats vidéos'],
      ['messages', '/api/admin/stats/messages', 'Statistiques messages', 'Impossible de charger les stats messages'],
      ['gifts', '/api/admin/stats/gifts', 'Statistiques cadeaux', 'Impossible de charger les stats cadeaux'],
      ['coins', '/api/admin/stats/coins', 'Statistiques coins', 'Impossible de charger les stats coins'],
    ];
    for (const [kind, api, title, failure] of pages) {
      const matches = (url: URL) => url.pathname === api;
      // held until "Chargement..." is seen, then answered by the server
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(matches, async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(`${live.server.url}/admin/stats/${kind}`);
      await heading(page, title).waitFor();
      await page.getByText('Chargement...', { exact: true }).waitFor();
      release();
      await page.locator('.admin-stat').first().waitFor();
      await page.unrouteAll();
      await page.route(matches, (route) =>
        route.fulfill({ status: 500, json: { error: 'Lecture des statistiques impossible.' } }),
      );
      await page.reload();
      await page.getByText(failure, { exact: true }).waitFor();
      expect(await page.locator('.admin-stat').count()).toBe(0);
      await page.unrouteAll();
    }
    await page.goto(`${live.server.url}/admin/stats/general`);
    await page.locator('.admin-stat').first().waitFor();
    expect(await page.locator('.admin-stat dt').allTextContents()).toEqual([
      'Utilisateurs',
      'Vidéos',
      'Cadeaux envoyés',
      'Coins des utilisateurs (total)',
      'Messages publics',
    ]);
    // a date: sent as ?asOf=<ISO>, kept in the address, said above the figures
    const asked: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/admin/stats') asked.push(new URL(r.url()).search);
    });
    await page.getByLabel('Données au').fill('2025-01-31T18:30');
    const iso = new Date(2025, 0, 31, 18, 30).toISOString();
    await page.waitForURL((u) => u.searchParams.get('asOf') === iso);
    await expect.poll(() => asked.at(-1)).toBe(`?asOf=${encodeURIComponent(iso)}`);
    await page.getByText("Chiffres tels qu'ils étaient le 31/01/2025 18:30.").waitFor();
    await expect.poll(() => stat(page, 'Utilisateurs')).toBe('0');
    await page.reload();
    await page.getByText("Chiffres tels qu'ils étaient le 31/01/2025 18:30.").waitFor();
    await page.getByRole('button', { name: 'Revenir à maintenant' }).click();
    await expect.poll(() => asked.at(-1)).toBe('');
    expect(realErrors(errors, 'indisponibles ApiError')).toEqual([]);
    await context.close();

    await fitsAPhone(live, ADMIN, '/admin/stats/coins', (p) => p.locator('.admin-stat').first());
  }, 120_000);

  it('members page by page; a grant can be cancelled; the last administrator cannot lose the right', async () => {
    // 21 more members than the first page holds
    const total = Number((await admin.get('/api/admin/users?page=1&limit=20')).json.total);
    for (let made = total; made <= 20; made += 4)
      await Promise.all(Array.from({ length: 4 }, () => registerAndLogin(live.server.url)));
    // the members list only (their registration videos may still be processing)
    await live.server.settle(30_000, { jobs: false });
    const count = Number((await admin.get('/api/admin/users?page=1&limit=20')).json.total);
    expect(count).toBeGreaterThan(20);
    const { context, page, errors } = await asAdmin();
    await page.goto(`${live.server.url}/admin/users`);
    const rows = page.locator('.admin-table tbody tr');
    await expect.poll(() => rows.count()).toBe(20);
    await page.getByText(`${count} membres`).waitFor();
    const pagesCount = Math.ceil(count / 20);
    await page.getByText(`Page 1 sur ${pagesCount}`).waitFor();
    await page.getByRole('button', { name: 'Suivant' }).click();
    await page.getByText(`Page 2 sur ${pagesCount}`).waitFor();
    await page.waitForURL((u) => u.searchParams.get('page') === '2');
    await expect.poll(() => rows.count()).toBe(Math.min(20, count - 20));

    const { other } = await people();
    await page.getByLabel('Rechercher un membre').fill(other.member.pseudo);
    await page.getByText('1 membre', { exact: true }).waitFor();
    const who = `@${other.member.pseudo} (${other.member.email})`;
    await page.getByRole('button', { name: `Donner les droits d'administrateur à ${who}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`Donner les droits d'administrateur à ${who} ?`).waitFor();
    await dialog.getByRole('button', { name: 'Annuler', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await other.client.get('/api/admin/stats')).status).toBe(403);
    expect(await rows.first().locator('.role-badge').textContent()).toBe('Membre');

    await page.getByLabel('Rechercher un membre').fill(ADMIN.email);
    await expect.poll(() => rows.first().locator('th').textContent()).toContain(ADMIN.email);
    expect(await rows.count()).toBe(1);
    const self = await rows.first().locator('th').textContent();
    const adminPseudo = self!.slice(1, self!.indexOf(ADMIN.email));
    const me = `@${adminPseudo} (${ADMIN.email})`;
    await page.getByRole('button', { name: `Retirer les droits d'administrateur à ${me}` }).click();
    await dialog.getByRole('button', { name: 'Retirer les droits' }).click();
    await toast(page, 'Impossible de retirer le dernier administrateur.').waitFor();
    expect((await admin.get('/api/admin/stats')).status).toBe(200);
    expect(realErrors(errors)).toEqual([]);
    await context.close();

    await fitsAPhone(live, ADMIN, '/admin/users', (p) => p.locator('.admin-table tbody tr').first());
  }, 180_000);

  it('the audit log shows 25 actions a page; on a phone it does not scroll sideways', async () => {
    for (let i = 0; i < 26; i++)
      expect(
        (await admin.post('/api/admin/gifts', { name: `Audit ${i}`, emoji: '⭐', price: 1, image_url: '' })).status,
      ).toBe(201);
    const total = Number((await admin.get('/api/admin/audit?page=1&limit=25')).json.total);
    expect(total).toBeGreaterThan(25);
    const { context, page, errors } = await asAdmin();
    const asked: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/admin/audit') asked.push(new URL(r.url()).search);
    });
    await page.goto(`${live.server.url}/admin/audit`);
    const rows = page.locator('.admin-table tbody tr');
    await expect.poll(() => rows.count()).toBe(25);
    expect(await page.locator('.admin-table thead th').allTextContents()).toEqual([
      'Date',
      'Administrateur',
      'Action',
      'Cible',
      'Détails',
    ]);
    await page.getByRole('button', { name: 'Suivant' }).click();
    await expect.poll(() => rows.count()).toBe(Math.min(25, total - 25));
    expect(asked.at(-1)).toBe('?page=2&limit=25');
    expect(realErrors(errors)).toEqual([]);
    await context.close();

    await fitsAPhone(live, ADMIN, '/admin/audit', (p) => p.locator('.admin-table tbody tr').first());
  }, 120_000);

  it('the tools: the cache button says it is not active yet, two tools are coming, a rebuild can be cancelled; on a phone', async () => {
    const { context, page, errors } = await asAdmin();
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/api/admin/projections/rebuild')) posts.push(r.url());
    });
    await page.goto(`${live.server.url}/admin/tools`);
    await heading(page, 'Outils').waitFor();
    await page.getByRole('button', { name: 'Vider le cache' }).click();
    await toast(page, 'Fonction non encore active').waitFor();
    for (const name of ['Exporter la base de données', 'Débogage / journaux'])
      expect(await page.getByRole('button', { name }).isDisabled(), name).toBe(true);
    expect(await page.getByText('Bientôt disponible').count()).toBe(2);
    await page.getByRole('button', { name: 'Reconstruire les projections' }).click();
    const dialog = page.getByRole('dialog');
    await dialog
      .getByText(
        'Reconstruire toutes les projections à partir du journal des événements ? Le site reste en service pendant la reconstruction.',
      )
      .waitFor();
    await dialog.getByRole('button', { name: 'Annuler', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.waitForLoadState('networkidle');
    expect(posts).toEqual([]);
    expect(realErrors(errors)).toEqual([]);
    await context.close();

    await fitsAPhone(
      live,
      ADMIN,
      '/admin/tools',
      (p) => p.getByRole('button', { name: 'Reconstruire les projections' }),
      'back-office-tools-mobile',
    );
  }, 90_000);

  it('every visible control of the main back-office pages has a name', async () => {
    const { context, page } = await asAdmin();
    for (const path of [
      '/admin',
      '/admin/reports',
      '/admin/gifts',
      '/admin/users',
      '/admin/tools',
      '/admin/stats/general',
    ]) {
      await page.goto(`${live.server.url}${path}`);
      await page.locator('h1').waitFor();
      await page.waitForLoadState('networkidle');
      const unnamed = await page.evaluate(() =>
        Array.from(
          document.querySelectorAll<HTMLElement>(
            'main button, main a[href], main input, main select, main [tabindex="0"]',
          ),
        )
          .filter((el) => el.getClientRects().length > 0)
          .filter((el) => {
            const labelled = el.getAttribute('aria-label') || el.getAttribute('aria-labelledby');
            const input = el as HTMLInputElement;
            const hasLabel = 'labels' in input && input.labels !== null && input.labels.length > 0;
            return !labelled && !hasLabel && !(el.textContent ?? '').trim();
          })
          .map((el) => el.outerHTML.slice(0, 80)),
      );
      expect(unnamed, path).toEqual([]);
    }
    await context.close();
  }, 90_000);
});
