import type { AlfworldFailureClass } from './alfworld-failure-classes.js';
import { parseAlfworldGoal, typeOf } from './alfworld-goal.js';

/**
 * What a careful reader sees in a failed ALFWorld trajectory, from its text alone: the goal (the
 * evaluation's `Goal:` line, else the opening's "Your task is to: …"), the actions and observations
 * (`Action: …` / `Observation: …` turns) and the evaluation. Only what the visible steps show is
 * read: a game that ran out of steps while doing the right things shows no class.
 */

export interface AlfworldTrajectoryText {
  /** The first user turn: the game's opening observation. */
  question?: string;
  /** The environment's turns, joined: each step's action and observation, then the evaluation. */
  environment?: string;
}

interface PlayedStep {
  action: string;
  observation: string;
}

/** Whether a trajectory is an ALFWorld game's: the env's evaluation turn, or its steps after the TextWorld opening. */
export function isAlfworldTrajectory(trajectory: AlfworldTrajectoryText): boolean {
  const environment = trajectory.environment ?? '';
  if (/^Evaluation: (?:won|not won)\b/m.test(environment)) return true;
  return /^Action: .*\nObservation: /m.test(environment) && /Your task is to: /.test(trajectory.question ?? '');
}

function playedSteps(environment: string): PlayedStep[] {
  return [...environment.matchAll(/^Action: (.*)\nObservation: (.*)$/gm)].map((match) => ({
    action: (match[1] as string).trim().toLowerCase(),
    observation: (match[2] as string).trim().toLowerCase(),
  }));
}

const INSTANCE = '[a-z]+(?: [a-z]+)*? \\d+';

export function diagnoseAlfworldTrajectory(trajectory: AlfworldTrajectoryText): AlfworldFailureClass[] {
  const environment = trajectory.environment ?? '';
  if (/^Evaluation: won\b/m.test(environment)) return [];
  const goalText = /^Goal: (.*)$/m.exec(environment)?.[1] ?? /Your task is to: (.*)$/m.exec(trajectory.question ?? '')?.[1] ?? '';
  const goal = parseAlfworldGoal(goalText);
  if (goal === undefined) return [];
  const steps = playedSteps(environment);
  const isGoalObject = (name: string): boolean => typeOf(name) === goal.object;
  // Each goal object put into a receptacle of the goal's type, with the step it happened at.
  const placements = steps.flatMap((step, at) => {
    const move = new RegExp(`^move (${INSTANCE}) to (${INSTANCE})$`).exec(step.action);
    return move && isGoalObject(move[1] as string) && typeOf(move[2] as string) === goal.receptacle ? [{ object: move[1] as string, at }] : [];
  });
  const placed = new Set(placements.map((placement) => placement.object));
  const found: AlfworldFailureClass[] = [];

  if (goal.transformation !== undefined && placements.length > 0) {
    const transformation = new RegExp(`^${goal.transformation} ${goal.object} \\d+ with `);
    if (!steps.some((step) => transformation.test(step.action))) found.push('skips-transformation');
  }

  // A closed receptacle walked past: the step after the one that found it closed went somewhere else.
  const passed = new Set(
    steps.flatMap((step, at) =>
      steps[at + 1]?.action.startsWith('go to ')
        ? [...step.observation.matchAll(new RegExp(`\\bthe (${INSTANCE}) is closed\\.`, 'g'))].map((match) => match[1] as string)
        : [],
    ),
  );
  const opened = new Set(steps.flatMap((step) => (step.action.startsWith('open ') ? [step.action.slice('open '.length).trim()] : [])));
  const seen = new Set(steps.flatMap((step) => [...step.observation.matchAll(new RegExp(`\\b${goal.object} \\d+\\b`, 'g'))].map((match) => match[0])));
  const stillNeeded = goal.kind === 'place-two' ? placed.size < 2 && [...seen].every((name) => placed.has(name)) : seen.size === 0;
  if ([...passed].some((name) => !opened.has(name)) && stillNeeded) found.push('skips-closed-receptacles');

  if (goal.kind === 'look-in-light') {
    const firstUse = steps.findIndex((step) => /^use desklamp \d+$/.test(step.action));
    const takenBefore = steps.slice(0, Math.max(0, firstUse)).some((step) => new RegExp(`^take ${goal.object} \\d+ from `).test(step.action));
    if (firstUse >= 0 && !takenBefore) found.push('lamp-before-object');
  }

  const onlyPlacement = placements[0];
  if (goal.kind === 'place-two' && placed.size === 1 && onlyPlacement !== undefined) {
    // The search went on after the first object (a `go to`) unless the player stopped there.
    if (!steps.slice(onlyPlacement.at + 1).some((step) => step.action.startsWith('go to '))) found.push('stops-after-one');
  }
  return found;
}
