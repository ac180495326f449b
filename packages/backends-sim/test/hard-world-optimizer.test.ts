import type { TaskItem } from '@skillopt/contract';
import { createAnswerKey, createHardWorld, createSimulatedModel, type HardWorld, type HardWorldSettings } from '../src/index';
import { answerAll, CALM_SETTINGS, hardWorldItems, NO_HABITS, ofKind } from './hard-world-helpers';
import { extract, INITIAL_SKILL, userPrompt } from './helpers';
import { reflectFailurePrompt, type TestTrajectory } from './optimizer-prompts';
import { parseReply, reflectReply } from './reply-schemas';

const items = hardWorldItems(12);
const key = createAnswerKey(items);
const SEEDS = Array.from({ length: 200 }, (_unused, index) => index);

/** Failed trajectories of the target in a world where the given items all fail by one habit. */
async function failedTrajectories(world: HardWorld, subset: readonly TaskItem[]): Promise<TestTrajectory[]> {
  const target = createSimulatedModel({ role: 'target', seed: world.settings.seed, answerKey: key, hardWorld: world });
  const answered = await answerAll(target, INITIAL_SKILL, subset);
  return answered
    .filter((answer) => answer.hard === 0)
    .map((answer) => ({
      id: answer.item.id,
      hard: 0,
      soft: 0,
      prediction: extract(answer.reply),
      reference: (answer.item.references as string[])[0] as string,
      turns: [
        { role: 'user', content: userPrompt(answer.item.question as string) },
        { role: 'assistant', content: answer.reply },
      ],
    }));
}

/** The rules the optimizer proposes for one prompt, with each seed. */
async function proposalsBySeed(world: HardWorld, prompt: string): Promise<string[][]> {
  return Promise.all(
    SEEDS.map(async (seed) => {
      const optimizer = createSimulatedModel({ role: 'optimizer', seed, hardWorld: world });
      const reply = parseReply((await optimizer.generate({ messages: [{ role: 'user', content: prompt }], purpose: 'reflect' })).text, reflectReply);
      return reply.edits.map((edit) => (edit.content ?? '').replace(/^- /, ''));
    }),
  );
}

const share = (proposals: readonly string[][], test: (rules: readonly string[]) => boolean): number => proposals.filter(test).length / proposals.length;
const states = (world: HardWorld, id: string, strength?: number) => (rule: string) =>
  world.readSkill(rule).concepts.some((entry) => entry.id === id && (strength === undefined || entry.strength === strength));

describe('the simulated optimizer in the hard world', () => {
  const numberHabits = { tendencyRates: { ...NO_HABITS, 'number-words': 1 } };
  const calmWorld = createHardWorld(CALM_SETTINGS, items, numberHabits);

  it('proposes the concept that fixes what it diagnosed, strongly worded, when every rate is 0', async () => {
    const prompt = reflectFailurePrompt(INITIAL_SKILL, await failedTrajectories(calmWorld, ofKind(items, 'number').slice(0, 4)));
    for (const rules of await proposalsBySeed(calmWorld, prompt)) {
      expect(rules).toHaveLength(1);
      expect(calmWorld.readSkill(rules[0] as string).concepts).toEqual([{ id: 'digits', strength: 1 }]);
    }
  });

  it('misdiagnoses at its rate, as a plausible confusion', async () => {
    const settings: HardWorldSettings = { ...CALM_SETTINGS, misdiagnosisRate: 0.3 };
    const numbersWorld = createHardWorld(settings, items, numberHabits);
    const numbers = await proposalsBySeed(
      numbersWorld,
      reflectFailurePrompt(INITIAL_SKILL, await failedTrajectories(numbersWorld, ofKind(items, 'number').slice(0, 4))),
    );
    const mistaken = share(numbers, (rules) => rules.some(states(numbersWorld, 'bare-numbers')));
    expect(mistaken).toBeGreaterThan(0.2);
    expect(mistaken).toBeLessThan(0.4);
    expect(share(numbers, (rules) => rules.some(states(numbersWorld, 'digits')))).toBeCloseTo(1 - mistaken, 12);
    // A full name cut to the surname is mistaken for the surname rule; a surname grown to a full name for the full-name rule.
    const namesWorld = createHardWorld(settings, items, { tendencyRates: { ...NO_HABITS, truncation: 1, 'full-name': 1 } });
    const fullNames = await proposalsBySeed(
      namesWorld,
      reflectFailurePrompt(INITIAL_SKILL, await failedTrajectories(namesWorld, ofKind(items, 'full-name').slice(0, 4))),
    );
    const surnameInstead = share(fullNames, (rules) => rules.some(states(namesWorld, 'surname-only')));
    expect(surnameInstead).toBeGreaterThan(0.2);
    expect(surnameInstead).toBeLessThan(0.4);
    expect(share(fullNames, (rules) => rules.some(states(namesWorld, 'full-names')))).toBeCloseTo(1 - surnameInstead, 12);
    const surnames = await proposalsBySeed(
      namesWorld,
      reflectFailurePrompt(INITIAL_SKILL, await failedTrajectories(namesWorld, ofKind(items, 'surname').slice(0, 4))),
    );
    expect(share(surnames, (rules) => rules.some(states(namesWorld, 'full-names')))).toBeGreaterThan(0.2);
  });

  it('words rules vaguely at its rate', async () => {
    const vagueWorld = createHardWorld({ ...CALM_SETTINGS, vagueWordingRate: 0.5 }, items, numberHabits);
    const proposals = await proposalsBySeed(
      vagueWorld,
      reflectFailurePrompt(INITIAL_SKILL, await failedTrajectories(vagueWorld, ofKind(items, 'number').slice(0, 4))),
    );
    const vague = share(proposals, (rules) => rules.some(states(vagueWorld, 'digits', 0.5)));
    expect(vague).toBeGreaterThan(0.38);
    expect(vague).toBeLessThan(0.62);
    expect(share(proposals, (rules) => rules.some(states(vagueWorld, 'digits', 1)))).toBeCloseTo(1 - vague, 12);
  });

  it('proposes an over-specific rule at its rate, about one failed question and its reference', async () => {
    const overSpecificWorld = createHardWorld({ ...CALM_SETTINGS, overSpecificRuleRate: 0.25 }, items, numberHabits);
    const failed = ofKind(items, 'number').slice(0, 4);
    const proposals = await proposalsBySeed(overSpecificWorld, reflectFailurePrompt(INITIAL_SKILL, await failedTrajectories(overSpecificWorld, failed)));
    const overSpecific = proposals.map((rules) => rules.filter((rule) => overSpecificWorld.readSkill(rule).overSpecificRules === 1));
    const rate = share(overSpecific, (rules) => rules.length > 0);
    expect(rate).toBeGreaterThan(0.15);
    expect(rate).toBeLessThan(0.35);
    for (const rule of overSpecific.flat()) {
      const [named, ...others] = failed.filter((item) => overSpecificWorld.expectedItemScore(item, `${INITIAL_SKILL}\n- ${rule}`) === 1);
      expect(others).toHaveLength(0);
      expect(rule).toContain(`"${((named as TaskItem).references as string[])[0]}"`);
    }
  });
});
