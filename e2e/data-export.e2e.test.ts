/**
 * Issue 31, "Mes données": from their profile a member asks for the archive of their data, follows
 * its preparation and downloads it; an administrator prepares a member's archive from the members
 * screen (a request received by post), which the member sees listed without a link. At 1280x800
 * and 390x844. Screenshots: artifacts/screens/data-export-*.png.
 */
import { describe, it, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { DATA_EXPORT_MESSAGES as M } from '@evo/domain';
import { registerAndLogin } from '@evo/command-api/testing/test-server';
import { browserSkipReason, loggedInPage, screenshot } from './harness';
import { ADMIN, SIZES, coveredBy, realErrors, serverAndBrowser, sidewaysOverflow, toast } from './helpers';

const skip = browserSkipReason();

/** fetches `href` in the page (its session cookie): status, type and size */
const fetchIn = (page: Page, href: string) =>
  page.evaluate(async (url) => {
    const r = await fetch(url);
    return { status: r.status, type: r.headers.get('content-type'), size: (await r.arrayBuffer()).byteLength };
  }, href);

describe.skipIf(!!skip)('"Mes données": the archive of a member’s data', () => {
  const live = serverAndBrowser();

  for (const size of SIZES) {
    it(`a member asks for their archive from their profile and downloads it (${size.name})`, async () => {
      const { member } = await registerAndLogin(live.server.url);
      const { context, page, errors } = await loggedInPage(live.browser, live.server.url, member, size.viewport);
      await page.goto(`${live.server.url}/user/${member.pseudo}`);
      await page.getByRole('link', { name: 'Mes données' }).click();
      await page.waitForURL('**/mes-donnees');
      await page.getByRole('heading', { level: 1, name: 'Mes données' }).waitFor();
      await page.getByText('Tu n’as encore demandé aucune archive.').waitFor();
      expect(await page.locator('main').innerText()).toContain('valable 7 jours');
      expect(await page.title()).toBe('Mes données · EVO');

      const ask = page.getByRole('button', { name: 'Demander mon archive' });
      expect(await coveredBy(ask)).toEqual([]);
      await ask.click();
      await toast(page, M.requested).waitFor();
      const link = page.getByRole('link', { name: /^Télécharger/ });
      await link.waitFor({ timeout: 20_000 });
      await page.getByText(/Lien valable jusqu’au \d+ \S+ \d{4}/).waitFor();
      expect(await page.locator('.data-export__badge').first().innerText()).toBe('Prête');
      const href = await link.getAttribute('href');
      expect(href).toMatch(/^\/api\/me\/data-exports\/[0-9a-f-]{36}\/download$/);
      expect(await fetchIn(page, href!)).toMatchObject({ status: 200, type: 'application/zip' });
      expect((await fetchIn(page, href!)).size).toBeGreaterThan(1000);
      expect(await coveredBy(link)).toEqual([]);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `data-export-member-${size.name}`, { fullPage: false });

      // the notification says so, and leads here
      await page.goto(`${live.server.url}/notifications`);
      await page.getByText(/Ton archive « Mes données » est prête/).waitFor();
      await page.getByRole('link', { name: 'Voir mes données' }).first().click();
      await page.waitForURL('**/mes-donnees');
      expect(realErrors(errors)).toEqual([]);
      await context.close();
    }, 120_000);

    it(`an administrator prepares a member’s archive from the members screen (${size.name})`, async () => {
      const { member } = await registerAndLogin(live.server.url);
      const admin = await loggedInPage(live.browser, live.server.url, ADMIN, size.viewport);
      await admin.page.goto(`${live.server.url}/admin/users?q=${encodeURIComponent(member.pseudo)}`);
      // the members table keeps its columns in a 1280-px window with the new button
      await admin.page.locator('.admin-table tbody tr').first().waitFor();
      if (size.name === 'desktop')
        expect(
          await admin.page.locator('.admin-table-wrap').evaluate((w) => w.scrollWidth - w.clientWidth),
        ).toBeLessThanOrEqual(0);
      await admin.page
        .getByRole('button', { name: `Archive des données de @${member.pseudo} (${member.email})` })
        .click();
      const panel = admin.page.getByRole('region', { name: `Données de @${member.pseudo} (${member.email})` });
      await panel.waitFor();
      await panel.getByRole('button', { name: 'Préparer l’archive' }).click();
      await toast(admin.page, M.requestedAdmin).waitFor();
      const link = panel.getByRole('link', { name: /^Télécharger/ });
      await link.waitFor({ timeout: 20_000 });
      expect(await fetchIn(admin.page, (await link.getAttribute('href'))!)).toMatchObject({ status: 200 });
      await panel.scrollIntoViewIfNeeded();
      expect(await coveredBy(link)).toEqual([]);
      expect(await sidewaysOverflow(admin.page)).toBeLessThanOrEqual(0);
      await screenshot(admin.page, `data-export-admin-${size.name}`, { fullPage: false });
      expect(realErrors(admin.errors)).toEqual([]);
      await admin.context.close();

      // the member sees it was made, without a link
      const { context, page, errors } = await loggedInPage(live.browser, live.server.url, member, size.viewport);
      await page.goto(`${live.server.url}/mes-donnees`);
      await page.getByText(/Préparée par l’équipe EVO pour une demande reçue par courrier/).waitFor();
      expect(await page.getByRole('link', { name: /^Télécharger/ }).count()).toBe(0);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `data-export-by-admin-${size.name}`, { fullPage: false });
      expect(realErrors(errors)).toEqual([]);
      await context.close();
    }, 120_000);
  }
});
