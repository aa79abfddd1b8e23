/** An event as deciders see it: a past-tense type and its data (no envelope). */
export interface DomainEvent<T extends string = string, D = unknown> {
  type: T;
  data: D;
}

/**
 * A decider is three pure functions: decide what happens from a command and the current state,
 * evolve the state by one event, and the state before any event.
 */
export interface Decider<C, E extends DomainEvent, S> {
  decide(command: C, state: S): E[];
  evolve(state: S, event: E): S;
  initialState(): S;
}

/** Fold a stream's events into a state. */
export function fold<C, E extends DomainEvent, S>(decider: Decider<C, E, S>, events: readonly E[]): S {
  return events.reduce((s, e) => decider.evolve(s, e), decider.initialState());
}
