import type { ErrorRequestHandler, Request, Response, NextFunction, RequestHandler } from 'express';
import { ZodError } from 'zod';
import multer from 'multer';
import { DomainError, type DomainErrorKind } from '@evo/domain';
import { childLogger, isDiskFull, ServiceUnavailableError, WrongExpectedRevisionError } from '@evo/infra';

const log = childLogger('http');

export const MESSAGES = {
  internal: 'Erreur interne du serveur.',
  badJson: 'Corps de requête JSON invalide.',
  tooLarge: 'Requête trop volumineuse.',
  notFound: 'Ressource introuvable.',
  unexpectedFile: 'Fichier inattendu dans le formulaire.',
  badForm: 'Formulaire invalide.',
  unavailable: 'Service momentanément indisponible, réessaie dans quelques instants.',
  busy: 'Trop de modifications simultanées, réessaie dans quelques instants.',
  idempotencyKeyTooLong:
    "L'en-tête Idempotency-Key ne doit pas dépasser 200 caractères : choisissez une clé plus courte (un UUID suffit).",
  diskFull: "Espace disque insuffisant sur le serveur : rien n'a été enregistré, réessaie plus tard.",
} as const;

/** seconds a client should wait before retrying a request answered 503 */
export const RETRY_AFTER_SECONDS = 1;
/** a full disk is freed by an operator: later */
export const DISK_FULL_RETRY_AFTER_SECONDS = 60;

/** The status of each kind of broken rule: the one place where the domain's words become HTTP. */
export const STATUS_OF_DOMAIN_ERROR: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
};

/** An HTTP answer with a French message. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Wrap an async route so its rejection reaches the error handler. */
export const route =
  (fn: (req: Request, res: Response, next: NextFunction) => Promise<unknown>): RequestHandler =>
  (req, res, next) => {
    fn(req, res, next).catch(next);
  };

/** The client closed the connection before its upload was handled: nobody is left to answer. */
export class ClientGoneError extends Error {
  constructor() {
    super('client gone before its upload was handled');
    this.name = 'ClientGoneError';
  }
}

/** multer's words for a request whose client closed the connection mid-way */
const CLIENT_ABORTS = new Set(['Request aborted', 'Request closed']);

/** Did the client go away (closed the connection before its request was read or handled)? */
export function isClientAbort(err: unknown, req: Request): boolean {
  if (err instanceof ClientGoneError) return true;
  const e = err as { message?: unknown; code?: unknown; type?: unknown };
  if (e?.type === 'request.aborted' || e?.code === 'ECONNABORTED' || e?.code === 'ECONNRESET') return true;
  return (typeof e?.message === 'string' && CLIENT_ABORTS.has(e.message)) || (req.destroyed && !req.complete);
}

/** Every error becomes JSON `{ error }` in French; only our own faults answer 5xx. */
export const errorHandler =
  (maxVideoMb: number): ErrorRequestHandler =>
  (err: unknown, req, res, _next) => {
    const send = (status: number, error: string) => {
      if (!res.headersSent) res.status(status).json({ error });
    };
    if (err instanceof DomainError) return send(STATUS_OF_DOMAIN_ERROR[err.kind], err.message);
    if (err instanceof HttpError) return send(err.status, err.message);
    // the client's doing, not a fault of ours: no stack, and nobody is left to read an answer
    if (isClientAbort(err, req)) {
      log.debug({ method: req.method, url: req.originalUrl, reason: (err as Error).message }, 'client went away');
      return send(400, MESSAGES.badForm);
    }
    if (err instanceof ServiceUnavailableError) {
      log.warn({ method: req.method, url: req.originalUrl, reason: err.message }, 'service unavailable');
      if (!res.headersSent) res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
      return send(503, MESSAGES.unavailable);
    }
    // the disk of DATA_DIR is full: the write changed nothing (the log's transaction rolled back)
    if (isDiskFull(err)) {
      log.error({ method: req.method, url: req.originalUrl, reason: (err as Error).message }, 'disk full');
      if (!res.headersSent) res.setHeader('Retry-After', String(DISK_FULL_RETRY_AFTER_SECONDS));
      return send(503, MESSAGES.diskFull);
    }
    // a write that kept meeting concurrent writes on its stream after its bounded retries
    // (handleCommand): nothing was written, the client may try again
    if (err instanceof WrongExpectedRevisionError) {
      log.warn(
        { method: req.method, url: req.originalUrl, reason: err.message },
        'concurrent writes, retries exhausted',
      );
      if (!res.headersSent) res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
      return send(503, MESSAGES.busy);
    }
    if (err instanceof ZodError) return send(400, err.issues[0]?.message ?? MESSAGES.badForm);
    if (err instanceof multer.MulterError) {
      if (err.code === 'LIMIT_FILE_SIZE') return send(413, `Fichier trop volumineux (maximum ${maxVideoMb} Mo).`);
      if (err.code === 'LIMIT_UNEXPECTED_FILE') return send(400, MESSAGES.unexpectedFile);
      return send(400, MESSAGES.badForm);
    }
    const e = err as { type?: string; status?: number; expose?: boolean };
    if (e.type === 'entity.parse.failed') return send(400, MESSAGES.badJson);
    if (e.type === 'entity.too.large') return send(413, MESSAGES.tooLarge);
    if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) return send(e.status, MESSAGES.badForm);
    // busboy reports malformed multipart bodies as plain errors
    if (err instanceof Error && /multipart|boundary|Unexpected end of form/i.test(err.message)) {
      return send(400, MESSAGES.badForm);
    }
    log.error({ err, method: req.method, url: req.originalUrl }, 'unhandled error');
    send(500, MESSAGES.internal);
  };
