/**
 * Social screens in a real (headless) Chromium: suggestions, video card and page,
 * profiles, friends feed and list, notifications (bell + page), messages (inbox,
 * conversation, send page) and the emoji picker.
 *
 *   npx vite build --config web/vite.config.ts
 *   npx tsx e2e/social.screens.ts            # starts `vite preview` on :4175 itself
 *   SOCIAL_E2E_BASE=http://localhost:4175 npx tsx e2e/social.screens.ts   # or use a running one
 *
 * /api/** is answered by an in-memory backend through page.route, /uploads/** serves
 * the demo mp4s of command-api/assets/demo and generated SVG profile pictures, and
 * /socket.io/** is a small fake Engine.IO (polling) server, so live events can be
 * pushed to the page. Screenshots go to artifacts/screens/.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page, type Route } from 'playwright-core';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const outDir = join(root, 'artifacts', 'screens');
const demoDir = join(root, 'command-api', 'assets', 'demo');

// ---------------------------------------------------------------------------
// Data
// ---------------------------------------------------------------------------

const ME = {
  email: 'alice@example.com',
  pseudo: 'alice',
  role: 'user',
  is_admin: false,
  profile_picture: 'alice.png',
};

interface Person {
  email: string;
  pseudo: string;
  bio: string;
  profile_picture: string | null;
}

const PEOPLE: Record<string, Person> = {
  alice: {
    email: 'alice@example.com',
    pseudo: 'alice',
    bio: 'Danseuse le week-end, développeuse la semaine.',
    profile_picture: 'alice.png',
  },
  bob: { email: 'bob@example.com', pseudo: 'bob', bio: 'Vélo, montagne et cafés serrés.', profile_picture: 'bob.png' },
  carol: {
    email: 'carol@example.com',
    pseudo: 'carol',
    bio: 'Recettes express en 30 secondes.',
    profile_picture: 'carol.png',
  },
  dave: { email: 'dave@example.com', pseudo: 'dave', bio: '', profile_picture: null },
  emma: { email: 'emma@example.com', pseudo: 'emma', bio: 'Photographe amateure à Lyon.', profile_picture: 'emma.png' },
  farid: { email: 'farid@example.com', pseudo: 'farid', bio: 'Beatmaker.', profile_picture: 'farid.png' },
  gabriel: { email: 'gabriel@example.com', pseudo: 'gabriel', bio: '', profile_picture: 'gabriel.png' },
};

const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

interface VideoRow {
  id: number;
  title: string;
  description: string;
  file_path: string;
  user_email: string;
  likes_count: number;
  comments_count: number;
  views_count: number;
  poster: string | null;
  duration: number;
  created_at: string;
  liked_by_me?: boolean;
}

function makeVideos(): VideoRow[] {
  const v = (
    id: number,
    owner: string,
    title: string,
    demo: number,
    likes: number,
    comments: number,
    views: number,
    minutes: number,
  ): VideoRow => ({
    id,
    title,
    description: id === 1 ? 'Départ de Valloire à 7 h, 18 km de descente.' : '',
    file_path: `/uploads/videos/demo-${demo}.mp4`,
    user_email: PEOPLE[owner].email,
    likes_count: likes,
    comments_count: comments,
    views_count: views,
    poster: null,
    duration: 4,
    created_at: ago(minutes),
  });
  const list = [
    v(1, 'bob', 'Descente du col du Galibier', 1, 12, 3, 340, 50),
    v(2, 'carol', 'Tarte tatin express', 2, 5, 0, 1250, 180),
    v(3, 'alice', 'Ma chorégraphie du dimanche', 3, 30, 1, 980, 2000),
    v(4, 'alice', '', 4, 2, 0, 45, 4000),
    v(5, 'emma', 'Lumières de Fourvière', 2, 8, 0, 210, 300),
    v(6, 'farid', 'Beat improvisé dans le métro', 1, 64, 0, 5400, 700),
    v(7, 'gabriel', 'Premier essai', 3, 0, 0, 3, 900),
  ];
  // More friend videos so that the feed has a second page (10 per page).
  for (let i = 0; i < 10; i++) {
    list.push(v(20 + i, i % 2 ? 'bob' : 'carol', `Souvenir n°${i + 1}`, (i % 4) + 1, i, 0, 10 * i, 400 + i * 60));
  }
  return list;
}

interface CommentRow {
  id: number;
  video_id: number;
  parent_id: number | null;
  user_pseudo: string;
  content: string;
  created_at: string;
}

interface NotificationRow {
  id: number;
  type: string;
  sender_email: string;
  sender_pseudo: string;
  message: string;
  video_id: number;
  seen: 0 | 1;
  created_at: string;
}

function makeNotifications(): NotificationRow[] {
  const n = (
    id: number,
    type: string,
    sender: string,
    message: string,
    videoId: number,
    seen: 0 | 1,
    minutes: number,
  ): NotificationRow => ({
    id,
    type,
    sender_email: PEOPLE[sender]?.email ?? 'admin@evo.test',
    sender_pseudo: PEOPLE[sender]?.pseudo ?? 'EVO',
    message,
    video_id: videoId,
    seen,
    created_at: ago(minutes),
  });
  return [
    n(110, 'follow', 'bob', "s'est abonné à toi", 0, 0, 4),
    n(109, 'like', 'carol', 'a aimé ta vidéo « Ma chorégraphie du dimanche »', 3, 0, 35),
    n(108, 'message', 'carol', "t'a envoyé un message privé", 0, 0, 180),
    n(107, 'comment', 'bob', 'a commenté ta vidéo : « Trop bien ! »', 3, 1, 600),
    n(106, 'gift', 'emma', "t'a envoyé un cadeau", 0, 1, 1500),
    n(105, 'report_update', 'admin', 'Ton signalement a été traité', 0, 1, 3000),
    n(104, 'system', 'admin', 'Bienvenue sur EVO !', 0, 1, 5000),
    n(103, 'follow', 'alice', "s'est abonné à toi", 0, 1, 6000),
  ];
}

interface MessageRow {
  id: number;
  sender_email: string;
  receiver_email: string;
  content: string;
  created_at: string;
}

function makeMessages(): MessageRow[] {
  const m = (id: number, from: string, to: string, content: string, minutes: number): MessageRow => ({
    id,
    sender_email: PEOPLE[from].email,
    receiver_email: PEOPLE[to].email,
    content,
    created_at: ago(minutes),
  });
  return [
    m(1, 'bob', 'alice', 'Salut Alice, tu viens rouler samedi ?', 2900),
    m(2, 'alice', 'bob', 'Carrément ! Départ 9 h devant la boulangerie ?', 2890),
    m(3, 'bob', 'alice', 'Parfait, à samedi. Prends de quoi réparer une crevaison, la descente est longue.', 1440),
    m(4, 'carol', 'alice', 'Tu as testé ma tarte tatin ?', 180),
    m(5, 'emma', 'alice', 'Merci pour le like sur mes photos de Fourvière !', 20),
  ];
}

// ---------------------------------------------------------------------------
// In-memory backend answering /api/** (page.route)
// ---------------------------------------------------------------------------

const INAPPROPRIATE = 'Ce message contient un mot inapproprié. Veuillez reformuler.';

class Backend {
  me: typeof ME | null = ME;
  videos = makeVideos();
  comments: CommentRow[] = [
    {
      id: 1,
      video_id: 1,
      parent_id: null,
      user_pseudo: 'carol',
      content: 'Magnifique descente !',
      created_at: ago(40),
    },
    {
      id: 2,
      video_id: 1,
      parent_id: 1,
      user_pseudo: 'bob',
      content: 'Merci Carol, il faisait 3 °C en haut.',
      created_at: ago(30),
    },
    { id: 3, video_id: 1, parent_id: null, user_pseudo: 'dave', content: 'Tu avais quel vélo ?', created_at: ago(12) },
  ];
  notifications = makeNotifications();
  messages = makeMessages();
  follows = new Set(['alice>bob', 'alice>carol', 'alice>dave', 'bob>alice', 'carol>alice']);
  calls: Array<{ method: string; path: string; body: unknown }> = [];
  /** path → forced answer (status + body), checked first. */
  overrides = new Map<string, { status: number; body: unknown; delayMs?: number }>();
  nextId = 1000;

  person(emailOrPseudo: string): Person | undefined {
    return Object.values(PEOPLE).find((p) => p.email === emailOrPseudo || p.pseudo === emailOrPseudo);
  }

  videoJson(v: VideoRow) {
    const owner = this.person(v.user_email)!;
    return { ...v, user_pseudo: owner.pseudo, user_profile_picture: owner.profile_picture };
  }

  messageJson(m: MessageRow) {
    const from = this.person(m.sender_email)!;
    const to = this.person(m.receiver_email)!;
    return {
      ...m,
      sender_pseudo: from.pseudo,
      receiver_pseudo: to.pseudo,
      sender_profile_picture: from.profile_picture,
      receiver_profile_picture: to.profile_picture,
    };
  }

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
    let body: unknown;
    try {
      body = request.postDataJSON() as unknown;
    } catch {
      body = request.postData();
    }
    this.calls.push({ method, path: url.pathname + url.search, body });
    const json = (status: number, data: unknown) =>
      route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(data) });

    const forced = this.overrides.get(`${method} ${path}`);
    if (forced) {
      if (forced.delayMs) await new Promise((done) => setTimeout(done, forced.delayMs));
      return json(forced.status, forced.body).catch(() => undefined);
    }
    const me = this.me?.email ?? '';
    let m: RegExpMatchArray | null;

    if (path === '/api/auth/me') return this.me ? json(200, this.me) : json(401, { error: 'Non connecté.' });

    // --- follows / users
    if (method === 'GET' && path === '/api/users/with-videos') {
      const list = Object.values(PEOPLE)
        .filter((p) => p.email !== me && !this.follows.has(`alice>${p.pseudo}`))
        .map((p) => ({
          ...p,
          videos: this.videos.filter((v) => v.user_email === p.email).map((v) => this.videoJson(v)),
        }))
        .filter((p) => p.videos.length > 0);
      const page = Number(url.searchParams.get('page') ?? 1);
      const limit = Number(url.searchParams.get('limit') ?? 20);
      return json(200, list.slice((page - 1) * limit, page * limit));
    }
    if (method === 'POST' && path === '/api/users/follows/follow') {
      const { followingPseudo } = body as { followingPseudo: string };
      if (followingPseudo === 'gabriel') return json(500, { error: 'Erreur serveur, réessayez plus tard.' });
      this.follows.add(`alice>${followingPseudo}`);
      return json(200, { message: 'Abonnement réussi' });
    }
    if (method === 'POST' && path === '/api/follows/follow') {
      const { following_email } = body as { following_email: string };
      this.follows.add(`alice>${this.person(following_email)?.pseudo}`);
      return json(200, { message: 'Abonnement réussi' });
    }
    if (method === 'POST' && path === '/api/follows/unfollow') {
      const { followingPseudo } = body as { followingPseudo: string };
      this.follows.delete(`alice>${followingPseudo}`);
      return json(200, { message: 'Désabonnement réussi' });
    }
    if (method === 'GET' && (m = path.match(/^\/api\/users\/profile\/(.+)$/))) {
      const p = this.person(m[1]);
      if (!p) return json(404, { error: 'Utilisateur introuvable.' });
      const videos = this.videos.filter((v) => v.user_email === p.email).map(({ user_email: _e, ...v }) => v);
      return json(200, { user: p, videos });
    }
    if (method === 'GET' && (m = path.match(/^\/api\/users\/stats\/(.+)$/))) {
      // as the server: another member's counters are private (403) unless one is an administrator
      if (m[1] !== me) return json(403, { error: 'Action non autorisée.' });
      const p = this.person(m[1]);
      if (!p) return json(404, { error: 'Utilisateur introuvable.' });
      const following = [...this.follows].filter((f) => f.startsWith(`${p.pseudo}>`)).length;
      const followers = [...this.follows].filter((f) => f.endsWith(`>${p.pseudo}`)).length;
      const likes = this.videos.filter((v) => v.user_email === p.email).reduce((s, v) => s + v.likes_count, 0);
      return json(200, { following, followers, total_likes: likes });
    }
    if (method === 'GET' && (m = path.match(/^\/api\/users\/follows\/is-following\/([^/]+)\/([^/]+)$/))) {
      const follower = this.person(m[1])?.pseudo;
      return json(200, { isFollowing: this.follows.has(`${follower}>${m[2]}`) });
    }
    if (method === 'GET' && (m = path.match(/^\/api\/users\/friends\/(.+)$/))) {
      const friends = [...this.follows]
        .filter((f) => f.startsWith('alice>'))
        .map((f) => this.person(f.slice(6))!)
        .map((p) => ({
          ...p,
          followers: [...this.follows].filter((f) => f.endsWith(`>${p.pseudo}`)).length,
          videos_count: this.videos.filter((v) => v.user_email === p.email).length,
          likes: this.videos.filter((v) => v.user_email === p.email).reduce((s, v) => s + v.likes_count, 0),
        }));
      return json(200, friends);
    }
    if (method === 'GET' && (m = path.match(/^\/api\/users\/by-pseudo\/(.+)$/))) {
      const p = this.person(m[1]);
      return p ? json(200, p) : json(404, { error: 'Utilisateur introuvable.' });
    }

    // --- videos
    if (method === 'GET' && (m = path.match(/^\/api\/videos\/friends-feed\/(.+)$/))) {
      const page = Number(url.searchParams.get('page') ?? 1);
      const limit = Number(url.searchParams.get('limit') ?? 10);
      const feed = this.videos
        .filter((v) => v.user_email !== me && this.follows.has(`alice>${this.person(v.user_email)?.pseudo}`))
        .sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at))
        .map((v) => this.videoJson(v));
      return json(200, feed.slice((page - 1) * limit, page * limit));
    }
    if (method === 'POST' && path === '/api/videos/views') return json(200, { ok: true });
    if ((m = path.match(/^\/api\/videos\/(\d+)\/like$/))) {
      const v = this.videos.find((x) => x.id === Number(m![1]))!;
      v.liked_by_me = method === 'POST';
      v.likes_count += method === 'POST' ? 1 : -1;
      return json(200, { liked: v.liked_by_me, likes_count: v.likes_count });
    }
    if (method === 'GET' && (m = path.match(/^\/api\/videos\/(\d+)\/comments$/))) {
      const items = this.comments
        .filter((c) => c.video_id === Number(m![1]))
        .map((c) => ({ ...c, user_profile_picture: this.person(c.user_pseudo)?.profile_picture ?? null }));
      return json(200, { items });
    }
    if (method === 'POST' && (m = path.match(/^\/api\/videos\/(\d+)\/comment$/))) {
      const b = body as { content: string; parentId: number | null; userPseudo: string };
      this.comments.push({
        id: this.nextId++,
        video_id: Number(m[1]),
        parent_id: b.parentId,
        user_pseudo: b.userPseudo,
        content: b.content,
        created_at: new Date().toISOString(),
      });
      return json(201, { message: 'Commentaire publié.', item: this.comments[this.comments.length - 1] });
    }
    if (method === 'DELETE' && (m = path.match(/^\/api\/videos\/(?:delete\/)?(\d+)$/))) {
      this.videos = this.videos.filter((v) => v.id !== Number(m![1]));
      return json(200, { message: 'Vidéo supprimée' });
    }
    if (method === 'GET' && (m = path.match(/^\/api\/videos\/(\d+)$/))) {
      const v = this.videos.find((x) => x.id === Number(m![1]));
      return v ? json(200, this.videoJson(v)) : json(404, { error: 'Vidéo indisponible.' });
    }
    if (method === 'POST' && path.startsWith('/api/favorite/')) return json(200, { favorited: true });
    if (method === 'POST' && path.startsWith('/api/report/')) return json(201, { message: 'Signalement enregistré' });

    // --- notifications
    if (method === 'GET' && path === '/api/notifications') return json(200, this.notifications);
    if (method === 'GET' && path === '/api/notifications/unread') {
      return json(200, { unread: this.notifications.filter((n) => !n.seen).length });
    }
    if (method === 'PUT' && path === '/api/notifications/read-all') {
      for (const n of this.notifications) n.seen = 1;
      return json(200, { ok: true });
    }
    if (method === 'PUT' && (m = path.match(/^\/api\/notifications\/(\d+)\/read$/))) {
      const n = this.notifications.find((x) => x.id === Number(m![1]));
      if (n) n.seen = 1;
      return json(200, { ok: true });
    }
    if (method === 'DELETE' && (m = path.match(/^\/api\/notifications\/(\d+)$/))) {
      this.notifications = this.notifications.filter((x) => x.id !== Number(m![1]));
      return json(200, { ok: true });
    }

    // --- messages
    if (method === 'GET' && (m = path.match(/^\/api\/messages\/received\/(.+)$/))) {
      return json(
        200,
        this.messages.filter((x) => x.sender_email === me || x.receiver_email === me).map((x) => this.messageJson(x)),
      );
    }
    if (method === 'GET' && (m = path.match(/^\/api\/messages\/conversation\/([^/]+)\/([^/]+)$/))) {
      const other = this.person(m[2]);
      if (!other) return json(404, { error: 'Utilisateur introuvable.' });
      return json(
        200,
        this.messages
          .filter(
            (x) =>
              (x.sender_email === me && x.receiver_email === other.email) ||
              (x.sender_email === other.email && x.receiver_email === me),
          )
          .map((x) => this.messageJson(x)),
      );
    }
    if (method === 'POST' && (path === '/api/messages' || path === '/api/messages/')) {
      const b = body as { senderEmail: string; receiverEmail: string; content: string };
      if (/idiot/i.test(b.content)) return json(400, { error: INAPPROPRIATE });
      const to = this.person(b.receiverEmail);
      if (!to || !this.follows.has(`alice>${to.pseudo}`)) {
        return json(403, { error: 'Vous devez suivre cet utilisateur pour lui envoyer un MP.' });
      }
      const row: MessageRow = {
        id: this.nextId++,
        sender_email: b.senderEmail,
        receiver_email: b.receiverEmail,
        content: b.content,
        created_at: new Date().toISOString(),
      };
      this.messages.push(row);
      return json(201, { message: 'Message envoyé.', item: this.messageJson(row) });
    }
    if (method === 'DELETE' && (m = path.match(/^\/api\/messages\/([^/]+)\/([^/]+)$/))) {
      const [, a, b] = m;
      this.messages = this.messages.filter(
        (x) => !((x.sender_email === a && x.receiver_email === b) || (x.sender_email === b && x.receiver_email === a)),
      );
      return json(200, { message: 'Conversation supprimée' });
    }

    return json(404, { error: `Introuvable (mock) : ${method} ${path}` });
  }
}

