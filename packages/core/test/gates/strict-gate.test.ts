import { decideStrictGate, type GateRules } from '../../src/gates/index.js';
import { itemResults, PLAIN_SKILL, rules } from './gate-test-doubles.js';

function decide(
  candidateHard: (number | null)[],
  incumbentHard: (number | null)[],
  gateRules: GateRules = rules(),
  soft?: { candidate: number[]; incumbent: number[] },
) {
  return decideStrictGate({
    candidate: { skill: PLAIN_SKILL, items: itemResults(candidateHard, soft?.candidate) },
    incumbent: { skill: PLAIN_SKILL, items: itemResults(incumbentHard, soft?.incumbent) },
    rules: gateRules,
  });
}

describe('strict gate', () => {
  it('accepts a candidate with a strictly higher score', () => {
    const decision = decide([1, 1, 1, 0], [1, 0, 1, 0]);
    expect(decision).toMatchObject({ strategy: 'strict', accepted: true, action: 'accept', gateSaysAccept: true, candidateScore: 0.75, incumbentScore: 0.5 });
    expect(decision.reason).toContain('strictly higher');
    expect(decision.itemDeltas.map((delta) => delta.change)).toEqual(['unchanged', 'improved', 'unchanged', 'unchanged']);
  });

  it('rejects a lower candidate', () => {
    const decision = decide([0, 0, 1, 0], [1, 0, 1, 0]);
    expect(decision).toMatchObject({ accepted: false, action: 'reject', candidateScore: 0.25, incumbentScore: 0.5 });
    expect(decision.reason).toContain('lower');
  });

  it('rejects a tie, even when the items moved', () => {
    const decision = decide([0, 1, 1, 0], [1, 0, 1, 0]);
    expect(decision).toMatchObject({ accepted: false, candidateScore: 0.5, incumbentScore: 0.5 });
    expect(decision.reason).toContain('tie');
  });

  it('compares on the mixed metric', () => {
    // Same passes, better soft scores: only a metric that looks at soft can see the difference.
    const soft = { candidate: [1, 0.6, 0.9], incumbent: [1, 0.2, 0.9] };
    const hardOnly = decide([1, 0, 1], [1, 0, 1], rules({ metric: 'hard' }), soft);
    const mixed = decide([1, 0, 1], [1, 0, 1], rules({ metric: 'mixed', mixedWeight: 0.5 }), soft);
    expect(hardOnly.accepted).toBe(false);
    expect(mixed.accepted).toBe(true);
    expect(mixed.candidateScore).toBeCloseTo((2 / 3) * 0.5 + ((1 + 0.6 + 0.9) / 3) * 0.5, 12);
    expect(mixed.incumbentScore).toBeCloseTo((2 / 3) * 0.5 + ((1 + 0.2 + 0.9) / 3) * 0.5, 12);
  });

  it('lets the density bonus break a tie in task scores (the original vector)', () => {
    const decision = decideStrictGate({
      candidate: { skill: 'Always verify outputs. Never mix proxy values.', items: itemResults([1, 1, 1, 1, 0]) },
      incumbent: {
        skill: 'Always do this task step by step and be very careful because errors are bad.',
        items: itemResults([1, 1, 1, 1, 0]),
      },
      rules: rules({ semanticDensity: { weight: 0.1 } }),
    });
    expect(decision.accepted).toBe(true);
    expect(decision.candidateScore).toBeCloseTo(0.8 + 0.1 * (3 / 7), 6);
    expect(decision.incumbentScore).toBeCloseTo(0.8 + 0.1 / 15, 6);
    expect(decision.candidate.densityBonus).toBeCloseTo(0.1 * (3 / 7), 12);
  });

  it('vetoes a higher mean that breaks an item when no_regression is on', () => {
    const candidate = [1, 1, 1, 0];
    const incumbent = [0, 0, 1, 1];
    expect(decide(candidate, incumbent).accepted).toBe(true);
    const decision = decide(candidate, incumbent, rules({ noRegression: true }));
    expect(decision.accepted).toBe(false);
    expect(decision.vetoes).toEqual([expect.objectContaining({ rule: 'no-regression', itemIds: ['item-3'] })]);
    expect(decision.reason).toContain('no-regression');
    expect(decision.itemDeltas[3]).toMatchObject({ itemId: 'item-3', delta: -1, change: 'regressed' });
  });

  it('vetoes a candidate that fails a must-pass item, whatever its mean', () => {
    const decision = decide([1, 1, 1, 0], [0, 0, 0, 1], rules({ mustPassItemIds: ['item-3'] }));
    expect(decision.accepted).toBe(false);
    expect(decision.vetoes).toEqual([expect.objectContaining({ rule: 'must-pass', itemIds: ['item-3'] })]);
    expect(decision.reason).toContain('must-pass: failed item-3');
  });

  it('vetoes a candidate whose must-pass item could not be scored', () => {
    const decision = decide([1, 1, null], [0, 0, 1], rules({ mustPassItemIds: ['item-2'] }));
    expect(decision.accepted).toBe(false);
    expect(decision.reason).toContain('could not verify item-2');
  });

  it('accepts with the gate off, after recording the comparison it would have rejected', () => {
    const decision = decide([0, 0, 1], [1, 1, 1], rules({ useGate: false }));
    expect(decision).toMatchObject({ accepted: true, action: 'force-accept', gateSaysAccept: false, candidateScore: 1 / 3, incumbentScore: 1 });
    expect(decision.reason).toMatch(/^gate off, accepted anyway; the gate would have said: candidate is lower/);
    expect(decision.itemDeltas).toHaveLength(3);
  });

  it('leaves an item excluded on either side out of both scores', () => {
    // item-1 timed out for the candidate, item-3 for the incumbent. Unpaired, the candidate
    // would score 2/3 against the incumbent's 2/3; paired on items 0 and 2 it is 1 vs 0.5.
    const decision = decide([1, null, 1, 0], [1, 1, 0, null]);
    expect(decision.candidateScore).toBe(1);
    expect(decision.incumbentScore).toBe(0.5);
    expect(decision.accepted).toBe(true);
    expect(decision.unpairedItems).toEqual([
      { itemId: 'item-1', reason: 'excluded-for-candidate' },
      { itemId: 'item-3', reason: 'excluded-for-incumbent' },
    ]);
    expect(decision.reason).toContain('2 item(s) left out of both sides');
  });

  it('rejects when no item was scored on both sides', () => {
    const decision = decide([1, null], [null, 1]);
    expect(decision.accepted).toBe(false);
    expect(decision.reason).toContain('nothing to compare');
  });

  it('ignores floating-point noise when deciding a tie', () => {
    const decision = decide([0.1, 0.2], [0.3, 0], rules({ metric: 'mixed', mixedWeight: 0.3 }), {
      candidate: [0.2, 0.1],
      incumbent: [0, 0.3],
    });
    expect(decision.accepted).toBe(false);
    expect(decision.reason).toContain('tie');
  });
});
