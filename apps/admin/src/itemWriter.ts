import { ConcurrencyError, itemDecider, isPubstreamError, streamNames, type ItemCommand, type ItemEvent, type ItemState } from '@pubstream/domain';
import type { EventStore, StreamAppend } from '@pubstream/event-store';
import type { CommandHandler, Decision } from './commandHandler.js';

export type ItemWriteOutcome =
  | { readonly ok: true; readonly change: 'created' | 'updated' | 'unchanged' | 'deleted'; readonly position: number | null; readonly state: ItemState }
  | { readonly ok: false; readonly error: Error };

export interface ItemWriteEntry {
  readonly command: ItemCommand;
  /** Derives the event ids: the same entry written again appends nothing. */
  readonly idempotencyKey?: string;
}

const changeOf = (events: readonly ItemEvent[]): 'created' | 'updated' | 'unchanged' | 'deleted' => {
  const last = events.at(-1);
  if (last === undefined) return 'unchanged';
  return last.type === 'ItemCreated' ? 'created' : last.type === 'ItemUpdated' ? 'updated' : 'deleted';
};

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

/**
 * Writes many item commands at once: the item streams are read together, each command is decided
 * on its own stream, and all resulting appends go to the event store in one `appendToStreams`
 * call (one SQLite transaction). An entry that meets a concurrent write is retried alone; an
 * entry the domain refuses fails alone. `commands` must name distinct dataIds.
 */
export const createItemWriter = (deps: { eventStore: Pick<EventStore, 'readStream' | 'appendToStreams'>; commands: Pick<CommandHandler, 'decideOn' | 'handle'> }) => {
  const retryAlone = async (command: ItemCommand, idempotencyKey: string | undefined): Promise<ItemWriteOutcome> => {
    try {
      const outcome = await deps.commands.handle(itemDecider, streamNames.item(command.dataId), command, { idempotencyKey });
      return { ok: true, change: changeOf(outcome.events), position: outcome.position, state: outcome.state };
    } catch (error) {
      return { ok: false, error: asError(error) };
    }
  };

  return async (entries: readonly ItemWriteEntry[]): Promise<ItemWriteOutcome[]> => {
    const commands = entries.map((entry) => entry.command);
    const streams = await Promise.all(commands.map((command) => deps.eventStore.readStream(streamNames.item(command.dataId))));
    const outcomes: ItemWriteOutcome[] = new Array(commands.length);
    const pending: { index: number; decision: Decision<ItemState, ItemEvent> }[] = [];
    commands.forEach((command, index) => {
      try {
        const { idempotencyKey } = entries[index] as ItemWriteEntry;
        const decision = deps.commands.decideOn(itemDecider, streamNames.item(command.dataId), streams[index] ?? [], command, { idempotencyKey });
        if (decision.toAppend.length === 0) outcomes[index] = { ok: true, change: 'unchanged', position: null, state: decision.state };
        else pending.push({ index, decision });
      } catch (error) {
        if (!isPubstreamError(error)) throw error;
        outcomes[index] = { ok: false, error };
      }
    });
    if (pending.length === 0) return outcomes;

    const batch: StreamAppend[] = pending.map(({ index, decision }) => ({
      streamName: streamNames.item((commands[index] as ItemCommand).dataId),
      events: decision.toAppend,
      expectedRevision: decision.expectedRevision,
    }));
    const results = await deps.eventStore.appendToStreams(batch);
    await Promise.all(
      pending.map(async ({ index, decision }, entry) => {
        const result = results[entry];
        if (result?.ok) {
          outcomes[index] = { ok: true, change: changeOf(decision.events), position: result.result.position, state: decision.state };
        } else if (result && result.error instanceof ConcurrencyError) {
          const entry = entries[index] as ItemWriteEntry;
          outcomes[index] = await retryAlone(entry.command, entry.idempotencyKey);
        } else {
          outcomes[index] = { ok: false, error: result?.error ?? new Error('The event store returned no outcome for this append') };
        }
      }),
    );
    return outcomes;
  };
};

export type ItemWriter = ReturnType<typeof createItemWriter>;