// ---------------------------------------------------------------------------
// Fake socket.io server (Engine.IO v4, polling only)
// ---------------------------------------------------------------------------

class FakeSocket {
  /** `auth` of each namespace connection, in order (the client sends { since }). */
  auths: Array<Record<string, unknown>> = [];
  /** events the client emitted, e.g. ['video:watch', 6] */
  received: unknown[][] = [];
  private queue: string[] = [];
  private parked: Route | null = null;
  private sessions = 0;
  /** Packets sent right after each namespace connection (e.g. 'sync'). */
  onConnect: () => Array<[string, unknown]> = () => [];

  async handle(route: Route) {
    const request = route.request();
    const url = new URL(request.url());
    if (process.env.SOCKET_DEBUG) console.log('socket', request.method(), url.search, request.postData() ?? '');
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
        if (packet.startsWith('42')) this.received.push(JSON.parse(packet.slice(2)) as unknown[]);
        if (packet.startsWith('40')) {
          this.auths.push(packet.length > 2 ? (JSON.parse(packet.slice(2)) as Record<string, unknown>) : {});
          this.push(`40${JSON.stringify({ sid: `n${this.sessions}` })}`);
          for (const [event, payload] of this.onConnect()) this.emit(event, payload);
        }
      }
      return route.fulfill({ status: 200, contentType: 'text/html', body: 'ok' });
    }
    // Long poll: answer now if something is queued, else park until a push (or 20 s).
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

  /** Engine.IO close: the client reconnects by itself (new handshake, new auth). */
  dropTransport() {
    this.push('1');
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
    if (process.env.SOCKET_DEBUG) console.log('socket <-', body);
    route.fulfill({ status: 200, contentType: 'text/plain; charset=UTF-8', body }).catch(() => undefined);
  }
}

