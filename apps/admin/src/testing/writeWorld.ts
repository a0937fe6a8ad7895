import { createCommandHandler } from '../commandHandler.js';
import { createWriteCommand } from '../writeCommand.js';
import { createMemoryEventStore } from './memoryEventStore.js';

export const T0 = new Date('2026-01-01T00:00:00.000Z');

/** Ids that look like the UUIDs the domain's schemas expect: 00000000-0000-4000-8000-000000000001, … */
const sequentialUuids = () => {
  let next = 0;
  return () => `00000000-0000-4000-8000-${String(++next).padStart(12, '0')}`;
};

/**
 * The write path of the admin over an in-memory log, for the use cases' unit tests: the real
 * command handler and write, a fixed clock, sequential ids. `visible` is what read-your-writes
 * answers (false: the read model did not confirm, a 202).
 */
export const createWriteWorld = () => {
  const events = createMemoryEventStore(() => T0);
  const newId = sequentialUuids();
  const commands = createCommandHandler({ eventStore: events.store, now: () => T0, newId });
  const seen = { visible: true, waited: [] as (number | null)[] };
  const readYourWrites = async (position: number | null): Promise<boolean> => {
    seen.waited.push(position);
    return seen.visible;
  };
  return Object.assign(seen, { ...events, newId, commands, write: createWriteCommand({ commands, readYourWrites }) });
};
