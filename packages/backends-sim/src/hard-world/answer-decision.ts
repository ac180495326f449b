import { plausibleWrongAnswer, type AnswerKey } from '../answer-key.js';
import type { AnswerFailureClass } from '../failure-classes.js';
import { hashHex, unitHash } from '../hashing.js';
import type { TargetDecision } from '../target.js';
import type { HardWorldSettings } from './hard-world-settings.js';
import { truncatedAnswer, type ItemProfile } from './item-profile.js';
import { overSpecificRuleIsRight } from './over-specific-rule.js';
import type { RuleConcept, HardWorldHabit } from './rule-concept.js';
import type { SkillRules } from './skill-reading.js';

/** How the hard world's target answers one item under one skill: the reply to render, and why. */
export interface HardWorldAnswer {
  decision: TargetDecision;
  /** The habits that showed (a full name cut to the surname is `truncation`). */
  showing: HardWorldHabit[];
  /** Whether the answer is right by the world's truth, and as the (possibly wrong) label scores it. */
  rightInTruth: boolean;
  rightByLabel: boolean;
  knowledgeGap: boolean;
  mislabelled: boolean;
  compliance: number;
}

/**
 * Draws the answer. Each factor of the expected score is one independent draw of
 * `unitHash(seed, what, item, habit or concept, skill)`, so the same skill always gets the same
 * answer, another skill draws again, and the mean over items is the expected score.
 */
export function decideHardWorldAnswer(
  settings: Pick<HardWorldSettings, 'seed' | 'noise'>,
  catalogue: readonly RuleConcept[],
  key: AnswerKey,
  profile: ItemProfile,
  rules: SkillRules,
  skill: string,
): HardWorldAnswer {
  const { seed } = settings;
  const item = profile.key;
  const { entry } = profile;
  const skillHash = hashHex(skill).slice(0, 16);
  const compliance = rules.compliance;
  const noisy = unitHash(seed, 'noise', item, skillHash) < settings.noise;
  const naming = rules.overSpecific.filter((rule) => rule.questionKey === item);
  const followsOverSpecific = naming.length > 0 && unitHash(seed, 'over-specific', item, skillHash) < compliance;
  const showing = new Set<HardWorldHabit>();
  if (!followsOverSpecific) {
    for (const habit of profile.latentHabits) {
      const strongest = Math.max(0, ...catalogue.map((concept, index) => (concept.fixes.includes(habit) ? (rules.strengths[index] as number) : 0)));
      if (!(unitHash(seed, 'suppress', item, habit, skillHash) < strongest * compliance)) showing.add(habit);
    }
    catalogue.forEach((concept, index) => {
      const causes = concept.causes;
      if (causes === undefined || !profile.groups.has(causes.group) || !profile.showable.has(causes.habit)) return;
      if (unitHash(seed, 'hurt', item, concept.id, skillHash) < (rules.strengths[index] as number) * compliance) showing.add(causes.habit);
    });
    for (const harm of rules.harms) if (profile.showable.has(harm) && unitHash(seed, 'harm', item, harm, skillHash) < compliance) showing.add(harm);
  }
  const dictated = naming.find((rule) => rule.answer !== undefined)?.answer;
  const overSpecificRight = naming.some((rule) => overSpecificRuleIsRight(rule, entry.references));
  const rightInTruth = !noisy && (followsOverSpecific ? overSpecificRight : !profile.knowledgeGap && showing.size === 0);
  const rightByLabel = profile.mislabelled ? !rightInTruth : rightInTruth;
  const wrongAnswer = (why: string): string => plausibleWrongAnswer(key, entry.shape, entry.gold, seed, why, item, skillHash);
  const base: Omit<TargetDecision, 'active' | 'baseAnswer' | 'truncated'> = {
    shape: entry.shape,
    tendencies: profile.latentHabits.filter((habit): habit is AnswerFailureClass => habit !== 'truncation'),
    noisy,
    known: !profile.knowledgeGap,
  };
  const outcome = { showing: [...showing], rightInTruth, rightByLabel, knowledgeGap: profile.knowledgeGap, mislabelled: profile.mislabelled, compliance };
  if (rightByLabel) return { ...outcome, decision: { ...base, active: [], truncated: false, baseAnswer: entry.gold } };
  // The label disagrees with a right answer: the target gives one the label scores wrong, with no habit to diagnose.
  if (rightInTruth) return { ...outcome, decision: { ...base, active: [], truncated: false, baseAnswer: wrongAnswer('mislabelled') } };
  if (followsOverSpecific)
    return { ...outcome, decision: { ...base, active: [], truncated: false, baseAnswer: noisy || dictated === undefined ? wrongAnswer('noise') : dictated } };
  const fullNameGold = profile.groups.has('full-name-gold');
  let baseAnswer = noisy ? wrongAnswer('noise') : profile.knowledgeGap ? wrongAnswer('unknown') : entry.gold;
  // A full name cut shows as the surname alone; other cuts as the demo world renders them.
  if (showing.has('truncation') && fullNameGold) baseAnswer = truncatedAnswer(baseAnswer, true);
  const active = [...showing].filter((habit): habit is AnswerFailureClass => habit !== 'truncation');
  return { ...outcome, decision: { ...base, active, truncated: showing.has('truncation') && !fullNameGold, baseAnswer } };
}
