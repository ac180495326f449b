import type { TaskItem } from '@skillopt/contract';
import { createAnswerKey, type AnswerKey, type AnswerKeyEntry } from '../answer-key.js';
import { normalizeAnswer } from '../text.js';
import { decideHardWorldAnswer, type HardWorldAnswer } from './answer-decision.js';
import { HARD_WORLD_CATALOGUE, MAX_CATALOGUE_SIZE } from './catalogue.js';
import { planExpectation, planItem } from './expected-score.js';
import type { HardWorldSettings } from './hard-world-settings.js';
import { HARD_WORLD_TENDENCY_RATES, profileItem, type ItemProfile } from './item-profile.js';
import { searchOracle, type OracleResult } from './oracle.js';
import type { HardWorldHabit, RuleConcept } from './rule-concept.js';
import { readSkillInHardWorld, type SkillReading, type SkillRules } from './skill-reading.js';

/** The run's items by split: label noise touches the selection (`val`) split only. */
export interface HardWorldSplits {
  train: readonly TaskItem[];
  val: readonly TaskItem[];
  test: readonly TaskItem[];
}

export interface HardWorldOptions {
  /** The rule concepts (default: `HARD_WORLD_CATALOGUE`); at most 16, so the oracle stays exact. */
  catalogue?: readonly RuleConcept[];
  /** Overrides of how often each latent habit occurs (0..1 each). */
  tendencyRates?: Partial<Record<HardWorldHabit, number>>;
  /** Which items are in which split; without it no item is mislabelled. */
  splits?: HardWorldSplits;
}

/**
 * The hard world: a model of what skills can do for the simulated target, exact enough to compute
 * the best expected score any skill reaches. The simulated target behaves as it says.
 */
export interface HardWorld {
  readonly settings: HardWorldSettings;
  readonly concepts: readonly RuleConcept[];
  /** What the target reads in a skill: the concepts it states and how strongly, the other rules, the compliance. */
  readSkill(skill: string): SkillReading;
  /** The probability that the target answers the item right under the skill, by the true label (a test item's). 0 for an item with no question or reference. */
  expectedItemScore(item: TaskItem, skill: string): number;
  /** The mean of `expectedItemScore` over the items (0 for none). */
  expectedScore(items: readonly TaskItem[], skill: string): number;
  /** The exact best expected score over every subset of the catalogue added to `baseSkill` in strong wording, its concepts and its skill. */
  oracle(items: readonly TaskItem[], baseSkill: string): OracleResult;
  /** How the simulated target answers an item of its answer key under a skill. */
  decideAnswer(entry: AnswerKeyEntry, skill: string): HardWorldAnswer;
}

/** Skills read lately: a run asks about the same few skills thousands of times. */
const MAX_REMEMBERED_SKILLS = 64;

function questionKeys(items: readonly TaskItem[]): Set<string> {
  return new Set(items.flatMap((item) => (typeof item.question === 'string' ? [normalizeAnswer(item.question)] : [])));
}

/** Builds the hard world for these settings over these items (the answer key; more items can be scored later). */
export function createHardWorld(settings: HardWorldSettings, items: readonly TaskItem[], options: HardWorldOptions = {}): HardWorld {
  const catalogue = options.catalogue ?? HARD_WORLD_CATALOGUE;
  if (catalogue.length > MAX_CATALOGUE_SIZE)
    throw new RangeError(`a hard world's catalogue holds at most ${MAX_CATALOGUE_SIZE} concepts (the oracle tries every subset); got ${catalogue.length}`);
  const tendencyRates = { ...HARD_WORLD_TENDENCY_RATES, ...options.tendencyRates };
  const selectionKeys = questionKeys(options.splits?.val ?? []);
  const key: AnswerKey = createAnswerKey(items);
  const profiles = new Map<string, ItemProfile>();
  const rulesOfSkills = new Map<string, SkillRules>();

  const profileOf = (entry: AnswerKeyEntry): ItemProfile => {
    const known = profiles.get(entry.normalizedQuestion);
    if (known) return known;
    const profile = profileItem(settings, tendencyRates, entry, selectionKeys);
    profiles.set(entry.normalizedQuestion, profile);
    return profile;
  };
  const profileOfItem = (item: TaskItem): ItemProfile | undefined => {
    const entry = typeof item.question === 'string' ? key.lookup(item.question) : undefined;
    const own = entry !== undefined && entry.normalizedQuestion === normalizeAnswer(item.question as string) ? entry : createAnswerKey([item]).entries[0];
    return own === undefined ? undefined : profileOf(own);
  };
  const rulesOf = (skill: string): SkillRules => {
    const remembered = rulesOfSkills.get(skill);
    if (remembered) return remembered;
    const rules = readSkillInHardWorld(skill, catalogue, settings);
    if (rulesOfSkills.size >= MAX_REMEMBERED_SKILLS) rulesOfSkills.delete(rulesOfSkills.keys().next().value as string);
    rulesOfSkills.set(skill, rules);
    return rules;
  };
  const expectedItemScore = (item: TaskItem, skill: string): number => {
    const profile = profileOfItem(item);
    if (profile === undefined) return 0;
    const rules = rulesOf(skill);
    return planExpectation(planItem(profile, catalogue, rules), rules.strengths, rules.compliance, settings.noise);
  };

  return {
    settings,
    concepts: catalogue,
    readSkill(skill) {
      const { concepts, overSpecificRules, harmfulRules, uselessRules, ruleCount, compliance } = rulesOf(skill);
      return { concepts, overSpecificRules, harmfulRules, uselessRules, ruleCount, compliance };
    },
    expectedItemScore,
    expectedScore(scored, skill) {
      if (scored.length === 0) return 0;
      let total = 0;
      for (const item of scored) total += expectedItemScore(item, skill);
      return total / scored.length;
    },
    oracle(scored, baseSkill) {
      const baseRules = rulesOf(baseSkill);
      const plans = scored.map((item) => {
        const profile = profileOfItem(item);
        return profile === undefined
          ? { knowledgeGap: true, fixersPerHabit: [], hurtingConcepts: [], actingHarms: 0, overSpecific: 'none' as const }
          : planItem(profile, catalogue, baseRules);
      });
      return searchOracle(settings, catalogue, baseRules, plans, baseSkill);
    },
    decideAnswer(entry, skill) {
      return decideHardWorldAnswer(settings, catalogue, key, profileOf(entry), rulesOf(skill), skill);
    },
  };
}
