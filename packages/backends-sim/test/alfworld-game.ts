import type { ChatModel, ScoredRollout, TrajectoryTurn } from '@skillopt/contract';

/**
 * A tiny deterministic stand-in for ALFWorld's text game, written for these tests: a few
 * micro-houses, ALFWorld's feedback grammar (alfred.twl2), its admissible commands, the six goal
 * kinds and their win conditions; and the env's request and trajectory exactly as
 * @skillopt/env-alfworld sends and records them (one chat request per step, no tools).
 */

interface ReceptacleSpec {
  name: string;
  openable?: boolean;
  contents: string[];
}

export interface House {
  name: string;
  receptacles: ReceptacleSpec[];
}

export interface Game {
  house: House;
  goal: string;
}

export const KITCHEN: House = {
  name: 'kitchen',
  receptacles: [
    { name: 'cabinet 1', openable: true, contents: ['mug 1'] },
    { name: 'countertop 1', contents: ['apple 1', 'knife 1'] },
    { name: 'diningtable 1', contents: ['plate 1', 'bread 1'] },
    { name: 'drawer 1', openable: true, contents: [] },
    { name: 'fridge 1', openable: true, contents: ['lettuce 1'] },
    { name: 'microwave 1', openable: true, contents: [] },
    { name: 'sinkbasin 1', contents: [] },
  ],
};

export const BEDROOM: House = {
  name: 'bedroom',
  receptacles: [
    { name: 'bed 1', contents: ['book 1', 'pillow 1'] },
    { name: 'desk 1', contents: ['desklamp 1', 'pen 1'] },
    { name: 'drawer 2', openable: true, contents: [] },
    { name: 'drawer 1', openable: true, contents: ['alarmclock 1'] },
    { name: 'shelf 1', contents: ['cd 1'] },
    { name: 'sidetable 1', contents: ['keychain 1'] },
  ],
};

export const LIVING_ROOM: House = {
  name: 'living room',
  receptacles: [
    { name: 'sofa 1', contents: ['pillow 1'] },
    { name: 'armchair 1', contents: ['pillow 2'] },
    { name: 'coffeetable 1', contents: ['remotecontrol 1'] },
    { name: 'drawer 1', openable: true, contents: ['creditcard 1'] },
    { name: 'cabinet 1', openable: true, contents: [] },
    { name: 'sidetable 1', contents: ['creditcard 2'] },
  ],
};

export const BATHROOM: House = {
  name: 'bathroom',
  receptacles: [
    { name: 'countertop 1', contents: ['soapbar 1'] },
    { name: 'cabinet 1', openable: true, contents: ['spraybottle 1'] },
    { name: 'sinkbasin 1', contents: [] },
    { name: 'toilet 1', contents: [] },
    { name: 'garbagecan 1', contents: [] },
    { name: 'towelholder 1', contents: ['towel 1'] },
  ],
};

/** Every goal kind, in the four houses; the object hidden in a closed receptacle in some. */
export const GAMES = {
  heat: { house: KITCHEN, goal: 'put a hot apple in diningtable.' },
  clean: { house: KITCHEN, goal: 'clean some plate and put it in countertop.' },
  cool: { house: KITCHEN, goal: 'put a cool mug in diningtable.' },
  lightVisible: { house: BEDROOM, goal: 'look at book under the desklamp.' },
  lightHidden: { house: BEDROOM, goal: 'examine the alarmclock with the desklamp.' },
  twoVisible: { house: LIVING_ROOM, goal: 'put two pillow in coffeetable.' },
  twoHidden: { house: LIVING_ROOM, goal: 'find two creditcard and put them in armchair.' },
  place: { house: LIVING_ROOM, goal: 'put a remotecontrol in sofa.' },
  placeHidden: { house: BATHROOM, goal: 'put some spraybottle on toilet.' },
  cleanIntoClosed: { house: BATHROOM, goal: 'clean some soapbar and put it in cabinet.' },
} as const satisfies Record<string, Game>;

