import type { TaskItem } from '@skillopt/contract';
import { createHardWorld, HARD_WORLD_CATALOGUE, type HardWorldSettings, type RuleConcept } from '../src/index';
import { CALM_SETTINGS, hardWorldItems, NO_HABITS, ofKind } from './hard-world-helpers';
import { INITIAL_SKILL } from './helpers';

const concept = (id: string): RuleConcept => HARD_WORLD_CATALOGUE.find((candidate) => candidate.id === id) as RuleConcept;
const bullet = (id: string): string => `- ${concept(id).strongPhrasings[0]}`;
const skillWith = (...ids: string[]): string => [INITIAL_SKILL, ...ids.map(bullet)].join('\n');

const items = hardWorldItems(12);

describe('the oracle over a 3-concept catalogue, against optima computed by hand', () => {
  // Two number items with the number-words habit, one surname item with the full-name habit and
  // two full-name items with the habit of cutting the name to the surname; nothing else.
  const conflictItems: TaskItem[] = [
    ...ofKind(items, 'number').slice(0, 2),
    ...ofKind(items, 'surname').slice(0, 1),
    ...ofKind(items, 'full-name').slice(0, 2),
  ];
  const conflictWorld = createHardWorld(CALM_SETTINGS, conflictItems, {
    catalogue: [concept('digits'), concept('surname-only'), concept('full-names')],
    tendencyRates: { ...NO_HABITS, 'number-words': 1, 'full-name': 1, truncation: 1 },
  });

  it('scores every subset as computed by hand: surname-only and full-names cancel each other', () => {
    const byHand: Array<[string[], number]> = [
      [[], 0],
      [['digits'], 2 / 5],
      [['surname-only'], 1 / 5],
      [['full-names'], 2 / 5],
      [['digits', 'surname-only'], 3 / 5],
      [['digits', 'full-names'], 4 / 5],
      [['surname-only', 'full-names'], 0],
      [['digits', 'surname-only', 'full-names'], 2 / 5],
    ];
    for (const [ids, expected] of byHand) expect(conflictWorld.expectedScore(conflictItems, skillWith(...ids))).toBeCloseTo(expected, 12);
  });

  it('finds the best subset, which leaves the conflicting concept out', () => {
    const best = conflictWorld.oracle(conflictItems, INITIAL_SKILL);
    expect(best.conceptIds).toEqual(['digits', 'full-names']);
    expect(best.score).toBeCloseTo(4 / 5, 12);
    expect(conflictWorld.expectedScore(conflictItems, best.skill)).toBeCloseTo(best.score, 12);
    expect(best.skill.startsWith(INITIAL_SKILL.trimEnd())).toBe(true);
  });

  // Four number items, one date and one quantity, each with its habit; a budget of one rule and a
  // penalty of 0.25 per rule past it: compliance 1, 0.75, 0.5 with one, two, three rules.
  const overloadItems: TaskItem[] = [...ofKind(items, 'number').slice(0, 4), ...ofKind(items, 'date').slice(0, 1), ...ofKind(items, 'quantity').slice(0, 1)];
  const overloadSettings: HardWorldSettings = { ...CALM_SETTINGS, instructionBudget: 1, overloadPenalty: 0.25 };
  const overloadWorld = createHardWorld(overloadSettings, overloadItems, {
    catalogue: [concept('digits'), concept('written-dates'), concept('bare-numbers')],
    tendencyRates: { ...NO_HABITS, 'number-words': 1, 'date-format': 1, 'unit-appended': 1 },
  });

  it('scores every subset as computed by hand under overload', () => {
    const byHand: Array<[string[], number]> = [
      [[], 0],
      [['digits'], 4 / 6],
      [['written-dates'], 1 / 6],
      [['bare-numbers'], 1 / 6],
      [['digits', 'written-dates'], (4 * 0.75 + 0.75) / 6],
      [['digits', 'bare-numbers'], (4 * 0.75 + 0.75) / 6],
      [['written-dates', 'bare-numbers'], (0.75 + 0.75) / 6],
      [['digits', 'written-dates', 'bare-numbers'], (4 * 0.5 + 0.5 + 0.5) / 6],
    ];
    for (const [ids, expected] of byHand) expect(overloadWorld.expectedScore(overloadItems, skillWith(...ids))).toBeCloseTo(expected, 12);
  });

  it('finds that adding a concept past the budget lowers the score', () => {
    const best = overloadWorld.oracle(overloadItems, INITIAL_SKILL);
    expect(best.conceptIds).toEqual(['digits']);
    expect(best.score).toBeCloseTo(4 / 6, 12);
    expect(overloadWorld.expectedScore(overloadItems, skillWith('digits', 'written-dates'))).toBeLessThan(best.score);
  });
});

describe('the oracle over the whole catalogue', () => {
  const settings: HardWorldSettings = { ...CALM_SETTINGS, noise: 0.05, knowledgeGapRate: 0.1 };
  const world = createHardWorld(settings, items);

  it('gives a skill that reaches exactly its score, and no subset does better', () => {
    const base = `${INITIAL_SKILL}\n- Be careful with number formats.\n- Double-check your work before answering.\n`;
    const best = world.oracle(items, base);
    expect(world.expectedScore(items, best.skill)).toBeCloseTo(best.score, 12);
    expect(best.score).toBeGreaterThan(world.expectedScore(items, base));
    expect(best.score).toBeLessThan(1 - settings.noise);
    for (const id of HARD_WORLD_CATALOGUE.map((candidate) => candidate.id)) {
      const toggled = best.conceptIds.includes(id) ? best.conceptIds.filter((chosen) => chosen !== id) : [...best.conceptIds, id];
      const ordered = HARD_WORLD_CATALOGUE.filter((candidate) => toggled.includes(candidate.id)).map((candidate) => `- ${candidate.strongPhrasings[0]}`);
      expect(world.expectedScore(items, [base.trimEnd(), '', ...ordered].join('\n'))).toBeLessThanOrEqual(best.score + 1e-12);
    }
  });

  it('refuses a catalogue of more than 16 concepts', () => {
    const tooMany = Array.from({ length: 17 }, (_unused, index) => ({ ...concept('digits'), id: `digits-${index}` }));
    expect(() => createHardWorld(settings, items, { catalogue: tooMany })).toThrow(/at most 16/);
  });

  // It scores all 65 536 subsets, which a loaded machine slows many times over: the limit is there
  // to catch a hang, not to time the search.
  it('searches a catalogue of 16 concepts exactly', () => {
    const sixteen = Array.from({ length: 16 }, (_unused, index) => HARD_WORLD_CATALOGUE[index % HARD_WORLD_CATALOGUE.length] as RuleConcept).map(
      (entry, index) => (index < HARD_WORLD_CATALOGUE.length ? entry : { ...entry, id: `${entry.id}-again` }),
    );
    const best = createHardWorld(settings, items, { catalogue: sixteen }).oracle(items, INITIAL_SKILL);
    // The repeated concepts add nothing a first copy does not: the best subset holds no copy.
    expect(best.conceptIds.every((id) => !id.endsWith('-again'))).toBe(true);
    expect(best.score).toBeCloseTo(world.oracle(items, INITIAL_SKILL).score, 12);
  }, 300_000);
});
