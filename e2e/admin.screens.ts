/**
 * Admin screens in a real (headless) Chromium: dashboard and its gate, reports, transactions and
 * a member's coin audit trail, gift catalogue (local mode and API mode), stats pages with as-of
 * dates, users and admin rights, the administrators' audit log, and tools with the live
 * projections rebuild.
 *
 *   npx vite build --config web/vite.config.ts
 *   npx tsx e2e/admin.screens.ts                 # starts `vite preview` on :4176 itself
 *   npx tsx e2e/admin.screens.ts gifts stats     # only some scenarios
 *   ADMIN_E2E_BASE=http://localhost:4176 npx tsx e2e/admin.screens.ts   # or use a running one
 *   ADMIN_E2E_DIST=/tmp/dist npx tsx e2e/admin.screens.ts              # serve another build
 *
 * /api/** is answered by an in-memory backend through page.route (shapes of the admin API
 * contract), /socket.io/** by a small fake Engine.IO (polling) server so 'rebuild:progress' can
 * be pushed. Screenshots go to artifacts/screens/admin-*.png.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page, type Route } from 'playwright-core';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const outDir = join(root, 'artifacts', 'screens');
const distDir = process.env.ADMIN_E2E_DIST ? resolve(process.env.ADMIN_E2E_DIST) : join(root, 'web', 'dist');

// ---------------------------------------------------------------------------
// Data
// ---------------------------------------------------------------------------

interface SessionUser {
  email: string;
  pseudo: string;
  role: string;
  is_admin: boolean;
  profile_picture: string | null;
}

const ADMIN: SessionUser = {
  email: 'admin@evo.test',
  pseudo: 'admin',
  role: 'admin',
  is_admin: true,
  profile_picture: null,
};
const MEMBER: SessionUser = {
  email: 'alice@example.com',
  pseudo: 'alice',
  role: 'user',
  is_admin: false,
  profile_picture: null,
};

const ADMIN_ONLY = 'Accès réservé aux administrateurs.';
const SANCTIONS = [
  'Votre vidéo a été restreinte pour non-conformité',
  'Votre vidéo a été effacée : non-respect des consignes communautaires',
  'Veuillez modifier votre vidéo pour éviter une restriction',
];

const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

interface ReportRow {
  id: number;
  video_id: number;
  video_title: string;
  video_status: string;
  status: string;
  created_at: string;
  signalant: string | null;
  auteur: string | null;
  reason: string | null;
  admin_response: string | null;
}

function makeReports(): ReportRow[] {
  return [
    {
      id: 41,
      video_id: 12,
      video_title: 'Descente du col du Galibier',
      video_status: 'publique',
      status: 'en_attente',
      created_at: ago(35),
      signalant: 'carol',
      auteur: 'bob',
      reason: 'Descente à 80 km/h sans casque : contenu dangereux.',
      admin_response: null,
    },
    {
      id: 40,
      video_id: 15,
      video_title: 'Beat improvisé dans le métro',
      video_status: 'masquée',
      status: 'en_cours',
      created_at: ago(320),
      signalant: 'emma',
      auteur: 'farid',
      reason: null,
      admin_response: SANCTIONS[2],
    },
    {
      id: 37,
      video_id: 18,
      video_title: '',
      video_status: 'supprimée',
      status: 'ferme',
      created_at: ago(3200),
      signalant: null,
      auteur: null,
      reason: 'Spam : lien vers un site de paris.',
      admin_response: SANCTIONS[1],
    },
    {
      id: 35,
      video_id: 21,
      video_title: 'Tarte tatin express',
      video_status: 'publique',
      status: 'archive',
      created_at: ago(9000),
      signalant: 'dave',
      auteur: 'carol',
      reason: 'Je n’aime pas les pommes.',
      admin_response: null,
    },
  ];
}

interface GiftRow {
  id: number;
  name: string;
  emoji: string;
  price: number;
  image_url: string;
  coin_cost: number;
}

function makeGifts(): GiftRow[] {
  const g = (id: number, name: string, emoji: string, price: number, image_url = ''): GiftRow => ({
    id,
    name,
    emoji,
    price,
    image_url,
    coin_cost: price,
  });
  return [
    g(1, 'Rose', '🌹', 1),
    g(2, 'Cœur', '❤️', 5),
    g(3, 'Croissant', '🥐', 10),
    g(4, 'Ballon', '🎈', 25),
    g(5, 'Trophée', '🏆', 50),
    g(6, 'Couronne', '👑', 100),
    g(7, 'Fusée', '🚀', 250, '/uploads/gifts/fusee.svg'),
    g(8, 'Licorne', '🦄', 500),
  ];
}

interface TxRow {
  id: number;
  user_email: string;
  amount: number;
  method: string;
  created_at: string;
  type: string;
}

function makeTransactions(): TxRow[] {
  const t = (id: number, who: string, amount: number, type: string, minutes: number): TxRow => ({
    id,
    user_email: `${who}@example.com`,
    amount,
    method: type === 'achat' ? 'sandbox' : type,
    created_at: ago(minutes),
    type,
  });
  return [
    t(1012, 'bob', 550, 'achat', 12),
    t(1011, 'carol', -120, 'retrait', 90),
    t(1010, 'alice', 10, 'ajout', 240),
    t(1009, 'bob', -300, 'retrait', 600),
    t(1008, 'emma', 1100, 'achat', 1400),
    t(1007, 'farid', 220, 'achat', 2900),
    t(1006, 'bob', 110, 'achat', 5000),
    t(1005, 'alice', 25, 'ajout', 8000),
  ];
}

function ledgerFor(email: string) {
  const id = email.split('@')[0];
  const bal = `user:${id}:balance`;
  const gifts = `user:${id}:gifts`;
  const rows: Array<[string, string, string, string, number, string, number]> = [
    // event_type, type, debit, credit, amount, account, minutes
    ['CoinsPurchased', 'achat', 'external:payments', bal, 200, bal, 9000],
    ['CoinsPurchased', 'achat', 'external:payments', bal, 110, bal, 5000],
    ['GiftSent', 'cadeau_envoye', bal, 'transit:gifts', 25, bal, 4000],
    ['GiftReceived', 'cadeau_recu', 'transit:gifts', gifts, 45, gifts, 3000],
    ['GiftsConverted', 'conversion', gifts, bal, 45, bal, 2000],
    ['CoinsWithdrawn', 'retrait', bal, 'external:withdrawals', 300, bal, 600],
    ['CoinsPurchased', 'achat', 'external:payments', bal, 550, bal, 12],
  ];
  const running = new Map<string, number>([
    [bal, 0],
    [gifts, 0],
  ]);
  const entries = rows.map(([event_type, type, debit, credit, amount, account, minutes], index) => {
    const delta = credit === account ? amount : -amount;
    const after = (running.get(account) ?? 0) + delta;
    running.set(account, after);
    // a conversion also empties the gifts account
    if (event_type === 'GiftsConverted') running.set(gifts, (running.get(gifts) ?? 0) - amount);
    return {
      event_id: `0b6f${index}c1e-5a7d-4c1b-9e0f-${String(index).padStart(12, '0')}`,
      position: String(1200 + index * 37),
      at: ago(minutes),
      event_type,
      type,
      tx_id: 1000 + index,
      // as the server sends it: the id of the member (or administrator) who caused it
      actor: index === 4 ? 'u1' : id,
      correlation_id: `corr-${index}`,
      causation_id: null,
      debit,
      credit,
      amount,
      account,
      delta,
      balance_after: after,
    };
  });
  return {
    user: { id, email, pseudo: id },
    as_of: null as string | null,
    balances: Object.fromEntries(running),
    coins_balance: running.get(bal) ?? 0,
    gifts_unclaimed: running.get(gifts) ?? 0,
    consistent: true,
    entries,
  };
}

interface UserRow {
  id: string;
  pseudo: string;
  email: string;
  role: string;
  is_admin: boolean;
  created_at: string;
  last_login_at: string | null;
  videos: number;
  followers: number;
  balance: number;
}

function makeUsers(): UserRow[] {
  const named = ['admin', 'alice', 'bob', 'carol', 'dave', 'emma', 'farid', 'gabriel'];
  const extra = Array.from({ length: 37 }, (_, i) => `membre${String(i + 1).padStart(2, '0')}`);
  return [...named, ...extra].map((pseudo, i) => ({
    id: `u${i + 1}`,
    pseudo,
    email: pseudo === 'admin' ? 'admin@evo.test' : `${pseudo}@example.com`,
    role: pseudo === 'admin' ? 'admin' : 'user',
    is_admin: pseudo === 'admin',
    created_at: ago(60 * 24 * (200 - i * 4)),
    last_login_at: i % 5 === 4 ? null : ago(60 * (i + 1)),
    videos: (i * 7) % 13,
    followers: (i * 31) % 97,
    balance: (i * 137) % 1500,
  }));
}

interface AuditRow {
  id: string;
  at: string;
  admin_email: string;
  admin_pseudo: string;
  action: string;
  target: string;
  details: string;
}

function makeAudit(): AuditRow[] {
  // as the server's audit projector writes them: French action, target and details
  const actions: Array<[string, string, string]> = [
    ['Signalement mis à jour', 'signalement #41 (vidéo #12)', `Statut : Traitée — Réponse : ${SANCTIONS[0]}`],
    ['Visibilité modifiée', 'vidéo #12', 'Visibilité : masquée'],
    ['Cadeau modifié', 'cadeau #7', 'Fusée 🚀 · 250 coins'],
    ['Rôle administrateur accordé', 'emma@example.com', ''],
    ['Reconstruction des projections lancée', 'projections', ''],
    ['Cadeau ajouté', 'cadeau #9', 'Étoile ⭐ · 3 coins'],
  ];
  return Array.from({ length: 32 }, (_, i) => {
    const [action, target, details] = actions[i % actions.length];
    return {
      id: `a${32 - i}`,
      at: ago(17 * i + 3),
      admin_email: i % 3 === 0 ? 'root@evo.test' : 'admin@evo.test',
      admin_pseudo: i % 3 === 0 ? 'root' : 'admin',
      action,
      target,
      details,
    };
  });
}

const STATS: Record<string, Record<string, unknown>> = {
  '/api/admin/stats': { users: 1284, videos: 5230, gifts: 18977, coins: 412300, messages: 30412 },
  '/api/admin/stats/users': { total_users: 1284, validated_users: 1190, new_users_30d: 87, recent_logins_7d: 642 },
  '/api/admin/stats/videos': {
    total_videos: 5230,
    public_videos: 4985,
    hidden_videos: 151,
    deleted_videos: 92,
    rejected_videos: 2,
  },
  '/api/admin/stats/messages': { total_messages: 30412, private_messages: 128455 },
  '/api/admin/stats/gifts': { gifts_sent: 18977, gifts_catalog: 8 },
  '/api/admin/stats/coins': {
    coins_bought: 985000,
    coins_added: 4200,
    coins_in_balances: 412300,
    coins_in_unclaimed_gifts: 23150,
    coins_in_transit: 0,
    coins_withdrawn: 402000,
    fees: 147550,
    purchases: 2318,
  },
  '/api/admin/stats/advanced': {
    top_creator: { user_email: 'farid@example.com', video_count: 64 },
    top_video: { title: 'Beat improvisé dans le métro', views: 54210 },
    total_reports: 212,
    public_videos: 4987,
    deleted_videos: 92,
    avg_videos_per_day: 14.3333,
  },
};

// ---------------------------------------------------------------------------
// In-memory backend answering /api/** (page.route)
// ---------------------------------------------------------------------------

type Json = Record<string, unknown> | unknown[];

class Backend {
  me: SessionUser | null = ADMIN;
  reports = makeReports();
  gifts = makeGifts();
  transactions = makeTransactions();
  users = makeUsers();
  audit = makeAudit();
  // as the server's rebuildView answers: always { status, done, rate, etaSeconds, fraction }
  rebuild: Record<string, unknown> = { status: 'idle', done: 0, rate: 0, etaSeconds: 0, fraction: 0 };
  reconcile: Record<string, unknown> = {
    ok: true,
    events: 18342,
    movements: 5120,
    last_position: '18342',
    accounts: 812,
    first_violation: null,
    violations: 0,
  };
  calls: Array<{ method: string; path: string; search: string; body: unknown; contentType: string }> = [];
  /** "METHOD /path" → forced answer, checked first. */
  overrides = new Map<string, { status: number; body: Json; delayMs?: number }>();
  nextGiftId = 100;

  count(method: string, path: string | RegExp) {
    return this.calls.filter(
      (c) => c.method === method && (typeof path === 'string' ? c.path === path : path.test(c.path)),
    ).length;
  }

  last(method: string, path: string | RegExp) {
    return [...this.calls]
      .reverse()
      .find((c) => c.method === method && (typeof path === 'string' ? c.path === path : path.test(c.path)));
  }

  async handle(route: Route) {
    const request = route.request();
    const url = new URL(request.url());
    const path = decodeURIComponent(url.pathname);
    const method = request.method();
    const contentType = request.headers()['content-type'] ?? '';
    let body: unknown;
    if (contentType.includes('json')) {
      try {
        body = request.postDataJSON() as unknown;
      } catch {
        body = request.postData();
      }
    } else {
      body = request.postDataBuffer()?.toString('latin1') ?? null;
    }
    this.calls.push({ method, path, search: url.search, body, contentType });
    const json = (status: number, data: unknown) =>
      route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(data) }).catch(() => undefined);

    const forced = this.overrides.get(`${method} ${path}`);
    if (forced) {
      if (forced.delayMs) await new Promise((done) => setTimeout(done, forced.delayMs));
      return json(forced.status, forced.body);
    }

    if (path === '/api/auth/me') {
      return this.me ? json(200, { ...this.me, admin_email: 'admin@evo.test' }) : json(401, { error: 'Non connecté.' });
    }
    if (path === '/api/notifications/unread') return json(200, { unread: 2 });
    if (path === '/api/notifications') return json(200, []);

    // every admin call: 401 anonymous, 403 member
    const adminCall =
      path.startsWith('/api/admin/') || path === '/api/coins/admin/transactions' || /\/visibility$/.test(path);
    if (adminCall && !this.me) return json(401, { error: 'Vous devez être connecté.' });
    if (adminCall && !this.me?.is_admin) return json(403, { error: ADMIN_ONLY });
    let m: RegExpMatchArray | null;

    // --- reports
    if (method === 'GET' && path === '/api/admin/reports') return json(200, this.reports);
    if (method === 'PUT' && (m = path.match(/^\/api\/admin\/reports\/(\d+)$/))) {
      const report = this.reports.find((r) => r.id === Number(m![1]));
      if (!report) return json(404, { error: 'Signalement introuvable.' });
      const b = body as { status: string; admin_response: string };
      report.status = b.status;
      report.admin_response = b.admin_response || null;
      return json(200, { message: 'Réponse envoyée ✅', report });
    }
    if (method === 'PUT' && (m = path.match(/^\/api\/videos\/(\d+)\/visibility$/))) {
      const status = (body as { status: string }).status;
      for (const r of this.reports) if (r.video_id === Number(m[1])) r.video_status = status;
      return json(200, { message: `Vidéo mise à jour : ${status}` });
    }

    // --- gifts
    if (method === 'GET' && path === '/api/admin/gifts') return json(200, this.gifts);
    if (method === 'POST' && path === '/api/admin/gifts/image') {
      return json(201, { image_url: '/uploads/gifts/etoile-7f3a.svg' });
    }
    if (method === 'POST' && path === '/api/admin/gifts') {
      const b = body as { name: string; emoji: string; price: number; image_url: string };
      const gift: GiftRow = { id: this.nextGiftId++, ...b, coin_cost: b.price };
      this.gifts.push(gift);
      return json(201, { gift });
    }
    if ((method === 'PUT' || method === 'DELETE') && (m = path.match(/^\/api\/admin\/gifts\/(\d+)$/))) {
      const index = this.gifts.findIndex((g) => g.id === Number(m![1]));
      if (index < 0) return json(404, { error: 'Cadeau introuvable.' });
      if (method === 'DELETE') {
        this.gifts.splice(index, 1);
        return json(200, { message: 'Cadeau supprimé.' });
      }
      const b = body as { name: string; emoji: string; price: number; image_url: string };
      this.gifts[index] = { ...this.gifts[index], ...b, coin_cost: b.price };
      return json(200, { gift: this.gifts[index] });
    }

    // --- coins
    if (method === 'GET' && path === '/api/coins/admin/transactions') return json(200, this.transactions);
    if (method === 'GET' && path === '/api/admin/ledger/reconcile') return json(200, this.reconcile);
    if (method === 'GET' && (m = path.match(/^\/api\/admin\/ledger\/(.+)$/))) {
      if (!m[1].includes('@')) return json(400, { error: 'Adresse email invalide.' });
      if (m[1].startsWith('inconnu')) return json(404, { error: 'Utilisateur introuvable.' });
      const audit = ledgerFor(m[1]);
      const asOf = url.searchParams.get('asOf');
      if (asOf) {
        audit.entries = audit.entries.filter((e) => e.at <= asOf);
        audit.as_of = asOf;
      }
      return json(200, audit);
    }

    // --- stats
    if (method === 'GET' && STATS[path]) return json(200, STATS[path]);

    // --- users
    if (method === 'GET' && path === '/api/admin/users') {
      const q = (url.searchParams.get('q') ?? '').toLowerCase();
      const page = Number(url.searchParams.get('page') ?? 1);
      const limit = Number(url.searchParams.get('limit') ?? 20);
      const list = this.users.filter((u) => !q || u.pseudo.includes(q) || u.email.includes(q));
      return json(200, { items: list.slice((page - 1) * limit, page * limit), total: list.length, page, limit });
    }
    if (method === 'POST' && (m = path.match(/^\/api\/admin\/users\/(grant|revoke)$/))) {
      const email = (body as { email: string }).email;
      const user = this.users.find((u) => u.email === email);
      if (!user) return json(404, { error: 'Utilisateur introuvable.' });
      if (m[1] === 'revoke' && this.users.filter((u) => u.is_admin).length <= 1) {
        return json(409, { error: 'Impossible de retirer le dernier administrateur.' });
      }
      user.is_admin = m[1] === 'grant';
      user.role = user.is_admin ? 'admin' : 'user';
      return json(200, {
        message: user.is_admin
          ? `✅ ${email} est maintenant administrateur.`
          : `✅ ${email} n'est plus administrateur.`,
        user: { id: user.id, email, pseudo: user.pseudo, role: user.role, is_admin: user.is_admin },
      });
    }

    // --- audit
    if (method === 'GET' && path === '/api/admin/audit') {
      const page = Number(url.searchParams.get('page') ?? 1);
      const limit = Number(url.searchParams.get('limit') ?? 20);
      return json(200, {
        items: this.audit.slice((page - 1) * limit, page * limit),
        total: this.audit.length,
        page,
        limit,
      });
    }

    // --- rebuild
    if (path === '/api/admin/projections/rebuild') {
      if (method === 'GET') return json(200, this.rebuild);
      if (this.rebuild.status === 'running') return json(409, { error: 'Une reconstruction est déjà en cours.' });
      this.rebuild = {
        status: 'running',
        startedAt: new Date().toISOString(),
        done: 0,
        rate: 0,
        etaSeconds: 0,
        fraction: 0,
      };
      return json(202, { message: 'Reconstruction lancée.' });
    }

    return json(404, { error: `Introuvable (mock) : ${method} ${path}` });
  }
}