// ---------------------------------------------------------------------------
// Browser helpers
// ---------------------------------------------------------------------------

const COLORS = ['#e11d48', '#7c3aed', '#0f766e', '#1d4ed8', '#b45309', '#be185d', '#15803d'];

function avatarSvg(name: string) {
  const letter = (name[0] ?? '?').toUpperCase();
  const color = COLORS[[...name].reduce((s, c) => s + c.charCodeAt(0), 0) % COLORS.length];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="160" viewBox="0 0 160 160"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${color}"/><stop offset="1" stop-color="#111114"/></linearGradient></defs><rect width="160" height="160" fill="url(#g)"/><circle cx="80" cy="62" r="30" fill="rgba(255,255,255,.85)"/><path d="M24 150c6-34 30-50 56-50s50 16 56 50z" fill="rgba(255,255,255,.85)"/><text x="80" y="74" font-family="DejaVu Sans" font-size="34" font-weight="700" text-anchor="middle" fill="${color}">${letter}</text></svg>`;
}

interface Ctx {
  context: BrowserContext;
  page: Page;
  backend: Backend;
  socket: FakeSocket;
  problems: string[];
}

const EXPECTED_CONSOLE = [
  'Failed to load resource', // mocked 4xx/5xx answers
  'Chargement du profil impossible', // the product error catalogue console only
  'Abonnement impossible',
];

