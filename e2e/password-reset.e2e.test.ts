/**
 * Issue 30, Major 6 ("Mot de passe oublié ?"): from the login page, a link by email (the server
 * sends it to a real SMTP exchange, SmtpSink) opens the new-password page, which logs the member in
 * on their profile and out of their other sessions; a used link says so. An administrator issues a
 * link from the members page and reads it there to hand over. At 1280x800 and 390x844.
 * Screenshots: artifacts/screens/reset-*.png.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Client, registerAndLogin } from '@evo/command-api/testing/test-server';
import { SmtpSink } from '@evo/command-api/testing/smtp-sink';
import type { Page } from 'playwright-core';
import { browserSkipReason, loggedInPage, newPage, screenshot } from './harness';
import { ADMIN, SIZES, coveredBy, realErrors, serverAndBrowser, sidewaysOverflow, toast } from './helpers';

const skip = browserSkipReason();

/** the new-password field (the page's title says the same words) */
const newPassword = (page: Page) => page.locator('input').and(page.getByLabel('Nouveau mot de passe', { exact: true }));

describe.skipIf(!!skip)('forgotten password', () => {
  const sink = new SmtpSink();
  const env: Record<string, string> = {};
  beforeAll(async () => {
    env.SMTP_URL = await sink.start();
  });
  afterAll(() => sink.stop());
  const live = serverAndBrowser({}, env);

  /** the link of the last mail sent to `email` */
  async function mailedLink(email: string, after: number): Promise<string> {
    await expect
      .poll(() => sink.received.slice(after).some((m) => m.to.includes(email)), { timeout: 10_000 })
      .toBe(true);
    const mail = sink.received
      .slice(after)
      .filter((m) => m.to.includes(email))
      .pop()!;
    return /https?:\/\/\S+/.exec(mail.text)![0];
  }

  for (const size of SIZES) {
    it(`asks for a link on the login page, sets a new password through it and lands logged in (${size.name})`, async () => {
      const member = await registerAndLogin(live.server.url);
      const context = await live.browser.newContext({ viewport: size.viewport, locale: 'fr-FR' });
      const { page, errors } = await newPage(context);
      await page.goto(`${live.server.url}/login`);
      await page.getByLabel('Email').fill(member.member.email);
      const forgot = page.getByRole('link', { name: 'Mot de passe oublié ?' });
      expect(await coveredBy(forgot)).toEqual([]);
      await screenshot(page, `reset-login-${size.name}`, { fullPage: false });
      await forgot.click();
      await page.waitForURL('**/mot-de-passe-oublie');
      await page.getByRole('heading', { name: 'Mot de passe oublié' }).waitFor();
      // the email typed on the login page comes along
      expect(await page.getByLabel('Email').inputValue()).toBe(member.member.email);
      const mailsBefore = sink.received.length;
      await page.getByRole('button', { name: 'Recevoir un lien' }).click();
      const answer = page.getByRole('status').filter({ hasText: 'Si un compte existe pour cette adresse' });
      await answer.waitFor();
      expect(await answer.textContent()).toContain('Il est valable 1 heure');
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `reset-asked-${size.name}`, { fullPage: false });

      const link = await mailedLink(member.member.email, mailsBefore);
      expect(new URL(link).pathname).toBe('/nouveau-mot-de-passe');
      await page.goto(link);
      await page.getByRole('heading', { name: 'Nouveau mot de passe' }).waitFor();
      // the rule is said before submitting; a short one is refused on the page
      await page.getByText('Au moins 8 caractères.').waitFor();
      await newPassword(page).fill('court');
      await page.getByLabel('Confirme le mot de passe').fill('court');
      await page.getByRole('button', { name: 'Changer mon mot de passe' }).click();
      expect(await newPassword(page).getAttribute('aria-invalid')).toBe('true');
      await newPassword(page).fill('mon-nouveau-secret');
      await page.getByLabel('Confirme le mot de passe').fill('mon-nouveau-secret');
      const submit = page.getByRole('button', { name: 'Changer mon mot de passe' });
      expect(await coveredBy(submit)).toEqual([]);
      await screenshot(page, `reset-new-password-${size.name}`, { fullPage: false });
      await submit.click();
      await page.waitForURL(`**/user/${member.member.pseudo}`);
      await toast(page, 'Mot de passe modifié. Tu es connecté.').waitFor();
      await page.locator('.profile__counters').waitFor();
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `reset-done-${size.name}`, { fullPage: false });

      // logged out elsewhere, the new password opens the account
      expect((await member.client.get('/api/auth/me')).status).toBe(401);
      const relog = await new Client(live.server.url).post('/api/auth/login', {
        email: member.member.email,
        password: 'mon-nouveau-secret',
      });
      expect(relog.status).toBe(200);

      // the link served: opened again, it says so
      const again = await context.newPage();
      await again.goto(link);
      await newPassword(again).fill('encore-un-autre');
      await again.getByLabel('Confirme le mot de passe').fill('encore-un-autre');
      await again.getByRole('button', { name: 'Changer mon mot de passe' }).click();
      await again.getByRole('alert').filter({ hasText: 'Ce lien de réinitialisation a déjà servi.' }).waitFor();
      await screenshot(again, `reset-used-${size.name}`, { fullPage: false });
      expect(realErrors(errors)).toEqual([]);
      await context.close();
    }, 120_000);

    it(`says the password changed when the session cannot open, and leads to the login (${size.name})`, async () => {
      const member = await registerAndLogin(live.server.url);
      const mailsBefore = sink.received.length;
      await new Client(live.server.url).post('/api/auth/password-reset', { email: member.member.email });
      const link = await mailedLink(member.member.email, mailsBefore);
      const context = await live.browser.newContext({ viewport: size.viewport, locale: 'fr-FR' });
      const { page, errors } = await newPage(context);
      await page.goto(link);
      await newPassword(page).fill('secret-sans-session');
      await page.getByLabel('Confirme le mot de passe').fill('secret-sans-session');
      // the session store fails once the new password is in the log (a full disk, Redis away)
      const sessions = live.server.deps.sessions;
      sessions.open = async () => {
        throw new Error('stockage des sessions indisponible');
      };
      try {
        await page.getByRole('button', { name: 'Changer mon mot de passe' }).click();
        await page
          .getByRole('status')
          .filter({ hasText: 'Mot de passe modifié, mais la connexion a échoué.' })
          .waitFor();
      } finally {
        delete (sessions as Partial<typeof sessions>).open;
      }
      // the link has served: no form to send again, the login instead
      expect(await page.getByRole('button', { name: 'Changer mon mot de passe' }).count()).toBe(0);
      const login = page.getByRole('link', { name: 'Se connecter' });
      expect(await coveredBy(login)).toEqual([]);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `reset-changed-not-logged-in-${size.name}`, { fullPage: false });
      await login.click();
      await page.waitForURL('**/login');
      expect(await page.getByLabel('Email').inputValue()).toBe(member.member.email);
      await page.getByLabel('Mot de passe', { exact: true }).fill('secret-sans-session');
      await page.getByRole('button', { name: 'Se connecter' }).click();
      await page.waitForURL((url) => url.pathname !== '/login');
      expect((await page.request.get(`${live.server.url}/api/auth/me`)).status()).toBe(200);
      expect(realErrors(errors)).toEqual([]);
      await context.close();
    }, 120_000);

    it(`an administrator issues a link on the members page and hands it over (${size.name})`, async () => {
      const member = await registerAndLogin(live.server.url);
      const admin = await loggedInPage(live.browser, live.server.url, ADMIN, size.viewport);
      await admin.page.goto(`${live.server.url}/admin/users?q=${member.member.pseudo}`);
      const issue = admin.page.getByRole('button', {
        name: `Créer un lien de réinitialisation du mot de passe pour @${member.member.pseudo} (${member.member.email})`,
      });
      await issue.click();
      await admin.page.getByRole('dialog').getByRole('button', { name: 'Créer le lien' }).click();
      const field = admin.page.getByLabel('Lien de réinitialisation', { exact: true });
      await field.waitFor();
      const link = await field.inputValue();
      expect(link).toMatch(/\/nouveau-mot-de-passe#/);
      await admin.page
        .getByRole('status')
        .filter({ hasText: `Lien de réinitialisation créé pour ${member.member.email}` })
        .waitFor();
      expect(await coveredBy(field)).toEqual([]);
      expect(await sidewaysOverflow(admin.page)).toBeLessThanOrEqual(0);
      await screenshot(admin.page, `reset-admin-link-${size.name}`, { fullPage: false });

      // the member opens it in their own browser
      const context = await live.browser.newContext({ viewport: size.viewport, locale: 'fr-FR' });
      const { page, errors } = await newPage(context);
      await page.goto(link);
      await newPassword(page).fill('donne-par-admin');
      await page.getByLabel('Confirme le mot de passe').fill('donne-par-admin');
      await page.getByRole('button', { name: 'Changer mon mot de passe' }).click();
      await page.waitForURL(`**/user/${member.member.pseudo}`);
      expect(realErrors(errors)).toEqual([]);
      expect(realErrors(admin.errors)).toEqual([]);
      await context.close();
      await admin.context.close();
    }, 120_000);
  }
});
