import type { TaskItem } from '@skillopt/contract';
import { createAnswerKey, createHardWorld, createSimulatedModel, HARD_WORLD_CATALOGUE, type HardWorldSettings, type RuleConcept } from '../src/index';
import { answerAll, CALM_SETTINGS, hardWorldItems, meanHard, NO_HABITS, ofKind } from './hard-world-helpers';
import { extract, GOOD_SKILL, INITIAL_SKILL } from './helpers';

const concept = (id: string): RuleConcept => HARD_WORLD_CATALOGUE.find((candidate) => candidate.id === id) as RuleConcept;
const strong = (id: string): string => `- ${concept(id).strongPhrasings[0]}`;
const vague = (id: string): string => `- ${concept(id).vaguePhrasings[0]}`;
const skillWith = (...lines: string[]): string => [INITIAL_SKILL, ...lines].join('\n');
const mean = (values: readonly number[]): number => values.reduce((total, value) => total + value, 0) / values.length;

const items = hardWorldItems(12);
const key = createAnswerKey(items);

describe('knowledge gaps', () => {
  const settings: HardWorldSettings = { ...CALM_SETTINGS, knowledgeGapRate: 0.3 };
  const world = createHardWorld(settings, items);
  const gaps = key.entries.filter((entry) => world.decideAnswer(entry, INITIAL_SKILL).knowledgeGap);
  const gapItems = items.filter((item) => gaps.some((entry) => entry.id === item.id));

  it('are drawn at the configured rate', () => {
    expect(gapItems.length / items.length).toBeGreaterThan(0.15);
    expect(gapItems.length / items.length).toBeLessThan(0.45);
  });

  it("score 0 under every skill, the oracle's included, so the ceiling is below 100%", async () => {
    const best = world.oracle(items, INITIAL_SKILL);
    for (const skill of [INITIAL_SKILL, GOOD_SKILL, best.skill]) for (const item of gapItems) expect(world.expectedItemScore(item, skill)).toBe(0);
    expect(best.score).toBeLessThanOrEqual(1 - gapItems.length / items.length + 1e-12);
    const target = createSimulatedModel({ role: 'target', seed: settings.seed, answerKey: key, hardWorld: world });
    expect(meanHard(await answerAll(target, best.skill, gapItems))).toBe(0);
  });
});

describe('the surname-only and full-names concepts', () => {
  const world = createHardWorld(CALM_SETTINGS, items, { tendencyRates: { ...NO_HABITS, 'full-name': 1, truncation: 1 } });
  const calmWorld = createHardWorld(CALM_SETTINGS, items, { tendencyRates: NO_HABITS });
  const surnameItems = ofKind(items, 'surname');
  const fullNameItems = ofKind(items, 'full-name');
  const groupScore = (scoring: typeof world, group: readonly TaskItem[], skill: string): number => scoring.expectedScore(group, skill);

  it('each raise one group and lower the other', () => {
    expect(groupScore(world, surnameItems, INITIAL_SKILL)).toBe(0);
    expect(groupScore(world, fullNameItems, INITIAL_SKILL)).toBe(0);
    expect(groupScore(world, surnameItems, skillWith(strong('surname-only')))).toBe(1);
    expect(groupScore(world, fullNameItems, skillWith(strong('full-names')))).toBe(1);
    // Without the habits both groups are right, and each concept breaks the other group.
    expect(groupScore(calmWorld, fullNameItems, INITIAL_SKILL)).toBe(1);
    expect(groupScore(calmWorld, fullNameItems, skillWith(strong('surname-only')))).toBe(0);
    expect(groupScore(calmWorld, surnameItems, skillWith(strong('full-names')))).toBe(0);
    expect(groupScore(world, [...surnameItems, ...fullNameItems], skillWith(strong('surname-only'), strong('full-names')))).toBe(0);
  });

  it('show a full name cut to the surname, and a surname grown to a full name, in the replies', async () => {
    const target = createSimulatedModel({ role: 'target', seed: 1, answerKey: key, hardWorld: calmWorld });
    for (const answered of await answerAll(target, skillWith(strong('surname-only')), fullNameItems)) {
      const gold = (answered.item.references as string[])[0] as string;
      expect(extract(answered.reply)).toBe(gold.split(' ').pop());
    }
    for (const answered of await answerAll(target, skillWith(strong('full-names')), surnameItems)) {
      const gold = (answered.item.references as string[])[0] as string;
      expect(extract(answered.reply)).toMatch(new RegExp(`^[A-Z][a-z]+ ${gold}$`));
    }
  });

  it("read the demo world's harmful full-name rule as the full-names concept", () => {
    const reading = world.readSkill(skillWith("- Always give a person's full name (first and last name) to avoid ambiguity."));
    expect(reading.concepts).toEqual([{ id: 'full-names', strength: 1 }]);
    expect(reading.harmfulRules).toBe(0);
  });
});

describe('wording strength', () => {
  const world = createHardWorld(CALM_SETTINGS, items, { tendencyRates: { ...NO_HABITS, 'number-words': 1, 'date-format': 1 } });

  it('gives a vaguely worded rule half the effect of a strong one', () => {
    for (const id of ['digits', 'written-dates']) {
      const group = ofKind(items, id === 'digits' ? 'number' : 'date');
      expect(world.readSkill(skillWith(vague(id))).concepts).toEqual([{ id, strength: 0.5 }]);
      expect(world.expectedScore(group, skillWith(strong(id)))).toBe(1);
      expect(world.expectedScore(group, skillWith(vague(id)))).toBe(0.5);
      expect(world.expectedScore(group, INITIAL_SKILL)).toBe(0);
    }
  });
});