// ---------------------------------------------------------------------------
// Fake socket.io server (Engine.IO v4, polling only)
// ---------------------------------------------------------------------------

class FakeSocket {
  connections = 0;
  private queue: string[] = [];
  private parked: Route | null = null;
  private sessions = 0;

  async handle(route: Route) {
    const request = route.request();
    const url = new URL(request.url());
    if (url.searchParams.get('transport') !== 'polling') return route.abort();
    const sid = url.searchParams.get('sid');
    if (request.method() === 'GET' && !sid) {
      this.sessions += 1;
      this.queue = [];
      const open = { sid: `s${this.sessions}`, upgrades: [], pingInterval: 25000, pingTimeout: 60000, maxPayload: 1e6 };
      return route.fulfill({ status: 200, contentType: 'text/plain; charset=UTF-8', body: `0${JSON.stringify(open)}` });
    }
    if (request.method() === 'POST') {
      for (const packet of (request.postData() ?? '').split('\x1e')) {
        if (packet.startsWith('40')) {
          this.connections += 1;
          this.push(`40${JSON.stringify({ sid: `n${this.sessions}` })}`);
        }
      }
      return route.fulfill({ status: 200, contentType: 'text/html', body: 'ok' });
    }
    if (this.queue.length > 0) return this.flush(route);
    this.parked = route;
    setTimeout(() => {
      if (this.parked !== route) return;
      this.parked = null;
      route.fulfill({ status: 200, contentType: 'text/plain; charset=UTF-8', body: '6' }).catch(() => undefined);
    }, 20_000);
  }

