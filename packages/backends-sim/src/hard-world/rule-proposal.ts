import type { HarmKind } from '../failure-classes.js';
import { pick, unitHash } from '../hashing.js';
import type { ReadTrajectory } from '../prompt-reading.js';
import type { HardWorld } from './hard-world.js';
import { overSpecificRuleFor } from './over-specific-rule.js';
import { STRONG_WORDING, type HardWorldHabit, type RuleConcept } from './rule-concept.js';

/** What the simulated optimizer does about one failure class it diagnosed, in the hard world. */
export type ConceptProposal =
  | {
      kind: 'rule';
      concept: RuleConcept;
      /** The rule's text, without a bullet. */
      rule: string;
      /** A line of the skill stating the concept vaguely, which the rule replaces. */
      replaces?: string;
      misdiagnosed: boolean;
    }
  /** The skill already states the fix strongly: the failure was a lapse, not a missing rule. */
  | { kind: 'lapse' }
  | { kind: 'nothing' };

/** What a diagnosis is mistaken for: the conflicting person rule, or a neighbouring format class. */
const PLAUSIBLE_CONFUSIONS: Readonly<Record<HardWorldHabit, HardWorldHabit>> = {
  truncation: 'full-name',
  'full-name': 'truncation',
  verbosity: 'missing-tag',
  'missing-tag': 'malformed-tag',
  'malformed-tag': 'missing-tag',
  'number-words': 'unit-appended',
  'date-format': 'number-words',
  'unit-appended': 'number-words',
};

function isHardWorldHabit(kind: HarmKind): kind is HardWorldHabit {
  return kind in PLAUSIBLE_CONFUSIONS;
}

/** The concept proposed for a misdiagnosed class: its plausible confusion when the catalogue has it, else another concept. */
function mistakenConcept(world: HardWorld, right: RuleConcept, found: HardWorldHabit, seed: number, promptHash: string): RuleConcept | undefined {
  const confusion = world.concepts.find((concept) => concept.addresses === PLAUSIBLE_CONFUSIONS[found] && concept !== right);
  if (confusion !== undefined) return confusion;
  const others = world.concepts.filter((concept) => concept !== right);
  return others.length === 0 ? undefined : pick(others, seed, 'misdiagnosis-concept', promptHash, found);
}

/**
 * The rule for one diagnosed class: the concept that fixes it, or (at the misdiagnosis rate)
 * another one; worded strongly, or (at the vague-wording rate) vaguely. A vague statement of the
 * concept already in the skill is replaced rather than repeated.
 */
export function proposeConcept(world: HardWorld, seed: number, promptHash: string, skill: string, found: HarmKind): ConceptProposal {
  if (!isHardWorldHabit(found)) return { kind: 'nothing' };
  const right = world.concepts.find((concept) => concept.addresses === found) ?? world.concepts.find((concept) => concept.fixes.includes(found));
  if (right === undefined) return { kind: 'nothing' };
  const misdiagnosed = unitHash(seed, 'misdiagnosis', promptHash, found) < world.settings.misdiagnosisRate;
  const concept = misdiagnosed ? mistakenConcept(world, right, found, seed, promptHash) : right;
  if (concept === undefined) return { kind: 'nothing' };
  const stated = world.readSkill(skill).concepts.find((entry) => entry.id === concept.id)?.strength ?? 0;
  if (stated >= STRONG_WORDING) return misdiagnosed ? { kind: 'nothing' } : { kind: 'lapse' };
  const vague = unitHash(seed, 'vague-wording', promptHash, concept.id) < world.settings.vagueWordingRate;
  if (vague && stated > 0) return { kind: 'nothing' };
  const rule = pick(vague ? concept.vaguePhrasings : concept.strongPhrasings, seed, 'phrasing', promptHash, concept.id);
  const vagueLines = skill.split('\n').filter((line) => concept.statedVaguely(line) && !concept.statedStrongly(line));
  const replaces = vagueLines.length === 1 && skill.indexOf(vagueLines[0] as string) === skill.lastIndexOf(vagueLines[0] as string) ? vagueLines[0] : undefined;
  return { kind: 'rule', concept, rule, misdiagnosed, ...(replaces === undefined ? {} : { replaces }) };
}

/** The question a trajectory's first user turn asks: the text under its `## Question` heading, else its last line. */
function questionOf(trajectory: ReadTrajectory): string | undefined {
  const text = trajectory.question;
  if (text === undefined) return undefined;
  const heading = text.lastIndexOf('## Question');
  const after = heading >= 0 ? text.slice(text.indexOf('\n', heading) + 1) : text;
  const lines = after
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const question = heading >= 0 ? lines[0] : lines[lines.length - 1];
  return question === undefined || question === '' ? undefined : question;
}

/**
 * At the over-specific rate, a rule about one failed trajectory's question, with the answer its
 * reference shows (or "as the reference" when none is shown): it fixes that item alone.
 */
export function proposeOverSpecificRule(world: HardWorld, seed: number, promptHash: string, trajectories: readonly ReadTrajectory[]): string | undefined {
  if (!(unitHash(seed, 'over-specific', promptHash) < world.settings.overSpecificRuleRate)) return undefined;
  const asked = trajectories.flatMap((trajectory) => {
    const question = questionOf(trajectory);
    return question === undefined ? [] : [{ question, reference: trajectory.reference?.split(' | ')[0]?.trim() }];
  });
  if (asked.length === 0) return undefined;
  const chosen = pick(asked, seed, 'over-specific-trajectory', promptHash);
  return overSpecificRuleFor(chosen.question, chosen.reference);
}
