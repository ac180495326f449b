import type { ScoredRollout } from '@skillopt/contract';
import { DEFAULT_TRAJECTORY_RENDER_LIMITS, reflect } from '@skillopt/optimizer';
import { ALFWORLD_FAILURE_CLASSES, createSimulatedModel, DEFAULT_TENDENCY_RATES, readSkillRules, type AlfworldFailureClass } from '../src/index';
import { diagnoseAlfworldTrajectory } from '../src/alfworld-diagnosis';
import { GAMES, playGame, viaChatModel, type Game } from './alfworld-game';

// The simulated optimizer reading failed ALFWorld trajectories: the target's real games in the
// test's micro-ALFWorld, recorded as the env records them, rendered by the real optimizer.

const SKILL = '# Household games\n\nReach the goal in as few steps as you can.\n';

function only(...classes: readonly AlfworldFailureClass[]): Record<string, number> {
  return Object.fromEntries(Object.keys(DEFAULT_TENDENCY_RATES).map((name) => [name, classes.includes(name as AlfworldFailureClass) ? 1 : 0]));
}

/** The games each class makes fail. */
const GAMES_OF_CLASS: Readonly<Record<AlfworldFailureClass, readonly Game[]>> = {
  'skips-transformation': [GAMES.heat, GAMES.clean, GAMES.cleanIntoClosed],
  'skips-closed-receptacles': [GAMES.placeHidden, GAMES.cool, GAMES.twoHidden],
  'lamp-before-object': [GAMES.lightVisible, GAMES.lightHidden],
  'stops-after-one': [GAMES.twoVisible, GAMES.twoHidden],
};

async function failedRollouts(failureClass: AlfworldFailureClass, options: { maxSteps?: number } = {}): Promise<ScoredRollout[]> {
  const target = viaChatModel(createSimulatedModel({ role: 'target', seed: 5, tendencyRates: only(failureClass) }));
  return Promise.all(GAMES_OF_CLASS[failureClass].map(async (game) => (await playGame(target, SKILL, game, options)).rollout));
}

async function proposedRules(results: readonly ScoredRollout[], harmfulRuleRate = 0): Promise<string[]> {
  const reflection = await reflect({
    model: createSimulatedModel({ role: 'optimizer', seed: 5, harmfulRuleRate }),
    signal: new AbortController().signal,
    skill: SKILL,
    results,
    minibatchSize: 8,
    maxEditsPerAnalyst: 4,
    failureOnly: true,
  });
  return reflection.reports.flatMap((report) => report.edits.map((edit) => edit.content ?? ''));
}

describe('the simulated optimizer on ALFWorld trajectories', () => {
  it.each(ALFWORLD_FAILURE_CLASSES)('reads %s off failed games and proposes the rule that fixes it, naming no item', async (failureClass) => {
    const results = await failedRollouts(failureClass);
    expect(results.map((result) => result.hard)).toEqual(results.map(() => 0));
    // A game of 50 steps is longer than the optimizer shows of one trajectory: its middle is cut out.
    const longest = Math.max(...results.map((result) => (result.trajectory?.turns ?? []).reduce((total, turn) => total + turn.content.length, 0)));
    expect(longest).toBeGreaterThan(DEFAULT_TRAJECTORY_RENDER_LIMITS.maxCharactersPerTrajectory);
    const rules = await proposedRules(results);
    expect(rules.length).toBeGreaterThanOrEqual(1);
    expect(rules.map((rule) => [...readSkillRules(rule).fixes])).toEqual(rules.map(() => [failureClass]));
    for (const rule of rules)
      expect(rule).not.toMatch(/\b(?:apple|plate|soapbar|mug|spraybottle|book|alarmclock|pillow|creditcard|diningtable|toilet|coffeetable|armchair)\b/);
  });

  it('sees exactly its class in the whole trajectory of each failed game, as the env records it', async () => {
    for (const failureClass of ALFWORLD_FAILURE_CLASSES) {
      for (const result of await failedRollouts(failureClass)) {
        const environment = (result.trajectory?.turns ?? [])
          .filter((turn) => turn.role === 'environment')
          .map((turn) => turn.content)
          .join('\n');
        expect(diagnoseAlfworldTrajectory({ question: result.trajectory?.turns[0]?.content ?? '', environment })).toEqual([failureClass]);
      }
    }
  });

  it('proposes nothing for games that ran out of steps while doing the right things, or for won games', async () => {
    const target = viaChatModel(createSimulatedModel({ role: 'target', seed: 5, tendencyRates: only() }));
    const cut = await Promise.all(Object.values(GAMES).map(async (game) => (await playGame(target, SKILL, game, { maxSteps: 3 })).rollout));
    expect(cut.map((result) => result.hard)).toEqual(cut.map(() => 0));
    expect(await proposedRules(cut)).toEqual([]);
    const won = await playGame(target, SKILL, GAMES.heat);
    const environment = (won.rollout.trajectory?.turns ?? []).filter((turn) => turn.role === 'environment').map((turn) => turn.content);
    expect(environment[environment.length - 1]).toMatch(/^Evaluation: won\nGoal: /);
    expect(diagnoseAlfworldTrajectory({ environment: environment.join('\n') })).toEqual([]);
  });

  it('at its harmful rate proposes a rule that causes an ALFWorld class, which the target then shows', async () => {
    const rules = await proposedRules(await failedRollouts('skips-transformation'), 1);
    const harms = rules.flatMap((rule) => [...readSkillRules(rule).harms]);
    expect(harms).toEqual(['skips-transformation']);
    const harmful = rules.find((rule) => readSkillRules(rule).harms.size > 0) as string;
    const target = viaChatModel(createSimulatedModel({ role: 'target', seed: 5, tendencyRates: only() }));
    expect((await playGame(target, SKILL, GAMES.heat)).won).toBe(true);
    expect((await playGame(target, `${SKILL}\n${harmful}\n`, GAMES.heat)).won).toBe(false);
  });
});
