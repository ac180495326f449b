import { strictAcceptanceChance } from '../../src/gates/acceptance-chance.js';

const repeat = (value: number, times: number): number[] => Array.from({ length: times }, () => value);

describe('strictAcceptanceChance', () => {
  it('is certain once nothing remains: 1 above the tolerance, 0 at or below it', () => {
    expect(strictAcceptanceChance([{ seenDeltas: [1, 0, -1, 1], remaining: 0 }], 0)).toBe(1);
    expect(strictAcceptanceChance([{ seenDeltas: [1, -1], remaining: 0 }], 0)).toBe(0);
    expect(strictAcceptanceChance([], 0)).toBe(0);
  });

  it('is a coin toss with no evidence either way, and moves with the evidence', () => {
    const even = strictAcceptanceChance([{ seenDeltas: [], remaining: 40 }], 0);
    expect(even).toBeCloseTo(0.5, 6);
    const behind = strictAcceptanceChance([{ seenDeltas: [-1, -1, 0, 0, 0, 0, 0, 0, 0, 0], remaining: 50 }], 0);
    const ahead = strictAcceptanceChance([{ seenDeltas: [1, 1, 0, 0, 0, 0, 0, 0, 0, 0], remaining: 50 }], 0);
    expect(behind).toBeLessThan(0.1);
    expect(ahead).toBeGreaterThan(0.9);
  });

  it('predicts each group from its own items: losses among the passed items do not spread to the failed ones', () => {
    const lostWherePassed = { seenDeltas: [-1, -1, 0, 0, 0], remaining: 5 };
    const tiedWhereFailed = { seenDeltas: repeat(0, 5), remaining: 45 };
    const split = strictAcceptanceChance([lostWherePassed, tiedWhereFailed], 0);
    const pooled = strictAcceptanceChance([{ seenDeltas: [-1, -1, ...repeat(0, 8)], remaining: 50 }], 0);
    expect(split).toBeGreaterThan(pooled);
  });

  it('counts the density bonus difference', () => {
    const group = [{ seenDeltas: [0, 0, 0, 0], remaining: 10 }];
    expect(strictAcceptanceChance(group, 0.05)).toBeGreaterThan(strictAcceptanceChance(group, 0));
    expect(strictAcceptanceChance(group, -0.05)).toBeLessThan(strictAcceptanceChance(group, 0));
  });
});
