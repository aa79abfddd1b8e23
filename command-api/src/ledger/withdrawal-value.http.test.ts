import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { registerAndLogin, startTestServer, type TestServer } from '../testing/test-server';

/**
 * Issue 30, Major 5: a withdrawal states what it pays and where the money goes, before (the wallet
 * answer's terms) and after (its history line).
 */
describe('what a withdrawal pays, and where the money goes', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  }, 60_000);
  afterAll(async () => server?.stop());

  it('answers the terms with the wallet, and records the value and the payout of each withdrawal', async () => {
    const [fan, creator] = [await registerAndLogin(server.url), await registerAndLogin(server.url)];
    const wallet = await creator.client.get(`/api/coins/balance/${creator.member.email}`);
    expect(wallet.json).toMatchObject({ withdrawal_cents_per_100_coins: 50, withdrawal_payout: 'sandbox' });

    // 10 coins earned from a gift paid with bought coins: withdrawable
    expect((await fan.client.post('/api/coins/purchase', { email: fan.member.email, packId: 1 })).status).toBe(200);
    const gift = { sender_email: fan.member.email, receiver_email: creator.member.email, gift_id: 3 };
    expect((await fan.client.post('/api/gifts/send', gift)).status).toBe(200);
    const unclaimed = async () =>
      (await creator.client.get(`/api/coins/balance/${creator.member.email}`)).json.gifts_unclaimed;
    await expect.poll(unclaimed).toBe(10);
    expect((await creator.client.post('/api/coins/convert-gifts', { user_email: creator.member.email })).status).toBe(
      200,
    );
    const w = await creator.client.post('/api/coins/withdraw', { user_email: creator.member.email, amount: 9 });
    expect(w.status).toBe(200);
    const history = (await creator.client.get(`/api/coins/transactions/${creator.member.email}`))
      .json as unknown as Array<Record<string, unknown>>;
    expect(history[0]).toMatchObject({ type: 'retrait', amount: -9, value_cents: 4, payout: 'sandbox' });
    // the other movements carry neither
    expect(history.slice(1).every((t) => t.value_cents === null && t.payout === null)).toBe(true);
  });
});