const typeOf = (name: string): string => name.replace(/ \d+$/, '');
const APPLIANCE = { heat: 'microwave', cool: 'fridge', clean: 'sinkbasin' } as const;
const STATE = { heat: 'hot', cool: 'cool', clean: 'clean' } as const;

function list(names: readonly string[]): string {
  const items = names.map((name) => `a ${name}`);
  if (items.length === 0) return 'nothing';
  if (items.length === 1) return items[0] as string;
  return `${items.slice(0, -1).join(', ')}, and ${items[items.length - 1]}`;
}

type GoalCheck = (game: TextGame) => boolean;

function winCondition(goal: string): GoalCheck {
  const sentence = goal.replace(/\.$/, '');
  let match = /^put an? (hot|cool|clean) (\w+) in (\w+)$/.exec(sentence) ?? /^(heat|cool|clean) some (\w+) and put it in (\w+)$/.exec(sentence);
  if (match) {
    const state = (match[1] === 'heat' ? 'hot' : match[1]) as string;
    const [object, receptacle] = [match[2] as string, match[3] as string];
    return (game) => game.objectsIn(receptacle).some((name) => typeOf(name) === object && game.states(name).has(state));
  }
  match = /^(?:put two (\w+) in (\w+)|find two (\w+) and put them in (\w+))$/.exec(sentence);
  if (match) {
    const [object, receptacle] = [(match[1] ?? match[3]) as string, (match[2] ?? match[4]) as string];
    return (game) => game.objectsIn(receptacle).filter((name) => typeOf(name) === object).length >= 2;
  }
  match = /^(?:look at (\w+) under the desklamp|examine the (\w+) with the desklamp)$/.exec(sentence);
  if (match) {
    const object = (match[1] ?? match[2]) as string;
    return (game) => game.holding !== undefined && typeOf(game.holding) === object && game.lampOnHere();
  }
  match = /^put (?:a|some) (\w+) (?:in|on) (\w+)$/.exec(sentence);
  if (match) {
    const [object, receptacle] = [match[1] as string, match[2] as string];
    return (game) => game.objectsIn(receptacle).some((name) => typeOf(name) === object);
  }
  throw new Error(`not a goal of the test game: ${goal}`);
}

export class TextGame {
  location: string | undefined;
  holding: string | undefined;
  private readonly contents = new Map<string, string[]>();
  private readonly openable = new Set<string>();
  private readonly opened = new Set<string>();
  private readonly objectStates = new Map<string, Set<string>>();
  private readonly lampsOn = new Set<string>();
  private readonly check: GoalCheck;

  constructor(readonly game: Game) {
    for (const receptacle of game.house.receptacles) {
      this.contents.set(receptacle.name, [...receptacle.contents]);
      if (receptacle.openable) this.openable.add(receptacle.name);
    }
    this.check = winCondition(game.goal);
  }

  get receptacles(): string[] {
    return [...this.contents.keys()];
  }

  objectsIn(receptacleType: string): string[] {
    return this.receptacles.filter((name) => typeOf(name) === receptacleType).flatMap((name) => this.contents.get(name) ?? []);
  }

  states(object: string): Set<string> {
    return this.objectStates.get(object) ?? new Set();
  }

  lampOnHere(): boolean {
    return (this.contents.get(this.location ?? '') ?? []).some((name) => this.lampsOn.has(name));
  }

  won(): boolean {
    return this.check(this);
  }

  opening(): string {
    return `-= Welcome to TextWorld, ALFRED! =-\n\nYou are in the middle of a room. Looking quickly around you, you see ${list(this.receptacles)}.\n\nYour task is to: ${this.game.goal}`;
  }

  private reachable(receptacle: string): boolean {
    return !this.openable.has(receptacle) || this.opened.has(receptacle);
  }

  private examineReceptacle(receptacle: string): string {
    const inside = list(this.contents.get(receptacle) ?? []);
    if (!this.openable.has(receptacle)) return `On the ${receptacle}, you see ${inside}.`;
    return this.opened.has(receptacle) ? `The ${receptacle} is open. In it, you see ${inside}.` : `The ${receptacle} is closed.`;
  }

