import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { MESSAGES } from '@evo/domain';
import { DEMO_ADMIN_EMAIL, DEMO_ADMIN_PASSWORD } from '@evo/infra';
import { Client, newMember, registrationForm, startTestServer, type TestServer } from '../testing/test-server';
import { AUTH_ROUTE_MESSAGES } from './routes';

/**
 * Login and registration abuse (issue 11 items 4, 5, 6). TRUST_PROXY=1 lets each test client
 * say its address in X-Forwarded-For, as clients behind one proxy would be told apart.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: '1', REGISTER_LIMIT_PER_HOUR: '3' });
});
afterAll(() => server.stop());

let lastAddress = 0;
/** A client address of its own (TEST-NET ranges). */
const newAddress = () => {
  lastAddress++;
  return `198.51.${Math.floor(lastAddress / 250)}.${(lastAddress % 250) + 1}`;
};
const from = (address: string) => ({ 'x-forwarded-for': address });
const login = (address: string, email: string, password: string) =>
  new Client(server.url).post('/api/auth/login', { email, password }, from(address));

async function registered(address = newAddress()) {
  const m = newMember();
  const r = await new Client(server.url).post('/api/auth/register', await registrationForm(m), from(address));
  expect(r.status, r.text).toBe(201);
  return m;
}

describe('login limits', () => {
  it('checks at most 5 of 25 wrong passwords sent at once for one account from one address', async () => {
    const m = await registered();
    const attacker = newAddress();
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) => login(attacker, m.email, `mauvais-${i}-mdp`)),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    expect(answers.find((a) => a.status === 429)?.json.error).toBe(AUTH_ROUTE_MESSAGES.tooManyAttempts);
    // the right password from the locked address and account waits too
    expect((await login(attacker, m.email, m.password)).status).toBe(429);
  });

  it('does not lock the victim out: 5 wrong passwords from elsewhere leave their own logins working', async () => {
    const victim = await registered();
    const attacker = newAddress();
    for (let i = 0; i < 6; i++) await login(attacker, victim.email, `devine-${i}-mdp`);
    expect((await login(attacker, victim.email, `devine-encore`)).status).toBe(429);
    const own = await login(newAddress(), victim.email, victim.password);
    expect(own.status, own.text).toBe(200);
  });

  it('gives a success its place back: after 4 wrong passwords and a right one, the pair has 5 again', async () => {
    // (the per-address count is the same mechanism, unit-tested over 500 logins in login-throttle.test.ts)
    const m = await registered();
    const address = newAddress();
    for (let i = 0; i < 4; i++) expect((await login(address, m.email, `faux-${i}-mdp`)).status).toBe(401);
    expect((await login(address, m.email, m.password)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await login(address, m.email, `encore-${i}-faux`)).status).toBe(401);
    expect((await login(address, m.email, m.password)).status).toBe(429);
  }, 150_000);
});

describe('one address cannot lock the others out (issue 29 item 7)', () => {
  it('still checks the right password of a member the address never failed on, after 60 failures on unknown emails', async () => {
    const m = await registered();
    const office = newAddress();
    // past the per-address count of 50, ten at a time
    for (let i = 0; i < 60; i += 10) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, k) => login(office, `personne-${i + k}@inconnu.fr`, 'mauvais-mdp')),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(401));
    }
    const own = await login(office, m.email, m.password);
    expect(own.status, own.text).toBe(200);
    // the address may not go on guessing an email it has failed on
    const again = await login(office, 'personne-3@inconnu.fr', 'encore-faux');
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
  }, 300_000);

  it('lets an administrator see a member’s failed logins and clear them from the back-office', async () => {
    const m = await registered();
    const home = newAddress();
    for (let i = 0; i < 5; i++) expect((await login(home, m.email, `oubli-${i}-mdp`)).status).toBe(401);
    expect((await login(home, m.email, m.password)).status).toBe(429);
    const admin = new Client(server.url);
    expect(
      (await admin.post('/api/auth/login', { email: DEMO_ADMIN_EMAIL, password: DEMO_ADMIN_PASSWORD })).status,
    ).toBe(200);
    const listed = (await admin.get(`/api/admin/users?q=${encodeURIComponent(m.email)}`)).json as {
      items: Array<{ email: string; login_failures: number }>;
    };
    expect(listed.items.find((u) => u.email === m.email)?.login_failures).toBe(5);
    // only administrators
    const member = new Client(server.url);
    await member.post('/api/auth/login', { email: m.email, password: m.password }, from(newAddress()));
    expect((await member.post('/api/admin/users/unlock-login', { email: m.email })).status).toBe(403);
    const unlocked = await admin.post('/api/admin/users/unlock-login', { email: m.email });
    expect(unlocked.status).toBe(200);
    expect(unlocked.json.message).toBe(`✅ Connexion débloquée pour ${m.email} (5 échecs effacés).`);
    expect((await login(home, m.email, m.password)).status).toBe(200);
    const audit = (await admin.get('/api/admin/audit?limit=20')).json as {
      items: Array<{ action: string; target: string; details: string }>;
    };
    expect(audit.items.find((i) => i.action === 'Connexion débloquée')).toMatchObject({
      target: m.email,
      details: '5 échec(s) effacé(s)',
    });
    // an unknown member: 404 in French
    const unknown = await admin.post('/api/admin/users/unlock-login', { email: 'personne@inconnu.fr' });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toBe(MESSAGES.unknownUser);
  }, 120_000);
});

describe('registration limit', () => {
  it('refuses a 4th registration attempt from one address within the hour, before reading its files', async () => {
    const address = newAddress();
    const first = await registered(address);
    // a reused email is refused (an attempt too), with the domain's French message
    const reused = await new Client(server.url).post(
      '/api/auth/register',
      await registrationForm(newMember({ email: first.email })),
      from(address),
    );
    expect(reused.status).toBe(409);
    expect(reused.json.error).toBe(MESSAGES.emailTaken);
    await registered(address);
    const before = await server.deps.events.lastPosition();
    const fourth = await new Client(server.url).post(
      '/api/auth/register',
      await registrationForm(newMember()),
      from(address),
    );
    expect(fourth.status).toBe(429);
    expect(fourth.json.error).toBe(AUTH_ROUTE_MESSAGES.tooManyRegistrations);
    expect(await server.deps.events.lastPosition()).toBe(before);
    // another address still registers
    await registered(newAddress());
  });
});
