import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response, RequestHandler } from 'express';
import { parse as parseCookie, serialize } from 'cookie';
import { childLogger, type SessionData, type SessionStore } from '@evo/infra';
import { HttpError } from './errors';

const log = childLogger('sessions');

export const SESSION_COOKIE = 'evo.sid';
export const SESSION_TTL_SECONDS = 7 * 24 * 3600;
/** signed cookie values whose verification is kept in memory */
const VERIFIED_CACHE_SIZE = 10_000;

/**
 * The Socket.IO room of every socket opened with one session, named by a hash of the session id
 * (room names travel through Redis with the adapter; the id itself is a credential).
 */
export const sessionRoom = (sessionId: string) =>
  `session:${createHash('sha256').update(sessionId).digest('base64url').slice(0, 32)}`;

export interface SessionsOptions {
  /** how long a session lives after its last write; 7 days */
  ttlSeconds?: number;
}

declare module 'express-serve-static-core' {
  interface Request {
    sessionId?: string;
    session?: SessionData;
  }
}

export const AUTH_MESSAGES = {
  unauthenticated: 'Tu dois être connecté(e).',
  adminOnly: 'Accès réservé aux administrateurs.',
} as const;

/**
 * Server-side sessions: the cookie carries a random id signed with SESSION_SECRET; the data
 * (who is logged in) lives in the SessionStore. HttpOnly, SameSite=Lax, Secure behind HTTPS.
 */
export class Sessions {
  private readonly ttlSeconds: number;
  private readonly endListeners: Array<(sessionId: string) => void> = [];
  private readonly memberEndListeners: Array<(userId: string, keptSessionId: string | undefined) => void> = [];
  /**
   * signed cookie values already verified, and the session id each one names: an HMAC per request
   * was 1 % of a gift send's CPU. Keyed by the whole value (signature included), so a value is
   * only ever answered as its own verification would; bounded, the oldest forgotten first.
   */
  private readonly verified = new Map<string, string>();

  constructor(
    private readonly store: SessionStore,
    private readonly secret: string,
    options: SessionsOptions = {},
  ) {
    this.ttlSeconds = options.ttlSeconds ?? SESSION_TTL_SECONDS;
  }

  /** `listener` hears of every session this process ends (logout, or a new login replacing it). */
  onEnded(listener: (sessionId: string) => void): void {
    this.endListeners.push(listener);
  }

  /** Ends a session: gone from the store, and every listener told (its sockets close). */
  async end(sessionId: string): Promise<void> {
    await this.store.destroy(sessionId);
    this.tellEnded(sessionId);
  }

  private tellEnded(sessionId: string): void {
    for (const listener of this.endListeners) listener(sessionId);
  }

  /** `listener` hears of a member's sessions ended together (all but `keptSessionId`). */
  onMemberSessionsEnded(listener: (userId: string, keptSessionId: string | undefined) => void): void {
    this.memberEndListeners.push(listener);
  }

  /** Ends every session of `userId` but `keptSessionId`, everywhere, and their sockets. */
  async endAllOf(userId: string, keptSessionId?: string): Promise<void> {
    await this.store.destroyAllOf(userId, keptSessionId);
    for (const listener of this.memberEndListeners) listener(userId, keptSessionId);
  }

  private sign(id: string) {
    return createHmac('sha256', this.secret).update(id).digest('base64url');
  }

  private unsign(value: string): string | undefined {
    const known = this.verified.get(value);
    if (known !== undefined) return known;
    const id = this.verify(value);
    if (id !== undefined) {
      if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(value, id);
    }
    return id;
  }

  private verify(value: string): string | undefined {
    const dot = value.lastIndexOf('.');
    if (dot <= 0) return undefined;
    const id = value.slice(0, dot);
    const sig = Buffer.from(value.slice(dot + 1));
    const expected = Buffer.from(this.sign(id));
    return sig.length === expected.length && timingSafeEqual(sig, expected) ? id : undefined;
  }

  private idFrom(cookieHeader: string | undefined): string | undefined {
    const raw = parseCookie(cookieHeader ?? '')[SESSION_COOKIE];
    return raw ? this.unsign(raw) : undefined;
  }

