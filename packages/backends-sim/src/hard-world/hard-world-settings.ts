import { z } from 'zod';

const probability = z.number().min(0).max(1);

/** The `hard_world` part of the `backends.sim` section (snake_case, as every config key). */
export const hardWorldConfigSchema = z.strictObject({
  /** Share of items the model does not know: always answered wrong, whatever the skill (the ceiling is below 100%). */
  knowledge_gap_rate: probability.default(0.1),
  /** Share of selection-split items whose label disagrees with the truth: the observed score is inverted. */
  label_noise_rate: probability.default(0.1),
  /** How many recognised rules a skill may hold before compliance with them drops. */
  instruction_budget: z.int().min(0).default(6),
  /** Compliance lost per rule past the budget (compliance never falls below 0.5). */
  overload_penalty: probability.default(0.06),
  /** Probability that a diagnosed failure gets a rule for another concept. */
  misdiagnosis_rate: probability.default(0.2),
  /** Probability that a reflection proposes a rule about one trajectory's question and its gold answer. */
  over_specific_rule_rate: probability.default(0.15),
  /** Probability that a proposed rule is worded vaguely (half its effect). */
  vague_wording_rate: probability.default(0.3),
});

/** Everything that fixes the hard world for one seed. */
export interface HardWorldSettings {
  seed: number;
  /** Probability that a known answer is replaced by a wrong one (the backend's `noise`). */
  noise: number;
  knowledgeGapRate: number;
  labelNoiseRate: number;
  instructionBudget: number;
  overloadPenalty: number;
  misdiagnosisRate: number;
  overSpecificRuleRate: number;
  vagueWordingRate: number;
}

/** The hard world's settings from a parsed `backends.sim` section's parts. */
export function hardWorldSettingsOf(seed: number, noise: number, section: z.output<typeof hardWorldConfigSchema>): HardWorldSettings {
  return {
    seed,
    noise,
    knowledgeGapRate: section.knowledge_gap_rate,
    labelNoiseRate: section.label_noise_rate,
    instructionBudget: section.instruction_budget,
    overloadPenalty: section.overload_penalty,
    misdiagnosisRate: section.misdiagnosis_rate,
    overSpecificRuleRate: section.over_specific_rule_rate,
    vagueWordingRate: section.vague_wording_rate,
  };
}

/** The compliance floor: past the budget a model still follows half of what it is told. */
const MINIMUM_COMPLIANCE = 0.5;

/** How reliably each rule is followed when a skill holds `ruleCount` recognised rules. */
export function complianceFor(settings: Pick<HardWorldSettings, 'instructionBudget' | 'overloadPenalty'>, ruleCount: number): number {
  return Math.max(MINIMUM_COMPLIANCE, 1 - settings.overloadPenalty * Math.max(0, ruleCount - settings.instructionBudget));
}
