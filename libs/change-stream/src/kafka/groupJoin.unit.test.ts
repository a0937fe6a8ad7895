import { describe, expect, it } from 'vitest';
import { silentLogger } from '../changeStreamLogger.js';
import { followGroupJoins, type GroupMember } from './groupJoin.js';

function fakeMember() {
  const joins: (() => void)[] = [];
  const crashes: ((crash: { error: Error; restart: boolean }) => void)[] = [];
  const seeks: [number, string][] = [];
  let seekError: Error | undefined;
  const member: GroupMember = {
    onJoin: (listener) => void joins.push(listener),
    onCrash: (listener) => void crashes.push(listener),
    seek: (partition, offset) => {
      if (seekError) throw seekError;
      seeks.push([partition, offset]);
    },
  };
  return {
    member,
    seeks,
    join: () => joins.forEach((l) => l()),
    crash: (error: Error, restart: boolean) => crashes.forEach((l) => l({ error, restart })),
    failSeeks: (error: Error) => (seekError = error),
  };
}

function follow(fake: ReturnType<typeof fakeMember>, active = () => true) {
  const gaps: string[] = [];
  const start = [
    { partition: 0, offset: '5' },
    { partition: 1, offset: '9' },
  ];
  const joined = followGroupJoins(fake.member, { start, groupId: 'g', logger: silentLogger, isActive: active, onGap: (reason) => gaps.push(reason) });
  return { joined, gaps };
}

describe('followGroupJoins', () => {
  it('given the first join, then every partition is positioned at the start and the promise resolves, with no gap', async () => {
    const fake = fakeMember();
    const { joined, gaps } = follow(fake);
    fake.join();
    await expect(joined).resolves.toBeUndefined();
    expect(fake.seeks).toEqual([
      [0, '5'],
      [1, '9'],
    ]);
    expect(gaps).toEqual([]);
  });

  it('given a rejoin or a crash after the first join, then each is a gap and nothing is positioned again', () => {
    const fake = fakeMember();
    const { gaps } = follow(fake);
    fake.join();
    fake.join();
    fake.crash(new Error('broker gone'), true);
    expect(gaps).toEqual(['kafka consumer rejoined its group', 'kafka consumer crashed: broker gone']);
    expect(fake.seeks).toHaveLength(2);
  });

  it('given a crash before the first join that kafkajs will not restart, then the promise rejects; a restarting one waits', async () => {
    const restarting = fakeMember();
    const waiting = follow(restarting);
    restarting.crash(new Error('transient'), true);
    restarting.join();
    await expect(waiting.joined).resolves.toBeUndefined();

    const fatal = fakeMember();
    const failing = follow(fatal);
    fatal.crash(new Error('not authorized'), false);
    await expect(failing.joined).rejects.toThrow('not authorized');
  });

  it('given positioning fails, then the promise rejects', async () => {
    const fake = fakeMember();
    fake.failSeeks(new Error('unknown partition'));
    const { joined } = follow(fake);
    fake.join();
    await expect(joined).rejects.toThrow('unknown partition');
  });

  it('given a closed subscription, then rejoins and crashes report nothing', () => {
    const fake = fakeMember();
    let active = true;
    const { gaps } = follow(fake, () => active);
    fake.join();
    active = false;
    fake.join();
    fake.crash(new Error('x'), true);
    expect(gaps).toEqual([]);
  });
});
