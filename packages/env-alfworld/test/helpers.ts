import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { messageText, type GenerateRequest, type RolloutContext, type Target } from '@skillopt/contract';
import { createFilelessRolloutContextForTests, createScriptedChatModel, type ScriptedChatModel } from '@skillopt/env-kit/testing';
import type { AlfWorldConfigInput, AlfWorldEnvironmentOptions } from '../src/index';

export const REPOSITORY_ROOT = path.join(__dirname, '..', '..', '..');
export const FIXTURE_SPLIT_DIR = path.join(REPOSITORY_ROOT, 'datasets', 'alfworld', 'fixture');
export const FIXTURE_DATA_ROOT = path.join(FIXTURE_SPLIT_DIR, 'data');
export const DEFAULT_CONFIG_FILE = path.join(REPOSITORY_ROOT, 'configs', 'alfworld', 'default.yaml');
/** Our stand-in for the `alfworld` Python package (test/fake-alfworld/alfworld). */
export const FAKE_ALFWORLD_PATH = path.join(__dirname, 'fake-alfworld');

/** Debian's system Python: the bridge is tested under the interpreter a Debian user has. */
export const DEBIAN_PYTHON = '/usr/bin/python3';
if (!existsSync(DEBIAN_PYTHON)) throw new Error(`${DEBIAN_PYTHON} is missing: install Debian's python3 (apt-get install -y python3) to run these tests`);

/** The env section that plays the fixture games on the stand-in engine. */
export const FIXTURE_CONFIG: AlfWorldConfigInput = { split_dir: FIXTURE_SPLIT_DIR, data_root: FIXTURE_DATA_ROOT, python: DEBIAN_PYTHON, workers: 2 };
/** What puts the stand-in on the bridge's path. */
export const FAKE_ALFWORLD_OPTIONS: AlfWorldEnvironmentOptions = { bridgeVariables: { PYTHONPATH: FAKE_ALFWORLD_PATH } };

export function contextFor(target: Target, skill = '', signal: AbortSignal = new AbortController().signal): RolloutContext {
  return createFilelessRolloutContextForTests({ skill, target, signal });
}

interface House {
  goal: string;
  receptacles: Array<{ name: string; closed?: boolean }>;
  objects: Array<{ name: string; in: string }>;
  win: { object: string; receptacle?: string; count?: number; state?: string; light?: string };
}

export function readHouse(gamefile: string): House {
  return (JSON.parse(readFileSync(path.resolve(FIXTURE_DATA_ROOT, gamefile), 'utf8')) as { house: House }).house;
}

const kindOf = (name: string): string => name.replace(/ \d+$/, '');
const APPLIANCE = { hot: ['heat', 'microwave 1'], cool: ['cool', 'fridge 1'], clean: ['clean', 'sinkbasin 1'] } as const;

/** The winning actions of a fixture game, worked out from the house (where everything is). */
export function winningActions(house: House): string[] {
  const closed = new Set(house.receptacles.filter((receptacle) => receptacle.closed).map((receptacle) => receptacle.name));
  const actions: string[] = [];
  const visit = (receptacle: string): void => {
    actions.push(`go to ${receptacle}`);
    if (closed.delete(receptacle)) actions.push(`open ${receptacle}`);
  };
  const wanted = house.objects.filter((object) => kindOf(object.name) === house.win.object).slice(0, house.win.count ?? 1);
  for (const object of wanted) {
    visit(object.in);
    actions.push(`take ${object.name} from ${object.in}`);
    if (house.win.light !== undefined) {
      const lamp = house.objects.find((candidate) => kindOf(candidate.name) === house.win.light) as { name: string; in: string };
      visit(lamp.in);
      actions.push(`use ${lamp.name}`);
      continue;
    }
    const state = house.win.state as keyof typeof APPLIANCE | undefined;
    if (state !== undefined) {
      const [verb, appliance] = APPLIANCE[state];
      actions.push(`go to ${appliance}`, `${verb} ${object.name} with ${appliance}`);
    }
    const destination = house.receptacles.find((receptacle) => kindOf(receptacle.name) === house.win.receptacle) as { name: string };
    visit(destination.name);
    actions.push(`move ${object.name} to ${destination.name}`);
  }
  return actions;
}

/** The step number a prompt is at ("## Current observation (step 3 of at most 50)"). */
export function stepOf(request: GenerateRequest): number {
  const user = messageText(request.messages[request.messages.length - 1] as never);
  return Number(/\(step (\d+) of at most \d+\)/.exec(user)?.[1] ?? '0');
}

export function goalOfRequest(request: GenerateRequest): string {
  const user = messageText(request.messages[request.messages.length - 1] as never);
  return /## Goal\n\n(.*)\n/.exec(user)?.[1] ?? '';
}

/**
 * A target that plays each game it knows by its goal with the given actions, one per step, in
 * the reply format the env asks for; past the end of the list, and for a game it does not know,
 * it looks around.
 */
export function actionPlayer(actionsByGoal: ReadonlyMap<string, readonly string[]>): ScriptedChatModel {
  return createScriptedChatModel({
    reply: (request) => {
      const action = actionsByGoal.get(goalOfRequest(request))?.[stepOf(request) - 1] ?? 'look';
      return `<think>The next step of my plan.</think><action>${action}</action>`;
    },
  });
}
