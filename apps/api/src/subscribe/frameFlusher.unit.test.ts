import { describe, expect, it } from 'vitest';
import { createFrameFlusher } from './frameFlusher.js';

const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('frame flusher', () => {
  it('given flushes scheduled during one turn, then they all run together after it, in order', async () => {
    const flusher = createFrameFlusher();
    const ran: string[] = [];
    flusher.schedule(() => ran.push('a'));
    flusher.schedule(() => ran.push('b'));
    expect(ran).toEqual([]);
    await nextTurn();
    expect(ran).toEqual(['a', 'b']);
  });

  it('given a costly pass, then the next pass waits about as long as that pass took', async () => {
    let clock = 0;
    const flusher = createFrameFlusher(() => clock);
    const ran: string[] = [];
    flusher.schedule(() => {
      clock += 30; // this pass "took" 30 ms
      ran.push('first');
    });
    await nextTurn();
    flusher.schedule(() => ran.push('second'));
    await nextTurn();
    expect(ran).toEqual(['first']); // paced: 30 ms of the injected clock have not passed
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(ran).toEqual(['first', 'second']);
  });

  it('given a listener for the next pass, then it runs after that pass wrote, once', async () => {
    const flusher = createFrameFlusher();
    const ran: string[] = [];
    flusher.schedule(() => ran.push('flush'));
    flusher.afterNextPass(() => ran.push('after'));
    expect(ran).toEqual([]);
    await nextTurn();
    expect(ran).toEqual(['flush', 'after']);
    flusher.schedule(() => ran.push('flush 2'));
    await nextTurn();
    expect(ran).toEqual(['flush', 'after', 'flush 2']);
  });
});