async function open(browser: Browser, viewport = { width: 1280, height: 860 }, backend = new Backend()): Promise<Ctx> {
  const context = await browser.newContext({ viewport, locale: 'fr-FR', deviceScaleFactor: 1 });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const text = msg.text();
    if (EXPECTED_CONSOLE.some((expected) => text.includes(expected))) return;
    problems.push(`console: ${text}`);
  });
  const socket = new FakeSocket();
  await page.route('**/socket.io/**', (route) => socket.handle(route));
  await page.route(
    (url) => url.pathname.startsWith('/uploads/'),
    (route) => {
      const path = new URL(route.request().url()).pathname;
      const video = path.match(/demo-(\d)\.mp4$/);
      if (video)
        return route.fulfill({ status: 200, contentType: 'video/mp4', path: join(demoDir, `demo-${video[1]}.mp4`) });
      if (path.startsWith('/uploads/profile_pics/') && !path.endsWith('default.png')) {
        const name = decodeURIComponent(path.split('/').pop() ?? '').replace(/\.\w+$/, '');
        return route.fulfill({ status: 200, contentType: 'image/svg+xml', body: avatarSvg(name) });
      }
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
  // Let the first video frames paint.
  await page
    .waitForFunction(
      `Array.from(document.querySelectorAll('video')).every((v) => v.readyState >= 2 || v.error)`,
      undefined,
      { timeout: 4000 },
    )
    .catch(() => undefined);
  await page.screenshot({ path: join(outDir, `${name}.png`), fullPage });
  console.log(`  ✓ ${name}.png`);
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

// ---------------------------------------------------------------------------
// Scenarios
// ---------------------------------------------------------------------------

async function suggestionsAndCards(browser: Browser, base: string, problems: string[]) {
  console.log('Suggestions and video card');
  const ctx = await open(browser);
  const { page, backend } = ctx;
  await page.goto(`${base}/users-with-videos`);
  await page.getByRole('heading', { level: 1, name: 'Suggestions pour toi' }).waitFor();
  const cards = page.locator('.card-grid > li');
  await cards.first().waitFor();
  assert.equal(await cards.count(), 3, 'emma, farid, gabriel are suggested');
  assert.equal(await page.getByRole('link', { name: 'Profil de @emma' }).getAttribute('href'), '/user/emma');
  await waitFor(() => backend.count('POST', '/api/videos/views') === 3, 'one view per card');
  const view = backend.last('POST', '/api/videos/views')!.body as { videoId: number; userEmail: string };
  assert.equal(view.userEmail, ME.email);
  const videoBox = await page.locator('.video-card__open').first().boundingBox();
  assert.ok(videoBox && videoBox.height <= 400, 'player at most 400 px high');
  await shot(page, '20-suggestions');
  // Each card watches its video's room (counters, comments), again after a reconnection.
  const watched = () => ctx.socket.received.filter(([e]) => e === 'video:watch').map(([, id]) => id);
  await waitFor(() => [5, 6, 7].every((id) => watched().includes(id)), 'cards watch their video rooms');

  // Follow → toast and the card goes away.
  await page.getByRole('button', { name: 'Suivre @emma' }).click();
  await toast(page, '✅ Tu suis maintenant emma').waitFor();
  await page.getByRole('button', { name: 'Suivre @emma' }).waitFor({ state: 'detached' });
  assert.deepEqual(backend.last('POST', '/api/users/follows/follow')!.body, {
    followerEmail: ME.email,
    followingPseudo: 'emma',
  });
  assert.equal(await cards.count(), 2);
  await waitFor(
    () => ctx.socket.received.some(([e, id]) => e === 'video:unwatch' && id === 5),
    'removed card unwatches',
  );
  // Follow failure.
  await page.getByRole('button', { name: 'Suivre @gabriel' }).click();
  await toast(page, '❌ Erreur lors du follow').waitFor();
  await page.getByText('Erreur serveur, réessayez plus tard.').waitFor();
  assert.equal(await cards.count(), 2, 'card kept after a failed follow');
  await shot(page, '21-suggestions-follow-error');

  // Like (optimistic, then the server's count).
  const farid = page.locator('.card-grid > li', { hasText: '@farid' });
  const like = farid.getByRole('button', { name: /^J'aime/ });
  assert.equal(await like.getAttribute('aria-pressed'), 'false');
  await like.click();
  await farid.getByRole('button', { name: "J'aime (65)" }).waitFor();
  assert.equal(await like.getAttribute('aria-pressed'), 'true');
  assert.equal(backend.count('POST', '/api/videos/6/like'), 1);
  await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/api/videos/6/like') && r.request().method() === 'DELETE'),
    like.click(),
  ]);
  await farid.getByRole('button', { name: "J'aime (64)" }).waitFor();
  assert.equal(backend.count('DELETE', '/api/videos/6/like'), 1);

  // Live counters.
  ctx.socket.emit('video:counters', { videoId: 6, likes_count: 70, views_count: 6000, position: '12' });
  await farid.getByRole('button', { name: "J'aime (70)" }).waitFor();
  await farid.getByText('6000 vues').waitFor();

  // Menu: keyboard, outside click, Partager / Favori / Signaler, no Supprimer (not the owner).
  const menuButton = farid.getByRole('button', { name: "Plus d'actions sur la vidéo" });
  await menuButton.focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu');
  await menu.waitFor();
  assert.equal(await page.evaluate('document.activeElement?.textContent'), 'Partager', 'focus on the first item');
  assert.equal(await menu.getByRole('menuitem', { name: 'Supprimer' }).count(), 0, 'no delete for others');
  await shot(page, '22-video-card-menu');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.evaluate('document.activeElement?.textContent'), 'Favori');
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'detached' });
  assert.equal(
    await page.evaluate('document.activeElement?.getAttribute("aria-label")'),
    "Plus d'actions sur la vidéo",
  );
  await menuButton.click();
  await menu.waitFor();
  await page.getByRole('heading', { level: 1 }).click();
  await menu.waitFor({ state: 'detached' });

  await menuButton.click();
  await page.getByRole('menuitem', { name: 'Partager' }).click();
  await toast(page, 'Lien copié !').waitFor();
  await menu.waitFor({ state: 'detached' });
  assert.equal(await page.evaluate('navigator.clipboard.readText()'), `${new URL(base).origin}/video/6`);
  await menuButton.click();
  await page.getByRole('menuitem', { name: 'Favori' }).click();
  await toast(page, '⭐ Ajouté aux favoris').waitFor();
  assert.equal(backend.count('POST', '/api/favorite/6'), 1);
  await menuButton.click();
  await page.getByRole('menuitem', { name: 'Signaler' }).click();
  await toast(page, '🚩 Signalement envoyé').waitFor();
  assert.equal(backend.count('POST', '/api/report/6'), 1);

  // Gift → catalogue for the owner.
  await farid.getByRole('button', { name: 'Envoyer un cadeau à @farid' }).click();
  await page.waitForURL(`${base}/catalogue?receiver=farid%40example.com`);
  problems.push(...ctx.problems);
  await ctx.context.close();

  // Empty and failing lists.
  const empty = new Backend();
  empty.overrides.set('GET /api/users/with-videos', { status: 200, body: [] });
  const e = await open(browser, undefined, empty);
  await e.page.goto(`${base}/users-with-videos`);
  await e.page.getByText('Aucune suggestion disponible.').waitFor();
  empty.overrides.set('GET /api/users/with-videos', { status: 500, body: { error: 'Panne' } });
  await e.page.reload();
  await e.page.getByRole('alert').getByText('Impossible de charger le feed', { exact: true }).waitFor();
  await shot(e.page, '23-suggestions-error');
  problems.push(...e.problems);
  await e.context.close();
}

async function comments(browser: Browser, base: string, problems: string[]) {
  console.log('Comments');
  const ctx = await open(browser);
  const { page, backend } = ctx;
  await page.goto(`${base}/user/bob`);
  const card = page.locator('.card-grid > li', { hasText: 'Descente du col du Galibier' });
  await card.waitFor();
  const toggle = card.getByRole('button', { name: /^Commentaires/ });
  await toggle.click();
  const panel = card.getByRole('region', { name: 'Commentaires' });
  await panel.getByText('Magnifique descente !').waitFor();
  assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
  assert.equal(await panel.locator('.comments__replies .comment').count(), 1, 'one reply under its comment');
  await panel.getByRole('button', { name: 'Répondre à @bob' }).click();
  await panel.getByText('Réponse à @bob', { exact: true }).waitFor();
  // Blank text is ignored.
  await page.keyboard.press('Enter');
  assert.equal(backend.count('POST', '/api/videos/1/comment'), 0);
  await panel.getByRole('textbox').fill('Il faisait froid mais quelle vue !');
  await shot(page, '24-video-card-comments');
  const loadsBefore = backend.count('GET', '/api/videos/1/comments');
  await panel.getByRole('button', { name: 'Envoyer', exact: true }).click();
  await panel.waitFor({ state: 'detached' });
  assert.deepEqual(backend.last('POST', '/api/videos/1/comment')!.body, {
    userEmail: ME.email,
    userPseudo: ME.pseudo,
    content: 'Il faisait froid mais quelle vue !',
    parentId: 1,
  });
  await waitFor(() => backend.count('GET', '/api/videos/1/comments') === loadsBefore + 1, 'comments reloaded');
  await card.getByRole('button', { name: 'Commentaires (4)' }).waitFor();
  assert.equal(await page.evaluate('document.activeElement?.getAttribute("aria-label")'), 'Commentaires (4)');
  await toast(page, 'Commentaire publié.').waitFor();

  // Reopen: fresh draft, the reply is threaded; send failure keeps the panel.
  await toggle.click();
  await panel.getByText('Il faisait froid mais quelle vue !').waitFor();
  assert.equal(await panel.getByRole('textbox').inputValue(), '');
  assert.equal(await panel.locator('.comments__replies .comment').count(), 2);
  // A comment from someone else arrives live in the open panel.
  ctx.socket.emit('comment:new', {
    videoId: 1,
    comment: {
      id: 77,
      parent_id: null,
      user_pseudo: 'emma',
      user_profile_picture: 'emma.png',
      content: 'Superbe !',
      created_at: new Date().toISOString(),
    },
    comments_count: 5,
    position: '90',
  });
  await panel.getByText('Superbe !').waitFor();
  await card.getByRole('button', { name: 'Commentaires (5)' }).waitFor();
  backend.overrides.set('POST /api/videos/1/comment', { status: 500, body: { error: 'Base indisponible' } });
  await panel.getByRole('textbox').fill('Test');
  await panel.getByRole('button', { name: 'Envoyer', exact: true }).click();
  await toast(page, '❌ Erreur envoi commentaire').waitFor();
  assert.equal(await panel.getByRole('textbox').inputValue(), 'Test');
  problems.push(...ctx.problems);
  await ctx.context.close();

  // No pseudo stored → SPEC alert; logged out → no form.
  const noPseudo = new Backend();
  noPseudo.me = { ...ME, pseudo: '' };
  const n = await open(browser, undefined, noPseudo);
  // the single video page shows its thread from the start
  await n.page.goto(`${base}/video/1`);
  await n.page.getByRole('textbox', { name: 'Votre commentaire' }).fill('Bonjour');
  await n.page.getByRole('button', { name: 'Envoyer', exact: true }).click();
  await toast(n.page, '❌ Erreur : pseudo introuvable, reconnectez-vous.').waitFor();
  assert.equal(noPseudo.count('POST', '/api/videos/1/comment'), 0);
  problems.push(...n.problems);
  await n.context.close();
}

