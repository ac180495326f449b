import type { HardWorldSettings } from './hard-world-settings.js';
import { complianceFor } from './hard-world-settings.js';
import { planExpectation, type ItemPlan } from './expected-score.js';
import type { RuleConcept } from './rule-concept.js';
import type { SkillRules } from './skill-reading.js';

/** The best expected score any skill built from the catalogue reaches, the concepts that reach it and that skill. */
export interface OracleResult {
  score: number;
  conceptIds: string[];
  skill: string;
}

/** Scores within this of each other are ties, which the smaller subset wins. */
const TIE = 1e-12;

function bitCount(mask: number): number {
  let count = 0;
  for (let rest = mask; rest !== 0; rest &= rest - 1) count += 1;
  return count;
}

/** The base skill with each chosen concept added as a bullet in its first (strong) wording. */
function skillWithConcepts(baseSkill: string, concepts: readonly RuleConcept[]): string {
  const lines = concepts.map((concept) => `- ${concept.strongPhrasings[0] as string}`);
  const base = baseSkill.replace(/\s+$/, '');
  if (lines.length === 0) return baseSkill;
  return `${base === '' ? '' : `${base}\n\n`}${lines.join('\n')}\n`;
}

/**
 * The exact best over every subset of the catalogue (2^N skills), each concept added to the base
 * skill in its strong wording. Items with the same plan are scored once, weighted by their count.
 */
export function searchOracle(
  settings: Pick<HardWorldSettings, 'noise' | 'instructionBudget' | 'overloadPenalty'>,
  catalogue: readonly RuleConcept[],
  baseRules: SkillRules,
  plans: readonly ItemPlan[],
  baseSkill: string,
): OracleResult {
  const weights = new Map<string, { plan: ItemPlan; count: number }>();
  for (const plan of plans) {
    const signature = JSON.stringify(plan);
    const known = weights.get(signature);
    if (known) known.count += 1;
    else weights.set(signature, { plan, count: 1 });
  }
  const distinct = [...weights.values()];
  const strengths = [...baseRules.strengths];
  let bestScore = Number.NEGATIVE_INFINITY;
  let bestMask = 0;
  for (let mask = 0; mask < 2 ** catalogue.length; mask += 1) {
    for (let index = 0; index < catalogue.length; index += 1) strengths[index] = mask & (1 << index) ? 1 : (baseRules.strengths[index] as number);
    const compliance = complianceFor(settings, baseRules.ruleCount + bitCount(mask));
    let total = 0;
    for (const { plan, count } of distinct) total += count * planExpectation(plan, strengths, compliance, settings.noise);
    const score = plans.length === 0 ? 0 : total / plans.length;
    if (score > bestScore + TIE || (Math.abs(score - bestScore) <= TIE && bitCount(mask) < bitCount(bestMask))) {
      bestScore = score;
      bestMask = mask;
    }
  }
  const chosen = catalogue.filter((_concept, index) => bestMask & (1 << index));
  return { score: bestScore, conceptIds: chosen.map((concept) => concept.id), skill: skillWithConcepts(baseSkill, chosen) };
}
