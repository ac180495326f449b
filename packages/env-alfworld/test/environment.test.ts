import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ERROR_CODES, messageText, ProviderError, type ScoredRollout, SkillOptError } from '@skillopt/contract';
import { createScriptedChatModel } from '@skillopt/env-kit/testing';
import { type AlfWorldTaskItem, ALFWORLD_TASK_TYPES, createEnvironment } from '../src/index';
import { actionPlayer, contextFor, FAKE_ALFWORLD_OPTIONS, FIXTURE_CONFIG, FIXTURE_DATA_ROOT, readHouse, winningActions } from './helpers';

let directory = '';
beforeAll(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'env-alfworld-environment-'));
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

async function fixtureItems(): Promise<AlfWorldTaskItem[]> {
  const environment = createEnvironment(FIXTURE_CONFIG, FAKE_ALFWORLD_OPTIONS);
  return (await Promise.all((['train', 'val', 'test'] as const).map((split) => environment.loadSplit(split)))).flat() as AlfWorldTaskItem[];
}

describe('the fixture split', () => {
  it('loads 6 / 6 / 6 games in the original item format, each of the six task types once per split', async () => {
    const environment = createEnvironment(FIXTURE_CONFIG, FAKE_ALFWORLD_OPTIONS);
    for (const split of ['train', 'val', 'test'] as const) {
      const items = (await environment.loadSplit(split)) as AlfWorldTaskItem[];
      expect(items.map((item) => item.taskType).sort()).toEqual(ALFWORLD_TASK_TYPES.filter((type) => type !== 'other').sort());
      expect(items[0]?.id).toMatch(/^(train|val|test):0000$/);
      expect(items[0]?.gamefile).toMatch(/^json_2\.1\.1\/(train|valid_seen|valid_unseen)\/.+\/game\.tw-pddl$/);
    }
  });

  it('plays every game to a win with its winning actions, through the bridge, in at most 20 steps', async () => {
    const items = await fixtureItems();
    const player = actionPlayer(new Map(items.map((item) => [readHouse(item.gamefile).goal, winningActions(readHouse(item.gamefile))])));
    const environment = createEnvironment(FIXTURE_CONFIG, FAKE_ALFWORLD_OPTIONS);
    await environment.setup?.();
    try {
      const results = await Promise.all(items.map((item) => environment.rollout(item, contextFor({ kind: 'chat', model: player }))));
      for (const result of results) {
        expect(result).toMatchObject({ status: 'scored', hard: 1, soft: 1 });
        const scored = result as ScoredRollout;
        expect(scored.details).toMatchObject({ won: true, invalidActions: 0 });
        expect(scored.details?.steps as number).toBeLessThanOrEqual(20);
        expect(scored.trajectory?.turns.at(-1)?.content).toMatch(/^Evaluation: won\nGoal: /);
        expect(scored.reference).toMatch(/^Task type: /);
      }
    } finally {
      await environment.teardown?.();
    }
  });
});

