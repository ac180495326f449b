import OpenAI from 'openai';
import {
  ALFWORLD_FAILURE_CLASSES,
  createSimulatedModel,
  createSimulatorServer,
  DEFAULT_TENDENCY_RATES,
  GOOD_RULE_PHRASINGS,
  type AlfworldFailureClass,
} from '../src/index';
import { GAMES, playGame, viaChatModel, type Game } from './alfworld-game';

// The simulated target playing the test's own micro-ALFWorld through the real request path: the
// in-process ChatModel, and the server with the real openai client on loopback.

const ALL_GAMES = Object.entries(GAMES) as Array<[string, Game]>;

/** The tendency rates with only these classes on (every game carries them), every other class off. */
function only(...classes: readonly AlfworldFailureClass[]): Record<string, number> {
  return Object.fromEntries(Object.keys(DEFAULT_TENDENCY_RATES).map((name) => [name, classes.includes(name as AlfworldFailureClass) ? 1 : 0]));
}

const player = (tendencyRates: Record<string, number>, noise = 0, seed = 3) =>
  viaChatModel(createSimulatedModel({ role: 'target', seed, noise, tendencyRates }));

/** A skill holding one fixing rule per class, in the given wording of each. */
function fixingSkill(wording = 0): string {
  const rules = ALFWORLD_FAILURE_CLASSES.map((failureClass) => {
    const phrasings = GOOD_RULE_PHRASINGS[failureClass];
    return `- ${phrasings[wording % phrasings.length]}`;
  });
  return `# Household games\n\nReach the goal in as few steps as you can.\n\n${rules.join('\n')}\n`;
}

/** The game of each class that it makes fail: a hot goal, a hidden object, a light goal, two objects. */
const GAME_OF_CLASS: Readonly<Record<AlfworldFailureClass, Game>> = {
  'skips-transformation': GAMES.heat,
  'skips-closed-receptacles': GAMES.placeHidden,
  'lamp-before-object': GAMES.lightVisible,
  'stops-after-one': GAMES.twoVisible,
};

