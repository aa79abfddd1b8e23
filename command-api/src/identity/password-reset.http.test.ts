/**
 * "Mot de passe oublié ?" (issue 30, Major 6): a link by email (SMTP_URL, here a real SMTP
 * exchange with a sink), the same answer for an unknown email, a request limit, links that expire,
 * serve once and must match, an administrator's link, and the member logged in and out elsewhere.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { MESSAGES, RESET_MESSAGES } from '@evo/domain';
import { Client, registerAndLogin, startTestServer, type Member, type TestServer } from '../testing/test-server';
import { SmtpSink } from '../testing/smtp-sink';
import { eventually, loginAdmin } from '../admin/test-helpers';
import { RESET_PER_EMAIL } from './password-reset';
import { spawnProduct, freePort, waitReady } from '../testing/product-process';

const sink = new SmtpSink();
let server: TestServer;

beforeAll(async () => {
  const smtpUrl = await sink.start();
  server = await startTestServer({ SMTP_URL: smtpUrl, PUBLIC_URL: 'http://evo.test:8080/' });
});
afterAll(async () => {
  await server?.stop();
  await sink.stop();
});

/** the token of a link (what follows '#') */
const tokenOf = (link: string) => link.slice(link.indexOf('#') + 1);

/** asks for a link for `email` and waits for the mail sent to it; answers the link */
async function mailedLink(email: string, client = new Client(server.url)): Promise<string> {
  const before = sink.received.length;
  const r = await client.post('/api/auth/password-reset', { email });
  expect(r.status).toBe(202);
  await eventually(() => sink.received.slice(before).some((m) => m.to.includes(email)), 10_000, 'the mail');
  const mail = sink.received.slice(before).find((m) => m.to.includes(email))!;
  const link = /https?:\/\/\S+/.exec(mail.text)?.[0];
  expect(link).toBeDefined();
  return link!;
}

