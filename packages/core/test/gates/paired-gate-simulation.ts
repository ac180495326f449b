import { createSeededRandom, type SeededRandom } from '@skillopt/env-kit';
import { decideStrictGate, runPairedGate, type GateItemResult, type GateMetric, type PairedGateSettings } from '../../src/gates/index.js';
import { rules } from './gate-test-doubles.js';

/**
 * TEST DOUBLE. Synthetic selection sets for the paired gate's simulation: each item has its own
 * difficulty; candidate and incumbent outcomes are drawn independently per item from it, shifted by
 * the scenario's `effect` (the candidate's extra pass chance, negative for a worse candidate).
 */
export interface SimulationScenario {
  items: number;
  /** How an item's incumbent pass chance (or soft mean) is drawn. */
  incumbentChance(random: SeededRandom): number;
  /** Added to the item's chance for the candidate (clamped to [0, 1]). */
  effect: number;
  metric: GateMetric;
}

export interface SimulationTally {
  trials: number;
  pairedAccepts: number;
  /** Accepts the sequential test itself made (outcome `clearly-better`). */
  testAccepts: number;
  strictAccepts: number;
  itemsEvaluated: number;
  stoppedEarly: number;
}

const clamp = (value: number): number => Math.min(1, Math.max(0, value));

function draw(random: SeededRandom, chance: number, metric: GateMetric): { hard: number; soft: number } {
  if (metric === 'hard') {
    const pass = random.nextFloat() < chance ? 1 : 0;
    return { hard: pass, soft: pass };
  }
  // A soft score around the item's chance, with noise; hard is its pass mark at 0.5.
  const soft = clamp(chance + (random.nextFloat() - 0.5) * 0.6);
  return { hard: soft >= 0.5 ? 1 : 0, soft };
}

export async function simulatePairedGate(scenario: SimulationScenario, settings: PairedGateSettings, trials: number, seed: number): Promise<SimulationTally> {
  const random = createSeededRandom(seed);
  const tally: SimulationTally = { trials, pairedAccepts: 0, testAccepts: 0, strictAccepts: 0, itemsEvaluated: 0, stoppedEarly: 0 };
  const gateRules = rules({ metric: scenario.metric });
  for (let trial = 0; trial < trials; trial += 1) {
    const candidate: GateItemResult[] = [];
    const incumbent: GateItemResult[] = [];
    for (let index = 0; index < scenario.items; index += 1) {
      const chance = scenario.incumbentChance(random);
      incumbent.push({ itemId: `item-${index}`, status: 'scored', ...draw(random, chance, scenario.metric) });
      candidate.push({ itemId: `item-${index}`, status: 'scored', ...draw(random, clamp(chance + scenario.effect), scenario.metric) });
    }
    const byId = (results: GateItemResult[]) => new Map(results.map((result) => [result.itemId, result]));
    const candidateById = byId(candidate);
    const incumbentById = byId(incumbent);
    const decision = await runPairedGate({
      items: candidate.map((result) => ({ id: result.itemId })),
      candidateSkill: '',
      incumbentSkill: '',
      rules: gateRules,
      settings,
      evaluateCandidate: async (items) => items.map((item) => candidateById.get(item.id)!),
      incumbentResults: async (items) => items.map((item) => incumbentById.get(item.id)!),
    });
    const strict = decideStrictGate({ candidate: { skill: '', items: candidate }, incumbent: { skill: '', items: incumbent }, rules: gateRules });
    if (decision.accepted) tally.pairedAccepts += 1;
    if (decision.accepted && decision.sequential.outcome === 'clearly-better') tally.testAccepts += 1;
    if (strict.accepted) tally.strictAccepts += 1;
    if (decision.sequential.stoppedEarly) tally.stoppedEarly += 1;
    tally.itemsEvaluated += decision.itemsEvaluated;
  }
  return tally;
}
