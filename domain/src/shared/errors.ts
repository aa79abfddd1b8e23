/**
 * What kind of rule a command broke. The domain names it; the HTTP layer maps each kind to a status
 * in one place (command-api/src/http/errors.ts).
 */
export type DomainErrorKind =
  /** the command is malformed or breaks a rule of its own content (e.g. an empty comment) */
  | 'invalid'
  /** nobody (or nobody known) is acting */
  | 'unauthenticated'
  /** the actor may not do this */
  | 'forbidden'
  /** what the command is about does not exist */
  | 'not_found'
  /** the command contradicts the current state (already done, in progress, another version) */
  | 'conflict'
  /** what the command uses existed but is no more (an expired or used one-time link) */
  | 'gone';

/** A rule broken by a command: its message is French and shown to the member as is. */
export class DomainError extends Error {
  constructor(
    message: string,
    readonly kind: DomainErrorKind = 'invalid',
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** The refusals of a member going beyond what is theirs: the contract's texts. */
export { NOT_YOURS } from '@evo/contracts';

export const invalid = (m: string) => new DomainError(m, 'invalid');
export const unauthenticated = (m: string) => new DomainError(m, 'unauthenticated');
export const forbidden = (m: string) => new DomainError(m, 'forbidden');
export const notFound = (m: string) => new DomainError(m, 'not_found');
export const conflict = (m: string) => new DomainError(m, 'conflict');
export const gone = (m: string) => new DomainError(m, 'gone');
