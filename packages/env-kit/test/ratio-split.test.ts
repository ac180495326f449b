import { SkillOptError } from '@skillopt/contract';
import { countsByLargestRemainder, createSeededRandom, parseSplitRatio, seededShuffle, splitByRatio } from '../src/index';

describe('createSeededRandom (mulberry32)', () => {
  it('produces the published mulberry32 sequence for seed 42', () => {
    const random = createSeededRandom(42);
    // Cross-checked with an independent Python implementation; mulberry32(42) first float is 0.6011037519201636.
    expect([1, 2, 3, 4, 5].map(() => random.nextUint32())).toEqual([2581720956, 1925393290, 3661312704, 2876485805, 750819978]);
    expect(createSeededRandom(42).nextFloat()).toBe(0.6011037519201636);
  });

  it('repeats a sequence for the same seed and differs for another', () => {
    const draw = (seed: number): number[] => {
      const random = createSeededRandom(seed);
      return Array.from({ length: 8 }, () => random.nextUint32());
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
    expect(draw(2 ** 40 + 7)).not.toEqual(draw(7));
    expect(draw(-7)).not.toEqual(draw(7));
  });

  it('keeps nextBelow in range', () => {
    const random = createSeededRandom(1);
    for (let draw = 0; draw < 1000; draw += 1) {
      const value = random.nextBelow(3);
      expect(value === 0 || value === 1 || value === 2).toBe(true);
    }
    expect(createSeededRandom(1).nextBelow(1)).toBe(0);
  });

  it('rejects seeds and bounds it cannot honour', () => {
    expect(() => createSeededRandom(1.5)).toThrow(RangeError);
    expect(() => createSeededRandom(2 ** 60)).toThrow(RangeError);
    expect(() => createSeededRandom(1).nextBelow(0)).toThrow(RangeError);
  });
});

describe('seededShuffle (Fisher–Yates)', () => {
  it('gives fixed permutations for fixed seeds', () => {
    const numbers = Array.from({ length: 10 }, (_, index) => index);
    expect(seededShuffle(numbers, 42)).toEqual([1, 3, 9, 5, 2, 8, 4, 0, 7, 6]);
    expect(seededShuffle(numbers, 7)).toEqual([0, 4, 8, 1, 7, 3, 5, 6, 9, 2]);
  });

  it('returns a permutation without touching the input', () => {
    const input = ['a', 'b', 'c', 'd', 'e'];
    const shuffled = seededShuffle(input, 3);
    expect(input).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect([...shuffled].sort()).toEqual(input);
    expect(seededShuffle([], 3)).toEqual([]);
    expect(seededShuffle(['only'], 3)).toEqual(['only']);
  });
});

describe('countsByLargestRemainder', () => {
  it.each([
    [10, [2, 1, 7], [2, 1, 7]],
    [11, [2, 1, 7], [2, 1, 8]],
    [7, [2, 1, 7], [1, 1, 5]],
    [10, [1, 1, 1], [4, 3, 3]],
    [2, [1, 1, 1], [1, 1, 0]], // equal remainders and weights: earlier parts first
    [5, [1, 2, 2], [1, 2, 2]],
    [4, [1, 2, 2], [1, 2, 1]],
    [3, [1, 2, 2], [1, 1, 1]],
    [10, [0, 0, 1], [0, 0, 10]],
    [0, [2, 1, 7], [0, 0, 0]],
  ])('splits %d by %j into %j', (total, weights, counts) => {
    expect(countsByLargestRemainder(total, weights)).toEqual(counts);
  });

  it('sends ties to the larger weight, then to the earlier part', () => {
    // Shares 0.75, 0.75, 1.5: the two leftover units go to the largest remainders (.75 and .75).
    expect(countsByLargestRemainder(3, [1, 1, 2])).toEqual([1, 1, 1]);
    // Shares 0.5, 1, 1.5 → remainders .5, 0, .5: the tie goes to test, the larger weight.
    expect(countsByLargestRemainder(3, [1, 2, 3])).toEqual([0, 1, 2]);
  });

  it('is exact for decimal weights', () => {
    expect(countsByLargestRemainder(10, [0.2, 0.1, 0.7])).toEqual(countsByLargestRemainder(10, [2, 1, 7]));
    expect(countsByLargestRemainder(1000, [0.1, 0.2, 0.7])).toEqual([100, 200, 700]);
  });

  it('always hands out every item', () => {
    for (let total = 0; total < 50; total += 1) {
      const counts = countsByLargestRemainder(total, [3, 5, 11]);
      expect(counts.reduce((sum, count) => sum + count, 0)).toBe(total);
    }
  });
});

describe('parseSplitRatio', () => {
  it('reads arrays and "a:b:c" strings', () => {
    expect(parseSplitRatio('2:1:7')).toEqual([2, 1, 7]);
    expect(parseSplitRatio(' 0.5 : 0.25 : 0.25 ')).toEqual([0.5, 0.25, 0.25]);
    expect(parseSplitRatio([2, 1, 7])).toEqual([2, 1, 7]);
  });

  it.each([['2:1'], ['2:1:7:1'], ['2::7'], ['a:1:1'], ['-1:1:1'], ['0:0:0'], ['0.1234567:1:1']])('rejects %j as a user config error', (ratio) => {
    let error: unknown;
    try {
      parseSplitRatio(ratio);
    } catch (caught) {
      error = caught;
    }
    expect(SkillOptError.isInstance(error)).toBe(true);
    expect((error as SkillOptError).code).toBe('config-invalid');
    expect((error as SkillOptError).category).toBe('user');
  });
});

describe('splitByRatio', () => {
  const items = Array.from({ length: 10 }, (_, index) => `item-${index}`);

  it('shuffles with the seed and cuts train, val, test in that order', () => {
    const splits = splitByRatio(items, { ratio: '2:1:7', seed: 42 });
    const shuffled = seededShuffle(items, 42);
    expect(splits).toEqual({ train: shuffled.slice(0, 2), val: shuffled.slice(2, 3), test: shuffled.slice(3) });
    expect(splits.train).toEqual(['item-1', 'item-3']);
  });

  it('gives the same split for the same seed, whatever form the ratio takes', () => {
    expect(splitByRatio(items, { ratio: [2, 1, 7], seed: 5 })).toEqual(splitByRatio(items, { ratio: '0.2:0.1:0.7', seed: 5 }));
    expect(splitByRatio(items, { ratio: '2:1:7', seed: 5 })).not.toEqual(splitByRatio(items, { ratio: '2:1:7', seed: 6 }));
  });

  it('keeps every item exactly once and leaves the input alone', () => {
    const copy = [...items];
    const splits = splitByRatio(items, { ratio: '1:1:1', seed: 9 });
    expect([...splits.train, ...splits.val, ...splits.test].sort()).toEqual([...items].sort());
    expect(items).toEqual(copy);
    expect([splits.train.length, splits.val.length, splits.test.length]).toEqual([4, 3, 3]);
  });

  it('rejects a seed that is not an integer', () => {
    expect(() => splitByRatio(items, { ratio: '2:1:7', seed: 0.5 })).toThrow(/seed must be an integer/);
  });
});