describe('instruction overload', () => {
  const settings: HardWorldSettings = { ...CALM_SETTINGS, instructionBudget: 2, overloadPenalty: 0.1 };
  const world = createHardWorld(settings, items, { tendencyRates: { ...NO_HABITS, 'number-words': 1, 'date-format': 1, 'unit-appended': 1 } });
  const reminders = [
    '- Double-check your work before answering.',
    '- Read the question carefully.',
    '- Think step by step before you answer.',
    '- Be accurate and careful.',
  ];

  it('lowers the effect of every other rule with each rule past the budget, down to half', () => {
    const numbers = ofKind(items, 'number');
    const dates = ofKind(items, 'date');
    const base = [strong('digits'), strong('written-dates')];
    const scores = [0, 1, 2, 3, 4].map((extra) => {
      const skill = skillWith(...base, ...reminders.slice(0, extra), ...(extra === 4 ? reminders : []), ...(extra === 4 ? reminders : []));
      return { compliance: world.readSkill(skill).compliance, numbers: world.expectedScore(numbers, skill), dates: world.expectedScore(dates, skill) };
    });
    expect(scores.map((score) => score.compliance)).toEqual([1, 0.9, 0.8, 0.7, 0.5]);
    for (const score of scores) {
      expect(score.numbers).toBeCloseTo(score.compliance, 12);
      expect(score.dates).toBeCloseTo(score.compliance, 12);
    }
    expect(world.readSkill(skillWith(...base, ...reminders)).uselessRules).toBe(4);
  });

  it('counts harmful and over-specific rules against the budget too', () => {
    const reading = world.readSkill(
      skillWith(
        strong('digits'),
        '- Write dates in ISO format (YYYY-MM-DD) to avoid ambiguity.',
        '- When the question is "How many towers does Arvandia 1 have?", answer "3".',
      ),
    );
    expect(reading).toMatchObject({ harmfulRules: 1, overSpecificRules: 1, ruleCount: 3, compliance: 0.9 });
  });
});

describe('over-specific rules', () => {
  const world = createHardWorld(CALM_SETTINGS, items, { tendencyRates: { ...NO_HABITS, 'number-words': 1 } });
  const numbers = ofKind(items, 'number');
  const named = numbers[3] as TaskItem;
  const rule = `- When the question is "${named.question}", answer "${(named.references as string[])[0]}".`;

  it('raise the one item they name and no other', async () => {
    for (const item of items) {
      const before = world.expectedItemScore(item, INITIAL_SKILL);
      const after = world.expectedItemScore(item, skillWith(rule));
      if (item === named) {
        expect(before).toBe(0);
        expect(after).toBe(1);
      } else expect(after).toBe(before);
    }
    const target = createSimulatedModel({ role: 'target', seed: 1, answerKey: key, hardWorld: world });
    const answered = await answerAll(target, skillWith(rule), numbers);
    expect(answered.filter((answer) => answer.hard === 1).map((answer) => answer.item.id)).toEqual([named.id]);
  });

  it('do not help when the answer they dictate is wrong', () => {
    expect(world.expectedItemScore(named, skillWith(`- When the question is "${named.question}", answer "12345".`))).toBe(0);
  });
});

describe('label noise', () => {
  const settings: HardWorldSettings = { ...CALM_SETTINGS, labelNoiseRate: 0.5 };
  const train = items.filter((_item, index) => index % 3 === 0);
  const val = items.filter((_item, index) => index % 3 === 1);
  const test = items.filter((_item, index) => index % 3 === 2);
  const world = createHardWorld(settings, items, { tendencyRates: NO_HABITS, splits: { train, val, test } });
  const target = createSimulatedModel({ role: 'target', seed: settings.seed, answerKey: key, hardWorld: world });
  const mislabelled = (item: TaskItem): boolean =>
    world.decideAnswer(key.entries.find((entry) => entry.id === item.id) as (typeof key.entries)[number], INITIAL_SKILL).mislabelled;

  it('inverts the observed score of mislabelled selection items only', async () => {
    const flipped = val.filter(mislabelled);
    expect(flipped.length / val.length).toBeGreaterThan(0.3);
    expect(flipped.length / val.length).toBeLessThan(0.7);
    expect([...train, ...test].some(mislabelled)).toBe(false);
    // With no habit the target is right on every item in truth: the label says otherwise on the mislabelled ones.
    for (const answered of await answerAll(target, INITIAL_SKILL, val)) expect(answered.hard).toBe(mislabelled(answered.item) ? 0 : 1);
    expect(meanHard(await answerAll(target, INITIAL_SKILL, [...train, ...test]))).toBe(1);
    // The expected score is the clean one, the test split's.
    expect(mean(val.map((item) => world.expectedItemScore(item, INITIAL_SKILL)))).toBe(1);
  });

  it('gives the gold answer where the world says wrong', async () => {
    const habitual = createHardWorld(settings, items, { tendencyRates: { ...NO_HABITS, verbosity: 1 }, splits: { train, val, test } });
    const habitualTarget = createSimulatedModel({ role: 'target', seed: settings.seed, answerKey: key, hardWorld: habitual });
    for (const answered of await answerAll(habitualTarget, INITIAL_SKILL, val)) expect(answered.hard).toBe(mislabelled(answered.item) ? 1 : 0);
  });

  it('touches no item when the run gives no splits', () => {
    const withoutSplits = createHardWorld(settings, items, { tendencyRates: NO_HABITS });
    expect(key.entries.some((entry) => withoutSplits.decideAnswer(entry, INITIAL_SKILL).mislabelled)).toBe(false);
  });
});
