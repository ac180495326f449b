import fc from 'fast-check';
import { decideStrictGate, runStrictGate, strictDifferenceBounds, type GateItemResult, type GateRules, type ItemDelta } from '../../src/gates/index.js';

// Each property decides 3000 generated gates, which a loaded machine slows many times over: the
// limit is there to catch a hang, not to time the property.
jest.setTimeout(300_000);

/**
 * The proof of issue #34 part 1: over generated item-result vectors — hard and soft scores with
 * many ties, exclusions on either side, must-pass items, no-regression on and off, the hard, soft
 * and mixed metrics, the density bonus, the gate on and off — and random evaluation orders and
 * chunk sizes, the early-stopping strict gate decides exactly as the strict gate on every item.
 */

// Few distinct values, so ties (per item and in the mean) are common; a continuous draw now and then.
const unitScore = fc.oneof(fc.constantFrom(0, 0.25, 0.5, 0.75, 1), fc.constantFrom(0, 1), fc.double({ min: 0, max: 1, noNaN: true }));
const hardScore = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(0, 1) }, { weight: 1, arbitrary: fc.constantFrom(0.5, 1 / 3) });

type Outcome = { excluded: true } | { excluded: false; hard: number; soft: number };
/** An item's result; `exclusionWeight` against 8 sets how often it is excluded (infrastructure). */
const outcome = (exclusionWeight: number): fc.Arbitrary<Outcome> =>
  fc.oneof(
    { weight: exclusionWeight, arbitrary: fc.constant<Outcome>({ excluded: true }) },
    { weight: 8, arbitrary: fc.record({ excluded: fc.constant(false as const), hard: hardScore, soft: unitScore }) },
  );

// Skill texts of different densities (and the same text on both sides), so the bonus can break or make a tie.
const SKILLS = [
  '# Skill\nAnswer the question.\n',
  'Always verify outputs. Never mix proxy values.',
  'Always do this task step by step and be very careful because errors are bad.',
  'Use the table. Check units. Prefer exact matches. Never guess.',
];

const scenario = fc
  .tuple(fc.integer({ min: 1, max: 36 }), fc.constantFrom(0, 1, 6), fc.constantFrom(0, 1, 6))
  .chain(([size, incumbentExclusions, candidateExclusions]) =>
    fc.record({
      items: fc.array(
        fc.record({
          incumbent: outcome(incumbentExclusions),
          // Often the candidate repeats the incumbent on an item: ties item by item and in the mean.
          candidate: fc.option(outcome(candidateExclusions), { nil: undefined, freq: 2 }),
        }),
        { minLength: size, maxLength: size },
      ),
      order: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: size, maxLength: size }),
      mustPass: fc.uniqueArray(fc.integer({ min: 0, max: size - 1 }), { maxLength: 3 }),
      noRegression: fc.boolean(),
      useGate: fc.oneof({ weight: 9, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
      metric: fc.constantFrom<GateRules['metric']>('hard', 'soft', 'mixed'),
      mixedWeight: fc.oneof(fc.constantFrom(0, 0.5, 1), fc.double({ min: 0, max: 1, noNaN: true })),
      density: fc.option(fc.constantFrom(0.01, 0.05, 0.2, 1), { nil: undefined }),
      candidateSkill: fc.constantFrom(...SKILLS),
      incumbentSkill: fc.constantFrom(...SKILLS),
      chunkSize: fc.integer({ min: 1, max: 12 }),
      orderMode: fc.constantFrom<'given' | 'likely-decisive'>('given', 'likely-decisive'),
    }),
  );

function resultOf(itemId: string, value: Outcome): GateItemResult {
  return value.excluded
    ? { itemId, status: 'excluded', error: { code: 'provider-timeout' } }
    : { itemId, status: 'scored', hard: value.hard, soft: value.soft };
}

