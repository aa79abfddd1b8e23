import { expect } from 'vitest';
import { fold, type Decider, type DomainEvent } from './decider';
import type { DomainErrorKind } from './errors';

/** Given events / When command / Then events (or error), with no I/O. Test helper. */
export function given<C, E extends DomainEvent, S>(decider: Decider<C, E, S>, events: E[] = []) {
  return {
    when(command: C) {
      const run = () => decider.decide(command, fold(decider, events));
      return {
        then(expected: E[]) {
          expect(run()).toEqual(expected);
        },
        thenThrows(message: string, kind?: DomainErrorKind) {
          let caught: unknown;
          try {
            run();
          } catch (e) {
            caught = e;
          }
          expect(caught, 'the command should have been refused').toBeInstanceOf(Error);
          expect((caught as Error).message).toBe(message);
          if (kind !== undefined) expect((caught as { kind?: string }).kind).toBe(kind);
        },
      };
    },
  };
}
