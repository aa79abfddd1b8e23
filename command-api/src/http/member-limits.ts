import type { RequestHandler, Response } from 'express';
import type { LimitRule, RateLimitStore } from '@evo/infra';
import { HttpError } from './errors';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const WINDOW_MS = { minute: MINUTE, hour: HOUR, day: DAY } as const;

/** The limits of one kind of write, a rule per window, each named `member-<kind>-<window>`. */
const memberRules = (kind: string, limits: Partial<Record<keyof typeof WINDOW_MS, number>>): readonly LimitRule[] =>
  (Object.keys(limits) as Array<keyof typeof WINDOW_MS>).map((window) => ({
    name: `member-${kind}-${window}`,
    limit: limits[window]!,
    windowMs: WINDOW_MS[window],
  }));

/**
 * What a member may write, per window (issue 29 item 5). Generous for a person, who never comes
 * near them by hand; a script posting in a loop meets them within seconds. Two windows per kind:
 * a burst, and a sustained pace.
 */
export const MEMBER_WRITE_LIMITS = {
  comment: memberRules('comment', { minute: 20, hour: 300 }),
  message: memberRules('message', { minute: 40, hour: 600 }),
  upload: memberRules('upload', { hour: 15, day: 50 }),
  report: memberRules('report', { hour: 20, day: 50 }),
  gift: memberRules('gift', { minute: 60, day: 2000 }),
};
export type MemberWrite = keyof typeof MEMBER_WRITE_LIMITS;

export const MEMBER_LIMIT_MESSAGES: Record<MemberWrite, string> = {
  comment: 'Tu commentes trop vite.',
  message: 'Tu envoies trop de messages.',
  upload: 'Tu publies trop de vidéos.',
  report: 'Tu signales trop de vidéos.',
  gift: 'Tu envoies trop de cadeaux.',
};

/** The daily quota of video bytes a member may upload (UPLOAD_MB_PER_DAY). */
export const uploadBytesRule = (megabytesPerDay: number): LimitRule => ({
  name: 'member-upload-bytes-day',
  limit: megabytesPerDay * 1024 * 1024,
  windowMs: DAY,
});

/** 42 s, 7 min, 3 h: how long to wait, in French. */
export function frenchWait(ms: number): string {
  const s = Math.max(1, Math.ceil(ms / 1000));
  if (s < 120) return `${s} s`;
  const min = Math.ceil(s / 60);
  if (min < 120) return `${min} min`;
  return `${Math.ceil(min / 60)} h`;
}

/** A 429 in French, with Retry-After (seconds), for a limit met. */
export class TooManyError extends HttpError {
  constructor(
    message: string,
    readonly retryAfterMs: number,
  ) {
    super(429, `${message} Réessaie dans ${frenchWait(retryAfterMs)}.`);
  }
}

export function setRetryAfter(res: Response, ms: number): void {
  res.setHeader('Retry-After', String(Math.max(1, Math.ceil(ms / 1000))));
}

/**
 * Takes a place in each of the rules' windows for `key`, or none: when one refuses, the places
 * taken in the others are given back. Answers the wait when refused.
 */
export async function takeAll(store: RateLimitStore, rules: readonly LimitRule[], key: string, cost = 1) {
  const taken: LimitRule[] = [];
  for (const rule of rules) {
    const t = await store.take(rule, key, cost);
    if (!t.taken) {
      for (const r of taken) await store.giveBack(r, key, cost);
      return { taken: false as const, retryAfterMs: t.resetInMs };
    }
    taken.push(rule);
  }
  return { taken: true as const };
}

/**
 * Counts one `kind` of write of the session member, refusing it with a French 429 (and
 * Retry-After) beyond its limits, before the request's body is read. Without a session it lets the
 * request through to the route, which answers 401.
 */
export function memberLimit(store: RateLimitStore, kind: MemberWrite, enabled = true): RequestHandler {
  return (req, res, next) => {
    const userId = req.session?.userId;
    if (!enabled || !userId) return next();
    takeAll(store, MEMBER_WRITE_LIMITS[kind], userId)
      .then((t) => {
        if (t.taken) return next();
        setRetryAfter(res, t.retryAfterMs);
        next(new TooManyError(MEMBER_LIMIT_MESSAGES[kind], t.retryAfterMs));
      })
      .catch(next);
  };
}
