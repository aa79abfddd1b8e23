/**
 * Issue 12, as a member sees it, in a real (headless) Chromium against the real server, at
 * desktop (1280x800) and mobile (390x844) sizes: no fixed bar over the conversation's composer,
 * notifications that name their actor once, a coin history that adds up, and a gift picker that
 * asks before spending and never shows an email. Screenshots go to artifacts/screens/ux-*.png.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { registerAndLogin, type Registration, type TestServer } from '@evo/command-api/testing/test-server';
import { browserSkipReason, launchBrowser, newPage, screenshot, startE2eServer } from './harness';
import { SIZES, login, realErrors, sidewaysOverflow, type Member } from './helpers';

const skip = browserSkipReason();

interface Obstruction {
  inViewport: boolean;
  /** what document.elementFromPoint finds at the centre and the four inner corners, when not the element itself */
  coveredBy: string[];
}

/**
 * Whether the element is wholly inside the viewport and is what the browser hits at its centre
 * and near its corners (so no fixed or sticky bar lies over it).
 */
async function obstruction(page: Page, selector: string): Promise<Obstruction> {
  return page.locator(selector).evaluate((el) => {
    const r = el.getBoundingClientRect();
    const inViewport =
      r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
    const inset = 8; // inside rounded corners
    const points: Array<[number, number]> = [
      [r.left + r.width / 2, r.top + r.height / 2],
      [r.left + inset, r.top + inset],
      [r.right - inset, r.top + inset],
      [r.left + inset, r.bottom - inset],
      [r.right - inset, r.bottom - inset],
    ];
    const coveredBy: string[] = [];
    for (const [x, y] of points) {
      const hit = document.elementFromPoint(x, y);
      if (!hit || !(hit === el || el.contains(hit))) {
        const bar = hit?.closest('nav, header, [role="status"], [role="alert"]') ?? hit;
        coveredBy.push(bar ? `${bar.tagName.toLowerCase()}.${bar.className}` : 'nothing (off-screen)');
      }
    }
    return { inViewport, coveredBy };
  });
}