  admissible(): string[] {
    const actions = this.receptacles.filter((name) => name !== this.location).map((name) => `go to ${name}`);
    const here = this.location;
    if (here !== undefined) {
      if (this.openable.has(here)) actions.push(this.opened.has(here) ? `close ${here}` : `open ${here}`);
      const items = this.contents.get(here) ?? [];
      if (this.reachable(here)) {
        if (this.holding === undefined) for (const item of items) if (typeOf(item) !== 'desklamp') actions.push(`take ${item} from ${here}`);
        if (this.holding !== undefined) actions.push(`move ${this.holding} to ${here}`);
      }
      for (const [verb, appliance] of Object.entries(APPLIANCE))
        if (this.holding !== undefined && typeOf(here) === appliance) actions.push(`${verb} ${this.holding} with ${here}`);
      for (const item of items) if (typeOf(item) === 'desklamp') actions.push(`use ${item}`);
      actions.push(`examine ${here}`);
    }
    if (this.holding !== undefined) actions.push(`examine ${this.holding}`);
    actions.push('inventory', 'look');
    return actions.sort();
  }

  /** Plays one action and returns the game's feedback. */
  step(action: string): string {
    if (!this.admissible().includes(action)) return 'Nothing happens.';
    const here = this.location as string;
    let match: RegExpExecArray | null;
    if ((match = /^go to (.+)$/.exec(action))) {
      this.location = match[1] as string;
      return `You arrive at ${this.location}. ${this.examineReceptacle(this.location)}`;
    }
    if ((match = /^open (.+)$/.exec(action))) {
      this.opened.add(here);
      return `You open the ${here}. ${this.examineReceptacle(here)}`;
    }
    if ((match = /^close (.+)$/.exec(action))) {
      this.opened.delete(here);
      return `You close the ${here}.`;
    }
    if ((match = /^take (.+) from (.+)$/.exec(action))) {
      const item = match[1] as string;
      this.contents.set(
        here,
        (this.contents.get(here) ?? []).filter((name) => name !== item),
      );
      this.holding = item;
      return `You pick up the ${item} from the ${here}.`;
    }
    if ((match = /^move (.+) to (.+)$/.exec(action))) {
      const item = match[1] as string;
      this.contents.get(here)?.push(item);
      this.holding = undefined;
      return `You move the ${item} to the ${here}.`;
    }
    if ((match = /^(heat|cool|clean) (.+) with (.+)$/.exec(action))) {
      const verb = match[1] as keyof typeof STATE;
      const item = match[2] as string;
      this.objectStates.set(item, new Set([...this.states(item), STATE[verb]]));
      return `You ${verb} the ${item} using the ${here}.`;
    }
    if ((match = /^use (.+)$/.exec(action))) {
      const lamp = match[1] as string;
      if (this.lampsOn.delete(lamp)) return `You turn off the ${lamp}.`;
      this.lampsOn.add(lamp);
      return `You turn on the ${lamp}.`;
    }
    if ((match = /^examine (.+)$/.exec(action))) {
      const target = match[1] as string;
      if (this.contents.has(target)) return this.examineReceptacle(target);
      const states = [...this.states(target)];
      return states.length === 0 ? `There's nothing special about ${target}.` : `This is a ${states.join(' and ')} ${typeOf(target)}.`;
    }
    if (action === 'inventory') return this.holding === undefined ? 'You are not carrying anything.' : `You are carrying: a ${this.holding}.`;
    return here === undefined
      ? `You are in the middle of a room. Looking quickly around you, you see ${list(this.receptacles)}.`
      : `You are facing the ${here}. Next to it, you see nothing.`;
  }
}

export const ALFWORLD_INSTRUCTIONS =
  'You are playing a household text game. Reach the goal below: each turn choose exactly one of the admissible actions. ' +
  'Reply with your reasoning inside <think></think>, then the action, copied exactly, inside <action></action>.';

