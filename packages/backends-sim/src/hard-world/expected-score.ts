import type { ItemProfile } from './item-profile.js';
import { overSpecificRuleIsRight } from './over-specific-rule.js';
import type { RuleConcept } from './rule-concept.js';
import type { SkillRules } from './skill-reading.js';

/**
 * What one item's expected score depends on, with concepts named by catalogue index, so the
 * oracle can try every subset of concepts without reading any text again.
 */
export interface ItemPlan {
  knowledgeGap: boolean;
  /** For each latent habit, the concepts that suppress it. */
  fixersPerHabit: readonly (readonly number[])[];
  /** Concepts that make a habit show on this item. */
  hurtingConcepts: readonly number[];
  /** Harmful rules of the skill that act on this item (each shows with probability compliance). */
  actingHarms: number;
  /** Whether an over-specific rule names the item, and whether following it gives an accepted answer. */
  overSpecific: 'none' | 'right' | 'wrong';
}

/** The plan of one item under a skill's harmful and over-specific rules (concept strengths come later). */
export function planItem(profile: ItemProfile, catalogue: readonly RuleConcept[], rules: Pick<SkillRules, 'harms' | 'overSpecific'>): ItemPlan {
  const fixersPerHabit = profile.latentHabits.map((habit) => catalogue.flatMap((concept, index) => (concept.fixes.includes(habit) ? [index] : [])));
  const hurtingConcepts = catalogue.flatMap((concept, index) =>
    concept.causes !== undefined && profile.groups.has(concept.causes.group) && profile.showable.has(concept.causes.habit) ? [index] : [],
  );
  const actingHarms = [...rules.harms].filter((harm) => profile.showable.has(harm)).length;
  const naming = rules.overSpecific.filter((rule) => rule.questionKey === profile.key);
  const overSpecific = naming.length === 0 ? 'none' : naming.some((rule) => overSpecificRuleIsRight(rule, profile.entry.references)) ? 'right' : 'wrong';
  return { knowledgeGap: profile.knowledgeGap, fixersPerHabit, hurtingConcepts, actingHarms, overSpecific };
}

/**
 * The probability that the item is answered right (clean label):
 * `(1 − noise) × [κ·r + (1 − κ)·X]` when an over-specific rule names it (r: its answer is right),
 * else `(1 − noise) × X`, with `X = known × Π over latent habits of s·κ × Π over hurting concepts
 * of (1 − s·κ) × (1 − κ)^(harmful rules acting on it)`, s the strongest fixing (or hurting) concept
 * stated, κ the compliance.
 */
export function planExpectation(plan: ItemPlan, strengths: readonly number[], compliance: number, noise: number): number {
  let followedAsUsual = plan.knowledgeGap ? 0 : 1;
  for (const fixers of plan.fixersPerHabit) {
    let strongest = 0;
    for (const index of fixers) strongest = Math.max(strongest, strengths[index] as number);
    followedAsUsual *= strongest * compliance;
  }
  for (const index of plan.hurtingConcepts) followedAsUsual *= 1 - (strengths[index] as number) * compliance;
  followedAsUsual *= (1 - compliance) ** plan.actingHarms;
  if (plan.overSpecific === 'none') return (1 - noise) * followedAsUsual;
  return (1 - noise) * (compliance * (plan.overSpecific === 'right' ? 1 : 0) + (1 - compliance) * followedAsUsual);
}
