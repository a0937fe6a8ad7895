import { describe, expect, it } from 'vitest';
import { createCleanupStack, startOrUndo } from './cleanupStack.js';

describe('createCleanupStack', () => {
  it('given steps, then stop undoes them last first, once, even when one fails', async () => {
    const errors: unknown[] = [];
    const stack = createCleanupStack((error) => errors.push(error));
    const undone: string[] = [];
    stack.push(async () => void undone.push('event store'));
    stack.push(async () => {
      undone.push('read model');
      throw new Error('already closed');
    });
    stack.push(async () => void undone.push('server'));
    const first = stack.stop();
    expect(stack.stop()).toBe(first);
    await first;
    await stack.stop();
    expect(undone).toEqual(['server', 'read model', 'event store']);
    expect(errors).toEqual([new Error('already closed')]);
  });
});

describe('startOrUndo', () => {
  it('given a start that fails midway, then what it opened is closed and the failure rethrown', async () => {
    const stack = createCleanupStack(() => {});
    const undone: string[] = [];
    const failure = new Error('EADDRINUSE');
    await expect(
      startOrUndo(stack, async () => {
        stack.push(async () => void undone.push('event store'));
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(undone).toEqual(['event store']);
  });

  it('given a start that succeeds, then its result and nothing closed', async () => {
    const stack = createCleanupStack(() => {});
    let closed = false;
    stack.push(async () => void (closed = true));
    await expect(startOrUndo(stack, async () => 'running')).resolves.toBe('running');
    expect(closed).toBe(false);
  });
});
