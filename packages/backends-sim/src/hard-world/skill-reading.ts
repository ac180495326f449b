import { ANSWER_HARM_KINDS, readSkillRules, USELESS_RULE_PHRASINGS } from '../failure-classes.js';
import { normalizeAnswer } from '../text.js';
import { complianceFor, type HardWorldSettings } from './hard-world-settings.js';
import { readOverSpecificRule, type OverSpecificRule } from './over-specific-rule.js';
import { STRONG_WORDING, VAGUE_WORDING, type HardWorldHabit, type RuleConcept } from './rule-concept.js';

/** One concept a skill states, at the strength of its strongest wording. */
export interface ConceptStrength {
  id: string;
  strength: number;
}

/** What the hard world's target reads in a skill. */
export interface SkillReading {
  /** The catalogue's concepts the skill states, in catalogue order. */
  concepts: ConceptStrength[];
  overSpecificRules: number;
  /** Lines the demo world reads as harmful (each harm of a line counted once). */
  harmfulRules: number;
  /** Generic advice that changes nothing ("Double-check your work"), but still takes attention. */
  uselessRules: number;
  /** Every recognised rule: concept statements, over-specific, harmful and useless rules. */
  ruleCount: number;
  /** How reliably each rule is followed, given `ruleCount` and the instruction budget. */
  compliance: number;
}

/** The reading with what the world computes with: strength per concept index, harms, over-specific rules. */
export interface SkillRules extends SkillReading {
  /** The strength of each catalogue concept, by catalogue index (0 when absent). */
  strengths: readonly number[];
  harms: ReadonlySet<HardWorldHabit>;
  overSpecific: readonly OverSpecificRule[];
}

const NORMALIZED_USELESS = USELESS_RULE_PHRASINGS.map(normalizeAnswer);
const GENERIC_ADVICE = /\b(?:double-check|think step by step|read the question carefully|be (?:accurate|careful)(?: and (?:accurate|careful))?\.?$)/i;

function isUselessRule(line: string): boolean {
  const normalized = normalizeAnswer(line);
  return NORMALIZED_USELESS.some((phrasing) => normalized.includes(phrasing)) || GENERIC_ADVICE.test(line.trim());
}

/** Lines that can hold a rule: not blank, not a heading, not a protected-block marker. */
function ruleLines(skill: string): string[] {
  return skill.split('\n').filter((line) => line.trim() !== '' && !/^\s*#/.test(line) && !line.includes('<!--'));
}

/**
 * Reads a skill line by line. A line may state several concepts (each counts as a rule); one the
 * demo world reads as harmful counts once per harm, unless a concept it states is that harm here;
 * a line with nothing else that gives generic advice is a useless rule.
 */
export function readSkillInHardWorld(
  skill: string,
  catalogue: readonly RuleConcept[],
  settings: Pick<HardWorldSettings, 'instructionBudget' | 'overloadPenalty'>,
): SkillRules {
  const strengths = catalogue.map(() => 0);
  const harms = new Set<HardWorldHabit>();
  const overSpecific: OverSpecificRule[] = [];
  let harmfulRules = 0;
  let uselessRules = 0;
  let conceptStatements = 0;
  for (const line of ruleLines(skill)) {
    const overSpecificRule = readOverSpecificRule(line);
    if (overSpecificRule !== undefined) {
      overSpecific.push(overSpecificRule);
      continue;
    }
    const demoHarms = [...readSkillRules(line).harms].filter((harm): harm is HardWorldHabit => ANSWER_HARM_KINDS.includes(harm));
    const replacedHarms = new Set<HardWorldHabit>();
    let lineConcepts = 0;
    catalogue.forEach((concept, index) => {
      // A line asking for the habit ("write dates in ISO format") is no vague statement of its fix.
      const asksForTheHabit = concept.fixes.some((habit) => demoHarms.includes(habit));
      const strength = concept.statedStrongly(line) ? STRONG_WORDING : concept.statedVaguely(line) && !asksForTheHabit ? VAGUE_WORDING : 0;
      if (strength === 0) return;
      lineConcepts += 1;
      strengths[index] = Math.max(strengths[index] as number, strength);
      if (concept.replacesHarm !== undefined) replacedHarms.add(concept.replacesHarm);
    });
    const lineHarms = demoHarms.filter((harm) => !replacedHarms.has(harm));
    for (const harm of lineHarms) harms.add(harm);
    conceptStatements += lineConcepts;
    harmfulRules += lineHarms.length;
    if (lineConcepts === 0 && lineHarms.length === 0 && isUselessRule(line)) uselessRules += 1;
  }
  const ruleCount = conceptStatements + overSpecific.length + harmfulRules + uselessRules;
  return {
    concepts: catalogue.flatMap((concept, index) => ((strengths[index] as number) > 0 ? [{ id: concept.id, strength: strengths[index] as number }] : [])),
    overSpecificRules: overSpecific.length,
    harmfulRules,
    uselessRules,
    ruleCount,
    compliance: complianceFor(settings, ruleCount),
    strengths,
    harms,
    overSpecific,
  };
}