describe.skipIf(!!skip)('issue 12: what members see (desktop 1280x800, mobile 390x844)', () => {
  let server: TestServer;
  let browser: Browser;
  let a: Member;
  let b: Member;
  const contexts: BrowserContext[] = [];
  const errors: string[][] = [];

  async function pageFor(m: Registration, viewport: { width: number; height: number }): Promise<Page> {
    const context = await browser.newContext({ viewport });
    contexts.push(context);
    const { page, errors: e } = await newPage(context);
    errors.push(e);
    await login(page, server.url, m);
    return page;
  }

  beforeAll(async () => {
    server = await startE2eServer();
    browser = await launchBrowser();
    [a, b] = await Promise.all([registerAndLogin(server.url), registerAndLogin(server.url)]);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    const errs = errors.flatMap((e) => realErrors(e));
    expect(errs, `console errors:\n${errs.join('\n')}`).toEqual([]);
  });

  it('item 1: the conversation composer and "Envoyer" are fully visible, under no fixed bar, and clickable', async () => {
    // A and B follow each other (messaging needs it) and a thread longer than the screen exists
    expect((await a.client.post('/api/users/follows/follow', { followingPseudo: b.member.pseudo })).status).toBe(200);
    expect((await b.client.post('/api/users/follows/follow', { followingPseudo: a.member.pseudo })).status).toBe(200);
    for (let i = 1; i <= 14; i++) {
      const [from, to] = i % 2 ? [a, b] : [b, a];
      const sent = await from.client.post('/api/messages', { receiverEmail: to.member.email, content: `Message ${i}` });
      expect(sent.status).toBeLessThan(300);
    }
    for (const { name, viewport } of SIZES) {
      const page = await pageFor(a.member, viewport);
      await page.goto(`${server.url}/messages/${b.member.pseudo}`);
      const input = page.getByLabel(`Ta réponse à @${b.member.pseudo}`);
      await input.waitFor();
      await expect.poll(() => page.getByText('Message 14', { exact: true }).isVisible()).toBe(true);
      await page.waitForLoadState('networkidle');
      await screenshot(page, `ux-01-conversation-${name}`, { fullPage: false });
      for (const what of ['.composer__input', '.composer__send']) {
        expect(await obstruction(page, what), `${what} at ${name}`).toEqual({ inViewport: true, coveredBy: [] });
      }
      // focused, still visible (a focused input scrolls the page; the bars must not cover it)
      await input.focus();
      for (const what of ['.composer__input', '.composer__send']) {
        expect(await obstruction(page, what), `${what} focused at ${name}`).toEqual({
          inViewport: true,
          coveredBy: [],
        });
      }
      expect(await sidewaysOverflow(page), `sideways scroll at ${name}`).toBe(0);
      // clickable without scrolling or forcing: a real click sends the message
      await page.locator('.composer__input').click();
      await input.fill(`Réponse ${name}`);
      await page.getByRole('button', { name: 'Envoyer', exact: true }).click({ noWaitAfter: true });
      await expect.poll(() => page.getByText(`Réponse ${name}`, { exact: true }).isVisible()).toBe(true);
      await screenshot(page, `ux-01-conversation-sent-${name}`, { fullPage: false });

      // the same conversation opened in the inbox
      await page.goto(`${server.url}/messages`);
      await page.locator('.inbox__item', { hasText: `@${b.member.pseudo}` }).click();
      await expect.poll(() => page.getByText(`Réponse ${name}`, { exact: true }).isVisible()).toBe(true);
      await screenshot(page, `ux-01-inbox-${name}`, { fullPage: false });
      for (const what of ['.composer__input', '.composer__send', '.conversation__head']) {
        expect(await obstruction(page, what), `inbox ${what} at ${name}`).toEqual({ inViewport: true, coveredBy: [] });
      }
      expect(await sidewaysOverflow(page), `inbox sideways scroll at ${name}`).toBe(0);
    }
  }, 120_000);

  it('item 2: a notification names its actor once, in the dropdown and on /notifications', async () => {
    const profile = await a.client.get(`/api/users/profile/${a.member.pseudo}`);
    const videoId = (profile.json.videos as Array<{ id: number }>)[0].id;
    expect((await b.client.post(`/api/videos/${videoId}/like`)).status).toBeLessThan(300);
    const liked = `${b.member.pseudo} a aimé ta vidéo`;
    const texts = (page: Page, scope: string) =>
      page
        .locator(`${scope} .notif__text, ${scope} .notif__open`)
        .evaluateAll((els) => els.map((el) => (el.textContent ?? '').replace(/\s+/g, ' ').trim()));
    for (const { name, viewport } of SIZES) {
      const page = await pageFor(a.member, viewport);
      await page.getByRole('button', { name: 'Notifications' }).click();
      const menu = '[data-notifications]';
      await expect.poll(() => texts(page, menu), { timeout: 10_000 }).toContain(liked);
      await screenshot(page, `ux-02-notification-menu-${name}`, { fullPage: false });
      for (const text of await texts(page, menu)) {
        expect(text.split(b.member.pseudo).length - 1, `"${text}" in the menu at ${name}`).toBeLessThanOrEqual(1);
      }
      await page.goto(`${server.url}/notifications`);
      await expect.poll(() => texts(page, 'main')).toContain(liked);
      const all = await texts(page, 'main');
      expect(all).toContain(`${b.member.pseudo} t'a envoyé un message`);
      for (const text of all) {
        expect(text.split(b.member.pseudo).length - 1, `"${text}" on /notifications at ${name}`).toBeLessThanOrEqual(1);
      }
      // the actor is still a link to their profile
      const actor = page.locator('main .notif__text', { hasText: liked }).getByRole('link', { name: b.member.pseudo });
      expect(await actor.getAttribute('href')).toBe(`/user/${b.member.pseudo}`);
      expect(await sidewaysOverflow(page), `sideways scroll at ${name}`).toBe(0);
      await screenshot(page, `ux-02-notifications-${name}`, { fullPage: false });
    }
  }, 60_000);

  it('item 3: the coin history names every movement, shows the balance after each row and the unclaimed gifts apart', async () => {
    const [c, d] = await Promise.all([registerAndLogin(server.url), registerAndLogin(server.url)]);
    const ok = async (what: string, call: Promise<{ status: number; text: string }>) => {
      const r = await call;
      expect(r.status, `${what}: ${r.text}`).toBeLessThan(300);
      return r;
    };
    const gift = (from: typeof c, to: typeof c, giftId: number) =>
      ok(
        `gift ${giftId}`,
        from.client.post('/api/gifts/send', {
          sender_email: from.member.email,
          receiver_email: to.member.email,
          gift_id: giftId,
        }),
      );
    const received = async (m: typeof c) =>
      (await m.client.get(`/api/gifts/received/${m.member.email}`)).json as unknown as Array<{
        id: number;
        name: string;
        claimed: boolean;
      }>;
    await ok('purchase', c.client.post('/api/coins/purchase', { email: c.member.email, packId: 1 }));
    await gift(c, d, 3); // Croissant, 10
    await gift(c, d, 2); // Cœur, 5
    // added after the gifts: they were paid with bought coins, so d may withdraw what they earn
    await ok('add', c.client.post('/api/coins/add', { email: c.member.email, amount: 20 }));
    await expect.poll(async () => (await received(d)).length, { timeout: 15_000 }).toBe(2);
    const croissant = (await received(d)).find((g) => g.name === 'Croissant');
    await ok('claim', d.client.post('/api/gifts/claim', { gift_id: croissant?.id }));
    await ok('convert', d.client.post('/api/coins/convert-gifts', { user_email: d.member.email }));
    await ok('withdraw', d.client.post('/api/coins/withdraw', { user_email: d.member.email, amount: 3 }));
    await gift(d, c, 1); // Rose, 1: stays unclaimed on c's side
    await expect.poll(async () => (await received(c)).length, { timeout: 15_000 }).toBe(1);

    const expected = [
      {
        who: c.member,
        labels: ['Cadeau reçu', 'Ajout', 'Cadeau envoyé', 'Cadeau envoyé', 'Achat'],
        balance: '115 coins',
        unclaimed: '1 coin',
      },
      {
        who: d.member,
        labels: ['Cadeau envoyé', 'Retrait', 'Cadeaux récupérés', 'Cadeau récupéré', 'Cadeau reçu', 'Cadeau reçu'],
        balance: '11 coins',
        unclaimed: '0 coin',
      },
    ];
    const digits = (t: string) => Number(t.replace(/[^0-9−-]/g, '').replace('−', '-'));
    for (const { name, viewport } of SIZES) {
      for (const [i, { who, labels, balance, unclaimed }] of expected.entries()) {
        const page = await pageFor(who, viewport);
        await page.goto(`${server.url}/coins/transactions`);
        const rows = page.locator('.coins-tx__row');
        await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(labels.length);
        // viewport shots (the fixed bar where a person sees it), at the top and at the end
        await screenshot(page, `ux-03-history-${i ? 'receiver' : 'sender'}-${name}-top`, { fullPage: false });
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        await screenshot(page, `ux-03-history-${i ? 'receiver' : 'sender'}-${name}-end`, { fullPage: false });
        expect(await obstruction(page, '.coins-tx__row >> nth=-1'), `last row at ${name}`).toEqual({
          inViewport: true,
          coveredBy: [],
        });
        expect(await page.locator('.coins-tx__type').allTextContents()).toEqual(labels);
        // the summary: what may be spent, and the received gifts apart from it
        const summary = page.getByRole('region', { name: 'Résumé du coffre' });
        expect((await summary.getByTestId('coins-balance').textContent())?.replace(/\s+/g, ' ')).toContain(balance);
        expect((await summary.getByTestId('gifts-unclaimed').textContent())?.replace(/\s+/g, ' ')).toContain(unclaimed);
        // what a member reads adds up: from the oldest row, each amount moves the balance (or, for a
        // received gift, the gifts to claim) to the figure the row shows after it
        const read = await rows.evaluateAll((els) =>
          els.map((el) => ({
            label: el.querySelector('.coins-tx__type')?.textContent ?? '',
            amount: el.querySelector('.coins-tx__amount [aria-hidden]')?.textContent ?? '',
            toGifts: el.querySelector('.coins-tx__amount--gifts') !== null,
            balanceAfter: el.querySelector('.coins-tx__balance-after')?.textContent ?? '',
            giftsAfter: el.querySelector('.coins-tx__gifts-after')?.textContent ?? null,
          })),
        );
        let bal = 0;
        let gifts = 0;
        for (const row of read.reverse()) {
          const amount = digits(row.amount);
          expect(row.balanceAfter, row.label).toMatch(/^Solde : /);
          if (row.toGifts) gifts += amount;
          else bal += amount;
          if (row.label === 'Cadeau récupéré' || row.label === 'Cadeaux récupérés') gifts -= amount;
          expect(digits(row.balanceAfter), `balance after ${row.label} ${row.amount}`).toBe(bal);
          if (row.giftsAfter !== null) expect(digits(row.giftsAfter), `gifts after ${row.label}`).toBe(gifts);
        }
        expect(bal).toBe(digits(balance));
        expect(gifts).toBe(digits(unclaimed));
        // a received gift is shown once, as gifts to claim, not as a second "+" on the balance
        expect(read.filter((r) => r.label === 'Cadeau reçu').every((r) => r.toGifts)).toBe(true);
        expect(await sidewaysOverflow(page), `sideways scroll at ${name}`).toBe(0);
      }
    }
  }, 120_000);

  it('item 6: "Cadeau" opens a picker (prices, balance), sends only once confirmed, by pseudo; no email shown or in a URL', async () => {
    const [e, f] = await Promise.all([registerAndLogin(server.url), registerAndLogin(server.url)]);
    expect((await e.client.post('/api/coins/add', { email: e.member.email, amount: 50 })).status).toBe(200);
    const received = async () =>
      ((await f.client.get(`/api/gifts/received/${f.member.email}`)).json as unknown as Array<{ name: string }>).map(
        (g) => g.name,
      );
    const noEmail = async (page: Page, where: string) => {
      expect(page.url(), `URL ${where}`).not.toContain(f.member.email);
      expect(page.url(), `URL ${where}`).not.toContain(encodeURIComponent(f.member.email));
      expect(await page.evaluate(() => document.body.innerText), `page ${where}`).not.toContain(f.member.email);
    };
    let balance = 50;
    const sent: string[] = [];
    for (const { name, viewport } of SIZES) {
      const page = await pageFor(e.member, viewport);
      const sends: Array<Record<string, unknown>> = [];
      page.on('request', (r) => {
        if (r.url().endsWith('/gifts/send')) sends.push(r.postDataJSON() as Record<string, unknown>);
      });
      await page.goto(`${server.url}/user/${f.member.pseudo}`);
      const cardGift = page.getByRole('button', { name: 'Envoyer un cadeau', exact: true }).first();
      await cardGift.waitFor({ timeout: 20_000 });
      await noEmail(page, `profile at ${name}`);

      // one click opens the picker and spends nothing
      await cardGift.click();
      const picker = page.getByRole('dialog', { name: `Envoyer un cadeau à @${f.member.pseudo}` });
      await picker.waitFor();
      await expect.poll(() => picker.getByTestId('gift-picker-balance').textContent()).toContain(`${balance} coins`);
      const options = picker.getByRole('radio');
      expect(await options.count()).toBe(8);
      expect(await picker.getByText('Rose', { exact: true }).isVisible()).toBe(true);
      expect(await picker.getByText('5 coins', { exact: true }).isVisible()).toBe(true);
      // gifts above the balance cannot be chosen
      expect(await picker.getByRole('radio', { name: /Licorne/ }).isDisabled()).toBe(true);
      expect(sends).toEqual([]);
      await noEmail(page, `picker at ${name}`);
      await screenshot(page, `ux-06-gift-picker-${name}`, { fullPage: false });

      // cancel: nothing sent
      await picker.getByRole('button', { name: 'Annuler' }).click();
      await expect.poll(() => picker.count()).toBe(0);
      expect(sends).toEqual([]);

      // choose, confirm, then it is sent (by pseudo)
      await cardGift.click();
      await picker.waitFor();
      await picker.getByRole('radio', { name: /Cœur/ }).check();
      const confirm = picker.getByRole('button', { name: 'Envoyer Cœur (5 coins)' });
      for (const what of ['.gift-picker__confirm', '.gift-picker__cancel']) {
        expect(await obstruction(page, what), `${what} at ${name}`).toEqual({ inViewport: true, coveredBy: [] });
      }
      expect(await sidewaysOverflow(page), `sideways scroll at ${name}`).toBe(0);
      await confirm.click();
      await expect.poll(() => page.getByText('🎁 Cadeau envoyé !').first().isVisible()).toBe(true);
      await expect.poll(() => picker.count()).toBe(0);
      expect(sends).toEqual([{ sender_email: e.member.email, receiver_pseudo: f.member.pseudo, gift_id: 2 }]);
      balance -= 5;
      sent.unshift('Cœur'); // newest first
      await expect.poll(received, { timeout: 15_000 }).toEqual(sent);
      await screenshot(page, `ux-06-gift-sent-${name}`, { fullPage: false });

      // the profile's "Envoyer un cadeau" opens the catalogue by pseudo: no email on the page or in its URL
      await page.getByRole('link', { name: 'Envoyer un cadeau' }).click();
      await page.waitForURL('**/catalogue?**');
      await expect.poll(() => page.getByText(`Destinataire : @${f.member.pseudo}`).isVisible()).toBe(true);
      await noEmail(page, `catalogue at ${name}`);
      await screenshot(page, `ux-06-catalogue-${name}`, { fullPage: false });
      await page.getByRole('button', { name: /Envoyer le cadeau Rose/ }).click();
      await expect.poll(() => page.getByText('🎉 Cadeau envoyé !').isVisible()).toBe(true);
      expect(sends.at(-1)).toEqual({ sender_email: e.member.email, receiver_pseudo: f.member.pseudo, gift_id: 1 });
      balance -= 1;
      sent.unshift('Rose');
      await expect.poll(received, { timeout: 15_000 }).toEqual(sent);
      // the product specification's ?receiver= / ?to= with an email still send, without ever showing it
      for (const param of ['receiver', 'to']) {
        await page.goto(`${server.url}/catalogue?${param}=${encodeURIComponent(f.member.email)}`);
        await page.getByRole('button', { name: /Envoyer le cadeau Rose/ }).waitFor();
        await expect.poll(() => page.url()).not.toContain('%40');
        await noEmail(page, `catalogue ?${param}= at ${name}`);
        await page.reload();
        await page.getByRole('button', { name: /Envoyer le cadeau Rose/ }).click();
        await expect.poll(() => page.getByText('🎉 Cadeau envoyé !').isVisible()).toBe(true);
        expect(sends.at(-1)).toEqual({ sender_email: e.member.email, receiver_email: f.member.email, gift_id: 1 });
        balance -= 1;
        sent.unshift('Rose');
        await expect.poll(received, { timeout: 15_000 }).toEqual(sent);
      }
      await noEmail(page, `after sending at ${name}`);
    }
  }, 180_000);
});
