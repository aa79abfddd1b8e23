import { describe, it, expect, beforeAll } from 'vitest';
import type { Page } from 'playwright-core';
import type { AuditPage } from '@evo/contracts';
import { MODERATION_MESSAGES } from '@evo/domain';
import { DEMO_ADMIN_EMAIL } from '@evo/infra';
import { Client } from '@evo/command-api/testing/test-server';
import { browserSkipReason, newPage, screenshot, logInAs } from './harness';
import { adminClient, realErrors, serverAndBrowser, membersOf, ADMIN } from './helpers';

const skip = browserSkipReason();
const SANCTION = 'Votre vidéo a été restreinte pour non-conformité';
const statCard = (page: Page, label: string) =>
  page.locator('.admin-stat', { has: page.getByText(label, { exact: true }) });
const stat = (page: Page, label: string) => statCard(page, label).locator('.admin-stat__value').textContent();
const statDetail = (page: Page, label: string) => statCard(page, label).locator('.admin-stat__detail').textContent();
/** French number formatting puts a narrow no-break space between thousands */
const spaces = (s: string | null) => (s ?? '').replace(/\s/g, ' ');
const visible = (page: Page, text: string) => () => page.getByText(text).first().isVisible();

describe.skipIf(!!skip)('back-office screens against the real server', () => {
  const live = serverAndBrowser();
  let page: Page;
  let errors: string[];
  const [author, reporter] = membersOf(live, 2);
  /** the administrator's API client: what the server answers, to compare with the screens */
  let admin: Client;

  beforeAll(async () => {
    expect((await reporter.client.post(`/api/report/${author.videoId}`, { reason: 'Contenu choquant' })).status).toBe(
      201,
    );
    admin = await adminClient(live.server.url);
    const ctx = await live.browser.newContext({ viewport: { width: 1200, height: 900 }, locale: 'fr-FR' });
    ({ page, errors } = await newPage(ctx));
    await logInAs(page, live.server.url, ADMIN);
  }, 180_000);

  it('moves a report to Traitée with a sanction; the author is notified; hiding the video removes it, making it public restores it', async () => {
    await page.goto(`${live.server.url}/admin/reports`);
    await page.getByRole('heading', { name: 'Signalements à traiter' }).waitFor();
    const card = page.locator('article', { hasText: author.member.video_title }).first();
    await expect.poll(() => card.locator('.status-badge').textContent()).toBe('En attente');
    expect(await card.getByText('Contenu choquant').isVisible()).toBe(true);
    expect(await card.getByText(reporter.member.pseudo).first().isVisible()).toBe(true);
    expect(await card.getByRole('link', { name: author.member.video_title }).getAttribute('href')).toBe(
      `/video/${author.videoId}`,
    );
    await card.getByLabel('Statut').selectOption({ label: 'Traitée' });
    await card.getByLabel("Message à l'auteur").selectOption({ label: SANCTION });
    await card.getByRole('button', { name: 'Envoyer la réponse' }).click();
    await expect.poll(() => page.getByText('Réponse envoyée ✅').first().isVisible()).toBe(true);
    await expect
      .poll(() =>
        page.locator('article', { hasText: author.member.video_title }).first().locator('.status-badge').textContent(),
      )
      .toBe('Traitée');
    await screenshot(page, 'e2e-admin-reports');
    const notes = await author.client.get('/api/notifications');
    expect(notes.json).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'report_update', message: SANCTION })]),
    );

    /** the report card's `button` pressed, the video is said to be `status` */
    const moderate = async (button: string, status: string) => {
      await page
        .locator('article', { hasText: author.member.video_title })
        .first()
        .getByRole('button', { name: button })
        .click();
      await expect.poll(() => page.getByText(`Vidéo mise à jour : ${status}`).first().isVisible()).toBe(true);
      // read below by the reporter's client, whose session did not write it
      await live.server.settle();
    };
    await moderate('Masquer', 'masquée');
    expect((await reporter.client.get(`/api/videos/${author.videoId}`)).status).toBe(404);
    expect((await reporter.client.get(`/api/users/profile/${author.member.pseudo}`)).json.videos).toEqual([]);
    await moderate('Rendre publique', 'publique');
    expect((await reporter.client.get(`/api/videos/${author.videoId}`)).status).toBe(200);
  }, 90_000);

  it('adds a gift to the catalogue (not in local mode), refusing an empty name', async () => {
    await page.goto(`${live.server.url}/admin/gifts`);
    const local = page.getByLabel('Mode local (sans BDD)');
    await local.waitFor();
    expect(await local.isChecked()).toBe(true);
    await local.uncheck();
    const form = page.locator('form', { has: page.getByRole('heading', { name: 'Ajouter un cadeau' }) });
    await form.getByRole('button', { name: 'Ajouter', exact: true }).click();
    await expect.poll(() => page.getByText('Nom requis').first().isVisible()).toBe(true);
    await form.getByLabel('Nom').fill('  Comète filante  ');
    await form.getByLabel('Prix (coins)').fill('7');
    await form.getByRole('button', { name: 'Ajouter', exact: true }).click();
    await expect
      .poll(
        async () =>
          (
            (await new Client(live.server.url).get('/api/gifts/catalog')).json as unknown as Array<{
              name: string;
              coin_cost: number;
            }>
          ).find((g) => g.name === 'Comète filante')?.coin_cost,
      )
      .toBe(7);
    await expect
      .poll(() => page.getByRole('list', { name: 'Cadeaux du catalogue' }).getByText('Comète filante').isVisible())
      .toBe(true);
    await screenshot(page, 'e2e-admin-gifts');
  }, 60_000);

  it('shows the general statistics, and as they were at a past date', async () => {
    await page.goto(`${live.server.url}/admin/stats/general`);
    await expect.poll(() => stat(page, 'Utilisateurs')).toBe('3');
    expect(await stat(page, 'Vidéos')).toBe('2');
    await page.getByLabel('Données au').fill('2020-01-01T00:00');
    await expect.poll(() => stat(page, 'Utilisateurs')).toBe('0');
    await screenshot(page, 'e2e-admin-stats');
    expect(realErrors(errors)).toEqual([]);
  }, 60_000);
  it("lists the coin transactions the server answers, filters them by email, and opens a member's coin audit", async () => {
    // the author adds 40 coins; the reporter buys the 110-coin pack, may not withdraw them (only coins
    // earned from gifts are withdrawable) and sends the 5-coin gift to the author
    expect((await author.client.post('/api/coins/add', { email: author.member.email, amount: 40 })).status).toBe(200);
    expect(
      (await reporter.client.post('/api/coins/purchase', { email: reporter.member.email, packId: 1 })).status,
    ).toBe(200);
    expect(
      (await reporter.client.post('/api/coins/withdraw', { user_email: reporter.member.email, amount: 15 })).status,
    ).toBe(400);
    const sent = await reporter.client.post('/api/gifts/send', {
      sender_email: reporter.member.email,
      receiver_email: author.member.email,
      gift_id: 2,
    });
    expect(sent.status).toBe(200);
    // the gift reaches the author's gifts account (credited apart)
    await expect
      .poll(async () => (await admin.get(`/api/admin/ledger/${author.member.email}`)).json.gifts_unclaimed, {
        timeout: 10_000,
      })
      .toBe(5);
    const listed = (await admin.get('/api/coins/admin/transactions')).json as unknown as Array<{
      id: number;
      user_email: string;
      amount: number;
      method: string;
      type: string;
    }>;
    expect(listed.map((t) => [t.user_email, t.amount, t.method, t.type])).toEqual([
      [reporter.member.email, 110, 'sandbox', 'achat'],
      [author.member.email, 40, 'ajout', 'ajout'],
    ]);

    await page.goto(`${live.server.url}/admin/transactions`);
    await page.getByRole('heading', { name: 'Transactions', exact: true }).waitFor();
    const rows = page.locator('.admin-table tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await page.locator('.admin-table thead th').allTextContents()).toEqual([
      'ID',
      'Utilisateur',
      'Montant (coins)',
      'Méthode',
      'Date',
    ]);
    const cells = async (i: number) => (await rows.nth(i).locator('td').allTextContents()).slice(0, 4);
    expect(await cells(0)).toEqual([
      String(listed[0].id),
      reporter.member.email,
      '+110',
      'Paiement (bac à sable)Achat',
    ]);
    expect(await cells(1)).toEqual([String(listed[1].id), author.member.email, '+40', 'Ajout sans paiement']);
    expect(await page.getByText('2 / 2 transactions').isVisible()).toBe(true);
    await page.getByLabel('Filtrer par membre').fill(author.member.email.toUpperCase());
    await expect.poll(() => rows.count()).toBe(1);
    expect(await page.getByText('1 / 2 transactions').isVisible()).toBe(true);
    await page.getByLabel('Filtrer par membre').fill('personne@');
    await expect.poll(visible(page, 'Aucune transaction trouvée.')).toBe(true);
    await page.getByLabel('Filtrer par membre').fill('');
    await expect.poll(() => rows.count()).toBe(2);
    await screenshot(page, 'e2e-admin-transactions');

    // the author's coin audit trail: add, then the gift received, with the balances after each
    await page.getByRole('link', { name: `Audit des coins de ${author.member.email}` }).click();
    await page.waitForURL((u) => u.pathname === `/admin/transactions/${encodeURIComponent(author.member.email)}`);
    await page.getByRole('heading', { name: 'Audit des coins' }).waitFor();
    await expect.poll(visible(page, 'Grand livre cohérent')).toBe(true);
    await expect.poll(visible(page, `@${author.member.pseudo} · ${author.member.email}`)).toBe(true);
    await expect.poll(() => stat(page, 'Solde')).toBe('40 coins');
    expect(await stat(page, 'Cadeaux non récupérés')).toBe('5 coins');
    expect(await stat(page, 'Mouvements')).toBe('2');
    const ledger = page.locator('.admin-table--ledger tbody tr');
    expect((await ledger.nth(0).locator('td').allTextContents()).slice(1, 7)).toEqual([
      'Ajout',
      'Coins bonus (non retirables)',
      '+40',
      '40',
      `n° ${listed[1].id}`,
      `@${author.member.pseudo}`,
    ]);
    expect((await ledger.nth(1).locator('td').allTextContents()).slice(1, 5)).toEqual([
      'Cadeau reçu',
      'Cadeaux non récupérés',
      '+5',
      '5',
    ]);
    await screenshot(page, 'e2e-admin-ledger-audit');
  }, 60_000);

  it('shows every coins figure and the advanced statistics the server computes', async () => {
    expect((await reporter.client.post('/api/videos/views', { videoId: author.videoId })).status).toBeLessThan(300);
    await expect
      .poll(
        async () => ((await admin.get('/api/admin/stats/advanced')).json.top_video as { views: number } | null)?.views,
        { timeout: 10_000 },
      )
      .toBe(1);
    const coins = (await admin.get('/api/admin/stats/coins')).json;
    expect(coins).toEqual({
      coins_bought: 110,
      coins_added: 40,
      coins_in_balances: 145,
      coins_in_unclaimed_gifts: 5,
      coins_in_transit: 0,
      coins_withdrawn: 0,
      fees: 0,
      purchases: 1,
    });

    await page.goto(`${live.server.url}/admin/stats/coins`);
    await page.getByRole('heading', { name: 'Statistiques coins' }).waitFor();
    await expect.poll(() => stat(page, 'Coins achetés')).toBe('110 coins');
    expect(await stat(page, 'Coins ajoutés sans paiement')).toBe('40 coins');
    expect(await stat(page, 'Coins sur les soldes des membres')).toBe('145 coins');
    expect(await stat(page, 'Coins en cadeaux non récupérés')).toBe('5 coins');
    expect(await stat(page, 'Coins de cadeaux en transit')).toBe('0 coin');
    expect(await stat(page, 'Coins retirés')).toBe('0 coin');
    expect(await stat(page, 'Commissions de la plateforme')).toBe('0 coin');
    expect(await stat(page, 'Achats de packs')).toBe('1');
    expect(await page.locator('.admin-stat').count()).toBe(Object.keys(coins).length);
    await screenshot(page, 'e2e-admin-stats-coins');
    // before anything happened, nothing had moved
    await page.getByLabel('Données au').fill('2020-01-01T00:00');
    await expect.poll(() => stat(page, 'Coins achetés')).toBe('0 coin');

    const advanced = (await admin.get('/api/admin/stats/advanced')).json as {
      top_creator: { user_email: string; video_count: number };
      top_video: { title: string; views: number };
    };
    expect(advanced).toMatchObject({ total_reports: 1, public_videos: 2, deleted_videos: 0, avg_videos_per_day: 2 });
    await page.goto(`${live.server.url}/admin/stats/advanced`);
    await page.getByRole('heading', { name: 'Statistiques avancées' }).waitFor();
    await expect.poll(() => stat(page, 'Meilleur créateur')).toBe(advanced.top_creator.user_email);
    expect([author.member.email, reporter.member.email]).toContain(advanced.top_creator.user_email);
    expect(await statDetail(page, 'Meilleur créateur')).toBe('1 vidéo');
    expect(await stat(page, 'Vidéo la plus vue')).toBe(author.member.video_title);
    expect(await statDetail(page, 'Vidéo la plus vue')).toBe('1 vue');
    expect(await stat(page, 'Signalements au total')).toBe('1');
    expect(await stat(page, 'Vidéos publiques')).toBe('2');
    expect(await stat(page, 'Vidéos supprimées')).toBe('0');
    expect(await stat(page, 'Moyenne de vidéos par jour')).toBe('2');
    await screenshot(page, 'e2e-admin-stats-advanced');

    await page.goto(`${live.server.url}/admin/stats/videos`);
    await expect.poll(() => stat(page, 'Vidéos au total')).toBe('2');
    expect(await stat(page, 'Vidéos rejetées')).toBe('0');
  }, 60_000);

  it('finds a member, gives and takes back the administrator right, as the server records it', async () => {
    await page.goto(`${live.server.url}/admin/users`);
    await page.getByRole('heading', { name: 'Utilisateurs', exact: true }).waitFor();
    await expect.poll(visible(page, '3 membres')).toBe(true);
    const listed = (await admin.get('/api/admin/users')).json as unknown as { items: Array<{ email: string }> };
    expect(await page.locator('.admin-table tbody tr .admin-table__sub').allTextContents()).toEqual(
      listed.items.map((u) => u.email),
    );

    await page.getByLabel('Rechercher un membre').fill(reporter.member.pseudo.toUpperCase());
    await page.waitForURL((u) => u.searchParams.get('q') === reporter.member.pseudo.toUpperCase());
    await expect.poll(visible(page, '1 membre')).toBe(true);
    const row = page.locator('.admin-table tbody tr').first();
    expect(await row.locator('th').textContent()).toBe(`@${reporter.member.pseudo}${reporter.member.email}`);
    expect(await row.locator('.role-badge').textContent()).toBe('Membre');
    // reporter: 110 bought − 5 given (bought coins are not withdrawable); one video
    expect(await row.locator('td.num').allTextContents()).toEqual(['1', '0', '105']);

    const who = `@${reporter.member.pseudo} (${reporter.member.email})`;
    // the member mistyped their password 5 times: locked out for 15 min, until an administrator clears it
    expect(await row.locator('.admin-login-lock__none').textContent()).toBe('—');
    const anonymous = new Client(live.server.url);
    for (let i = 0; i < 5; i++)
      expect(
        (await anonymous.post('/api/auth/login', { email: reporter.member.email, password: `faux-${i}-mdp` })).status,
      ).toBe(401);
    const locked = { email: reporter.member.email, password: reporter.member.password };
    expect((await anonymous.post('/api/auth/login', locked)).status).toBe(429);
    await page.reload();
    await expect.poll(() => row.locator('.admin-login-lock__count').textContent()).toBe('5 échecs (15 min)');
    for (const [viewport, name] of [
      [{ width: 390, height: 844 }, 'e2e-admin-users-locked-390'],
      [{ width: 1280, height: 800 }, 'e2e-admin-users-locked-1280'],
    ] as const) {
      await page.setViewportSize(viewport);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await screenshot(page, name);
    }
    await row.getByRole('button', { name: `Débloquer la connexion de ${who}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Débloquer' }).click();
    await expect
      .poll(visible(page, `✅ Connexion débloquée pour ${reporter.member.email} (5 échecs effacés).`))
      .toBe(true);
    await expect.poll(() => row.locator('.admin-login-lock__none').textContent()).toBe('—');
    expect((await anonymous.post('/api/auth/login', locked)).status).toBe(200);
    await page.setViewportSize({ width: 1200, height: 900 });

    await row.getByRole('button', { name: `Donner les droits d'administrateur à ${who}` }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.getByText(`Donner les droits d'administrateur à ${who} ?`).isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Donner les droits' }).click();
    await expect.poll(visible(page, `✅ ${reporter.member.email} est maintenant administrateur.`)).toBe(true);
    await expect.poll(() => row.locator('.role-badge').textContent()).toBe('Administrateur');
    await expect.poll(async () => (await reporter.client.get('/api/admin/stats')).status).toBe(200);
    await screenshot(page, 'e2e-admin-users');

    await row.getByRole('button', { name: `Retirer les droits d'administrateur à ${who}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Retirer les droits' }).click();
    await expect.poll(visible(page, `✅ ${reporter.member.email} n'est plus administrateur.`)).toBe(true);
    await expect.poll(() => row.locator('.role-badge').textContent()).toBe('Membre');
    await expect.poll(async () => (await reporter.client.get('/api/admin/stats')).status).toBe(403);
  }, 60_000);

  it("rebuilds the projections and shows the server's result; a server that cannot (409) says so in French", async () => {
    await page.goto(`${live.server.url}/admin/tools`);
    await page.getByRole('heading', { name: 'Outils' }).waitFor();
    expect((await admin.get('/api/admin/projections/rebuild')).json).toEqual({
      status: 'idle',
      done: 0,
      rate: 0,
      etaSeconds: 0,
      fraction: 0,
    });
    await expect.poll(visible(page, 'Aucune reconstruction depuis le démarrage du serveur.')).toBe(true);
    await page.getByRole('button', { name: 'Reconstruire les projections' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Reconstruire' }).click();
    await expect.poll(visible(page, 'Reconstruction lancée.')).toBe(true);
    const result = page.locator('.rebuild-result--ok');
    await result.waitFor({ timeout: 20_000 });
    const state = (await admin.get('/api/admin/projections/rebuild')).json as {
      status: string;
      events: number;
      done: number;
      fraction: number;
    };
    expect(state).toMatchObject({ status: 'done', fraction: 1 });
    expect(state.done).toBe(state.events);
    expect(spaces(await result.textContent())).toMatch(
      new RegExp(
        `^Projections reconstruites : ${spaces(state.events.toLocaleString('fr-FR'))} événements en (moins de 0,1 s|[\\d,]+ (s|min))`,
      ),
    );
    expect(await page.getByRole('button', { name: 'Reconstruire les projections' }).isEnabled()).toBe(true);
    await screenshot(page, 'e2e-admin-tools-rebuild');
    // the rebuilt read models serve the same figures
    expect((await admin.get('/api/admin/stats/coins')).json).toMatchObject({
      coins_bought: 110,
      coins_in_balances: 145,
    });

    // in the distributed deployment the API process answers the GET with 409 and the server's own explanation
    await page.route('**/api/admin/projections/rebuild', (route) =>
      route.request().method() === 'GET'
        ? route.fulfill({
            status: 409,
            contentType: 'application/json',
            body: JSON.stringify({ error: MODERATION_MESSAGES.rebuildNotHere }),
          })
        : route.continue(),
    );
    try {
      await page.goto(`${live.server.url}/admin/tools`);
      await expect.poll(visible(page, 'Reconstruction impossible depuis ce serveur.')).toBe(true);
      expect(await page.getByText(MODERATION_MESSAGES.rebuildNotHere).isVisible()).toBe(true);
      expect(await page.getByRole('button', { name: 'Reconstruire les projections' }).isDisabled()).toBe(true);
      expect(await page.locator('.rebuild-result').count()).toBe(0);
      await screenshot(page, 'e2e-admin-tools-409');
    } finally {
      await page.unroute('**/api/admin/projections/rebuild');
    }
  }, 60_000);

  it("shows the administrators' actions the server logged, newest first, with their French details", async () => {
    const logged = (await admin.get('/api/admin/audit?page=1&limit=25')).json as unknown as AuditPage;
    expect(logged.items.map((i) => i.action)).toEqual([
      'Reconstruction des projections lancée',
      'Rôle administrateur retiré',
      'Rôle administrateur accordé',
      'Connexion débloquée',
      'Cadeau ajouté',
      'Visibilité modifiée',
      'Visibilité modifiée',
      'Signalement mis à jour',
    ]);
    await page.goto(`${live.server.url}/admin/audit`);
    await page.getByRole('heading', { name: "Journal d'audit" }).waitFor();
    const rows = page.locator('.admin-table tbody tr');
    await expect.poll(() => rows.count()).toBe(logged.total);
    expect(
      await page.getByText(`${logged.total} actions d’administrateurs, les plus récentes d’abord.`).isVisible(),
    ).toBe(true);
    const shown = [];
    for (let i = 0; i < logged.total; i++) shown.push((await rows.nth(i).locator('td').allTextContents()).slice(1));
    const me = logged.items[0];
    expect(shown).toEqual(
      logged.items.map((item) => [
        `@${me.admin_pseudo}${me.admin_email}`,
        item.action,
        item.target,
        item.details || '—',
      ]),
    );
    expect(shown[1]).toEqual([
      `@${me.admin_pseudo}${DEMO_ADMIN_EMAIL}`,
      'Rôle administrateur retiré',
      reporter.member.email,
      '—',
    ]);
    expect(shown[3]).toEqual([
      `@${me.admin_pseudo}${DEMO_ADMIN_EMAIL}`,
      'Connexion débloquée',
      reporter.member.email,
      '5 échec(s) effacé(s)',
    ]);
    expect(shown[4][3]).toBe('Comète filante — 7 coins');
    expect(shown[7]).toEqual([
      `@${me.admin_pseudo}${DEMO_ADMIN_EMAIL}`,
      'Signalement mis à jour',
      expect.stringMatching(/^signalement #\d+ \(vidéo #\d+\)$/),
      `Statut : Traitée — Réponse : ${SANCTION}`,
    ]);
    await screenshot(page, 'e2e-admin-audit');
    expect(realErrors(errors)).toEqual([]);
  }, 60_000);
});
