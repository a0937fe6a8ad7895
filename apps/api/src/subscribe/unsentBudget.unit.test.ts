import { describe, expect, it } from 'vitest';
import { overBudget } from './unsentBudget.js';

const holders = (...sizes: number[]) => sizes.map((boundedBytes, index) => ({ name: `s${index}`, boundedBytes }));

describe('overBudget', () => {
  it('given streams under the budget in all, then none is cut', () => {
    expect(overBudget(holders(100, 200, 300), 600)).toEqual([]);
  });

  it('given streams over the budget, then the biggest holders are cut until the rest fit', () => {
    const cut = overBudget(holders(100, 500, 0, 300, 400), 600);
    expect(cut.map((holder) => holder.name)).toEqual(['s1', 's4']);
  });

  it('given one stream holding more than the budget by itself, then only it is cut', () => {
    expect(overBudget(holders(10, 5_000, 20), 1_000).map((holder) => holder.name)).toEqual(['s1']);
  });
});
