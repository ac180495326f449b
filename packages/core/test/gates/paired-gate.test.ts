import { ERROR_CODES } from '@skillopt/contract';
import { decideStrictGate, runPairedGate, type GateRules, type PairedGateSettings } from '../../src/gates/index.js';
import { itemResults, PLAIN_SKILL, rules, scriptedPairedSides } from './gate-test-doubles.js';

const repeat = (pattern: number[], times: number): number[] => Array.from({ length: times }, () => pattern).flat();

async function runPaired(
  candidateHard: (number | null)[],
  incumbentHard: (number | null)[],
  settings: Partial<PairedGateSettings> = {},
  gateRules: GateRules = rules(),
) {
  const sides = scriptedPairedSides(itemResults(candidateHard), itemResults(incumbentHard));
  const decision = await runPairedGate({
    items: sides.items,
    candidateSkill: PLAIN_SKILL,
    incumbentSkill: PLAIN_SKILL,
    rules: gateRules,
    settings: { chunkSize: 4, alpha: 0.05, futility: 0, ...settings },
    evaluateCandidate: sides.evaluateCandidate,
    incumbentResults: sides.incumbentResults,
  });
  return { decision, sides };
}

describe('paired gate: early stopping', () => {
  it('accepts a clearly better candidate before evaluating every item', async () => {
    const { decision, sides } = await runPaired(repeat([1], 40), repeat([0], 40));
    expect(decision).toMatchObject({ strategy: 'paired', accepted: true, action: 'accept' });
    expect(decision.sequential).toMatchObject({ outcome: 'clearly-better', stoppedEarly: true, chunks: 2 });
    // Eight straight wins: 8 · ln 1.5 = 3.24 ≥ ln 20 = 3.00.
    expect(decision.itemsEvaluated).toBe(8);
    expect(decision.itemsEvaluated).toBeLessThan(decision.itemsTotal);
    expect(sides.candidateAskedFor).toHaveLength(8);
    expect(sides.incumbentAskedFor).toHaveLength(8);
    expect(decision.reason).toContain('clearly better');
    expect(decision.reason).toContain('8 of 40 item(s)');
  });

  it('rejects a clearly worse candidate before evaluating every item', async () => {
    const { decision, sides } = await runPaired(repeat([0], 40), repeat([1], 40));
    expect(decision).toMatchObject({ accepted: false, action: 'reject' });
    expect(decision.sequential).toMatchObject({ outcome: 'clearly-worse', stoppedEarly: true });
    expect(sides.candidateAskedFor.length).toBeLessThan(40);
  });

  it('skips ties: items both pass or both fail carry no evidence', async () => {
    // Pairs alternate tie/win, so eight wins take sixteen items.
    const { decision } = await runPaired(repeat([1, 1], 20), repeat([1, 0], 20));
    expect(decision.sequential.signTest).toMatchObject({ wins: 8, losses: 0, ties: 8 });
    expect(decision.itemsEvaluated).toBe(16);
    expect(decision.accepted).toBe(true);
  });

  it('stops once no remaining item can change the decision', async () => {
    // Four losses leave the test short of "worse" (α = 0.01) but two items cannot rescue the candidate.
    const { decision } = await runPaired([0, 0, 0, 0, 1, 1], [1, 1, 1, 1, 0, 0], { chunkSize: 2, alpha: 0.01 });
    expect(decision.sequential).toMatchObject({ outcome: 'determined', stoppedEarly: true });
    expect(decision.itemsEvaluated).toBe(4);
    expect(decision.accepted).toBe(false);
  });

  it('also stops early on the mixed metric', async () => {
    const sides = scriptedPairedSides(itemResults(repeat([1], 30), repeat([0.9], 30)), itemResults(repeat([0], 30), repeat([0.4], 30)));
    const decision = await runPairedGate({
      items: sides.items,
      candidateSkill: PLAIN_SKILL,
      incumbentSkill: PLAIN_SKILL,
      rules: rules({ metric: 'mixed', mixedWeight: 0.5 }),
      settings: { chunkSize: 5, alpha: 0.05, futility: 0 },
      evaluateCandidate: sides.evaluateCandidate,
      incumbentResults: sides.incumbentResults,
    });
    expect(decision.accepted).toBe(true);
    expect(decision.itemsEvaluated).toBe(10);
    expect(decision.candidateScore).toBeCloseTo(0.95, 12);
    expect(decision.incumbentScore).toBeCloseTo(0.2, 12);
  });
});