  /** The session of a Cookie header, with its id (Socket.IO handshakes). */
  async fromCookieHeader(cookieHeader: string | undefined): Promise<{ id: string; data: SessionData } | undefined> {
    const id = this.idFrom(cookieHeader);
    const data = id ? await this.store.get(id) : undefined;
    return id && data ? { id, data } : undefined;
  }

  /** Whether a session is still there (not logged out, not expired). */
  async isLive(sessionId: string): Promise<boolean> {
    return (await this.store.get(sessionId)) !== undefined;
  }

  /** A new session in the store; answers its id and the signed cookie value naming it. */
  async open(userId: string): Promise<{ id: string; data: SessionData; cookieValue: string }> {
    const id = randomBytes(32).toString('base64url');
    const data: SessionData = { userId, createdAt: Date.now() };
    await this.store.set(id, data, this.ttlSeconds);
    return { id, data, cookieValue: `${id}.${this.sign(id)}` };
  }

  /** Loads the session named by the cookie, if any. */
  middleware(): RequestHandler {
    return (req, _res, next) => {
      const id = this.idFrom(req.headers.cookie);
      if (!id) return next();
      this.store
        .get(id)
        .then((data) => {
          if (data) {
            req.sessionId = id;
            req.session = data;
          }
          next();
        })
        .catch(next);
    };
  }

  /**
   * A new session id at every login (no fixation). `confirm` (the login's record) runs once the new
   * session is stored: if it fails, the new session is ended and the browser's previous one is left
   * as it was; then the previous one is ended and the cookie names the new one.
   */
  async start<R>(req: Request, res: Response, userId: string, confirm: () => Promise<R>): Promise<R> {
    const { id, data, cookieValue } = await this.open(userId);
    let confirmed: R;
    try {
      confirmed = await confirm();
    } catch (err) {
      await this.end(id).catch(() => undefined);
      throw err;
    }
    const previous = req.sessionId;
    if (previous) {
      await this.end(previous).catch((err) => {
        // the login stands: the cookie no longer names the previous session, and its sockets close
        // all the same (the store forgets it at its expiry)
        log.error({ err }, 'session précédente non effacée du stockage');
        this.tellEnded(previous);
      });
    }
    req.sessionId = id;
    req.session = data;
    res.setHeader('Set-Cookie', this.cookie(req, cookieValue, this.ttlSeconds));
    return confirmed;
  }

  close(): Promise<void> {
    return this.store.close();
  }

  async destroy(req: Request, res: Response): Promise<void> {
    if (req.sessionId) await this.end(req.sessionId);
    req.sessionId = undefined;
    req.session = undefined;
    res.setHeader('Set-Cookie', this.cookie(req, '', 0));
  }

  /**
   * Remember the highest position this session wrote, for read-your-writes. The write is done when
   * this runs: a store that cannot keep the position (a full disk, Redis away) costs the session's
   * next reads their wait for it, not the answer (the member would be told that nothing was saved).
   */
  async noteWrite(req: Request, position: bigint | undefined): Promise<void> {
    if (position === undefined || !req.sessionId || !req.session) return;
    const prev = req.session.lastPosition ? BigInt(req.session.lastPosition) : -1n;
    if (position <= prev) return;
    req.session = { ...req.session, lastPosition: position.toString() };
    try {
      await this.store.update(req.sessionId, req.session, this.ttlSeconds);
    } catch (err) {
      log.warn(
        { err, position: position.toString() },
        'position écrite non retenue pour la session : ses prochaines lectures ne l’attendront pas',
      );
    }
  }

  private cookie(req: Request, value: string, maxAge: number) {
    return serialize(SESSION_COOKIE, value, {
      httpOnly: true,
      sameSite: 'lax',
      secure: req.secure,
      path: '/',
      maxAge,
    });
  }
}

export const currentUserId = (req: Request): string => {
  const id = req.session?.userId;
  if (!id) throw new HttpError(401, AUTH_MESSAGES.unauthenticated);
  return id;
};

/** 401 without a session. */
export const requireAuth: RequestHandler = (req, _res, next) => {
  if (!req.session?.userId) return next(new HttpError(401, AUTH_MESSAGES.unauthenticated));
  next();
};
