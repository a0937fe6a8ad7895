import type { PubstreamEvent } from './events.js';

/**
 * An aggregate's behaviour as pure functions: `decide` turns a command and the current state
 * into new events (or throws a domain error), `evolve` folds one event into the state.
 */
export interface Decider<Command, State, Event extends PubstreamEvent> {
  decide(command: Command, state: State): Event[];
  evolve(state: State, event: Event): State;
  initialState(): State;
}

/** Rebuilds an aggregate's state from its stream. */
export const foldEvents = <C, S, E extends PubstreamEvent>(decider: Decider<C, S, E>, events: readonly E[]): S =>
  events.reduce((state, event) => decider.evolve(state, event), decider.initialState());

export const assertNever = (value: never): never => {
  throw new Error(`Unhandled case: ${JSON.stringify(value)}`);
};
