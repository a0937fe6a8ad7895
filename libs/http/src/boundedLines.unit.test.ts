import { describe, expect, it } from 'vitest';
import { boundedLines, type BoundedLine } from './boundedLines.js';

const collect = async (chunks: (string | Buffer)[], max = 10): Promise<BoundedLine[]> => {
  const out: BoundedLine[] = [];
  for await (const lines of boundedLines((async function* () {
    yield* chunks;
  })(), max)) out.push(...lines);
  return out;
};

describe('boundedLines', () => {
  it('splits on newlines across chunks, strips CR, numbers lines from 1 and keeps blank ones', async () => {
    expect(await collect(['ab', 'c\r\nde\n', '\nf'])).toEqual([
      { number: 1, text: 'abc' },
      { number: 2, text: 'de' },
      { number: 3, text: '' },
      { number: 4, text: 'f' },
    ]);
  });

  it('decodes multi-byte characters split between chunks', async () => {
    const bytes = Buffer.from('é€\n');
    expect(await collect([bytes.subarray(0, 1), bytes.subarray(1, 3), bytes.subarray(3)])).toEqual([{ number: 1, text: 'é€' }]);
  });

  it('reports a long line once, as soon as it crosses the bound, and goes on after its newline', async () => {
    const out: BoundedLine[][] = [];
    for await (const lines of boundedLines((async function* () {
      yield 'ok\n0123456';
      yield '789ABCDEF';
      yield 'more and more';
      yield 'x\nnext';
    })(), 10)) out.push(lines);
    expect(out).toEqual([[{ number: 1, text: 'ok' }], [{ number: 2, tooLong: true }], [{ number: 3, text: 'next' }]]);
  });

  it('accepts a line of exactly the bound and refuses one byte more', async () => {
    expect(await collect(['0123456789\n0123456789X\n'])).toEqual([
      { number: 1, text: '0123456789' },
      { number: 2, tooLong: true },
    ]);
  });

  it('reports a too-long last line without a newline, and holds no more than the bound of it', async () => {
    const piece = Buffer.alloc(1024, 0x78);
    async function* endless() {
      yield Buffer.from('{"a":1}\n');
      for (let i = 0; i < 4096; i++) yield piece;
    }
    const out: BoundedLine[] = [];
    for await (const lines of boundedLines(endless(), 4096)) out.push(...lines);
    expect(out).toEqual([{ number: 1, text: '{"a":1}' }, { number: 2, tooLong: true }]);
  });
});