describe('early-stopping strict gate: the same decisions as the full strict gate (property)', () => {
  it('decides as the full strict gate for any results, exclusions, vetoes, metric, bonus, order and chunk size', async () => {
    let stoppedEarly = 0;
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const ids = s.items.map((_, index) => `item-${index}`);
        const incumbent = s.items.map((item, index) => resultOf(ids[index] as string, item.incumbent));
        const candidate = s.items.map((item, index) => resultOf(ids[index] as string, item.candidate ?? item.incumbent));
        const rules: GateRules = {
          metric: s.metric,
          mixedWeight: s.mixedWeight,
          ...(s.density === undefined ? {} : { semanticDensity: { weight: s.density } }),
          useGate: s.useGate,
          noRegression: s.noRegression,
          mustPassItemIds: s.mustPass.map((index) => ids[index] as string),
        };
        const full = decideStrictGate({
          candidate: { skill: s.candidateSkill, items: candidate },
          incumbent: { skill: s.incumbentSkill, items: incumbent },
          rules,
        });

        // A random evaluation order: the items sorted by a random key.
        const items = ids.map((id, index) => ({ id, key: s.order[index] as number })).sort((a, b) => a.key - b.key);
        const byId = new Map(candidate.map((result) => [result.itemId, result]));
        const asked: string[] = [];
        const early = await runStrictGate({
          items,
          candidateSkill: s.candidateSkill,
          incumbentSkill: s.incumbentSkill,
          rules,
          earlyStop: { chunkSize: s.chunkSize, order: s.orderMode },
          incumbentResults: incumbent,
          evaluateCandidate: async (chunk) => {
            asked.push(...chunk.map((item) => item.id));
            return chunk.map((item) => byId.get(item.id) as GateItemResult);
          },
        });

        runs += 1;
        const { decision } = early;
        expect({ accepted: decision.accepted, action: decision.action, gateSaysAccept: decision.gateSaysAccept }).toEqual({
          accepted: full.accepted,
          action: full.action,
          gateSaysAccept: full.gateSaysAccept,
        });
        expect(new Set(asked).size).toBe(asked.length); // no item evaluated twice
        expect(decision.itemsEvaluated).toBe(asked.length);
        expect(decision.itemsTotal).toBe(ids.length);
        if (decision.itemsEvaluated < ids.length) {
          stoppedEarly += 1;
          // Only a rejection stops early; an accepted candidate is scored on every item.
          expect(decision.accepted).toBe(false);
        } else {
          // Everything evaluated: the very decision of the full gate on the split in its order, scores and reason included.
          const inSplitOrder = (results: GateItemResult[]) => items.map((item) => results.find((result) => result.itemId === item.id) as GateItemResult);
          expect(decision).toEqual(
            decideStrictGate({
              candidate: { skill: s.candidateSkill, items: inSplitOrder(candidate) },
              incumbent: { skill: s.incumbentSkill, items: inSplitOrder(incumbent) },
              rules,
            }),
          );
        }
      }),
      { numRuns: 3000, seed: 34 },
    );
    // The property is not vacuous: a good share of the runs did stop early.
    expect(stoppedEarly).toBeGreaterThan(runs / 5);
  });
});

describe('strictDifferenceBounds (property)', () => {
  it('contains the final paired difference of every completion: any subset of the pending items paired, each anywhere in its range', () => {
    const range = fc
      .tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }))
      .map(([a, b]) => ({ low: Math.min(a, b), high: Math.max(a, b) }));
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { maxLength: 12 }),
        fc.array(fc.record({ range, paired: fc.boolean(), at: fc.double({ min: 0, max: 1, noNaN: true }) }), { maxLength: 12 }),
        fc.double({ min: -0.5, max: 0.5, noNaN: true }),
        (seen, pending, bonusDifference) => {
          const deltas: ItemDelta[] = seen.map((delta, index) => ({ itemId: `s${index}`, candidate: 0, incumbent: 0, delta, change: 'unchanged' }));
          const bounds = strictDifferenceBounds(
            deltas,
            pending.map((item) => item.range),
            bonusDifference,
          );
          const completed = [...seen, ...pending.filter((item) => item.paired).map((item) => item.range.low + item.at * (item.range.high - item.range.low))];
          if (completed.length === 0) {
            expect(bounds.worst).toBe(Number.NEGATIVE_INFINITY); // nothing to compare is a possible outcome
            return;
          }
          const final = completed.reduce((total, delta) => total + delta, 0) / completed.length + bonusDifference;
          expect(final).toBeLessThanOrEqual(bounds.best + 1e-12);
          expect(final).toBeGreaterThanOrEqual(bounds.worst - 1e-12);
        },
      ),
      { numRuns: 3000, seed: 34 },
    );
  });
});