describe('paired gate: no clear verdict', () => {
  // Wins and losses alternate, with the candidate one win ahead at the end.
  const candidate = [...repeat([1, 0], 6), 1];
  const incumbent = [...repeat([0, 1], 6), 0];

  it('falls back to the strict rule on all items', async () => {
    const { decision, sides } = await runPaired(candidate, incumbent);
    expect(decision.sequential).toMatchObject({ outcome: 'inconclusive', stoppedEarly: false });
    expect(sides.candidateAskedFor).toHaveLength(13);
    const strict = decideStrictGate({
      candidate: { skill: PLAIN_SKILL, items: itemResults(candidate) },
      incumbent: { skill: PLAIN_SKILL, items: itemResults(incumbent) },
      rules: rules(),
    });
    expect(decision.accepted).toBe(strict.accepted);
    expect(decision.accepted).toBe(true);
    expect(decision.candidateScore).toBe(strict.candidateScore);
    expect(decision.reason).toContain('strict rule on all items decides');
  });

  it('rejects a tie after the fallback', async () => {
    const { decision } = await runPaired(repeat([1, 0], 6), repeat([0, 1], 6));
    expect(decision).toMatchObject({ accepted: false, itemsEvaluated: 12 });
    expect(decision.sequential.outcome).toBe('inconclusive');
    expect(decision.reason).toContain('tie');
  });

  it("rejects instead with onInconclusive 'reject'", async () => {
    const { decision } = await runPaired(candidate, incumbent, { onInconclusive: 'reject', chunkSize: 13 });
    expect(decision).toMatchObject({ accepted: false, itemsEvaluated: 13 });
    expect(decision.reason).toContain('inconclusive comparison is rejected');
  });

  it("with onInconclusive 'reject' stops as soon as the test can no longer say better", async () => {
    // 4 wins and 4 losses after two chunks: five more wins cannot reach the boundary, and without
    // the strict fallback nothing else could accept.
    const { decision } = await runPaired(candidate, incumbent, { onInconclusive: 'reject' });
    expect(decision).toMatchObject({ accepted: false, itemsEvaluated: 8 });
    expect(decision.sequential).toMatchObject({ outcome: 'determined', stoppedEarly: true });
  });
});

describe('paired gate: rules', () => {
  it('evaluates must-pass items first and stops at once when one fails', async () => {
    const candidateHard = [...repeat([1], 19), 0];
    const { decision, sides } = await runPaired(candidateHard, repeat([0], 20), {}, rules({ mustPassItemIds: ['item-19'] }));
    expect(sides.candidateAskedFor[0]).toBe('item-19');
    expect(decision).toMatchObject({ accepted: false, itemsEvaluated: 4 });
    expect(decision.sequential.outcome).toBe('vetoed');
    expect(decision.vetoes).toEqual([expect.objectContaining({ rule: 'must-pass', itemIds: ['item-19'] })]);
  });

  it('with no_regression stops at the first regression', async () => {
    const candidateHard = [1, 1, 1, 1, 1, 0, ...repeat([1], 10)];
    const incumbentHard = [0, 0, 0, 0, 0, 1, ...repeat([0], 10)];
    const { decision } = await runPaired(candidateHard, incumbentHard, {}, rules({ noRegression: true }));
    expect(decision).toMatchObject({ accepted: false, itemsEvaluated: 8 });
    expect(decision.vetoes).toEqual([expect.objectContaining({ rule: 'no-regression', itemIds: ['item-5'] })]);
  });

  it('with no_regression checks every item before accepting', async () => {
    const { decision } = await runPaired(repeat([1], 20), repeat([0], 20), {}, rules({ noRegression: true }));
    expect(decision).toMatchObject({ accepted: true, itemsEvaluated: 20 });
    expect(decision.sequential).toMatchObject({ outcome: 'clearly-better', stoppedEarly: false });
  });

  it('with the gate off evaluates everything, records the comparison and accepts', async () => {
    const { decision, sides } = await runPaired(repeat([0], 12), repeat([1], 12), {}, rules({ useGate: false }));
    expect(decision).toMatchObject({ accepted: true, action: 'force-accept', gateSaysAccept: false, itemsEvaluated: 12 });
    expect(decision.sequential.outcome).toBe('gate-off');
    expect(sides.candidateAskedFor).toHaveLength(12);
    expect(decision.reason).toMatch(/^gate off, accepted anyway/);
  });

  it('pairs around excluded items', async () => {
    const { decision } = await runPaired([null, ...repeat([1], 11)], [1, ...repeat([0], 11)], { chunkSize: 12 });
    expect(decision.unpairedItems).toEqual([{ itemId: 'item-0', reason: 'excluded-for-candidate' }]);
    expect(decision.sequential.signTest).toMatchObject({ wins: 11, losses: 0 });
    expect(decision.accepted).toBe(true);
  });
});