  emit(event: string, payload: unknown) {
    this.push(`42${JSON.stringify([event, payload])}`);
  }

  private push(packet: string) {
    this.queue.push(packet);
    if (this.parked) {
      const route = this.parked;
      this.parked = null;
      this.flush(route);
    }
  }

  private flush(route: Route) {
    const body = this.queue.splice(0).join('\x1e');
    route.fulfill({ status: 200, contentType: 'text/plain; charset=UTF-8', body }).catch(() => undefined);
  }
}

// ---------------------------------------------------------------------------
// Browser helpers
// ---------------------------------------------------------------------------

/** Console errors that the SPEC asks for ("console only") or that mocked failures cause. */
const EXPECTED_CONSOLE = [
  'Failed to load resource',
  'Chargement des signalements impossible',
  'Mise à jour de la visibilité impossible',
  'Envoi de la réponse impossible',
  'Chargement des transactions impossible',
  "Chargement de l'audit des coins impossible",
  'Réconciliation du grand livre impossible',
  'Statistiques (',
  'Cadeaux : ',
  'État de la reconstruction indisponible',
];

interface Ctx {
  context: BrowserContext;
  page: Page;
  backend: Backend;
  socket: FakeSocket;
  problems: string[];
}

const DESKTOP = { width: 1280, height: 860 };
const MOBILE = { width: 375, height: 760 };

const FUSEE_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#7c3aed"/><stop offset="1" stop-color="#e11d48"/></linearGradient></defs><rect width="64" height="64" rx="14" fill="url(#g)"/><path d="M32 10c9 8 11 20 7 32h-14c-4-12-2-24 7-32z" fill="#fff"/><circle cx="32" cy="26" r="5" fill="#7c3aed"/><path d="M25 42l-6 10 9-4zM39 42l6 10-9-4z" fill="#fde68a"/></svg>';
const STAR_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#fef3c7"/><path d="M32 8l7 15 16 2-12 11 3 16-14-8-14 8 3-16-12-11 16-2z" fill="#f59e0b"/></svg>';

async function open(browser: Browser, options: { viewport?: typeof DESKTOP; backend?: Backend } = {}): Promise<Ctx> {
  const backend = options.backend ?? new Backend();
  const context = await browser.newContext({
    viewport: options.viewport ?? DESKTOP,
    locale: 'fr-FR',
    timezoneId: 'Europe/Paris',
    deviceScaleFactor: 1,
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() !== 'error' && msg.type() !== 'warning') return;
    const text = msg.text();
    if (msg.type() === 'warning' && !/react|key/i.test(text)) return;
    if (EXPECTED_CONSOLE.some((expected) => text.includes(expected))) return;
    problems.push(`console ${msg.type()}: ${text}`);
  });
  const socket = new FakeSocket();
  await page.route('**/socket.io/**', (route) => socket.handle(route));
  await page.route(
    (url) => url.pathname.startsWith('/uploads/'),
    (route) => {
      const path = new URL(route.request().url()).pathname;
      if (path.endsWith('fusee.svg'))
        return route.fulfill({ status: 200, contentType: 'image/svg+xml', body: FUSEE_SVG });
      if (path.includes('etoile')) return route.fulfill({ status: 200, contentType: 'image/svg+xml', body: STAR_SVG });
      return route.fulfill({ status: 404, body: '' });
    },
  );
  await page.route(
    (url) => url.pathname.startsWith('/api/'),
    (route) => backend.handle(route),
  );
  if (backend.me) {
    await page.addInitScript((user) => {
      localStorage.setItem('currentUser', JSON.stringify(user));
      localStorage.setItem('userEmail', user.email);
      localStorage.setItem('userPseudo', user.pseudo);
    }, backend.me);
  }
  return { context, page, backend, socket, problems };
}

async function shot(page: Page, name: string, fullPage = false) {
  await page.evaluate('document.fonts.ready');
  await page.waitForTimeout(150); // let transitions settle
  await page.screenshot({ path: join(outDir, `admin-${name}.png`), fullPage });
  console.log(`  ✓ admin-${name}.png`);
}

async function noHorizontalScroll(page: Page, label: string) {
  const width = Number(await page.evaluate('document.documentElement.scrollWidth'));
  const viewport = page.viewportSize()?.width ?? 0;
  assert.ok(width <= viewport, `${label}: no horizontal scroll (scrollWidth ${width} > ${viewport})`);
}

const toast = (page: Page, text: string) => page.locator('.toast__message', { hasText: text }).first();

