/**
 * Shared HTTP client for the EVO web app.
 *
 * - same-origin calls with the session cookie (`credentials: 'include'`);
 * - JSON or FormData bodies, with the matching Content-Type;
 * - `{ error }` bodies of 4xx/5xx answers become an `ApiError` carrying the
 *   server's French message; network failures become 'Network Error' (the product error catalogue);
 * - HTTP 401 calls the registered unauthorized handler (the identity slice clears
 *   the stored user and goes to /login), unless the call opts out.
 */

export const NETWORK_ERROR = 'Network Error';

export class ApiError extends Error {
  readonly status: number;
  readonly data: unknown;

  constructor(message: string, status: number, data?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.data = data;
  }

  /** True when the request never got an HTTP answer. */
  get isNetworkError(): boolean {
    return this.status === 0;
  }

  /** The server's own message, when it sent one (`{ error }`). */
  get serverMessage(): string | undefined {
    return readErrorField(this.data);
  }
}

export type JsonBody = Record<string, unknown> | unknown[];

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: JsonBody | FormData;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Do not trigger the 401 handler (login, session probe, logout). */
  skipAuthRedirect?: boolean;
}

type UnauthorizedHandler = () => void;
let unauthorizedHandler: UnauthorizedHandler | null = null;

/** Registers what happens on HTTP 401; returns an unregister function. */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): () => void {
  unauthorizedHandler = handler;
  return () => {
    if (unauthorizedHandler === handler) unauthorizedHandler = null;
  };
}

function readErrorField(data: unknown): string | undefined {
  if (data && typeof data === 'object' && 'error' in data) {
    const value = (data as { error: unknown }).error;
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return undefined;
}

function parseBody(text: string, contentType: string | null): unknown {
  if (text === '') return undefined;
  if (contentType?.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

function failure(status: number, data: unknown, skipAuthRedirect: boolean): ApiError {
  if (status === 401 && !skipAuthRedirect) unauthorizedHandler?.();
  return new ApiError(readErrorField(data) ?? `Erreur ${status}`, status, data);
}

const isStateChanging = (method: string) => method !== 'GET';

/** Builds the fetch body and Content-Type for a request. */
function encodeBody(method: string, body: RequestOptions['body']): { body?: BodyInit; contentType?: string } {
  if (body instanceof FormData) return { body }; // the browser sets multipart/form-data; boundary=...
  if (body !== undefined) return { body: JSON.stringify(body), contentType: 'application/json' };
  // State-changing calls always declare a Content-Type, even without a payload.
  if (isStateChanging(method)) return { body: '{}', contentType: 'application/json' };
  return {};
}

/** calls under way, and who waits for there being none (see shell/firstScreen.ts) */
let inFlight = 0;
let quietWaiters: Array<() => void> = [];

/** How many API calls are under way. */
export const callsInFlight = () => inFlight;

/** Resolves once no API call is under way (at once when none is). */
export function whenNoCallInFlight(): Promise<void> {
  if (inFlight === 0) return Promise.resolve();
  return new Promise((resolve) => quietWaiters.push(resolve));
}

/** The answer's JSON, unknown until parsed with its contract schema (see api/decode.ts). */
export async function apiRequest(path: string, options: RequestOptions = {}): Promise<unknown> {
  inFlight += 1;
  try {
    return await request(path, options);
  } finally {
    inFlight -= 1;
    if (inFlight === 0) {
      const waiters = quietWaiters;
      quietWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }
}

async function request(path: string, options: RequestOptions): Promise<unknown> {
  const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
  const encoded = encodeBody(method, options.body);
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (encoded.contentType) headers['Content-Type'] = encoded.contentType;

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: encoded.body,
      credentials: 'include',
      signal: options.signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(NETWORK_ERROR, 0);
  }

  let data: unknown;
  try {
    data = parseBody(await response.text(), response.headers.get('Content-Type'));
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(NETWORK_ERROR, 0);
  }
  if (!response.ok) throw failure(response.status, data, options.skipAuthRedirect ?? false);
  return data;
}

export const api = {
  get: (path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest(path, { ...options, method: 'GET' }),
  post: (path: string, body?: RequestOptions['body'], options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest(path, { ...options, method: 'POST', body }),
  put: (path: string, body?: RequestOptions['body'], options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest(path, { ...options, method: 'PUT', body }),
  delete: (path: string, options?: Omit<RequestOptions, 'method'>) =>
    apiRequest(path, { ...options, method: 'DELETE' }),
};

export interface UploadOptions {
  method?: 'POST' | 'PUT';
  /** Called with a fraction between 0 and 1 while the body is sent. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  skipAuthRedirect?: boolean;
}

/**
 * Multipart upload with progress (fetch cannot report upload progress).
 * Same error contract as `apiRequest`.
 */
export function uploadWithProgress(path: string, form: FormData, options: UploadOptions = {}): Promise<unknown> {
  return new Promise<unknown>((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new DOMException('Envoi annulé', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open(options.method ?? 'POST', path);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');

    const onAbort = () => xhr.abort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const cleanup = () => options.signal?.removeEventListener('abort', onAbort);

    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) options.onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      cleanup();
      const data = parseBody(xhr.responseText, xhr.getResponseHeader('Content-Type'));
      if (xhr.status >= 200 && xhr.status < 300) {
        options.onProgress?.(1);
        resolve(data);
      } else {
        reject(failure(xhr.status, data, options.skipAuthRedirect ?? false));
      }
    };
    xhr.onerror = () => {
      cleanup();
      reject(new ApiError(NETWORK_ERROR, 0));
    };
    xhr.ontimeout = xhr.onerror;
    xhr.onabort = () => {
      cleanup();
      reject(new DOMException('Envoi annulé', 'AbortError'));
    };

    xhr.send(form); // multipart/form-data with boundary, set by the browser
  });
}

/** What a screen says of an answer that does not have the contract's shape (see api/decode.ts). */
export const INVALID_ANSWER = 'Réponse inattendue du serveur.';

/** An answer that did not parse with its contract schema: the server and this app disagree. */
export class InvalidAnswerError extends Error {
  /** where the answer differs from the contract, for the console */
  readonly issues: unknown;

  constructor(issues: unknown) {
    super(INVALID_ANSWER);
    this.name = 'InvalidAnswerError';
    this.issues = issues;
  }
}

/** Human message for any thrown value (French where the server gave French). */
export function errorMessage(err: unknown): string | undefined {
  if (err instanceof ApiError) return err.isNetworkError ? NETWORK_ERROR : err.serverMessage;
  if (err instanceof InvalidAnswerError) return err.message;
  return undefined;
}

/** The server's own French message (`{ error }`), or undefined (no answer, or none given). */
export function serverMessageOf(err: unknown): string | undefined {
  return err instanceof ApiError && !err.isNetworkError ? err.serverMessage : undefined;
}

/** True when the request got no answer at all. */
export function isNetworkFailure(err: unknown): boolean {
  return err instanceof ApiError && err.isNetworkError;
}

export function isAbortError(err: unknown): boolean {
  return err instanceof DOMException && err.name === 'AbortError';
}