async function feed(browser: Browser, base: string, problems: string[]) {
  console.log('Friends feed (vertical)');
  const ctx = await open(browser);
  const { page, backend } = ctx;
  await page.goto(`${base}/feed`);
  const active = page.locator('.feed-slide--active');
  await active.waitFor();
  assert.equal(await active.getByRole('heading', { level: 2 }).textContent(), 'Descente du col du Galibier');
  assert.equal(await active.getByRole('link', { name: '@bob', exact: true }).getAttribute('href'), '/user/bob');
  assert.equal(await active.getByRole('link', { name: 'Profil de @bob' }).getAttribute('href'), '/user/bob');
  await shot(page, '25-feed');
  // near the end of the first page (10 videos), the second one is asked
  for (let i = 0; i < 7; i++) await page.keyboard.press('ArrowDown');
  await waitFor(() => backend.count('GET', /friends-feed\/.*page=2/) === 1, 'page 2');
  // after the friends' videos, other members' videos (the suggestions)
  for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowDown');
  await waitFor(() => backend.count('GET', /\/api\/users\/with-videos/) >= 1, 'other members');
  problems.push(...ctx.problems);
  await ctx.context.close();

  const states = new Backend();
  states.overrides.set('GET /api/videos/friends-feed/alice@example.com', { status: 200, body: [] });
  states.overrides.set('GET /api/users/with-videos', { status: 200, body: [] });
  const s = await open(browser, { width: 375, height: 812 }, states);
  await s.page.goto(`${base}/feed`);
  await s.page.getByText('Aucun contenu', { exact: true }).waitFor();
  states.overrides.set('GET /api/videos/friends-feed/alice@example.com', { status: 500, body: { error: 'x' } });
  await s.page.reload();
  await s.page.getByText('Impossible de charger le feed amis').waitFor();
  problems.push(...s.problems);
  await s.context.close();

  const loggedOut = new Backend();
  loggedOut.me = null;
  const l = await open(browser, undefined, loggedOut);
  await l.page.goto(`${base}/feed`);
  await l.page.getByText('Utilisateur non connecté', { exact: true }).waitFor();
  problems.push(...l.problems);
  await l.context.close();
}

async function videoPage(browser: Browser, base: string, problems: string[]) {
  console.log('Single video page');
  const ctx = await open(browser);
  const { page, backend } = ctx;
  await page.goto(`${base}/user/bob`);
  await page
    .locator('.card-grid > li', { hasText: 'Descente du col du Galibier' })
    .getByRole('link', { name: /^Ouvrir la vidéo/ })
    .click();
  await page.getByRole('heading', { level: 1, name: 'Descente du col du Galibier' }).waitFor();
  await page.getByText('Posté par').waitFor();
  assert.equal(
    await page.locator('.video-page__author').getByRole('link', { name: '@bob', exact: true }).getAttribute('href'),
    '/user/bob',
  );
  const bar = page.getByRole('group', { name: 'Actions sur la vidéo' });
  assert.equal(await bar.getByRole('button', { name: 'Supprimer' }).count(), 0);
  await shot(page, '26-video-page');
  await bar.getByRole('button', { name: 'Favori' }).click();
  await toast(page, 'Ajouté aux favoris').waitFor();
  assert.equal(await toast(page, 'Ajouté aux favoris').textContent(), 'Ajouté aux favoris', 'no emoji on the page');
  await bar.getByRole('button', { name: 'Signaler' }).click();
  // the reasons are offered (optional)
  await page.getByRole('dialog').getByRole('button', { name: 'Signaler' }).click();
  await toast(page, 'Signalement envoyé').waitFor();
  await bar.getByRole('button', { name: 'Partager' }).click();
  await toast(page, 'Lien copié !').waitFor();
  // the thread is open from the start
  await page.getByText('Tu avais quel vélo ?').waitFor();
  await page.getByRole('button', { name: 'Retour' }).click();
  await page.waitForURL(`${base}/user/bob`);

  // Own video without a title: 'Sans titre', delete → confirm → back to the profile.
  await page.goto(`${base}/video/4`);
  await page.getByRole('heading', { level: 1, name: 'Sans titre' }).waitFor();
  await page.getByRole('group', { name: 'Actions sur la vidéo' }).getByRole('button', { name: 'Supprimer' }).click();
  await page.getByRole('dialog').getByText('Supprimer cette vidéo ?').waitFor();
  await shot(page, '27-video-page-delete-confirm');
  await page.getByRole('dialog').getByRole('button', { name: 'Supprimer' }).click();
  await toast(page, 'Vidéo supprimée').waitFor();
  await page.waitForURL(`${base}/user/alice`);
  assert.equal(backend.count('DELETE', '/api/videos/4'), 1);

  await page.goto(`${base}/video/999`);
  await page.getByRole('heading', { level: 1, name: 'Vidéo indisponible' }).waitFor();
  await shot(page, '28-video-unavailable');
  problems.push(...ctx.problems);
  await ctx.context.close();
}

