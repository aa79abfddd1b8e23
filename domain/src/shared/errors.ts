/** A rule broken by a command: its message is French and shown to the member as is. */
export class DomainError extends Error {
  constructor(
    message: string,
    /** HTTP status the API answers with */
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429 = 400,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const badRequest = (m: string) => new DomainError(m, 400);
export const forbidden = (m: string) => new DomainError(m, 403);
export const notFound = (m: string) => new DomainError(m, 404);
export const conflict = (m: string) => new DomainError(m, 409);