async function waitFor(predicate: () => boolean, label: string, timeout = 5000) {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeout) throw new Error(`timeout: ${label}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

async function dismissToasts(page: Page) {
  for (const close of await page.getByRole('button', { name: 'Fermer le message' }).all()) {
    await close.click().catch(() => undefined);
  }
}

async function answerDialog(page: Page, expected: string, button: string) {
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  assert.equal((await dialog.locator('.dialog__message').textContent())?.trim(), expected);
  await dialog.getByRole('button', { name: button, exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
}

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });

async function close(ctx: Ctx, problems: string[]) {
  problems.push(...ctx.problems);
  await ctx.context.close();
}

// ---------------------------------------------------------------------------
// Scenarios
// ---------------------------------------------------------------------------

async function dashboard(browser: Browser, base: string, problems: string[]) {
  console.log('Dashboard and gate');
  const ctx = await open(browser);
  const { page } = ctx;
  await page.goto(`${base}/admin`);
  await heading(page, 'Administration').waitFor();
  const nav = page.getByRole('navigation', { name: "Rubriques de l'administration" });
  const hrefs = await nav.getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  assert.deepEqual(hrefs, [
    '/admin/stats',
    '/admin/reports',
    '/admin/gifts',
    '/admin/transactions',
    '/admin/users',
    '/admin/tools',
    '/admin/audit',
  ]);
  await page.getByText('1 284').first().waitFor();
  assert.ok(await page.locator('.topbar--light').isVisible(), 'light top bar on /admin');
  await shot(page, '01-dashboard');
  await close(ctx, problems);

  // the basic stats call failing is treated as empty stats: the cards stay, nothing else
  const failing = new Backend();
  failing.overrides.set('GET /api/admin/stats', { status: 500, body: { error: 'Erreur serveur.' } });
  const ctx2 = await open(browser, { viewport: MOBILE, backend: failing });
  await ctx2.page.goto(`${base}/admin`);
  await ctx2.page.getByRole('link', { name: /Signalements/ }).waitFor();
  await waitFor(() => failing.count('GET', '/api/admin/stats') >= 1, 'stats called');
  await ctx2.page.waitForTimeout(200);
  assert.equal(await ctx2.page.locator('.admin-stats').count(), 0, 'no figures after a failure');
  await noHorizontalScroll(ctx2.page, '/admin mobile');
  await shot(ctx2.page, '02-dashboard-mobile', true);
  await close(ctx2, problems);

  // a member who is not an administrator
  const member = new Backend();
  member.me = MEMBER;
  const ctx3 = await open(browser, { backend: member });
  for (const path of ['/admin', '/admin/reports', '/admin/gifts', '/admin/stats/coins']) {
    await ctx3.page.goto(`${base}${path}`);
    await ctx3.page.getByText(ADMIN_ONLY, { exact: true }).waitFor();
  }
  assert.equal(member.count('GET', /^\/api\/admin\//), 0, 'no admin call from a member page');
  await shot(ctx3.page, '03-denied-member');
  await close(ctx3, problems);

  // logged out
  const anonymous = new Backend();
  anonymous.me = null;
  const ctx4 = await open(browser, { backend: anonymous, viewport: MOBILE });
  await ctx4.page.goto(`${base}/admin/users`);
  await ctx4.page.getByText(ADMIN_ONLY, { exact: true }).waitFor();
  await ctx4.page.getByRole('link', { name: 'Se connecter' }).first().waitFor();
  await close(ctx4, problems);
}

async function reports(browser: Browser, base: string, problems: string[]) {
  console.log('Reports');
  const ctx = await open(browser);
  const { page, backend } = ctx;
  await page.goto(`${base}/admin/reports`);
  await heading(page, 'Signalements à traiter').waitFor();
  const cards = page.locator('.reports > li');
  await cards.first().waitFor();
  assert.equal(await cards.count(), 4);

  const first = cards.nth(0);
  const link = first.getByRole('link', { name: 'Descente du col du Galibier' });
  assert.equal(await link.getAttribute('href'), '/video/12', 'same-site link to the video');
  const badges = await page.locator('.status-badge').evaluateAll((els) => els.map((e) => [e.textContent, e.className]));
  assert.deepEqual(badges, [
    ['En attente', 'status-badge status-badge--warning'],
    ['En cours', 'status-badge status-badge--primary'],
    ['Traitée', 'status-badge status-badge--success'],
    ['Inconnu', 'status-badge status-badge--unknown'],
  ]);
  assert.equal(await cards.nth(1).getByText('Non spécifié').count(), 1, 'reason fallback');
  assert.equal(await cards.nth(2).getByText('inconnu', { exact: true }).count(), 2, 'reporter and author fallbacks');
  assert.equal(await cards.nth(2).getByRole('link', { name: 'Sans titre' }).count(), 1);
  const sanctionOptions = await first
    .getByLabel("Message à l'auteur")
    .locator('option')
    .evaluateAll((opts) => opts.map((o) => o.textContent));
  assert.deepEqual(sanctionOptions, ['Aucun message', ...SANCTIONS]);
  const date = (await first.locator('dd').first().textContent()) ?? '';
  assert.match(date, /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/, `fr-FR date, got ${date}`);
  assert.equal(
    await cards.nth(1).getByLabel("Message à l'auteur").inputValue(),
    SANCTIONS[2],
    'current answer selected',
  );
  await shot(page, '10-reports', true);

  // visibility
  await first.getByRole('button', { name: 'Masquer' }).click();
  await toast(page, 'Vidéo mise à jour : masquée').waitFor();
  assert.deepEqual(backend.last('PUT', '/api/videos/12/visibility')?.body, { status: 'masquée' });
  await waitFor(() => backend.count('GET', '/api/admin/reports') === 2, 'reload after visibility');
  await first.getByText('masquée', { exact: true }).waitFor();
  await cards.nth(1).getByRole('button', { name: 'Rendre publique' }).click();
  await toast(page, 'Vidéo mise à jour : publique').waitFor();
  await cards.nth(3).getByRole('button', { name: 'Supprimer' }).click();
  await toast(page, 'Vidéo mise à jour : supprimée').waitFor();
  assert.deepEqual(backend.last('PUT', '/api/videos/21/visibility')?.body, { status: 'supprimée' });

  // reply: status + sanction
  await first.getByLabel('Statut').selectOption('ferme');
  await first.getByLabel("Message à l'auteur").selectOption(SANCTIONS[0]);
  await first.getByRole('button', { name: 'Envoyer la réponse' }).click();
  await toast(page, 'Réponse envoyée ✅').waitFor();
  assert.deepEqual(backend.last('PUT', '/api/admin/reports/41')?.body, {
    status: 'ferme',
    admin_response: SANCTIONS[0],
  });
  await first.locator('.status-badge', { hasText: 'Traitée' }).waitFor();
  // no message
  await cards.nth(3).getByLabel('Statut').selectOption('en_cours');
  await cards.nth(3).getByRole('button', { name: 'Envoyer la réponse' }).click();
  await waitFor(() => backend.count('PUT', '/api/admin/reports/35') === 1, 'reply sent');
  assert.deepEqual(backend.last('PUT', '/api/admin/reports/35')?.body, { status: 'en_cours', admin_response: '' });
  await shot(page, '11-reports-after-actions');

  // failures: console only, nothing shown
  await dismissToasts(page);
  backend.overrides.set('PUT /api/admin/reports/40', { status: 500, body: { error: 'Erreur serveur.' } });
  backend.overrides.set('PUT /api/videos/15/visibility', { status: 500, body: { error: 'Erreur serveur.' } });
  const gets = backend.count('GET', '/api/admin/reports');
  const tries = backend.count('PUT', '/api/videos/15/visibility');
  await cards.nth(1).getByRole('button', { name: 'Envoyer la réponse' }).click();
  await cards.nth(1).getByRole('button', { name: 'Masquer' }).click();
  await waitFor(() => backend.count('PUT', '/api/videos/15/visibility') === tries + 1, 'visibility tried');
  await page.waitForTimeout(300);
  assert.equal(await page.locator('.toast').count(), 0, 'no toast on failure');
  assert.equal(backend.count('GET', '/api/admin/reports'), gets, 'no reload on failure');

  // keyboard: the first controls are reachable with Tab
  await page.keyboard.press('Home');
  await first.getByRole('link').focus();
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'SELECT');
  await close(ctx, problems);

  // mobile
  const ctx2 = await open(browser, { viewport: MOBILE });
  await ctx2.page.goto(`${base}/admin/reports`);
  await ctx2.page.locator('.reports > li').first().waitFor();
  await noHorizontalScroll(ctx2.page, '/admin/reports mobile');
  await shot(ctx2.page, '12-reports-mobile');
  await close(ctx2, problems);

  // empty, and a failed load (console only)
  const empty = new Backend();
  empty.reports = [];
  const ctx3 = await open(browser, { backend: empty });
  await ctx3.page.goto(`${base}/admin/reports`);
  await ctx3.page.getByText("Aucun signalement pour l'instant", { exact: true }).waitFor();
  await shot(ctx3.page, '13-reports-empty');
  empty.overrides.set('GET /api/admin/reports', { status: 500, body: { error: 'Erreur serveur.' } });
  await ctx3.page.reload();
  await heading(ctx3.page, 'Signalements à traiter').waitFor();
  await waitFor(() => empty.count('GET', '/api/admin/reports') === 2, 'second load');
  await ctx3.page.waitForTimeout(200);
  assert.equal(await ctx3.page.getByText("Aucun signalement pour l'instant").count(), 0);
  assert.equal(await ctx3.page.getByRole('alert').filter({ hasText: /\S/ }).count(), 0, 'nothing shown');
  await close(ctx3, problems);
}

async function transactions(browser: Browser, base: string, problems: string[]) {
  console.log('Transactions and coin audit');
  const ctx = await open(browser);
  const { page, backend } = ctx;
  await page.goto(`${base}/admin/transactions`);
  await heading(page, 'Transactions').waitFor();
  const rows = page.locator('.admin-table tbody tr');
  await rows.first().waitFor();
  assert.equal(await rows.count(), 8);
  const headers = await page.locator('.admin-table thead th').allTextContents();
  assert.deepEqual(headers, ['ID', 'Utilisateur', 'Montant (coins)', 'Méthode', 'Date']);
  await shot(page, '20-transactions');

  await page.getByLabel('Filtrer par membre').fill('bob');
  await waitFor(() => true, '');
  assert.equal(await rows.count(), 3);
  await page.getByText('3 / 8 transactions').waitFor();
  await page.getByLabel('Filtrer par membre').fill('personne');
  await page.getByText('Aucune transaction trouvée.', { exact: true }).waitFor();
  await page.getByLabel('Filtrer par membre').fill('BOB@');
  assert.equal(await rows.count(), 3);

  await page.getByRole('link', { name: 'Audit des coins de bob@example.com' }).first().click();
  await page.waitForURL(/\/admin\/transactions\/bob%40example\.com$/);
  await heading(page, 'Audit des coins').waitFor();
  await page.getByText(/Grand livre cohérent/).waitFor();
  const ledgerRows = page.locator('.admin-table--ledger tbody tr');
  await ledgerRows.first().waitFor();
  assert.equal(await ledgerRows.count(), 7);
  const balances = await ledgerRows.locator('td:nth-child(5)').allTextContents();
  assert.deepEqual(balances, ['200', '310', '285', '45', '330', '30', '580']);
  await page.getByText('Cohérents', { exact: true }).waitFor();
  await shot(page, '21-ledger-audit', true);

  // as-of date
  const asOfInput = page.getByLabel('Données au');
  const cut = new Date(Date.now() - 1000 * 60_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  await asOfInput.fill(
    `${cut.getFullYear()}-${pad(cut.getMonth() + 1)}-${pad(cut.getDate())}T${pad(cut.getHours())}:${pad(cut.getMinutes())}`,
  );
  await page.waitForURL(/asOf=/);
  await waitFor(() => /asOf=/.test(backend.last('GET', /^\/api\/admin\/ledger\/bob/)?.search ?? ''), 'asOf sent');
  await page.waitForFunction(() => document.querySelectorAll('.admin-table--ledger tbody tr').length === 5);
  await page.getByRole('button', { name: 'Revenir à maintenant' }).click();
  await page.waitForFunction(() => document.querySelectorAll('.admin-table--ledger tbody tr').length === 7);
  await close(ctx, problems);

  // mobile + a reconciliation violation + the lookup form
  const broken = new Backend();
  broken.reconcile = {
    ok: false,
    events: 18342,
    movements: 5120,
    violations: 2,
    first_violation: {
      position: '9127',
      event_id: '5f1c2a9e-77d0-4b8e-a1c3-0c9d4e2b7a10',
      type: 'GiftReceived',
      stream_id: 'wallet-u3',
      rule: 'duplicate_transfer',
      message: 'Cadeau 812 crédité deux fois.',
    },
  };
  const ctx2 = await open(browser, { viewport: MOBILE, backend: broken });
  await ctx2.page.goto(`${base}/admin/transactions`);
  await ctx2.page.locator('.admin-table tbody tr').first().waitFor();
  await noHorizontalScroll(ctx2.page, '/admin/transactions mobile');
  const scroller = ctx2.page.getByRole('region', { name: 'Transactions de coins' });
  const overflow = await scroller.evaluate((el) => el.scrollWidth > el.clientWidth);
  assert.ok(overflow, 'the table scrolls inside its box on mobile');
  await shot(ctx2.page, '22-transactions-mobile');
  await ctx2.page.getByLabel('Email du membre').fill('carol@example.com');
  await ctx2.page.getByRole('button', { name: 'Voir l’audit' }).click();
  await ctx2.page.waitForURL(/\/admin\/transactions\/carol%40example\.com$/);
  await ctx2.page.getByText(/Grand livre incohérent : 2 violations/).waitFor();
  await ctx2.page.getByText(/Cadeau 812 crédité deux fois/).waitFor();
  await ctx2.page.locator('.admin-table--ledger tbody tr').first().waitFor();
  await noHorizontalScroll(ctx2.page, 'ledger audit mobile');
  await shot(ctx2.page, '23-ledger-audit-violation-mobile', true);
  await ctx2.page.goto(`${base}/admin/transactions/inconnu%40example.com`);
  await ctx2.page.getByText("Impossible de charger l'audit des coins de ce membre.").waitFor();
  await ctx2.page.getByText('Utilisateur introuvable.').waitFor();
  await close(ctx2, problems);

  // empty list
  const empty = new Backend();
  empty.transactions = [];
  const ctx3 = await open(browser, { backend: empty });
  await ctx3.page.goto(`${base}/admin/transactions`);
  await ctx3.page.getByText('Aucune transaction trouvée.', { exact: true }).waitFor();
  await close(ctx3, problems);
}

async function gifts(browser: Browser, base: string, problems: string[]) {
  console.log('Gifts');
  const ctx = await open(browser);
  const { page, backend } = ctx;
  await page.goto(`${base}/admin/gifts`);
  await heading(page, 'Gestion des cadeaux').waitFor();
  const mode = page.getByLabel('Mode local (sans BDD)');
  assert.ok(await mode.isChecked(), 'local mode by default');
  const cards = page.locator('.gift-grid > li .gift-card');
  await cards.first().waitFor();
  assert.equal(await cards.count(), 8);
  await page.getByText('Total : 8 · Affichés : 8').waitFor();
  assert.equal(await page.getByRole('link', { name: 'Packs de coins' }).getAttribute('href'), '/packs');
  assert.ok(await page.locator('.gift-card__image').first().isVisible(), 'image of the Fusée');
  await shot(page, '30-gifts', true);

  // search by name, price, image path
  const search = page.getByLabel('Rechercher un cadeau');
  await search.fill('lico');
  await page.getByText('Total : 8 · Affichés : 1').waitFor();
  await search.fill('250');
  await page.getByText('Total : 8 · Affichés : 1').waitFor();
  await cards.getByText('Fusée').waitFor();
  await search.fill('fusee.svg');
  await page.getByText('Total : 8 · Affichés : 1').waitFor();
  await search.fill('');

  // 'Nom requis'
  const addForm = page.locator('form.gift-add');
  await addForm.getByLabel('Nom').fill('   ');
  await addForm.getByRole('button', { name: 'Ajouter (local)' }).click();
  await toast(page, 'Nom requis').waitFor();
  assert.equal(await addForm.getByLabel('Nom').getAttribute('aria-invalid'), 'true');

  // local add: highest id + 1, not sent
  await addForm.getByLabel('Nom').fill('  Étoile  ');
  await addForm.getByLabel('Emoji').fill('⭐');
  await addForm.getByLabel('Prix (coins)').fill('3');
  await addForm.getByRole('button', { name: 'Ajouter (local)' }).click();
  await page.getByText('Total : 9 · Affichés : 9').waitFor();
  const star = cards.filter({ hasText: 'Étoile' });
  await star.getByText('n° 9').waitFor();
  assert.equal(await addForm.getByLabel('Nom').inputValue(), '', 'form cleared');
  // price fallback 0
  await addForm.getByLabel('Nom').fill('Bulle');
  await addForm.getByLabel('Prix (coins)').fill('');
  await addForm.getByRole('button', { name: 'Ajouter (local)' }).click();
  await cards.filter({ hasText: 'Bulle' }).getByText('0 coin', { exact: true }).waitFor();
  await cards.filter({ hasText: 'Bulle' }).getByText('n° 10').waitFor();

  // local edit: one at a time, save and cancel return to display
  await cards.filter({ hasText: 'Rose' }).getByRole('button', { name: 'Modifier Rose' }).click();
  const editForm = page.locator('.gift-card__form');
  assert.equal(await editForm.count(), 1);
  await cards.filter({ hasText: 'Cœur' }).getByRole('button', { name: 'Modifier Cœur' }).click();
  assert.equal(await editForm.count(), 1, 'one gift in edit mode at a time');
  await editForm.getByLabel('Nom').fill('');
  await editForm.getByRole('button', { name: 'Enregistrer' }).click();
  await editForm.getByText('Nom requis').waitFor();
  await editForm.getByLabel('Nom').fill('Cœur rouge');
  await editForm.getByLabel('Prix (coins)').fill('6');
  await shot(page, '31-gifts-edit');
  await editForm.getByRole('button', { name: 'Enregistrer' }).click();
  await editForm.waitFor({ state: 'detached' });
  await cards.filter({ hasText: 'Cœur rouge' }).getByText('6 coins').waitFor();
  await cards.filter({ hasText: 'Croissant' }).getByRole('button', { name: 'Modifier Croissant' }).click();
  await editForm.getByLabel('Nom').fill('Pain au chocolat');
  await editForm.getByRole('button', { name: 'Annuler' }).click();
  await editForm.waitFor({ state: 'detached' });
  await cards.filter({ hasText: 'Croissant' }).waitFor();

  // local delete with confirmation
  await cards.filter({ hasText: 'Licorne' }).getByRole('button', { name: 'Supprimer Licorne' }).click();
  await answerDialog(page, 'Supprimer ce cadeau ?', 'Annuler');
  assert.equal(await cards.filter({ hasText: 'Licorne' }).count(), 1);
  await cards.filter({ hasText: 'Licorne' }).getByRole('button', { name: 'Supprimer Licorne' }).click();
  await answerDialog(page, 'Supprimer ce cadeau ?', 'Supprimer');
  await page.getByText('Total : 9 · Affichés : 9').waitFor();
  assert.equal(backend.count('POST', '/api/admin/gifts') + backend.count('PUT', /^\/api\/admin\/gifts\//), 0);
  assert.equal(backend.count('DELETE', /^\/api\/admin\/gifts\//), 0, 'local mode sends nothing');

  // the session-level override survives a reload
  await page.reload();
  await page.getByText('Total : 9 · Affichés : 9').waitFor();
  await cards.filter({ hasText: 'Étoile' }).waitFor();
  assert.equal(await cards.filter({ hasText: 'Licorne' }).count(), 0);
  await dismissToasts(page);
  await shot(page, '32-gifts-local-changes', true);

  // API mode: the server list, writes go to the API
  await mode.uncheck();
  await page.getByText('Total : 8 · Affichés : 8').waitFor();
  await addForm.getByLabel('Nom').fill('Diamant');
  await addForm.getByLabel('Emoji').fill('💎');
  await addForm.getByLabel('Prix (coins)').fill('1000');
  // an image file uploaded through /api/admin/gifts/image fills the image URL
  await addForm.getByLabel('… ou envoyer un fichier image').setInputFiles({
    name: 'etoile.svg',
    mimeType: 'image/svg+xml',
    buffer: Buffer.from(STAR_SVG),
  });
  await toast(page, 'Image envoyée.').waitFor();
  assert.equal(await addForm.getByLabel('Image (URL ou chemin)').inputValue(), '/uploads/gifts/etoile-7f3a.svg');
  const upload = backend.last('POST', '/api/admin/gifts/image');
  assert.ok(upload?.contentType.startsWith('multipart/form-data'), 'multipart upload');
  assert.match(String(upload?.body), /name="image"; filename="etoile.svg"/);
  await addForm.getByRole('button', { name: 'Ajouter', exact: true }).click();
  await toast(page, 'Cadeau « Diamant » ajouté.').waitFor();
  assert.deepEqual(backend.last('POST', '/api/admin/gifts')?.body, {
    name: 'Diamant',
    emoji: '💎',
    price: 1000,
    image_url: '/uploads/gifts/etoile-7f3a.svg',
  });
  await page.getByText('Total : 9 · Affichés : 9').waitFor();

  await cards.filter({ hasText: 'Ballon' }).getByRole('button', { name: 'Modifier Ballon' }).click();
  await editForm.getByLabel('Prix (coins)').fill('30');
  await editForm.getByRole('button', { name: 'Enregistrer' }).click();
  await editForm.waitFor({ state: 'detached' });
  assert.deepEqual(backend.last('PUT', '/api/admin/gifts/4')?.body, {
    name: 'Ballon',
    emoji: '🎈',
    price: 30,
    image_url: '',
  });
  await cards.filter({ hasText: 'Ballon' }).getByText('30 coins').waitFor();

  await cards.filter({ hasText: 'Trophée' }).getByRole('button', { name: 'Supprimer Trophée' }).click();
  await answerDialog(page, 'Supprimer ce cadeau ?', 'Supprimer');
  await waitFor(() => backend.count('DELETE', '/api/admin/gifts/5') === 1, 'DELETE sent');
  await page.getByText('Total : 8 · Affichés : 8').waitFor();

  // API failures
  await dismissToasts(page);
  backend.overrides.set('POST /api/admin/gifts', { status: 500, body: { error: 'Base de données indisponible.' } });
  backend.overrides.set('PUT /api/admin/gifts/1', { status: 500, body: { error: 'Base de données indisponible.' } });
  backend.overrides.set('DELETE /api/admin/gifts/2', { status: 500, body: { error: 'Base de données indisponible.' } });
  await addForm.getByLabel('Nom').fill('Comète');
  await addForm.getByRole('button', { name: 'Ajouter', exact: true }).click();
  await toast(page, 'Erreur API (POST). Reste en mode local si besoin.').waitFor();
  assert.equal(await addForm.getByLabel('Nom').inputValue(), 'Comète', 'the form keeps its text after a failure');
  await cards.filter({ hasText: 'Rose' }).getByRole('button', { name: 'Modifier Rose' }).click();
  await editForm.getByRole('button', { name: 'Enregistrer' }).click();
  await toast(page, 'Erreur API (PUT). Reste en mode local si besoin.').waitFor();
  assert.equal(await editForm.count(), 1, 'still editing after a failed save');
  await editForm.getByRole('button', { name: 'Annuler' }).click();
  await cards.filter({ hasText: 'Cœur' }).getByRole('button', { name: 'Supprimer Cœur' }).click();
  await answerDialog(page, 'Supprimer ce cadeau ?', 'Supprimer');
  await toast(page, 'Erreur API (DELETE). Reste en mode local si besoin.').waitFor();
  await shot(page, '33-gifts-api-errors');

  // reload button
  const loads = backend.count('GET', '/api/admin/gifts');
  await page.getByRole('button', { name: 'Recharger' }).click();
  await waitFor(() => backend.count('GET', '/api/admin/gifts') === loads + 1, 'reloaded');
  await close(ctx, problems);

  // load failure in the grid + mobile
  const failing = new Backend();
  failing.overrides.set('GET /api/admin/gifts', { status: 503, body: { error: 'Service indisponible.' } });
  const ctx2 = await open(browser, { viewport: MOBILE, backend: failing });
  await ctx2.page.goto(`${base}/admin/gifts`);
  await ctx2.page.locator('.gift-grid').getByText('Erreur: Service indisponible.', { exact: true }).waitFor();
  await noHorizontalScroll(ctx2.page, '/admin/gifts mobile (error)');
  failing.overrides.delete('GET /api/admin/gifts');
  await ctx2.page.getByRole('button', { name: 'Recharger' }).click();
  await ctx2.page.locator('.gift-card').first().waitFor();
  await noHorizontalScroll(ctx2.page, '/admin/gifts mobile');
  await shot(ctx2.page, '34-gifts-mobile');
  await close(ctx2, problems);
}

async function stats(browser: Browser, base: string, problems: string[]) {
  console.log('Stats');
  const ctx = await open(browser);
  const { page, backend } = ctx;
  await page.goto(`${base}/admin/stats`);
  await heading(page, 'Statistiques').waitFor();
  const hrefs = await page
    .getByRole('navigation', { name: 'Pages de statistiques' })
    .getByRole('link')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  assert.deepEqual(hrefs, [
    '/admin/stats/general',
    '/admin/stats/users',
    '/admin/stats/videos',
    '/admin/stats/messages',
    '/admin/stats/gifts',
    '/admin/stats/coins',
    '/admin/stats/advanced',
  ]);
  await shot(page, '40-stats-hub');

  const pages: Array<[string, string, string, string]> = [
    ['general', '/api/admin/stats', 'Statistiques générales', 'Impossible de charger les stats générales'],
    ['users', '/api/admin/stats/users', 'Statistiques utilisateurs', 'Impossible de charger les stats utilisateurs'],
    ['videos', '/api/admin/stats/videos', 'Statistiques vidéos', 'Impossible de charger les stats vidéos'],
    ['messages', '/api/admin/stats/messages', 'Statistiques messages', 'Impossible de charger les stats messages'],
    ['gifts', '/api/admin/stats/gifts', 'Statistiques cadeaux', 'Impossible de charger les stats cadeaux'],
    ['coins', '/api/admin/stats/coins', 'Statistiques coins', 'Impossible de charger les stats coins'],
  ];
  for (const [kind, api, title, failure] of pages) {
    backend.overrides.set(`GET ${api}`, { status: 200, body: STATS[api], delayMs: 400 });
    await page.goto(`${base}/admin/stats/${kind}`);
    await heading(page, title).waitFor();
    await page.getByText('Chargement...', { exact: true }).waitFor();
    await page.locator('.admin-stat').first().waitFor();
    backend.overrides.delete(`GET ${api}`);
    if (kind === 'general' || kind === 'coins') await shot(page, `41-stats-${kind}`);
    backend.overrides.set(`GET ${api}`, { status: 500, body: { error: 'Lecture des statistiques impossible.' } });
    await page.reload();
    await page.getByText(failure, { exact: true }).waitFor();
    if (kind === 'users') await shot(page, '42-stats-users-error');
    backend.overrides.delete(`GET ${api}`);
  }
  const generalLabels = await (async () => {
    await page.goto(`${base}/admin/stats/general`);
    await page.locator('.admin-stat').first().waitFor();
    return page.locator('.admin-stat dt').allTextContents();
  })();
  assert.deepEqual(generalLabels, [
    'Utilisateurs',
    'Vidéos',
    'Cadeaux envoyés',
    'Coins des utilisateurs (total)',
    'Messages publics',
  ]);

  // as-of date: sent as ?asOf=<ISO>, kept in the URL
  await page.getByLabel('Données au').fill('2025-01-31T18:30');
  await page.waitForURL(/asOf=2025-01-31T17%3A30%3A00.000Z/);
  await waitFor(() => backend.last('GET', '/api/admin/stats')?.search === '?asOf=2025-01-31T17%3A30%3A00.000Z', 'asOf');
  await page.getByText("Chiffres tels qu'ils étaient le 31/01/2025 18:30.").waitFor();
  await page.locator('.admin-stat').first().waitFor();
  await shot(page, '43-stats-general-asof');
  await page.getByRole('button', { name: 'Revenir à maintenant' }).click();
  await waitFor(() => backend.last('GET', '/api/admin/stats')?.search === '', 'back to now');

  // advanced: figures, N/A when absent, empty data on error
  await page.goto(`${base}/admin/stats/advanced`);
  await heading(page, 'Statistiques avancées').waitFor();
  await page.getByText('farid@example.com').waitFor();
  await page.getByText('64 vidéos').waitFor();
  await page.getByText('14,33').waitFor();
  await shot(page, '44-stats-advanced');
  backend.overrides.set('GET /api/admin/stats/advanced', {
    status: 200,
    body: {
      top_creator: null,
      top_video: null,
      total_reports: 0,
      public_videos: 0,
      deleted_videos: 0,
      avg_videos_per_day: 0,
    },
  });
  await page.reload();
  await page.locator('.admin-stat__value', { hasText: 'N/A' }).nth(1).waitFor();
  backend.overrides.set('GET /api/admin/stats/advanced', { status: 500, body: { error: 'Erreur serveur.' } });
  await page.reload();
  await page.locator('.admin-stat__value', { hasText: 'N/A' }).nth(1).waitFor();
  assert.equal(await page.locator('.form-error').count(), 0, 'no failure text on advanced');
  await shot(page, '45-stats-advanced-error');
  await close(ctx, problems);

  const ctx2 = await open(browser, { viewport: MOBILE });
  await ctx2.page.goto(`${base}/admin/stats/coins`);
  await ctx2.page.locator('.admin-stat').first().waitFor();
  await noHorizontalScroll(ctx2.page, '/admin/stats/coins mobile');
  await shot(ctx2.page, '46-stats-coins-mobile', true);
  await close(ctx2, problems);
}

async function users(browser: Browser, base: string, problems: string[]) {
  console.log('Users');
  const ctx = await open(browser);
  const { page, backend } = ctx;
  await page.goto(`${base}/admin/users`);
  await heading(page, 'Utilisateurs').waitFor();
  const rows = page.locator('.admin-table tbody tr');
  await rows.first().waitFor();
  assert.equal(await rows.count(), 20);
  await page.getByText('45 membres').waitFor();
  await page.getByText('Page 1 sur 3').waitFor();
  assert.equal(backend.last('GET', '/api/admin/users')?.search, '?page=1&limit=20');
  await shot(page, '50-users');

  await page.getByRole('button', { name: 'Suivant' }).click();
  await page.getByText('Page 2 sur 3').waitFor();
  assert.equal(backend.last('GET', '/api/admin/users')?.search, '?page=2&limit=20');
  await page.waitForURL(/page=2/);

  await page.getByLabel('Rechercher un membre').fill('emma');
  await page.waitForURL(/q=emma/);
  await page.getByText('1 membre', { exact: true }).waitFor();
  assert.equal(backend.last('GET', '/api/admin/users')?.search, '?q=emma&page=1&limit=20');

  // grant, with confirmation and the server's message
  await page.getByRole('button', { name: "Donner les droits d'administrateur à @emma (emma@example.com)" }).click();
  await answerDialog(page, "Donner les droits d'administrateur à @emma (emma@example.com) ?", 'Annuler');
  assert.equal(backend.count('POST', '/api/admin/users/grant'), 0);
  await page.getByRole('button', { name: "Donner les droits d'administrateur à @emma (emma@example.com)" }).click();
  await answerDialog(page, "Donner les droits d'administrateur à @emma (emma@example.com) ?", 'Donner les droits');
  await toast(page, '✅ emma@example.com est maintenant administrateur.').waitFor();
  assert.deepEqual(backend.last('POST', '/api/admin/users/grant')?.body, { email: 'emma@example.com' });
  await rows.first().getByText('Administrateur', { exact: true }).waitFor();
  await shot(page, '51-users-granted');

  // revoke emma again, then the last administrator: the server's error
  await page.getByRole('button', { name: "Retirer les droits d'administrateur à @emma (emma@example.com)" }).click();
  await answerDialog(page, "Retirer les droits d'administrateur à @emma (emma@example.com) ?", 'Retirer les droits');
  await toast(page, "✅ emma@example.com n'est plus administrateur.").waitFor();
  await rows.first().getByText('Membre', { exact: true }).waitFor();
  await page.getByLabel('Rechercher un membre').fill('admin@evo');
  await page.getByText('1 membre', { exact: true }).waitFor();
  await page.getByRole('button', { name: "Retirer les droits d'administrateur à @admin (admin@evo.test)" }).click();
  await answerDialog(page, "Retirer les droits d'administrateur à @admin (admin@evo.test) ?", 'Retirer les droits');
  await toast(page, 'Impossible de retirer le dernier administrateur.').waitFor();
  await close(ctx, problems);

  const ctx2 = await open(browser, { viewport: MOBILE });
  await ctx2.page.goto(`${base}/admin/users`);
  await ctx2.page.locator('.admin-table tbody tr').first().waitFor();
  await noHorizontalScroll(ctx2.page, '/admin/users mobile');
  await shot(ctx2.page, '52-users-mobile');
  await close(ctx2, problems);
}

async function audit(browser: Browser, base: string, problems: string[]) {
  console.log('Audit log');
  const ctx = await open(browser);
  const { page, backend } = ctx;
  await page.goto(`${base}/admin/audit`);
  await heading(page, "Journal d'audit").waitFor();
  const rows = page.locator('.admin-table tbody tr');
  await rows.first().waitFor();
  assert.equal(await rows.count(), 25);
  const headers = await page.locator('.admin-table thead th').allTextContents();
  assert.deepEqual(headers, ['Date', 'Administrateur', 'Action', 'Cible', 'Détails']);
  const times = await rows.locator('td:first-child').allTextContents();
  assert.ok(times.length === 25, 'dates');
  await page.getByText('Signalement mis à jour').first().waitFor();
  await shot(page, '55-audit', true);
  await page.getByRole('button', { name: 'Suivant' }).click();
  await page.waitForFunction(() => document.querySelectorAll('.admin-table tbody tr').length === 7);
  assert.equal(backend.last('GET', '/api/admin/audit')?.search, '?page=2&limit=25');
  await close(ctx, problems);

  const ctx2 = await open(browser, { viewport: MOBILE });
  await ctx2.page.goto(`${base}/admin/audit`);
  await ctx2.page.locator('.admin-table tbody tr').first().waitFor();
  await noHorizontalScroll(ctx2.page, '/admin/audit mobile');
  await shot(ctx2.page, '56-audit-mobile');
  await close(ctx2, problems);
}

async function tools(browser: Browser, base: string, problems: string[]) {
  console.log('Tools and rebuild');
  const ctx = await open(browser);
  const { page, backend, socket } = ctx;
  await page.goto(`${base}/admin/tools`);
  await heading(page, 'Outils').waitFor();
  await page.getByRole('button', { name: 'Vider le cache' }).click();
  await toast(page, 'Fonction non encore active').waitFor();
  for (const name of ['Exporter la base de données', 'Débogage / journaux']) {
    assert.ok(await page.getByRole('button', { name }).isDisabled(), `${name} disabled`);
  }
  assert.equal(await page.getByText('Bientôt disponible').count(), 2);
  await waitFor(() => backend.count('GET', '/api/admin/projections/rebuild') === 1, 'state read at start');
  await waitFor(() => socket.connections > 0, 'socket connected');
  await page.getByText('Aucune reconstruction depuis le démarrage du serveur.').waitFor();
  await shot(page, '60-tools');

  const rebuildButton = page.getByRole('button', { name: 'Reconstruire les projections' });
  await rebuildButton.click();
  await answerDialog(
    page,
    'Reconstruire toutes les projections à partir du journal des événements ? Le site reste en service pendant la reconstruction.',
    'Annuler',
  );
  assert.equal(backend.count('POST', '/api/admin/projections/rebuild'), 0);
  await rebuildButton.click();
  await page.getByRole('dialog').getByRole('button', { name: 'Reconstruire' }).click();
  await toast(page, 'Reconstruction lancée.').waitFor();
  const bar = page.getByRole('progressbar', { name: 'Progression de la reconstruction' });
  await bar.waitFor();

  const progress = { status: 'running', startedAt: ago(0), done: 7340, rate: 3670.4, etaSeconds: 3.1, fraction: 0.4 };
  backend.rebuild = progress;
  socket.emit('rebuild:progress', progress);
  await page.waitForFunction(
    () => document.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow') === '40',
  );
  await page.getByText(/7\s340 événements traités · 3\s670 événements\/s · reste environ 3,1 s/).waitFor();
  assert.ok(await page.getByRole('button', { name: 'Reconstruction en cours…' }).isDisabled());
  await shot(page, '61-tools-rebuild-progress');

  const done = {
    status: 'done',
    startedAt: ago(0),
    finishedAt: ago(0),
    events: 18342,
    seconds: 5.2,
    done: 18342,
    rate: 3527,
    etaSeconds: 0,
    fraction: 1,
  };
  backend.rebuild = done;
  socket.emit('rebuild:progress', done);
  await page.getByText('Projections reconstruites : 18 342 événements en 5,2 s.').waitFor();
  assert.equal(await bar.count(), 0);
  await shot(page, '62-tools-rebuild-done');

  // a second run that fails
  await rebuildButton.click();
  await page.getByRole('dialog').getByRole('button', { name: 'Reconstruire' }).click();
  await bar.waitFor();
  const failed = {
    status: 'failed',
    startedAt: ago(0),
    error: 'la reconstruction ne rattrape pas le journal',
    done: 0,
    rate: 0,
    etaSeconds: 0,
    fraction: 0,
  };
  backend.rebuild = failed;
  socket.emit('rebuild:progress', failed);
  await page.getByText('La reconstruction a échoué : la reconstruction ne rattrape pas le journal').waitFor();

  // the POST refused
  backend.overrides.set('POST /api/admin/projections/rebuild', {
    status: 409,
    body: { error: 'Une reconstruction est déjà en cours.' },
  });
  await dismissToasts(page);
  await rebuildButton.click();
  await page.getByRole('dialog').getByRole('button', { name: 'Reconstruire' }).click();
  await toast(page, 'Impossible de lancer la reconstruction.').waitFor();
  await page.getByText('Une reconstruction est déjà en cours.').waitFor();
  await page.getByText(/La reconstruction a échoué/).waitFor();
  await close(ctx, problems);

  // a rebuild already running when the page opens (GET), followed by polling
  const running = new Backend();
  running.rebuild = { status: 'running', startedAt: ago(1), done: 12000, rate: 4000, etaSeconds: 95, fraction: 0.12 };
  const ctx2 = await open(browser, { viewport: MOBILE, backend: running });
  await ctx2.page.goto(`${base}/admin/tools`);
  await ctx2.page.getByRole('progressbar').waitFor();
  await ctx2.page.getByText(/reste environ 1 min 35 s/).waitFor();
  await noHorizontalScroll(ctx2.page, '/admin/tools mobile');
  await shot(ctx2.page, '63-tools-mobile', true);
  running.rebuild = {
    status: 'done',
    startedAt: ago(1),
    finishedAt: ago(0),
    events: 100000,
    seconds: 25,
    done: 100000,
    rate: 4000,
    etaSeconds: 0,
    fraction: 1,
  };
  await ctx2.page.getByText('Projections reconstruites : 100 000 événements en 25 s.').waitFor({ timeout: 6000 });
  await close(ctx2, problems);

  // distributed deployment: the state cannot be read here (409 with the server's explanation)
  const elsewhere = new Backend();
  const notHere =
    'Dans ce mode de déploiement, les projections se reconstruisent avec « npm run replay » (service des projections).';
  elsewhere.overrides.set('GET /api/admin/projections/rebuild', { status: 409, body: { error: notHere } });
  const ctx3 = await open(browser, { backend: elsewhere });
  await ctx3.page.goto(`${base}/admin/tools`);
  await ctx3.page.getByText('Reconstruction impossible depuis ce serveur.').waitFor();
  await ctx3.page.getByText(notHere).waitFor();
  assert.ok(await ctx3.page.getByRole('button', { name: 'Reconstruire les projections' }).isDisabled());
  await shot(ctx3.page, '64-tools-elsewhere');
  await close(ctx3, problems);
}

async function keyboard(browser: Browser, base: string, problems: string[]) {
  console.log('Keyboard and names');
  const ctx = await open(browser);
  const { page } = ctx;
  for (const path of [
    '/admin',
    '/admin/reports',
    '/admin/gifts',
    '/admin/users',
    '/admin/tools',
    '/admin/stats/general',
  ]) {
    await page.goto(`${base}${path}`);
    await page.locator('h1').waitFor();
    await page.waitForLoadState('networkidle').catch(() => undefined);
    // every visible control has an accessible name
    const unnamed = await page.evaluate(() => {
      const controls = Array.from(
        document.querySelectorAll<HTMLElement>(
          'main button, main a[href], main input, main select, main [tabindex="0"]',
        ),
      );
      return controls
        .filter((el) => el.offsetParent !== null || el.getClientRects().length > 0)
        .filter((el) => {
          const labelled = el.getAttribute('aria-label') || el.getAttribute('aria-labelledby');
          const input = el as HTMLInputElement;
          const hasLabel = 'labels' in input && input.labels && input.labels.length > 0;
          return !labelled && !hasLabel && !(el.textContent ?? '').trim();
        })
        .map((el) => el.outerHTML.slice(0, 80));
    });
    assert.deepEqual(unnamed, [], `${path}: unnamed controls`);
  }
  // Tab walks from the skip link into the main content
  await page.goto(`${base}/admin/gifts`);
  await page.locator('.gift-card').first().waitFor();
  await page.getByLabel('Mode local (sans BDD)').focus();
  await page.keyboard.press('Space');
  assert.equal(await page.getByLabel('Mode local (sans BDD)').isChecked(), false, 'checkbox by keyboard');
  await page.keyboard.press('Space');
  await page.locator('form.gift-add').getByLabel('Nom').focus();
  await page.keyboard.type('Clavier');
  await page.keyboard.press('Enter');
  await page.locator('.gift-card', { hasText: 'Clavier' }).waitFor();
  await close(ctx, problems);
}

// ---------------------------------------------------------------------------

async function startServer(): Promise<{ base: string; close: () => Promise<void> }> {
  if (process.env.ADMIN_E2E_BASE) return { base: process.env.ADMIN_E2E_BASE.replace(/\/$/, ''), close: async () => {} };
  if (!existsSync(join(distDir, 'index.html'))) {
    throw new Error(`${distDir} is missing: run \`npx vite build --config web/vite.config.ts\` first`);
  }
  const { preview } = await import('vite');
  const server = await preview({
    configFile: join(root, 'web', 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir: distDir },
    preview: { port: 4176, host: '127.0.0.1', open: false, strictPort: false },
  });
  const url = server.resolvedUrls?.local[0] ?? 'http://127.0.0.1:4176/';
  return { base: url.replace(/\/$/, ''), close: () => server.close() };
}

async function main() {
  await mkdir(outDir, { recursive: true });
  const server = await startServer();
  console.log(`Serving ${server.base}`);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const problems: string[] = [];
  const only = process.argv.slice(2);
  const scenarios: Array<[string, (b: Browser, base: string, p: string[]) => Promise<void>]> = [
    ['dashboard', dashboard],
    ['reports', reports],
    ['transactions', transactions],
    ['gifts', gifts],
    ['stats', stats],
    ['users', users],
    ['audit', audit],
    ['tools', tools],
    ['keyboard', keyboard],
  ];
  try {
    for (const [name, run] of scenarios) {
      if (only.length > 0 && !only.includes(name)) continue;
      await run(browser, server.base, problems);
    }
  } finally {
    await browser.close();
    await server.close();
  }
  if (problems.length > 0) {
    console.error(`Browser problems:\n${problems.join('\n')}`);
    process.exitCode = 1;
  } else {
    console.log(`All admin screens written to ${outDir}`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
