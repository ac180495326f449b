import type { TaskItem } from '@skillopt/contract';
import { createAnswerKey, createHardWorld, createSimulatedModel, hardWorldSettings, HARD_WORLD_CATALOGUE, type RuleConcept } from '../src/index';
import { answerAll, hardWorldItems, meanHard } from './hard-world-helpers';
import { GOOD_SKILL, INITIAL_SKILL } from './helpers';

const concept = (id: string): RuleConcept => HARD_WORLD_CATALOGUE.find((candidate) => candidate.id === id) as RuleConcept;
const items = hardWorldItems(60);
const key = createAnswerKey(items);
const named = items[0] as TaskItem;

const MIXED_SKILL = [
  INITIAL_SKILL,
  `- ${concept('digits').vaguePhrasings[0]}`,
  `- ${concept('answer-only').strongPhrasings[1]}`,
  `- ${concept('surname-only').strongPhrasings[0]}`,
  `- ${concept('full-names').strongPhrasings[0]}`,
  '- Write dates in ISO format (YYYY-MM-DD) to avoid ambiguity.',
  '- Answer with a single word whenever possible.',
  '- Double-check your work before answering.',
  '- Read the question carefully.',
  `- When the question is "${named.question}", answer "${(named.references as string[])[0]}".`,
].join('\n');

describe('the simulated target in the hard world', () => {
  it.each([3, 11])('answers right as often as the expected score says (seed %i), within sampling error', async (seed) => {
    const world = createHardWorld(hardWorldSettings({ seed, world: 'hard' }), items);
    const target = createSimulatedModel({ role: 'target', seed, noise: world.settings.noise, answerKey: key, hardWorld: world });
    for (const skill of [INITIAL_SKILL, GOOD_SKILL, MIXED_SKILL, world.oracle(items, INITIAL_SKILL).skill]) {
      const probabilities = items.map((item) => world.expectedItemScore(item, skill));
      const expected = probabilities.reduce((total, probability) => total + probability, 0) / items.length;
      const standardError = Math.sqrt(probabilities.reduce((total, probability) => total + probability * (1 - probability), 0)) / items.length;
      const realised = meanHard(await answerAll(target, skill, items));
      expect(Math.abs(realised - expected)).toBeLessThanOrEqual(4 * standardError + 1e-9);
    }
  });

  it('gives the same answer to the same skill and draws again for another', async () => {
    const world = createHardWorld(hardWorldSettings({ seed: 5, world: 'hard' }), items);
    const target = createSimulatedModel({ role: 'target', seed: 5, noise: 0.05, answerKey: key, hardWorld: world });
    const first = await answerAll(target, MIXED_SKILL, items);
    const again = await answerAll(target, MIXED_SKILL, items);
    expect(again.map((answer) => answer.reply)).toEqual(first.map((answer) => answer.reply));
    const reworded = await answerAll(target, `${MIXED_SKILL}\n`, items);
    expect(reworded.map((answer) => answer.hard)).not.toEqual(first.map((answer) => answer.hard));
  });

  it('reports what showed and why in the reply metadata', async () => {
    const world = createHardWorld(hardWorldSettings({ seed: 5, world: 'hard' }), items);
    const target = createSimulatedModel({ role: 'target', seed: 5, answerKey: key, hardWorld: world });
    const [answered] = await answerAll(target, MIXED_SKILL, items.slice(0, 1));
    // Four concept statements, two harmful rules, two useless ones and an over-specific one: three past the budget of six.
    expect(world.readSkill(MIXED_SKILL)).toMatchObject({ ruleCount: 9, harmfulRules: 2, uselessRules: 2, overSpecificRules: 1 });
    expect(answered?.metadata).toMatchObject({ simulated: true, knownQuestion: true, hardWorld: { mislabelled: false, compliance: 1 - 0.06 * 3 } });
  });
});
