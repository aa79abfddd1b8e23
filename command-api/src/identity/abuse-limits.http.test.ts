import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { MESSAGES } from '@evo/domain';
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
