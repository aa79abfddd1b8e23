import { expect } from 'vitest';
import { fold, type Decider, type DomainEvent } from './decider';

/** Given events / When command / Then events (or error), with no I/O. Test helper. */
export function given<C, E extends DomainEvent, S>(decider: Decider<C, E, S>, events: E[] = []) {
  return {
    when(command: C) {
      const run = () => decider.decide(command, fold(decider, events));
      return {
        then(expected: E[]) {
          expect(run()).toEqual(expected);
        },
        thenThrows(message: string, status?: number) {
          let caught: unknown;
          try {
            run();
          } catch (e) {
            caught = e;
          }
          expect(caught, 'the command should have been refused').toBeInstanceOf(Error);
          expect((caught as Error).message).toBe(message);
          if (status !== undefined) expect((caught as { status?: number }).status).toBe(status);
        },
      };
    },
  };
}