async function profiles(browser: Browser, base: string, problems: string[]) {
  console.log('Profiles');
  const ctx = await open(browser);
  const { page, backend } = ctx;
  await page.goto(`${base}/user/alice`);
  await page.getByRole('heading', { level: 1, name: '@alice' }).waitFor();
  await page.getByRole('heading', { name: 'Mes vidéos' }).waitFor();
  await page.getByText('Danseuse le week-end').waitFor();
  const counters = page.locator('.profile__counters');
  await counters.getByText('Suivis').waitFor();
  await page.waitForFunction(`document.querySelector('.profile__counters dd')?.textContent === '3'`);
  assert.equal(await page.getByRole('button', { name: '+ Suivre' }).count(), 0, 'no follow button on my profile');
  const picture = await page.locator('.profile__card .avatar').boundingBox();
  assert.equal(Math.round(picture?.width ?? 0), 150);
  await shot(page, '29-profile-own');
  // Delete one of my videos (profile wording, /api/videos/delete/:id), then reload.
  const mine = page.locator('.card-grid > li', { hasText: 'Ma chorégraphie du dimanche' });
  await mine.getByRole('button', { name: "Plus d'actions sur la vidéo" }).click();
  await page.getByRole('menuitem', { name: 'Supprimer' }).click();
  await page.getByRole('dialog').getByText('Voulez-vous vraiment supprimer cette vidéo ?').waitFor();
  await page.getByRole('dialog').getByRole('button', { name: 'Supprimer' }).click();
  await toast(page, '✅ Vidéo supprimée').waitFor();
  await mine.waitFor({ state: 'detached' });
  assert.equal(backend.count('DELETE', '/api/videos/delete/3'), 1);

  // /profile = my profile.
  await page.goto(`${base}/profile`);
  await page.getByRole('heading', { level: 1, name: '@alice' }).waitFor();

  // Someone I do not follow: + Suivre → disabled while pending → Abonné (grey, disabled).
  backend.overrides.set('POST /api/users/follows/follow', { status: 200, body: { message: 'ok' }, delayMs: 600 });
  await page.goto(`${base}/user/emma`);
  await page.getByRole('heading', { level: 1, name: '@emma' }).waitFor();
  assert.equal(await page.getByRole('link', { name: 'Message privé' }).getAttribute('href'), '/send-message/emma');
  assert.equal(
    await page.getByRole('link', { name: 'Envoyer un cadeau' }).getAttribute('href'),
    '/catalogue?receiver=emma',
  );
  await page.getByRole('heading', { name: 'Vidéos de @emma' }).waitFor();
  const followButton = page.getByRole('button', { name: '+ Suivre' });
  await page.waitForFunction(`!document.querySelector('.profile__actions button')?.disabled`);
  await shot(page, '30-profile-other');
  await followButton.click();
  assert.ok(await followButton.isDisabled(), 'disabled while pending');
  await page.getByRole('button', { name: 'Abonné' }).waitFor();
  assert.ok(await page.getByRole('button', { name: 'Abonné' }).isDisabled());
  assert.equal(await page.locator('.profile__counters').count(), 0, "another member's counters are private");
  assert.equal(backend.count('GET', /^\/api\/users\/stats\/emma/), 0, 'not even asked');
  await shot(page, '31-profile-followed');

  // Already followed, no videos.
  await page.goto(`${base}/user/dave`);
  await page.getByText('Aucune vidéo pour le moment').waitFor();
  await page.getByRole('button', { name: 'Abonné' }).waitFor();

  // Unknown pseudo.
  await page.goto(`${base}/user/personne`);
  await page.getByRole('alert').getByText('Profil introuvable ou erreur serveur').waitFor();
  await shot(page, '32-profile-not-found');
  problems.push(...ctx.problems);
  await ctx.context.close();

  const mobile = await open(browser, { width: 375, height: 812 });
  await mobile.page.goto(`${base}/user/bob`);
  await mobile.page.getByRole('heading', { level: 1, name: '@bob' }).waitFor();
  await mobile.page.locator('.card-grid > li').first().waitFor();
  await noHorizontalScroll(mobile.page, 'profile 375');
  await shot(mobile.page, '33-profile-mobile');
  problems.push(...mobile.problems);
  await mobile.context.close();
}