describe('the simulated target playing ALFWorld', () => {
  it.each(ALL_GAMES)('wins %s within 30 steps with the fixing rules, though the game carries every tendency', async (_name, game) => {
    for (const wording of [0, 1, 2, 3]) {
      const played = await playGame(player(only(...ALFWORLD_FAILURE_CLASSES)), fixingSkill(wording), game);
      expect(played.won).toBe(true);
      expect(played.steps).toBeLessThanOrEqual(30);
    }
  });

  it.each(ALL_GAMES)('wins %s with no skill when the game carries no tendency, with a history of 1, 2 or 3 steps', async (_name, game) => {
    for (const historyLength of [1, 2, 3]) {
      const played = await playGame(player(only()), '', game, { historyLength });
      expect(played.won).toBe(true);
      expect(played.steps).toBeLessThanOrEqual(30);
    }
  });

  it.each(ALFWORLD_FAILURE_CLASSES)('%s makes its game time out without its rule, and its rule alone wins it', async (failureClass) => {
    const game = GAME_OF_CLASS[failureClass];
    const failed = await playGame(player(only(failureClass)), '# Household games\n\nReach the goal.\n', game);
    expect(failed.won).toBe(false);
    expect(failed.rollout.trajectory?.failureReason).toBe('Timeout after 50 steps');
    const fixed = await playGame(player(only(failureClass)), `# Household games\n\n- ${GOOD_RULE_PHRASINGS[failureClass][0]}\n`, game);
    expect(fixed.won).toBe(true);
    // Any other class's rule leaves it failing.
    const others = ALFWORLD_FAILURE_CLASSES.filter((other) => other !== failureClass).map((other) => `- ${GOOD_RULE_PHRASINGS[other][0]}`);
    expect((await playGame(player(only(failureClass)), `# Household games\n\n${others.join('\n')}\n`, game)).won).toBe(false);
  });

  it('shows each tendency in its actions: the object moved unheated, closed receptacles passed, the lamp used empty-handed, one object placed', async () => {
    const actions = async (failureClass: AlfworldFailureClass) =>
      (await playGame(player(only(failureClass)), '', GAME_OF_CLASS[failureClass])).choices.map((choice) => choice.action);
    const heat = await actions('skips-transformation');
    expect(heat).toContain('move apple 1 to diningtable 1');
    expect(heat.some((action) => action.startsWith('heat '))).toBe(false);
    const hidden = await actions('skips-closed-receptacles');
    expect(hidden).toContain('go to cabinet 1');
    expect(hidden.some((action) => action.startsWith('open '))).toBe(false);
    const lamp = await actions('lamp-before-object');
    expect(lamp).toContain('use desklamp 1');
    expect(lamp.some((action) => action.startsWith('take '))).toBe(false);
    const two = await actions('stops-after-one');
    expect(two.filter((action) => action.startsWith('move ')).length).toBe(1);
  });

  it('always answers with <think> and <action>, the action one of the admissible list, under every tendency and noise', async () => {
    let choices = 0;
    for (const [, game] of ALL_GAMES) {
      for (const [rates, skill, noise] of [
        [only(...ALFWORLD_FAILURE_CLASSES), '', 0],
        [only(), fixingSkill(), 0.3],
        [only(...ALFWORLD_FAILURE_CLASSES), fixingSkill(1), 0.1],
      ] as const) {
        const played = await playGame(player(rates, noise), skill, game);
        played.replies.forEach((reply, index) => {
          expect(reply).toMatch(/^<think>[^<]+<\/think>\n<action>[^<]+<\/action>$/);
          const choice = played.choices[index];
          expect(choice?.admissible).toContain(choice?.action);
          expect(reply).toContain(`<action>${choice?.action}</action>`);
        });
        choices += played.choices.length;
      }
    }
    expect(choices).toBeGreaterThan(300);
  });

  it('is deterministic for a seed: the same game played twice, with noise, takes the same actions', async () => {
    for (const [, game] of ALL_GAMES) {
      const first = await playGame(player(DEFAULT_TENDENCY_RATES, 0.2, 11), '', game);
      const second = await playGame(player(DEFAULT_TENDENCY_RATES, 0.2, 11), '', game);
      expect(second.replies).toEqual(first.replies);
    }
  });

  it('wins between a fifth and a half of the games with the default rates and no rules, and all but the noise with the rules', async () => {
    let plays = 0;
    let wonWithout = 0;
    let wonWith = 0;
    for (let seed = 0; seed < 10; seed += 1) {
      for (const [, game] of ALL_GAMES) {
        plays += 1;
        if ((await playGame(player(DEFAULT_TENDENCY_RATES, 0.05, seed), '# Household games\n\nReach the goal.\n', game)).won) wonWithout += 1;
        if ((await playGame(player(DEFAULT_TENDENCY_RATES, 0.05, seed), fixingSkill(seed), game)).won) wonWith += 1;
      }
    }
    expect(plays).toBe(100);
    expect(wonWithout / plays).toBeGreaterThanOrEqual(0.2);
    expect(wonWithout / plays).toBeLessThanOrEqual(0.5);
    expect(wonWith / plays).toBeGreaterThanOrEqual(0.9);
  });

  describe('through the server, with the real openai client', () => {
    let server: Awaited<ReturnType<typeof createSimulatorServer>>;
    beforeAll(async () => {
      server = await createSimulatorServer({ port: 0, seed: 3, noise: 0 });
    });
    afterAll(async () => {
      await server.close();
    });

    it('plays a hot-object game and a light game to a win with the fixing rules, the same replies as in process', async () => {
      const client = new OpenAI({ baseURL: server.url, apiKey: 'any-key', maxRetries: 0 });
      const overHttp = async (system: string, user: string): Promise<string> => {
        const completion = await client.chat.completions.create({
          model: 'sim-target',
          messages: [
            { role: 'system', content: system },
            { role: 'user', content: user },
          ],
        });
        return completion.choices[0]?.message.content ?? '';
      };
      for (const game of [GAMES.heat, GAMES.lightHidden]) {
        const played = await playGame(overHttp, fixingSkill(), game);
        expect(played.won).toBe(true);
        const inProcess = await playGame(player(DEFAULT_TENDENCY_RATES, 0, 3), fixingSkill(), game);
        expect(played.replies).toEqual(inProcess.replies);
      }
    });
  });
});