describe('one game', () => {
  const heatItem = async () =>
    (await fixtureItems()).find((item) => item.id.startsWith('train') && item.taskType === 'pick_heat_then_place_in_recep') as AlfWorldTaskItem;

  it('prompts the goal, a window of recent steps, the observation and the admissible actions, and scores a timeout as lost', async () => {
    const item = await heatItem();
    const model = createScriptedChatModel({
      reply: [
        '<think>Start at the counter.</think><action>go to countertop 1</action>',
        'I would rather look around.',
        '',
        '<think>x</think><action>fly away</action>',
      ],
    });
    const environment = createEnvironment({ ...FIXTURE_CONFIG, max_steps: 4, history_length: 2 }, FAKE_ALFWORLD_OPTIONS);
    try {
      const result = (await environment.rollout(item, contextFor({ kind: 'chat', model }, '# My skill\n\nOpen things.'))) as ScoredRollout;
      expect(result).toMatchObject({
        status: 'scored',
        hard: 0,
        soft: 0,
        prediction: 'not won: Timeout after 4 steps',
        taskType: 'pick_heat_then_place_in_recep',
      });
      expect(result.details).toMatchObject({ won: false, steps: 4, invalidActions: 3, modelCalls: 4, goal: 'put a hot apple in countertop.' });
      expect(result.trajectory?.failureReason).toBe('Timeout after 4 steps');

      const [first, , third, fourth] = model.calls;
      const systemPrompt = messageText(first?.messages[0] as never);
      expect(systemPrompt).toMatch(/^# Skill\n\n# My skill\n\nOpen things\.\n\n# Task\n\nYou are playing a text game/);
      const firstUser = messageText(first?.messages[1] as never);
      expect(firstUser).toMatch(/^## Goal\n\nput a hot apple in countertop\.\n\n## Current observation \(step 1 of at most 4\)\n\n-= Welcome to TextWorld/);
      expect(firstUser).not.toContain('## Recent steps');
      expect(firstUser).toContain('## Admissible actions\n\n- go to cabinet 1\n');
      expect(firstUser).not.toMatch(/^- help$/m);
      // Step 4 shows steps 2 and 3 only: the reply without tags sent its tail, the empty one "look".
      const fourthUser = messageText(fourth?.messages[1] as never);
      expect(fourthUser).toContain(
        '## Recent steps\n\nStep 2 action: i would rather look around.\nStep 2 observation: Nothing happens.\nStep 3 action: look\n',
      );
      expect(fourthUser).not.toContain('Step 1 action');
      expect(messageText(third?.messages[1] as never)).toContain('Step 1 action: go to countertop 1\nStep 1 observation: You arrive at countertop 1.');

      const turns = result.trajectory?.turns ?? [];
      expect(turns[0]).toMatchObject({ role: 'user', content: expect.stringContaining('Your task is to: put a hot apple in countertop.') });
      expect(turns[2]).toEqual({ role: 'environment', content: expect.stringMatching(/^Action: go to countertop 1\nObservation: You arrive at countertop 1/) });
      expect(turns[4]?.content).toMatch(/^Action: i would rather look around\. \(not valid: no <action>…<\/action> in the reply\)/);
      expect(turns[8]?.content).toMatch(/\(not valid: the action is not one of the admissible actions\)/);
      expect(turns.at(-1)?.content).toBe(
        'Evaluation: not won (Timeout after 4 steps)\nGoal: put a hot apple in countertop.\nSteps: 4 of at most 4; actions that were not valid: 3',
      );
    } finally {
      await environment.teardown?.();
    }
  });

  it('throws a retryable ProviderError, never a score, when the engine dies mid-game; the next game gets a fresh bridge', async () => {
    const item = await heatItem();
    const source = path.join(FIXTURE_DATA_ROOT, item.gamefile);
    const crashing = path.join(directory, 'crash', 'game.tw-pddl');
    mkdirSync(path.dirname(crashing), { recursive: true });
    writeFileSync(crashing, JSON.stringify({ ...JSON.parse(readFileSync(source, 'utf8')), fault: { on: 'step', after: 1, kind: 'crash' } }));
    const environment = createEnvironment({ ...FIXTURE_CONFIG, workers: 1 }, FAKE_ALFWORLD_OPTIONS);
    const model = actionPlayer(new Map([[readHouse(item.gamefile).goal, winningActions(readHouse(item.gamefile))]]));
    await environment.setup?.();
    try {
      const error = await environment.rollout({ ...item, gamefile: crashing }, contextFor({ kind: 'chat', model })).catch((caught: unknown) => caught);
      expect(ProviderError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: ERROR_CODES.processCrashed, retryable: true });
      const again = await environment.rollout(item, contextFor({ kind: 'chat', model }));
      expect(again).toMatchObject({ status: 'scored', hard: 1 });
    } finally {
      await environment.teardown?.();
    }
  });

  it('is a data error naming the game file when it is not there, before any model call', async () => {
    const item = await heatItem();
    const model = createScriptedChatModel({ reply: [] });
    const environment = createEnvironment(FIXTURE_CONFIG, FAKE_ALFWORLD_OPTIONS);
    try {
      const error = await environment
        .rollout({ ...item, gamefile: 'json_2.1.1/train/nowhere/game.tw-pddl' }, contextFor({ kind: 'chat', model }))
        .catch((caught: unknown) => caught);
      expect(SkillOptError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: ERROR_CODES.dataInvalid, category: 'user' });
      expect((error as Error).message).toContain(`no game file at ${path.join(FIXTURE_DATA_ROOT, 'json_2.1.1/train/nowhere/game.tw-pddl')}`);
      expect(model.calls).toHaveLength(0);
    } finally {
      await environment.teardown?.();
    }
  });

  it('resolves relative game files against ALFWORLD_DATA, and says what to set when there is none', async () => {
    const item = await heatItem();
    const model = actionPlayer(new Map([[readHouse(item.gamefile).goal, winningActions(readHouse(item.gamefile))]]));
    const fromVariable = createEnvironment(
      { ...FIXTURE_CONFIG, data_root: '' },
      { ...FAKE_ALFWORLD_OPTIONS, variables: { ALFWORLD_DATA: FIXTURE_DATA_ROOT, HOME: directory } },
    );
    try {
      expect(await fromVariable.rollout(item, contextFor({ kind: 'chat', model }))).toMatchObject({ status: 'scored', hard: 1 });
    } finally {
      await fromVariable.teardown?.();
    }
    const nowhere = createEnvironment({ ...FIXTURE_CONFIG, data_root: '' }, { ...FAKE_ALFWORLD_OPTIONS, variables: { HOME: directory } });
    await expect(nowhere.setup?.()).rejects.toThrow(/env\.data_root is not set and neither is ALFWORLD_DATA\. Run alfworld-download/);
    await expect(nowhere.rollout(item, contextFor({ kind: 'chat', model }))).rejects.toThrow(/is relative, and neither env\.data_root nor ALFWORLD_DATA/);
  });

  it('refuses an agent target: the game is played one chat call per step', async () => {
    const environment = createEnvironment(FIXTURE_CONFIG, FAKE_ALFWORLD_OPTIONS);
    expect(environment.targetKinds).toEqual(['chat']);
  });
});
