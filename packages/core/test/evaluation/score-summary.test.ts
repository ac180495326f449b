import { summarizeScores, targetModelId } from '../../src/evaluation/index.js';
import type { ItemEvaluation } from '../../src/evaluation/index.js';
import type { GateItemResult } from '../../src/gates/index.js';
import { createIdleTargetForTests } from './evaluation-test-doubles.js';

const scored = (hard: number, soft: number) => ({ status: 'scored' as const, hard, soft });

describe('summarizeScores (§6.1 semantics, over scored items only)', () => {
  it('is 0/0 with a flag when nothing was scored', () => {
    expect(summarizeScores([])).toEqual({ meanHard: 0, meanSoft: 0, scoredCount: 0, excludedCount: 0, nothingScored: true });
  });

  it('averages hard and soft like the original', () => {
    const summary = summarizeScores([scored(1, 0.8), scored(0, 0.5), scored(1, 0.9)]);
    expect(summary.meanHard).toBeCloseTo(2 / 3, 12);
    expect(summary.meanSoft).toBeCloseTo(0.7333333333, 9);
  });

  it('keeps fractional hard scores', () => {
    expect(summarizeScores([scored(0.75, 0.6), scored(0.25, 0.4)])).toMatchObject({ meanHard: 0.5, meanSoft: 0.5 });
  });

  it('leaves excluded items out of both numerator and denominator', () => {
    expect(summarizeScores([scored(1, 1), { status: 'excluded' }, scored(0, 0)])).toEqual({
      meanHard: 0.5,
      meanSoft: 0.5,
      scoredCount: 2,
      excludedCount: 1,
      nothingScored: false,
    });
  });
});

describe('targetModelId', () => {
  it('names kind, provider and model', () => {
    expect(targetModelId(createIdleTargetForTests('m1'))).toBe('chat:test-double/m1');
  });
});

describe('evaluator results feed the gate directly', () => {
  it('an ItemEvaluation list is a GateItemResult list', () => {
    const evaluated: ItemEvaluation[] = [
      { status: 'excluded', itemId: 'a', sampleIndex: 0, error: { code: 'provider-timeout', message: 'slow' }, attempts: 3 },
    ];
    const forTheGate: readonly GateItemResult[] = evaluated; // a compile-time check as much as a runtime one
    expect(forTheGate[0]?.status).toBe('excluded');
  });
});
