/**
 * Issue 30, Major 6 (the form's part): SPEC requires every field; a try says which one is missing
 * next to it (the button is not disabled without a reason), the password rule shows before
 * submitting, and a successful registration logs the member in. At 1280x800 and 390x844.
 * Screenshots: artifacts/screens/registration-*.png.
 */
import { describe, it, expect } from 'vitest';
import path from 'node:path';
import { ASSETS, PNG_1PX, newMember } from '@evo/command-api/testing/test-server';
import { browserSkipReason, newPage, screenshot } from './harness';
import { SIZES, realErrors, serverAndBrowser, sidewaysOverflow } from './helpers';

const skip = browserSkipReason();
const VIDEO = path.join(ASSETS, 'demo/demo-3.mp4');

describe.skipIf(!!skip)('registering', () => {
  const live = serverAndBrowser();

  for (const size of SIZES) {
    it(`says which field is missing next to it, shows the password rule, then logs in (${size.name})`, async () => {
      const context = await live.browser.newContext({ viewport: size.viewport, locale: 'fr-FR' });
      const { page, errors } = await newPage(context);
      await page.goto(`${live.server.url}/register`);
      // the rule, before anything is typed
      await page.getByText('Au moins 8 caractères.').waitFor();
      const submit = page.getByRole('button', { name: 'Créer mon compte' });
      expect(await submit.isEnabled()).toBe(true);
      await page.getByLabel('Email').fill(`x${Date.now()}@test.fr`);
      await submit.click();
      for (const message of [
        'Choisis un pseudo.',
        'Choisis un mot de passe.',
        'Confirme ton mot de passe.',
        'Écris une bio (une phrase suffit).',
        'Choisis une photo de profil.',
        'Choisis une vidéo.',
        'Donne un titre à ta vidéo.',
      ])
        await page.getByText(message, { exact: true }).waitFor();
      expect(await page.getByText('Indique ton email.').count()).toBe(0);
      await page.getByText('7 champs sont à remplir.').waitFor();
      // the first one to fix has the focus
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('register-pseudo');
      expect(await page.getByLabel('Pseudo').getAttribute('aria-invalid')).toBe('true');
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `registration-missing-${size.name}`);

      const m = newMember();
      await page.getByLabel('Email').fill(m.email);
      await page.getByLabel('Pseudo').fill(m.pseudo);
      await page.getByLabel('Mot de passe', { exact: true }).fill('court');
      await page.getByLabel('Confirmer le mot de passe').fill('court');
      await page.getByLabel('Bio').fill(m.bio);
      await page
        .getByLabel('Photo de profil')
        .setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: PNG_1PX });
      await page.getByLabel('Vidéo', { exact: true }).setInputFiles(VIDEO);
      await page.getByLabel('Titre de la vidéo').fill(m.video_title);
      await submit.click();
      // too short: the rule itself turns into the error, nothing is sent
      await expect.poll(() => page.locator('#register-password-rule').getAttribute('class')).toBe('field__error');
      expect(new URL(page.url()).pathname).toBe('/register');
      await page.getByLabel('Mot de passe', { exact: true }).fill(m.password);
      await page.getByLabel('Confirmer le mot de passe').fill(m.password);
      await submit.click();
      // logged in at once, on the new profile
      await page.waitForURL((u) => u.pathname === `/user/${m.pseudo}`, { timeout: 30_000 });
      await page.locator('.toast', { hasText: '✅ Compte créé avec succès !' }).waitFor();
      await page
        .getByRole('banner')
        .getByRole('button', { name: /Notifications/ })
        .waitFor();
      await screenshot(page, `registration-done-${size.name}`, { fullPage: false });
      expect(realErrors(errors)).toEqual([]);
      await context.close();
    }, 120_000);
  }
});
