import type { Decider, PubstreamEvent } from '@pubstream/domain';
import type { CommandHandler, Decided } from './commandHandler.js';
import type { ReadYourWrites } from './readYourWrites.js';
import type { WriteOptions, WriteResult, Written } from './writeOutcome.js';

/**
 * One write: decide, append (with the idempotency record when the request is bound), then wait
 * for the read model. `result` builds the answer from the decision alone: it runs before the
 * append (for the record) and after it, so nothing after the commit reads the read model.
 * `recorded` strips what must never be stored (a raw API key) from the recorded answer.
 */
export type WriteCommand = <Command, State, Event extends PubstreamEvent, T>(
  decider: Decider<Command, State, Event>,
  streamName: string,
  command: Command | ((state: State) => Command),
  options: WriteOptions<T>,
  result: (decided: Decided<State, Event>) => WriteResult<T>,
  recorded?: (result: WriteResult<T>) => WriteResult<T>,
) => Promise<Written<T>>;

/** Every admin write goes through this one path (docs/admin-api.md: idempotency records, 202 answers). */
export const createWriteCommand =
  (deps: { commands: Pick<CommandHandler, 'handle'>; readYourWrites: ReadYourWrites }): WriteCommand =>
  async (decider, streamName, command, options, result, recorded = (same) => same) => {
    const { binding, idempotencyKey } = options;
    const record =
      binding === undefined
        ? undefined
        : (decided: Parameters<typeof result>[0]) => ({ type: 'RecordRequest' as const, fingerprint: binding.fingerprint, method: binding.method, path: binding.path, response: binding.answer(recorded(result(decided))) });
    const outcome = await deps.commands.handle(decider, streamName, command, { idempotencyKey, record });
    const answer = result(outcome);
    return { ...answer, replayed: outcome.replayed, position: outcome.position, visible: await deps.readYourWrites(outcome.position) };
  };