describe('asking for a link', () => {
  let member: Member;
  beforeAll(async () => {
    member = await registerAndLogin(server.url);
  });

  it('sends a link by email to a member, valid one hour, pointing at PUBLIC_URL', async () => {
    const before = sink.received.length;
    const link = await mailedLink(member.member.email);
    const mail = sink.received.slice(before).find((m) => m.to.includes(member.member.email))!;
    expect(mail.subject).toBe(RESET_MESSAGES.mailSubject);
    expect(mail.text).toContain(`Bonjour ${member.member.pseudo},`);
    expect(mail.text).toContain('Il est valable 1 heure');
    expect(link).toMatch(/^http:\/\/evo\.test:8080\/nouveau-mot-de-passe#[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/);
  });

  it('answers an unknown email exactly as a known one, and sends nothing', async () => {
    const known = await new Client(server.url).post('/api/auth/password-reset', { email: member.member.email });
    const before = sink.received.length;
    const unknown = await new Client(server.url).post('/api/auth/password-reset', { email: 'personne@test.fr' });
    expect(unknown.status).toBe(known.status);
    expect(unknown.json).toEqual(known.json);
    expect(unknown.json).toEqual({ message: RESET_MESSAGES.requested(60) });
    // the known one's mail arrives; nothing for the unknown one
    await eventually(() => sink.received.length > before, 10_000, 'the known member’s mail');
    await new Promise((r) => setTimeout(r, 300));
    expect(sink.received.flatMap((m) => m.to)).not.toContain('personne@test.fr');
  });

  it('refuses a malformed email in French, and nothing is sent', async () => {
    const r = await new Client(server.url).post('/api/auth/password-reset', { email: 'pas-un-email' });
    expect(r.status).toBe(400);
    expect(r.json.error).toBe(MESSAGES.emailInvalid);
    expect((await new Client(server.url).post('/api/auth/password-reset', {})).json.error).toBe(MESSAGES.emailRequired);
  });

  it('limits the requests per email, known or not, with the same French 429', async () => {
    const { limit } = RESET_PER_EMAIL;
    for (const email of [`limite-${Date.now()}@test.fr`, (await registerAndLogin(server.url)).member.email]) {
      for (let i = 0; i < limit; i++) {
        expect((await new Client(server.url).post('/api/auth/password-reset', { email })).status).toBe(202);
      }
      const refused = await new Client(server.url).post('/api/auth/password-reset', { email: email.toUpperCase() });
      expect(refused.status).toBe(429);
      expect(refused.json.error).toBe(RESET_MESSAGES.tooMany);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });
});

describe('using a link', () => {
  it('sets the new password, logs the member in here and out everywhere else', async () => {
    const member = await registerAndLogin(server.url);
    const elsewhere = new Client(server.url);
    expect((await elsewhere.post('/api/auth/login', member.member)).status).toBe(200);
    const link = await mailedLink(member.member.email);

    const browser = new Client(server.url);
    const done = await browser.post('/api/auth/password-reset/confirm', {
      token: tokenOf(link),
      password: 'nouveau-secret',
    });
    expect(done.status).toBe(200);
    expect(done.json).toMatchObject({
      message: RESET_MESSAGES.done,
      email: member.member.email,
      pseudo: member.member.pseudo,
      is_admin: false,
    });
    expect((await browser.get('/api/auth/me')).json.email).toBe(member.member.email);
    // the member's other sessions ended
    expect((await member.client.get('/api/auth/me')).status).toBe(401);
    expect((await elsewhere.get('/api/auth/me')).status).toBe(401);
    // the old password no longer opens the account; the new one does
    const oldLogin = await new Client(server.url).post('/api/auth/login', member.member);
    expect(oldLogin.status).toBe(401);
    expect(oldLogin.json.error).toBe(MESSAGES.badCredentials);
    const newLogin = await new Client(server.url).post('/api/auth/login', {
      email: member.member.email,
      password: 'nouveau-secret',
    });
    expect(newLogin.status).toBe(200);
    // and the browser that reset it is still logged in
    expect((await browser.get('/api/auth/me')).status).toBe(200);
  });

  it("says the password changed when this browser's session cannot open, and every other session has ended", async () => {
    const member = await registerAndLogin(server.url);
    const link = await mailedLink(member.member.email);
    const sessions = server.deps.sessions;
    // the session store fails after the new password is in the log (a full disk, Redis away)
    sessions.open = async () => {
      throw new Error('stockage des sessions indisponible');
    };
    const browser = new Client(server.url);
    let answer;
    try {
      answer = await browser.post('/api/auth/password-reset/confirm', {
        token: tokenOf(link),
        password: 'nouveau-secret',
      });
    } finally {
      delete (sessions as Partial<typeof sessions>).open;
    }
    expect(answer.status).toBe(503);
    // the page tells the password changed and offers the login, the email filled in
    expect(answer.json).toEqual({
      error: RESET_MESSAGES.doneNotLoggedIn,
      password_changed: true,
      email: member.member.email,
    });
    expect(answer.headers.get('set-cookie')).toBeNull();
    expect((await member.client.get('/api/auth/me')).status).toBe(401);
    expect((await browser.get('/api/auth/me')).status).toBe(401);
    // the new password opens the account, and the link has served
    const login = await browser.post('/api/auth/login', { email: member.member.email, password: 'nouveau-secret' });
    expect(login.status).toBe(200);
    const again = await new Client(server.url).post('/api/auth/password-reset/confirm', {
      token: tokenOf(link),
      password: 'encore-un-autre',
    });
    expect(again.json.error).toBe(RESET_MESSAGES.used);
  });

  it('serves once', async () => {
    const member = await registerAndLogin(server.url);
    const token = tokenOf(await mailedLink(member.member.email));
    const first = await new Client(server.url).post('/api/auth/password-reset/confirm', {
      token,
      password: 'premier-mdp',
    });
    expect(first.status).toBe(200);
    const again = await new Client(server.url).post('/api/auth/password-reset/confirm', {
      token,
      password: 'second-mdp',
    });
    expect(again.status).toBe(410);
    expect(again.json.error).toBe(RESET_MESSAGES.used);
    expect(
      (await new Client(server.url).post('/api/auth/login', { email: member.member.email, password: 'premier-mdp' }))
        .status,
    ).toBe(200);
  });

  it('an older link is closed by the new password', async () => {
    const member = await registerAndLogin(server.url);
    const older = tokenOf(await mailedLink(member.member.email));
    const newer = tokenOf(await mailedLink(member.member.email));
    expect(
      (
        await new Client(server.url).post('/api/auth/password-reset/confirm', {
          token: newer,
          password: 'mdp-du-lien-2',
        })
      ).status,
    ).toBe(200);
    const r = await new Client(server.url).post('/api/auth/password-reset/confirm', {
      token: older,
      password: 'x-12345678',
    });
    expect(r.status).toBe(410);
    expect(r.json.error).toBe(RESET_MESSAGES.closed);
  });

  it('refuses a wrong or malformed token in French, and changes nothing', async () => {
    const member = await registerAndLogin(server.url);
    const token = tokenOf(await mailedLink(member.member.email));
    const [userId, secret] = token.split('.');
    const wrongSecret = `${userId}.${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    const otherMember = `00000000-0000-4000-8000-000000000000.${secret}`;
    for (const bad of [wrongSecret, otherMember, 'abc', '', `${token}x`, 42]) {
      const r = await new Client(server.url).post('/api/auth/password-reset/confirm', {
        token: bad,
        password: 'tentative-1',
      });
      expect(r.status, String(bad)).toBe(400);
      expect(r.json.error).toBe(RESET_MESSAGES.invalid);
    }
    // a password too short is refused with the registration's rule, and the link still serves
    const short = await new Client(server.url).post('/api/auth/password-reset/confirm', { token, password: 'court' });
    expect(short.status).toBe(400);
    expect(short.json.error).toBe(MESSAGES.passwordTooShort);
    expect((await member.client.get('/api/auth/me')).status).toBe(200);
    expect(
      (await new Client(server.url).post('/api/auth/password-reset/confirm', { token, password: 'enfin-valide' }))
        .status,
    ).toBe(200);
  });
});

describe("an administrator's link", () => {
  it('is answered to the administrator only, works once, and is in the audit', async () => {
    const admin = await loginAdmin(server);
    const member = await registerAndLogin(server.url);
    const refused = await member.client.post('/api/admin/users/password-reset', { email: member.member.email });
    expect(refused.status).toBe(403);
    const visitor = await new Client(server.url).post('/api/admin/users/password-reset', {
      email: member.member.email,
    });
    expect(visitor.status).toBe(401);
    const unknown = await admin.post('/api/admin/users/password-reset', { email: 'inconnu@test.fr' });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toBe(MESSAGES.unknownUser);

    const mailsBefore = sink.received.length;
    const issued = await admin.post('/api/admin/users/password-reset', { email: member.member.email });
    expect(issued.status).toBe(200);
    expect(issued.json.message).toBe(RESET_MESSAGES.issuedByAdmin(member.member.email, 60));
    const link = issued.json.link as string;
    expect(link).toMatch(/^http:\/\/evo\.test:8080\/nouveau-mot-de-passe#/);
    expect(Date.parse(issued.json.expires_at as string) - Date.now()).toBeGreaterThan(59 * 60_000);
    // handed over by the administrator: no email
    expect(sink.received.length).toBe(mailsBefore);

    const used = await new Client(server.url).post('/api/auth/password-reset/confirm', {
      token: tokenOf(link),
      password: 'donne-par-admin',
    });
    expect(used.status).toBe(200);
    expect(used.json.email).toBe(member.member.email);
    const reused = await new Client(server.url).post('/api/auth/password-reset/confirm', {
      token: tokenOf(link),
      password: 'donne-par-admin',
    });
    expect(reused.status).toBe(410);

    await eventually(
      async () => {
        const audit = (await admin.get('/api/admin/audit')).json as unknown as {
          items: Array<{ action: string; target: string }>;
        };
        return audit.items.some(
          (e) => e.action === 'Lien de réinitialisation du mot de passe créé' && e.target === member.member.email,
        );
      },
      5000,
      'the audit line',
    );
  });
});

describe('expiry and the limit per address', () => {
  let shortLived: TestServer;
  beforeAll(async () => {
    shortLived = await startTestServer({ PASSWORD_RESET_TTL_MINUTES: '0.01', PASSWORD_RESET_LIMIT_PER_HOUR: '2' });
  });

  it('limits the requests of one address over every email', async () => {
    for (const email of ['a1@test.fr', 'a2@test.fr']) {
      expect((await new Client(shortLived.url).post('/api/auth/password-reset', { email })).status).toBe(202);
    }
    const r = await new Client(shortLived.url).post('/api/auth/password-reset', { email: 'a3@test.fr' });
    expect(r.status).toBe(429);
    expect(r.json.error).toBe(RESET_MESSAGES.tooMany);
  });
  afterAll(() => shortLived?.stop());

  it('refuses a link past its time with a French 410, and the password stays', async () => {
    const admin = await loginAdmin(shortLived);
    const member = await registerAndLogin(shortLived.url);
    const issued = await admin.post('/api/admin/users/password-reset', { email: member.member.email });
    expect(issued.status).toBe(200);
    await new Promise((r) =>
      setTimeout(r, Math.max(0, Date.parse(issued.json.expires_at as string) - Date.now()) + 200),
    );
    const r = await new Client(shortLived.url).post('/api/auth/password-reset/confirm', {
      token: tokenOf(issued.json.link as string),
      password: 'trop-tard-1',
    });
    expect(r.status).toBe(410);
    expect(r.json.error).toBe(RESET_MESSAGES.expired);
    expect((await new Client(shortLived.url).post('/api/auth/login', member.member)).status).toBe(200);
    expect((await member.client.get('/api/auth/me')).status).toBe(200);
  });
});

describe('without SMTP_URL (the product as `npm start` runs it)', () => {
  it('writes the link to the server log, and it works', async () => {
    const port = await freePort();
    const dir = await mkdtemp(path.join(os.tmpdir(), 'evo-reset-log-'));
    const product = spawnProduct({ DATA_DIR: dir, PORT: String(port), LOG_LEVEL: 'info' });
    try {
      const base = `http://127.0.0.1:${port}`;
      await waitReady(base, product);
      const member = await registerAndLogin(base);
      const r = await new Client(base).post('/api/auth/password-reset', { email: member.member.email });
      expect(r.status).toBe(202);
      const linkPattern = new RegExp(`${base}/nouveau-mot-de-passe#[0-9a-f-]{36}\\.[A-Za-z0-9_-]{43}`);
      await eventually(() => linkPattern.test(product.output()), 10_000, 'the link in the log');
      const link = linkPattern.exec(product.output())![0];
      expect(product.output()).toContain(`à transmettre à ${member.member.email}`);
      const done = await new Client(base).post('/api/auth/password-reset/confirm', {
        token: tokenOf(link),
        password: 'lien-du-journal',
      });
      expect(done.status).toBe(200);
    } finally {
      await product.stop();
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
