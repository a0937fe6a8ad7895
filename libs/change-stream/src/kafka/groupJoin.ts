import type { ChangeStreamLogger } from '../changeStreamLogger.js';

/** The few things of a kafkajs consumer that following its group membership needs. */
export interface GroupMember {
  onJoin(listener: () => void): void;
  onCrash(listener: (crash: { error: Error; restart: boolean }) => void): void;
  /** Positions one partition of the subscribed topic. */
  seek(partition: number, offset: string): void;
}

/** Options of {@link followGroupJoins}. */
export interface GroupJoinOptions {
  /** Where every partition starts: the topic's end when `subscribe()` was called. */
  start: readonly { partition: number; offset: string }[];
  groupId: string;
  logger: ChangeStreamLogger;
  /** False once the subscription is closed: nothing is reported then. */
  isActive: () => boolean;
  /** The consumer may have missed messages. */
  onGap: (reason: string) => void;
}

/**
 * Follows a one-member consumer group. The first join positions every partition at `start` (the
 * group exists only then) and resolves the returned promise. A later join (after a rebalance,
 * crash or reconnect) and a crash after the first join may have skipped messages: a gap. A crash
 * before the first join that kafkajs will not restart rejects the promise.
 */
export function followGroupJoins(member: GroupMember, options: GroupJoinOptions): Promise<void> {
  let joins = 0;
  let joined!: { resolve: () => void; reject: (error: unknown) => void };
  const firstJoin = new Promise<void>((resolve, reject) => (joined = { resolve, reject }));
  firstJoin.catch(() => {}); // the caller awaits it later; a crash before that must not count as unhandled
  member.onJoin(() => {
    joins += 1;
    if (joins === 1) {
      try {
        for (const { partition, offset } of options.start) member.seek(partition, offset);
        joined.resolve();
      } catch (error) {
        joined.reject(error);
      }
      return;
    }
    if (options.isActive()) options.onGap('kafka consumer rejoined its group');
  });
  member.onCrash(({ error, restart }) => {
    if (!options.isActive()) return;
    options.logger.warn({ err: error, groupId: options.groupId, restart }, 'change-stream consumer crashed');
    if (joins > 0) options.onGap(`kafka consumer crashed: ${error.message}`);
    else if (!restart) joined.reject(error);
  });
  return firstJoin;
}