describe('paired gate: the strict guard on early accepts', () => {
  it('does not accept on many small wins when one large loss makes the paired mean lower', async () => {
    // Soft metric: item 0 is a full loss (0 vs 1), items 1..11 small wins (+0.05 each).
    const candidateSoft = [0, ...repeat([0.55], 11)];
    const incumbentSoft = [1, ...repeat([0.5], 11)];
    const sides = scriptedPairedSides(itemResults(repeat([0], 12), candidateSoft), itemResults(repeat([0], 12), incumbentSoft));
    const decision = await runPairedGate({
      items: sides.items,
      candidateSkill: PLAIN_SKILL,
      incumbentSkill: PLAIN_SKILL,
      rules: rules({ metric: 'soft' }),
      settings: { chunkSize: 12, alpha: 0.05, futility: 0 },
      evaluateCandidate: sides.evaluateCandidate,
      incumbentResults: sides.incumbentResults,
    });
    // 11 wins and 1 loss reach the sign test's boundary, but the mean says otherwise.
    expect(decision.sequential.signTest).toMatchObject({ wins: 11, losses: 1, verdict: 'better' });
    expect(decision.accepted).toBe(false);
    expect(decision.sequential.outcome).toBe('inconclusive');
    expect(decision.candidateScore).toBeLessThan(decision.incumbentScore);
  });
});

describe('paired gate: misuse and abort', () => {
  it('rejects when a callback leaves an item out', async () => {
    const sides = scriptedPairedSides(itemResults([1, 1]), itemResults([0, 0]));
    const decision = runPairedGate({
      items: sides.items,
      candidateSkill: PLAIN_SKILL,
      incumbentSkill: PLAIN_SKILL,
      rules: rules(),
      settings: { chunkSize: 2, alpha: 0.05, futility: 0 },
      evaluateCandidate: async (items) => (await sides.evaluateCandidate(items)).slice(1),
      incumbentResults: sides.incumbentResults,
    });
    await expect(decision).rejects.toMatchObject({ code: ERROR_CODES.internal });
  });

  it('rejects with the abort reason before the next chunk', async () => {
    const controller = new AbortController();
    const sides = scriptedPairedSides(itemResults(repeat([1, 0], 10)), itemResults(repeat([0, 1], 10)));
    const decision = runPairedGate({
      items: sides.items,
      candidateSkill: PLAIN_SKILL,
      incumbentSkill: PLAIN_SKILL,
      rules: rules(),
      settings: { chunkSize: 2, alpha: 0.05, futility: 0 },
      evaluateCandidate: async (items) => {
        controller.abort(new Error('stopped by the test'));
        return sides.evaluateCandidate(items);
      },
      incumbentResults: sides.incumbentResults,
      signal: controller.signal,
    });
    await expect(decision).rejects.toThrow('stopped by the test');
    expect(sides.candidateAskedFor).toHaveLength(2);
  });

  it('waits for the other side before passing on a failed evaluation', async () => {
    const sides = scriptedPairedSides(itemResults([1, 1]), itemResults([0, 0]));
    let incumbentFinished = false;
    const failure = new Error('candidate evaluation failed');
    const decision = runPairedGate({
      items: sides.items,
      candidateSkill: PLAIN_SKILL,
      incumbentSkill: PLAIN_SKILL,
      rules: rules(),
      settings: { chunkSize: 2, alpha: 0.05, futility: 0 },
      evaluateCandidate: async () => {
        throw failure;
      },
      incumbentResults: async (items) => {
        await new Promise((resolve) => setImmediate(resolve));
        incumbentFinished = true;
        return sides.incumbentResults(items);
      },
    });
    await expect(decision).rejects.toBe(failure);
    expect(incumbentFinished).toBe(true);
  });

  it('rejects invalid settings', async () => {
    await expect(runPaired([1], [0], { chunkSize: 0 })).rejects.toThrow(RangeError);
    await expect(runPaired([1], [0], { alpha: 1 })).rejects.toThrow(RangeError);
    await expect(runPaired([1], [0], { alternativeWinRate: 0.5 })).rejects.toThrow(RangeError);
  });
});
