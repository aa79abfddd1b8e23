import { describe, it, expect, beforeAll } from 'vitest';
import { browserSkipReason, loggedInPage, screenshot } from './harness';
import { ADMIN, SIZES, type Member, registerAtOnce, serverAndBrowser, sidewaysOverflow } from './helpers';

const skip = browserSkipReason();

/** issue 30, the "Minor" list, second part: the admin audit and reports, the feed's taps and keys */
describe.skipIf(!!skip)('minor fixes, second round: admin and feed (issue 30)', () => {
  const live = serverAndBrowser();
  let buyer: Member;

  beforeAll(async () => {
    [buyer] = await registerAtOnce(live.server.url, 1);
    expect((await buyer.client.post('/api/coins/purchase', { email: buyer.member.email, packId: 1 })).status).toBe(200);
  }, 180_000);

  for (const size of SIZES) {
    it(`coin audit: events are named in French and referred to by their number in the log (${size.name})`, async () => {
      const { context, page, errors } = await loggedInPage(live.browser, live.server.url, ADMIN, size.viewport);
      await page.goto(`${live.server.url}/admin/transactions/${encodeURIComponent(buyer.member.email)}`);
      const row = page.locator('.admin-table--ledger tbody tr').first();
      await row.waitFor();
      const text = (await row.textContent()) ?? '';
      expect(text).toContain('Achat de coins');
      expect(text).toMatch(/Événement n° \d+ du journal/);
      expect(text).not.toContain('CoinsPurchased');
      expect(text).not.toMatch(/position \d/);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await row.scrollIntoViewIfNeeded();
      await screenshot(page, `e2e-r2-ledger-audit-labels-${size.name}`, { fullPage: false });
      expect(errors.filter((e) => !e.includes('Failed to load resource'))).toEqual([]);
      await context.close();
    }, 90_000);
  }
});