async function friends(browser: Browser, base: string, problems: string[]) {
  console.log('Friends list');
  const ctx = await open(browser, { width: 375, height: 812 });
  const { page, backend } = ctx;
  await page.goto(`${base}/friends`);
  await page.getByRole('heading', { level: 1, name: 'Mes amis' }).waitFor();
  const rows = page.locator('.friend');
  await rows.first().waitFor();
  assert.equal(await rows.count(), 3);
  await page.getByText('Aucune bio').waitFor();
  const bob = rows.filter({ hasText: '@bob' });
  assert.equal(await bob.getByRole('link', { name: 'Voir le profil de @bob' }).getAttribute('href'), '/user/bob');
  await noHorizontalScroll(page, 'friends 375');
  await shot(page, '34-friends-mobile');
  await bob.getByRole('button', { name: 'Se désabonner de @bob' }).click();
  await page.getByRole('dialog').getByText('Se désabonner de cet utilisateur ?').waitFor();
  await shot(page, '35-friends-unfollow-confirm');
  await page.getByRole('dialog').getByRole('button', { name: 'Se désabonner' }).click();
  await bob.waitFor({ state: 'detached' });
  assert.deepEqual(backend.last('POST', '/api/follows/unfollow')!.body, {
    followerEmail: ME.email,
    followingPseudo: 'bob',
  });
  assert.equal(backend.count('GET', /^\/api\/users\/friends\//), 2, 'list reloaded');

  backend.follows.clear();
  await page.goto(`${base}/friends-list`);
  await page.getByText('Vous ne suivez encore personne').waitFor();
  problems.push(...ctx.problems);
  await ctx.context.close();
}

async function notifications(browser: Browser, base: string, problems: string[]) {
  console.log('Notifications');
  const ctx = await open(browser);
  const { page, backend, socket } = ctx;
  await page.addInitScript(() =>
    sessionStorage.setItem('evo.socket.position', JSON.stringify({ owner: 'alice@example.com', position: '41' })),
  );
  await page.goto(`${base}/`);
  const bell = page.getByRole('button', { name: 'Notifications', exact: true });
  await page.locator('.bell .badge').getByText('3').waitFor();
  await waitFor(() => socket.auths.length === 1, 'socket connected');
  assert.equal(socket.auths[0].since, '41', 'last position sent as auth.since');

  await bell.click();
  const panel = page.getByRole('region', { name: 'Notifications' });
  await panel.waitFor();
  assert.equal(await bell.getAttribute('aria-expanded'), 'true');
  await panel.locator('.notif').first().waitFor();
  const box = await panel.boundingBox();
  assert.ok(box && box.width >= 360, 'dropdown at least 360 px wide');
  assert.equal(await panel.getByRole('link', { name: 'Voir la vidéo' }).count(), 2, 'video_id > 0 only');
  assert.equal(await panel.getByRole('button', { name: "S'abonner en retour" }).count(), 1, 'not for my own follow');
  assert.equal(await panel.locator('.notif__icon--default').count(), 1, 'unknown type → default bell');
  await shot(page, '36-notifications-dropdown');

  await panel.getByRole('button', { name: "S'abonner en retour" }).click();
  await toast(page, '✅ Abonné en retour !').waitFor();
  assert.deepEqual(backend.last('POST', '/api/follows/follow')!.body, {
    follower_email: ME.email,
    following_email: 'bob@example.com',
  });

  // Delete an unread one: the badge goes down.
  await panel.getByRole('button', { name: 'Supprimer la notification de carol' }).first().click();
  await page.locator('.bell .badge').getByText('2').waitFor();
  assert.equal(backend.count('DELETE', '/api/notifications/109'), 1);

  // Live: a new notification, then the server's unread count (never below 0).
  const bravo: NotificationRow = {
    id: 111,
    type: 'comment',
    sender_email: 'carol@example.com',
    sender_pseudo: 'carol',
    message: 'a commenté ta vidéo : « Bravo ! »',
    video_id: 3,
    seen: 0,
    created_at: new Date().toISOString(),
  };
  backend.notifications.unshift(bravo);
  socket.emit('notification:new', { notification: bravo, unread: 3, position: '57' });
  await panel.getByText('« Bravo ! »').waitFor();
  await page.locator('.bell .badge').getByText('3').waitFor();
  const stored = JSON.parse(String(await page.evaluate('sessionStorage.getItem("evo.socket.position")'))) as {
    position: string;
  };
  assert.equal(stored.position, '57', 'last position remembered');
  socket.emit('notification:unread', { unread: -4, position: '58' });
  await page.locator('.bell .badge').waitFor({ state: 'detached' });
  socket.emit('notification:unread', { unread: 2, position: '59' });
  await page.locator('.bell .badge').getByText('2').waitFor();

  // Reconnection: the client sends the last position and merges the 'sync'.
  const missed: NotificationRow = {
    id: 112,
    type: 'gift',
    sender_email: 'farid@example.com',
    sender_pseudo: 'farid',
    message: "t'a envoyé un cadeau pendant ton absence",
    video_id: 0,
    seen: 0,
    created_at: new Date().toISOString(),
  };
  backend.notifications.unshift(missed);
  socket.onConnect = () => [['sync', { notifications: [missed], messages: [], unread: 3, position: '61' }]];
  socket.dropTransport();
  await waitFor(() => socket.auths.length === 2, 'socket reconnected', 10_000);
  assert.equal(socket.auths[1].since, '59');
  await panel.getByText('pendant ton absence').waitFor();
  await page.locator('.bell .badge').getByText('3').waitFor();
  // Read in another tab: the item loses its "Non lue" mark.
  const gift = panel.locator('.notif', { hasText: 'pendant ton absence' });
  await gift.getByText('Non lue').waitFor();
  socket.emit('notification:unread', { unread: 2, read: 112, position: '62' });
  await gift.getByText('Non lue').waitFor({ state: 'detached' });
  await page.locator('.bell .badge').getByText('2').waitFor();

  // Escape closes and gives focus back to the bell.
  await page.keyboard.press('Escape');
  await panel.waitFor({ state: 'detached' });
  assert.equal(await page.evaluate('document.activeElement?.getAttribute("aria-label")'), 'Notifications');

  // A message notification opens /messages and is marked read.
  // Reopening reloads the list: unread = 112, 111, 110 and the message 108.
  await bell.click();
  await page.locator('.bell .badge').getByText('4').waitFor();
  await panel.getByRole('button', { name: /t'a envoyé un message privé/ }).click();
  await page.waitForURL(`${base}/messages`);
  assert.equal(backend.count('PUT', '/api/notifications/108/read'), 1);
  await page.locator('.bell .badge').getByText('3').waitFor();

  // Mark all read, then the full page.
  await bell.click();
  await panel.getByRole('button', { name: 'Tout marquer comme lu' }).click();
  await page.locator('.bell .badge').waitFor({ state: 'detached' });
  assert.equal(backend.count('PUT', '/api/notifications/read-all'), 1);
  await panel.getByRole('link', { name: 'Voir toutes les notifications' }).click();
  await page.waitForURL(`${base}/notifications`);
  await page.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor();
  await page.locator('.notifications-page__list .notif').first().waitFor();
  await shot(page, '37-notifications-page');
  problems.push(...ctx.problems);
  await ctx.context.close();

  // Phone: the dropdown fits; empty list.
  const empty = new Backend();
  empty.notifications = [];
  const m = await open(browser, { width: 375, height: 812 }, empty);
  await m.page.goto(`${base}/`);
  await m.page.getByRole('button', { name: 'Notifications', exact: true }).click();
  const mPanel = m.page.getByRole('region', { name: 'Notifications' });
  await mPanel.getByText('Aucune notification').waitFor();
  const mBox = await mPanel.boundingBox();
  assert.ok(mBox && mBox.x >= 0 && mBox.x + mBox.width <= 375 && mBox.width >= 359, 'fits at 375 px');
  await noHorizontalScroll(m.page, 'notifications 375');
  await shot(m.page, '38-notifications-empty-mobile');
  problems.push(...m.problems);
  await m.context.close();
}

async function messages(browser: Browser, base: string, problems: string[]) {
  console.log('Messages inbox');
  const ctx = await open(browser);
  const { page, backend, socket } = ctx;
  await page.goto(`${base}/messages`);
  await page.getByRole('heading', { level: 1, name: 'Messages' }).waitFor();
  const items = page.locator('.inbox__item');
  await items.first().waitFor();
  assert.deepEqual(
    await page.locator('.inbox__pseudo').allTextContents(),
    ['@emma', '@carol', '@bob'],
    'grouped by the other party, latest first',
  );
  await page.getByText('Vous : ').count();
  await shot(page, '39-inbox');

  await items.filter({ hasText: '@bob' }).click();
  await page.waitForURL(`${base}/messages?avec=bob`);
  const thread = page.getByRole('log', { name: 'Messages avec @bob' });
  await thread.getByText('Prends de quoi réparer').waitFor();
  const box = page.getByRole('textbox', { name: 'Votre réponse à @bob' });
  // Blank reply ignored.
  await box.fill('   ');
  await page.getByRole('button', { name: 'Envoyer', exact: true }).click();
  assert.equal(backend.count('POST', '/api/messages'), 0);
  // Emoji picker: keyboard, skin tone, variations (at most 6).
  await box.fill('À samedi ');
  await page.getByRole('button', { name: 'Insérer un émoji' }).click();
  const picker = page.getByRole('group', { name: 'Choisir un émoji' });
  await picker.waitFor();
  assert.equal(await page.evaluate('document.activeElement?.getAttribute("aria-label")'), 'Visage souriant');
  assert.equal(await picker.getByRole('radio').count(), 6, '6 skin tones');
  await picker.getByRole('radio', { name: 'Peau mate' }).click();
  assert.equal(await picker.getByRole('radio', { name: 'Peau mate' }).getAttribute('aria-checked'), 'true');
  await picker.getByRole('button', { name: 'Pouce levé', exact: true }).focus();
  await page.keyboard.press('Shift+Enter');
  const variants = picker.getByRole('group', { name: 'Variantes : Pouce levé' });
  await variants.waitFor();
  assert.equal(await variants.getByRole('button', { name: /^Pouce levé,/ }).count(), 6);
  await shot(page, '40-emoji-picker-variations');
  await page.keyboard.press('Escape');
  await variants.waitFor({ state: 'detached' });
  await picker.getByRole('button', { name: 'Cœur', exact: true }).click({ button: 'right' });
  const hearts = picker.getByRole('group', { name: 'Variantes : Cœur' });
  assert.equal(await hearts.getByRole('button', { name: /^Cœur, variante/ }).count(), 6, 'at most 6 of 8 hearts');
  await page.keyboard.press('Escape');
  await picker.getByRole('button', { name: 'Pouce levé', exact: true }).focus();
  await page.keyboard.press('Enter');
  await picker.waitFor({ state: 'detached' });
  assert.equal(await box.inputValue(), 'À samedi 👍\u{1F3FD}', 'emoji with the chosen tone at the caret');
  assert.equal(await page.evaluate('document.activeElement?.tagName'), 'TEXTAREA');

  await page.getByRole('button', { name: 'Envoyer', exact: true }).click();
  await page.getByText('✅ Réponse envoyée !').waitFor();
  assert.deepEqual(backend.last('POST', '/api/messages')!.body, {
    senderEmail: ME.email,
    receiverEmail: 'bob@example.com',
    content: 'À samedi 👍\u{1F3FD}',
  });
  await thread.getByText('À samedi 👍\u{1F3FD}').waitFor();
  await shot(page, '41-inbox-thread');
  await page.getByText('✅ Réponse envoyée !').waitFor({ state: 'detached', timeout: 3500 });

  // Server refusal shown as it comes.
  await box.fill('espèce d’idiot');
  await page.keyboard.press('Enter');
  await page.getByText('Erreur envoi message').waitFor();
  await page.getByText(INAPPROPRIATE).waitFor();
  await shot(page, '42-inbox-send-error');

  // Live message from bob.
  socket.emit('message:new', {
    message: {
      id: 5000,
      sender_email: 'bob@example.com',
      receiver_email: ME.email,
      sender_pseudo: 'bob',
      receiver_pseudo: 'alice',
      sender_profile_picture: 'bob.png',
      receiver_profile_picture: 'alice.png',
      content: 'Je prends la pompe !',
      created_at: new Date().toISOString(),
    },
    position: '70',
  });
  await thread.getByText('Je prends la pompe !').waitFor();
  await page.locator('.inbox__preview', { hasText: 'Je prends la pompe !' }).waitFor();

  // Delete the conversation.
  await page.getByRole('button', { name: 'Supprimer la conversation' }).click();
  await page.getByRole('dialog').getByText('Supprimer la conversation ?').waitFor();
  await page.getByRole('dialog').getByRole('button', { name: 'Supprimer' }).click();
  await page.locator('.inbox__pseudo', { hasText: '@bob' }).waitFor({ state: 'detached' });
  assert.equal(backend.count('DELETE', '/api/messages/alice%40example.com/bob%40example.com'), 1);
  // Deleted from another device: the conversation leaves the list.
  socket.emit('conversation:deleted', { other_email: 'carol@example.com', up_to_message_id: 4, position: '75' });
  await page.locator('.inbox__pseudo', { hasText: '@carol' }).waitFor({ state: 'detached' });

  // Emma is not followed: the reply box is disabled with the reason.
  await items.filter({ hasText: '@emma' }).click();
  await page.getByText('Vous devez suivre cet utilisateur pour lui envoyer un MP.').waitFor();
  assert.ok(await page.getByRole('textbox', { name: 'Votre réponse à @emma' }).isDisabled());
  problems.push(...ctx.problems);
  await ctx.context.close();

  // Phone: list, then the thread with a back button.
  const m = await open(browser, { width: 375, height: 812 });
  await m.page.goto(`${base}/messages`);
  await m.page.locator('.inbox__item').first().waitFor();
  await noHorizontalScroll(m.page, 'inbox 375');
  await shot(m.page, '43-inbox-mobile');
  await m.page.locator('.inbox__item', { hasText: '@carol' }).click();
  await m.page.getByRole('log', { name: 'Messages avec @carol' }).getByText('tarte tatin').waitFor();
  await noHorizontalScroll(m.page, 'inbox thread 375');
  await shot(m.page, '44-inbox-mobile-thread');
  await m.page.getByRole('button', { name: 'Retour aux conversations' }).click();
  await m.page.locator('.inbox__item').first().waitFor();
  problems.push(...m.problems);
  await m.context.close();

  // Load failure.
  const failing = new Backend();
  failing.overrides.set('GET /api/messages/received/alice@example.com', { status: 500, body: { error: 'x' } });
  const f = await open(browser, undefined, failing);
  await f.page.goto(`${base}/messages`);
  await f.page.getByText('Erreur chargement messages').waitFor();
  f.problems.splice(0, f.problems.length, ...f.problems.filter((p) => !p.includes('Chargement des messages')));
  problems.push(...f.problems);
  await f.context.close();
}

async function conversation(browser: Browser, base: string, problems: string[]) {
  console.log('Conversation view');
  const ctx = await open(browser, { width: 375, height: 812 });
  const { page, backend, socket } = ctx;
  await page.goto(`${base}/messages/bob`);
  const thread = page.getByRole('log', { name: 'Messages avec @bob' });
  await thread.getByText('tu viens rouler samedi').waitFor();
  const layout = (await page.evaluate(`(() => {
    const log = document.querySelector('.thread');
    const bubbles = [...document.querySelectorAll('.bubble')];
    return { logH: log.getBoundingClientRect().height, vh: innerHeight, logW: log.clientWidth,
      widest: Math.max(...bubbles.map((b) => b.getBoundingClientRect().width)) };
  })()`)) as { logH: number; vh: number; logW: number; widest: number };
  assert.ok(Math.abs(layout.logH - layout.vh * 0.6) < 2, `thread is 60vh (${layout.logH} vs ${layout.vh})`);
  assert.ok(layout.widest <= layout.logW * 0.7 + 1, 'bubbles at most 70 % wide');
  await noHorizontalScroll(page, 'conversation 375');
  await shot(page, '45-conversation-mobile');
  await page.getByRole('textbox', { name: 'Votre réponse à @bob' }).fill('On se retrouve au col ?');
  await page.getByRole('button', { name: 'Envoyer', exact: true }).click();
  await thread.getByText('On se retrouve au col ?').waitFor();
  assert.equal(backend.count('POST', '/api/messages/'), 1, 'the conversation view posts to /api/messages/');
  socket.emit('message:new', {
    message: {
      id: 6000,
      sender_email: 'bob@example.com',
      receiver_email: ME.email,
      sender_pseudo: 'bob',
      receiver_pseudo: 'alice',
      content: 'Oui, 10 h au sommet.',
      created_at: new Date().toISOString(),
    },
    position: '80',
  });
  await thread.getByText('Oui, 10 h au sommet.').waitFor();
  // A message of another conversation does not show here.
  socket.emit('message:new', {
    message: {
      id: 6001,
      sender_email: 'carol@example.com',
      receiver_email: ME.email,
      sender_pseudo: 'carol',
      receiver_pseudo: 'alice',
      content: 'Message pour une autre conversation',
      created_at: new Date().toISOString(),
    },
  });
  await page.waitForTimeout(300);
  assert.equal(await thread.getByText('Message pour une autre conversation').count(), 0);
  await shot(page, '46-conversation-live');

  await page.goto(`${base}/conversation/carol`);
  await page.getByRole('log', { name: 'Messages avec @carol' }).getByText('tarte tatin').waitFor();
  await page.goto(`${base}/conversation/12345`);
  await page.getByText('Conversation introuvable.').waitFor();
  await page.goto(`${base}/messages/personne`);
  await page.getByText('Utilisateur introuvable ou incomplet.').waitFor();
  problems.push(...ctx.problems);
  await ctx.context.close();
}

async function sendMessagePage(browser: Browser, base: string, problems: string[]) {
  console.log('Send message page');
  const ctx = await open(browser);
  const { page, backend } = ctx;
  await page.goto(`${base}/send-message/bob`);
  await page.getByRole('heading', { level: 1, name: 'Message privé' }).waitFor();
  await page.getByText('Vélo, montagne et cafés serrés.').waitFor();
  assert.equal(
    await page.getByRole('link', { name: 'Envoyer un cadeau à @bob' }).getAttribute('href'),
    '/catalogue?receiver=bob',
  );
  const box = page.getByRole('textbox', { name: 'Votre message à @bob' });
  await page.getByRole('button', { name: 'Envoyer', exact: true }).click();
  await page.getByText('Le message ne peut pas être vide.').waitFor();
  await box.fill('Tu es un idiot');
  await page.getByRole('button', { name: 'Envoyer', exact: true }).click();
  await page.getByText("Erreur lors de l'envoi du message.").waitFor();
  await page.getByText(INAPPROPRIATE).waitFor();
  await shot(page, '47-send-message-error');
  await box.fill('Bravo pour la descente du Galibier !');
  await page.getByRole('button', { name: 'Envoyer', exact: true }).click();
  await page.waitForURL(`${base}/messages`);
  assert.deepEqual(backend.last('POST', '/api/messages')!.body, {
    senderEmail: ME.email,
    receiverEmail: 'bob@example.com',
    content: 'Bravo pour la descente du Galibier !',
  });

  await page.goto(`${base}/send-message/emma`);
  await page.getByText('Vous devez suivre cet utilisateur pour lui envoyer un MP.').waitFor();
  assert.ok(await page.getByRole('textbox', { name: 'Votre message à @emma' }).isDisabled());
  await shot(page, '48-send-message-not-following');

  await page.goto(`${base}/send-message/personne`);
  await page.getByText('Utilisateur introuvable ou incomplet.').waitFor();
  backend.overrides.set('GET /api/users/by-pseudo/bob', { status: 500, body: { error: 'Panne' } });
  await page.goto(`${base}/send-message/bob`);
  await page.getByText("Impossible de récupérer l'utilisateur.").waitFor();
  problems.push(...ctx.problems);
  await ctx.context.close();

  const mobile = await open(browser, { width: 375, height: 812 });
  await mobile.page.goto(`${base}/send-message/carol`);
  await mobile.page.getByText('Recettes express').waitFor();
  await mobile.page.getByRole('button', { name: 'Insérer un émoji' }).click();
  await mobile.page.getByRole('group', { name: 'Choisir un émoji' }).waitFor();
  await noHorizontalScroll(mobile.page, 'send message 375');
  await shot(mobile.page, '49-send-message-mobile-emoji');
  problems.push(...mobile.problems);
  await mobile.context.close();
}

// ---------------------------------------------------------------------------

async function startServer(): Promise<{ base: string; close: () => Promise<void> }> {
  if (process.env.SOCIAL_E2E_BASE)
    return { base: process.env.SOCIAL_E2E_BASE.replace(/\/$/, ''), close: async () => {} };
  if (!existsSync(join(root, 'web', 'dist', 'index.html'))) {
    throw new Error('web/dist is missing: run `npx vite build --config web/vite.config.ts` first');
  }
  const { preview } = await import('vite');
  const server = await preview({
    configFile: join(root, 'web', 'vite.config.ts'),
    logLevel: 'warn',
    preview: { port: 4175, host: '127.0.0.1', open: false },
  });
  const url = server.resolvedUrls?.local[0] ?? 'http://127.0.0.1:4175/';
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
    ['suggestions', suggestionsAndCards],
    ['comments', comments],
    ['feed', feed],
    ['video', videoPage],
    ['profiles', profiles],
    ['friends', friends],
    ['notifications', notifications],
    ['messages', messages],
    ['conversation', conversation],
    ['send', sendMessagePage],
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
    console.log(`All social screens written to ${outDir}`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