export function systemPrompt(skill: string): string {
  return skill.trim() === '' ? ALFWORLD_INSTRUCTIONS : `# Skill\n\n${skill}\n\n# Task\n\n${ALFWORLD_INSTRUCTIONS}`;
}

interface PlayedStep {
  action: string;
  observation: string;
}

export function userPrompt(
  goal: string,
  recent: readonly PlayedStep[],
  observation: string,
  step: number,
  maxSteps: number,
  admissible: readonly string[],
): string {
  const sections = [`## Goal\n\n${goal}`];
  if (recent.length > 0) {
    const first = step - recent.length;
    sections.push(
      `## Recent steps\n\n${recent.map((played, index) => `Step ${first + index} action: ${played.action}\nStep ${first + index} observation: ${played.observation}`).join('\n')}`,
    );
  }
  sections.push(`## Current observation (step ${step} of at most ${maxSteps})\n\n${observation}`);
  sections.push(`## Admissible actions\n\n${admissible.map((action) => `- ${action}`).join('\n')}`);
  return sections.join('\n\n');
}

/** What the env does with a reply: lower-cased, the text between the first `<action>` and `</action>`. */
export function projectAction(reply: string): string {
  const lower = reply.toLowerCase();
  const start = lower.indexOf('<action>');
  const end = lower.indexOf('</action>');
  return start >= 0 && end > start ? lower.slice(start + '<action>'.length, end).trim() : lower.slice(-30).trim();
}

export interface PlayedGame {
  won: boolean;
  steps: number;
  replies: string[];
  /** The admissible list each reply was given, and the action it chose. */
  choices: Array<{ admissible: string[]; action: string }>;
  rollout: ScoredRollout;
}

type Generate = (system: string, user: string) => Promise<string>;

export const viaChatModel =
  (model: ChatModel): Generate =>
  async (system, user) =>
    (
      await model.generate({
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: user },
        ],
        purpose: 'rollout',
      })
    ).text;

/** Plays a game to its end (won, or the step limit), recording the trajectory as the env does. */
export async function playGame(
  generate: Generate,
  skill: string,
  game: Game,
  options: { maxSteps?: number; historyLength?: number } = {},
): Promise<PlayedGame> {
  const maxSteps = options.maxSteps ?? 50;
  const historyLength = options.historyLength ?? 2;
  const world = new TextGame(game);
  const played: PlayedStep[] = [];
  const replies: string[] = [];
  const choices: PlayedGame['choices'] = [];
  const turns: TrajectoryTurn[] = [{ role: 'user', content: world.opening() }];
  let observation = world.opening();
  let won = false;
  while (played.length < maxSteps && !won) {
    const step = played.length + 1;
    const admissible = world.admissible();
    const reply = await generate(systemPrompt(skill), userPrompt(game.goal, played.slice(-historyLength), observation, step, maxSteps, admissible));
    const action = projectAction(reply);
    observation = world.step(action);
    played.push({ action, observation });
    replies.push(reply);
    choices.push({ admissible, action });
    turns.push({ role: 'assistant', content: reply }, { role: 'environment', content: `Action: ${action}\nObservation: ${observation}` });
    won = world.won();
  }
  const reason = won ? undefined : played.length >= maxSteps ? `Timeout after ${played.length} steps` : 'Episode ended without completing the task';
  turns.push({ role: 'environment', content: `${won ? 'Evaluation: won' : `Evaluation: not won (${reason})`}\nGoal: ${game.goal}` });
  const rollout: ScoredRollout = {
    status: 'scored',
    id: `${game.house.name}: ${game.goal}`,
    taskType: 'alfworld',
    hard: won ? 1 : 0,
    soft: won ? 1 : 0,
    prediction: won ? 'won' : 'not won',
    trajectory: { turns, ...(reason === undefined ? {} : { failureReason: reason }) },
  };
  return { won, steps: played.length, replies, choices, rollout };
}
